// The public API, as any third-party client uses it: through the JavaScript SDK
// (clients/js, served at /static/sdk/), with the token the browser keeps.

import {ApiError, Client, EventStream} from "./sdk/index.js";

export {ApiError};

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

/** The SDK's client for this origin, signed in as whoever the session holds at each call. */
export const client = new Client("", {token: () => session.token, retries: 8});

/** One API call; resolves to the parsed JSON (or text), throws ApiError with the problem's detail. */
export function api(method, path, {body, headers = {}, text = false, token, signal} = {}) {
  return client.request(method, path, {body, headers, text, token, signal});
}

/**
 * Follow a server-sent event stream (the SDK's, resumed with Last-Event-ID after a drop, for
 * as long as the page wants it). ``onFrame(type, data)`` gets each frame; ``onState`` "live",
 * "reconnecting" or "closed" (with the refusal, if one closed it). Returns a function that stops it.
 */
export function follow(path, onFrame, {onState = () => {}} = {}) {
  const [route, search = ""] = path.split("?");
  const stream = new EventStream(client, route, {query: Object.fromEntries(new URLSearchParams(search)),
    maxFailures: Infinity, onState});
  (async () => {
    try {
      for await (const event of stream) {
        try { onFrame(event.type, event.data); } catch (err) { reportError(err); }  // a page bug, not a drop
      }
      onState("closed");
    } catch (err) {
      if (!stream.closed) onState("closed", err);
    }
  })();
  return () => stream.close();
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
