// The public API, as any third-party client uses it: a bearer token, problem+json errors,
// 429s waited out, and the event stream read with fetch (EventSource cannot send a token).

const TOKEN = "intrigue.token";
const PLAYER = "intrigue.player";

export const session = {
  get token() { return localStorage.getItem(TOKEN); },
  get player() {
    try { return JSON.parse(localStorage.getItem(PLAYER) || "null"); } catch { return null; }
  },
  signIn(token, player) {
    localStorage.setItem(TOKEN, token);
    localStorage.setItem(PLAYER, JSON.stringify(player));
  },
  signOut() {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(PLAYER);
  },
};

/** A refusal from the API: ``detail`` is what a person reads, ``code`` what code checks. */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
    this.problem = problem;
  }
}

const pause = (ms, signal) => new Promise((resolve) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, {once: true});
});

function headersFor(extra = {}, token = session.token) {
  const headers = {Accept: "application/json", ...extra};
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** One API call; resolves to the parsed JSON (or text), throws ApiError with the problem's detail. */
export async function api(method, path, {body, headers = {}, text = false, token, signal} = {}) {
  const init = {method, headers: headersFor(headers, token === undefined ? session.token : token), signal};
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(path, init);
    if (response.status === 429 && attempt < 8) {  // wait it out, as the server asks
      const problem = await response.json().catch(() => ({}));
      const wait = Number(problem.retry_after ?? response.headers.get("Retry-After") ?? 1);
      await pause(Math.max(wait, 0.05) * 1000, signal);
      continue;
    }
    if (!response.ok) {
      const problem = await response.json().catch(() => ({detail: response.statusText}));
      throw new ApiError(response.status, problem);
    }
    if (text) return response.text();
    const raw = await response.text();
    return raw ? JSON.parse(raw) : null;
  }
}

/**
 * Follow a server-sent event stream with the token in a header; reconnect after a drop
 * with Last-Event-ID. ``onFrame(type, data)`` gets each frame; ``onState`` "live",
 * "reconnecting" or "closed". Returns a function that stops it.
 */
export function follow(path, onFrame, {onState = () => {}, done = () => false} = {}) {
  const control = new AbortController();
  let lastId = null;
  let failures = 0;
  (async () => {
    while (!control.signal.aborted) {
      try {
        const headers = headersFor({Accept: "text/event-stream"});
        if (lastId) headers["Last-Event-ID"] = lastId;
        const response = await fetch(path, {headers, signal: control.signal, cache: "no-store"});
        if (!response.ok) {
          const problem = await response.json().catch(() => ({}));
          if (response.status < 500 && response.status !== 429) { onState("closed", new ApiError(response.status, problem)); return; }
          throw new ApiError(response.status, problem);
        }
        onState("live");
        failures = 0;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const {value, done: ended} = await reader.read();
          if (ended) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            let type = "message", data = "", id = null;
            for (const line of block.split("\n")) {
              if (!line || line.startsWith(":")) continue;
              const colon = line.indexOf(":");
              const field = colon < 0 ? line : line.slice(0, colon);
              const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
              if (field === "event") type = text;
              else if (field === "data") data += (data ? "\n" : "") + text;
              else if (field === "id") id = text;
            }
            if (id !== null) lastId = id;
            if (data) {
              try { onFrame(type, JSON.parse(data)); } catch (err) { reportError(err); }  // a page bug, not a drop
            }
          }
        }
        if (done()) { onState("closed"); return; }
      } catch (err) {
        if (control.signal.aborted) return;
      }
      failures += 1;
      onState("reconnecting");
      await pause(Math.min(500 * 2 ** failures, 10000), control.signal);
    }
  })();
  return () => control.abort();
}

// ------------------------------------------------------------ fair shuffles (docs/transparency.md)
const SECRET = (gameId) => `intrigue.secret.${gameId}`;

const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

/** Join a game with the commitment to a secret of 32 random bytes, kept in this browser until the game starts. */
export async function joinGame(gameId) {
  let secret = localStorage.getItem(SECRET(gameId));
  if (!secret) {
    secret = hex(crypto.getRandomValues(new Uint8Array(32)));
    localStorage.setItem(SECRET(gameId), secret);
  }
  const bytes = new Uint8Array(secret.match(/../g).map((pair) => parseInt(pair, 16)));
  const commitment = hex(await crypto.subtle.digest("SHA-256", bytes));
  return api("POST", `/v1/games/${gameId}/join`, {body: {commitment}});
}

/** Reveal this seat's secret when ``game`` waits for it; forget it once the game has started. Resolves to
 * the view after the reveal, or null when there was nothing to do. */
export async function revealIfDue(game) {
  const secret = localStorage.getItem(SECRET(game.id));
  if (!secret) return null;
  if (game.status !== "open" && game.status !== "starting") { localStorage.removeItem(SECRET(game.id)); return null; }
  if (game.status !== "starting" || game.entropy?.[String(game.seat)] !== "committed") return null;
  return (await api("POST", `/v1/games/${game.id}/reveal`, {body: {secret}})).game;
}

// The correspondence community (issue 50): your account and vacation, seats offered to substitutes.
export const community = {
  me: () => api("GET", "/v1/me"),
  setTimezone: (timezone) => api("PATCH", "/v1/me", {body: {timezone}}),
  startVacation: (days) => api("POST", "/v1/me/vacation", {body: {days}}),
  endVacation: () => api("DELETE", "/v1/me/vacation"),
  seekingSubstitute: (query) => api("GET", `/v1/games?seeking_substitute=true&${query}`),
  takeSeat: (gameId, seat) => api("POST", `/v1/games/${gameId}/join`, {body: {seat}}),
};

/** Swiss tournaments (docs/tournaments.md): the few calls the tournament pages make. */
export const tournaments = {
  list: (status, cursor) => api("GET", `/v1/tournaments?${new URLSearchParams({status, limit: "20", ...(cursor ? {cursor} : {})})}`),
  get: (id) => api("GET", `/v1/tournaments/${encodeURIComponent(id)}`),
  create: (body) => api("POST", "/v1/tournaments", {body}),
  join: (id) => api("POST", `/v1/tournaments/${encodeURIComponent(id)}/join`),
  leave: (id) => api("POST", `/v1/tournaments/${encodeURIComponent(id)}/leave`),
  start: (id) => api("POST", `/v1/tournaments/${encodeURIComponent(id)}/start`),
  withdraw: (id) => api("POST", `/v1/tournaments/${encodeURIComponent(id)}/withdraw`),
};
