// One player's session against an Intrigue server: a method per API call, retries done right.
//
// - A 429 changed nothing on the server: any request waits its Retry-After (the body's exact
//   `retry_after` when there is one) and goes again.
// - A 500, 502, 503, 504, a 409 `busy` or no answer at all leaves the outcome of a write
//   unknown. Reads, `join` and actions are sent again, with exponential backoff and a bounded
//   number of attempts; an action keeps its Idempotency-Key on every attempt, so the server
//   answers a retry of an action it already recorded with that first answer. Other writes are
//   not retried on an unknown outcome: the error says so and the caller decides.
// - Every answer under a limit says how much of it is left (`RateLimit`): the client keeps the
//   last one in `rateLimit`, and when a policy has nothing left it waits for the window to
//   reset before sending, instead of meeting the 429.

import {ApiError} from "./errors.js";
import {EventStream} from "./stream.js";

/** Statuses after which a retry-safe request goes again (with backoff). */
export const RETRY_STATUSES = new Set([500, 502, 503, 504]);

/** A fresh key for one decision: random, so two clients never collide (no secure context needed). */
export function newIdempotencyKey() {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Wait `seconds`, or less if `signal` aborts. */
export function pause(seconds, signal) {
  return new Promise((resolve) => {
    if (signal?.aborted) { resolve(); return; }
    const timer = setTimeout(resolve, seconds * 1000);
    signal?.addEventListener("abort", () => { clearTimeout(timer); resolve(); }, {once: true});
  });
}

/**
 * Parse `RateLimit: "player";r=42;t=1` (draft-ietf-httpapi-ratelimit-headers, structured
 * fields) into `{player: {remaining: 42, reset: 1}}`.
 */
export function parseRateLimit(header) {
  const limits = {};
  for (const item of (header || "").split(",")) {
    const [name, ...params] = item.trim().split(";");
    if (!name) continue;
    const entry = {};
    for (const param of params) {
      const [key, value] = param.trim().split("=");
      if (key === "r") entry.remaining = Number(value);
      if (key === "t") entry.reset = Number(value);
    }
    limits[name.replace(/^"|"$/g, "")] = entry;
  }
  return limits;
}

const query = (values) => {
  const kept = Object.entries(values).filter(([, value]) => value !== undefined && value !== null);
  return kept.length ? `?${new URLSearchParams(kept.map(([k, v]) => [k, String(v)]))}` : "";
};

export class Client {
  /**
   * `baseUrl` is the server's address ("" in a page the server serves). `token` is a bearer
   * token, or a function that returns the current one. `retries` bounds the attempts after
   * the first for a retry-safe request (and the waits on 429); `backoff` is the first pause
   * in seconds, doubled each time up to `maxBackoff`, jittered so a crowd does not retry in step.
   */
  constructor(baseUrl = "", {token = null, fetch: fetcher, retries = 6, backoff = 0.2, maxBackoff = 8,
    maxRetryAfter = 120, sleep = pause, pace = true} = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this._token = token;
    this.fetch = fetcher || ((...args) => globalThis.fetch(...args));
    this.retries = retries;
    this.backoff = backoff;
    this.maxBackoff = maxBackoff;
    this.maxRetryAfter = maxRetryAfter;
    this.sleep = sleep;
    this.pace = pace;
    /** The last `RateLimit` the server sent: policy name to `{remaining, reset}` (seconds). */
    this.rateLimit = {};
    this._rateLimitAt = 0;
    /** The registered player, when this client came from `Client.register`. */
    this.player = null;
  }

  get token() { return typeof this._token === "function" ? this._token() : this._token; }

  set token(value) { this._token = value; }

  /** Register a player called `name` (`bot: true` for a bot account) and return a client holding its token. */
  static async register(baseUrl, name, {bot, ...options} = {}) {
    const client = new Client(baseUrl, options);
    const player = await client.createPlayer(name, {bot});
    client.token = player.token;
    client.player = player;
    return client;
  }

  /** The pause before retry number `attempt` (from 1): exponential, capped, jittered. */
  backoffDelay(attempt) {
    const ceiling = Math.min(this.maxBackoff, this.backoff * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * ceiling / 2;
  }

  /** Seconds to wait before sending, when the last answer said a policy has nothing left. */
  paceDelay() {
    if (!this.pace) return 0;
    const elapsed = (Date.now() - this._rateLimitAt) / 1000;
    let wait = 0;
    for (const {remaining, reset} of Object.values(this.rateLimit)) {
      if (remaining === 0 && reset > elapsed) wait = Math.max(wait, reset - elapsed);
    }
    return Math.min(wait, this.maxRetryAfter);
  }

  /**
   * Send one API request; resolve to its parsed JSON (null for an empty answer), its text
   * (`text: true`) or the Response itself (`raw: true`), or throw an ApiError. `retry` says
   * the request may be sent again when its outcome is unknown; a 429 is waited out whatever
   * `retry` says. `token: null` sends none.
   */
  async request(method, path, {body, query: params, headers = {}, retry = false, text = false, raw = false,
    signal, token} = {}) {
    const sent = {Accept: "application/json", ...headers};
    const bearer = token === undefined ? this.token : token;
    if (bearer) sent.Authorization = `Bearer ${bearer}`;
    const init = {method, headers: sent, signal, cache: "no-store"};
    if (body !== undefined) {
      sent["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const url = this.baseUrl + path + (params ? query(params) : "");
    let unknown = 0, rateWaits = 0;
    for (;;) {
      const early = this.paceDelay();
      if (early > 0) await this.sleep(early, signal);
      let response;
      try {
        response = await this.fetch(url, init);
      } catch (err) {
        if (signal?.aborted) throw err;
        if (!retry || unknown >= this.retries) {
          const failed = new ApiError(null, {code: "connection_failed", detail: `${method} ${path}: ${err.message}`});
          failed.cause = err;
          throw failed;
        }
        unknown += 1;
        await this.sleep(this.backoffDelay(unknown), signal);
        continue;
      }
      this.noteRateLimit(response);
      if (response.ok) {
        if (raw) return response;
        const answer = await response.text();
        if (text) return answer;
        return answer ? JSON.parse(answer) : null;
      }
      const problem = await response.json().catch(() => ({detail: response.statusText}));
      const error = new ApiError(response.status, problem && typeof problem === "object" ? problem : {});
      const wait = retryAfter(response, error.problem);
      if (response.status === 429 && rateWaits < this.retries && wait <= this.maxRetryAfter) {
        rateWaits += 1;
        await this.sleep(Math.max(wait, 0.05), signal);
        continue;
      }
      const retriable = RETRY_STATUSES.has(response.status) || error.code === "busy";
      if (retry && retriable && unknown < this.retries) {
        unknown += 1;
        await this.sleep(Math.max(this.backoffDelay(unknown), Math.min(wait, this.maxRetryAfter)), signal);
        continue;
      }
      throw error;
    }
  }

  /** Keep what an answer says of its rate limits (a `RateLimit` header), for pacing. */
  noteRateLimit(response) {
    const header = response.headers.get("RateLimit");
    if (!header) return;
    this.rateLimit = parseRateLimit(header);
    this._rateLimitAt = Date.now();
  }

  // ------------------------------------------------------------------ players
  /** `POST /v1/players`: a new player and its bearer token (shown once); `bot: true` registers a bot account. */
  createPlayer(name, {bot} = {}) {
    const body = bot === undefined ? {name} : {name, bot};
    return this.request("POST", "/v1/players", {body, token: null});
  }

  /** `GET /v1/players?name=<prefix>`: players whose name starts with `name` (any case). */
  async findPlayers(name, {limit} = {}) {
    return (await this.request("GET", "/v1/players", {query: {name, limit}, retry: true})).players;
  }

  /** `GET /v1/players/<id>`: a player's ratings and rated games per title. */
  playerProfile(playerId) { return this.request("GET", `/v1/players/${enc(playerId)}`, {retry: true}); }

  /** `GET /v1/leaderboards/<game>`: one page of the title's best rated players (`bots: true` counts bots). */
  leaderboard(game, {limit, cursor, bots} = {}) {
    return this.request("GET", `/v1/leaderboards/${enc(game)}`, {query: {limit, cursor, bots: bots ? "true" : undefined},
      retry: true});
  }

  // ------------------------------------------------------------------ games
  /**
   * `POST /v1/games`: open a game of `game` for `seats`. `bots` seats the server's bots by
   * seat number (`{2: "ismcts"}`); `unlisted`, `invite` (player ids), `rated`, `humansOnly`.
   */
  createGame(game, seats, {options = {}, timeControl, bots, unlisted, invite, rated, humansOnly} = {}) {
    const body = {game, seats, options};
    if (timeControl !== undefined) body.time_control = timeControl;
    if (bots) body.bots = Object.fromEntries(Object.entries(bots).map(([seat, kind]) => [String(seat), kind]));
    if (unlisted !== undefined) body.unlisted = unlisted;
    if (invite !== undefined) body.invite = invite;
    if (rated !== undefined) body.rated = rated;
    if (humansOnly !== undefined) body.humans_only = humansOnly;
    return this.request("POST", "/v1/games", {body});
  }

  /** `GET /v1/games`: one page of open games, oldest first. */
  lobby({game, limit, cursor} = {}) { return this.request("GET", "/v1/games", {query: {game, limit, cursor}, retry: true}); }

  /** `POST /v1/games/<id>/join`: the first free seat (joining twice keeps the seat, so it is retried).
   * `commitment` (hex SHA-256 of a secret of 32 bytes the caller keeps) joins for a fair shuffle. */
  join(gameId, {commitment} = {}) {
    return this.request("POST", `/v1/games/${enc(gameId)}/join`,
      {body: commitment === undefined ? undefined : {commitment}, retry: true});
  }

  /** `POST /v1/games/<id>/reveal`: the seat's secret (hex) behind its commitment, once the game is
   * `starting`; resolves to the game's view. */
  async reveal(gameId, secret) {
    return (await this.request("POST", `/v1/games/${enc(gameId)}/reveal`, {body: {secret}, retry: true})).game;
  }

  /** `GET /v1/games?seeking_substitute=true`: running games offering seats (`seats_offered`). */
  seekingSubstitute({limit, cursor} = {}) {
    return this.request("GET", "/v1/games", {query: {seeking_substitute: "true", limit, cursor}, retry: true});
  }

  /** `POST /v1/games/<id>/join` `{seat}`: take over a seat a running game offers (not retried: a lost
   * answer may have seated you; read the game to find out). */
  substitute(gameId, seat) { return this.request("POST", `/v1/games/${enc(gameId)}/join`, {body: {seat}}); }

  /** `GET /v1/me`: who you are, your time zone and your vacation. */
  me() { return this.request("GET", "/v1/me", {retry: true}); }

  /** `PATCH /v1/me`: your IANA time zone, whose weekends pause games with `pause_weekends`. */
  setTimezone(timezone) { return this.request("PATCH", "/v1/me", {body: {timezone}, retry: true}); }

  /** `POST /v1/me/vacation`: `days` away from now; your clocks stop where the games allow it. */
  startVacation(days) { return this.request("POST", "/v1/me/vacation", {body: {days}}); }

  /** `DELETE /v1/me/vacation`: back early; the whole days not used come back. */
  endVacation() { return this.request("DELETE", "/v1/me/vacation"); }

  /** `POST /v1/games/<id>/leave`: free your seat in a game that has not started. */
  leave(gameId) { return this.request("POST", `/v1/games/${enc(gameId)}/leave`); }

  /** `DELETE /v1/games/<id>`: cancel a game you created that has not started. */
  async cancel(gameId) { await this.request("DELETE", `/v1/games/${enc(gameId)}`, {retry: true}); }

  /** `POST /v1/games/<id>/resign`: give up; the bot plays your seat. */
  resign(gameId) { return this.request("POST", `/v1/games/${enc(gameId)}/resign`); }

  /** `POST /v1/games/<id>/rematch`: the finished game's rematch, you seated. */
  rematch(gameId) { return this.request("POST", `/v1/games/${enc(gameId)}/rematch`, {retry: true}); }

  /** `GET /v1/games/<id>`: the game as this player sees it, legal actions included. */
  game(gameId, {signal} = {}) { return this.request("GET", `/v1/games/${enc(gameId)}`, {retry: true, signal}); }

  /**
   * `POST /v1/games/<id>/actions`: one decision, sent until its outcome is known. `ifMatch`
   * is the version it was made on. One Idempotency-Key (new unless given) goes with every
   * attempt; an error carries it as `idempotencyKey`, and a stale one (`err.stale`) carries
   * the fresh view in `game`. `minimal` asks for `Prefer: return=minimal`.
   */
  async act(gameId, action, {ifMatch, idempotencyKey, minimal = false, signal} = {}) {
    const key = idempotencyKey || newIdempotencyKey();
    const headers = {"Idempotency-Key": key};
    if (ifMatch !== undefined && ifMatch !== null) headers["If-Match"] = String(ifMatch);
    if (minimal) headers.Prefer = "return=minimal";
    try {
      return await this.request("POST", `/v1/games/${enc(gameId)}/actions`, {body: action, headers, retry: true, signal});
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      err.idempotencyKey = key;
      if (err.stale) err.game = await this.game(gameId).catch(() => null);
      throw err;
    }
  }

  /** `GET /v1/games/<id>/events`: the feed after `after`, long-polling up to `wait` seconds. */
  events(gameId, {after = 0, wait = 0, view = false, limit, messagesAfter} = {}) {
    return this.request("GET", `/v1/games/${enc(gameId)}/events`, {retry: true,
      query: {after, wait, view: view ? "true" : undefined, limit, messages_after: messagesAfter}});
  }

  /**
   * `GET /v1/games/<id>/events/stream`: an async iterator of StreamEvents that reconnects by
   * itself with Last-Event-ID. With `view` (the default) frames of type `game` carry this
   * player's view, at the start and after each page of events.
   */
  stream(gameId, {view = true, after = 0, messagesAfter, lastEventId = null, maxFailures, onState} = {}) {
    const params = {view: view ? "true" : undefined, after: after || undefined, messages_after: messagesAfter};
    return new EventStream(this, `/v1/games/${enc(gameId)}/events/stream`, {query: params, lastEventId, maxFailures,
      onState});
  }

  /** `GET /v1/games/<id>/replay`: the game as this player saw it at `version` (default: now). */
  replay(gameId, version) { return this.request("GET", `/v1/games/${enc(gameId)}/replay`, {query: {version}, retry: true}); }

  /** `GET /v1/games/<id>/log`: the finished game's hash-chained log as NDJSON text. */
  logNdjson(gameId) {
    return this.request("GET", `/v1/games/${enc(gameId)}/log`, {headers: {Accept: "application/x-ndjson"}, text: true,
      retry: true});
  }

  /** The finished game's log, one envelope per event. */
  async log(gameId) {
    return ndjson(await this.logNdjson(gameId));
  }

  /** `GET /v1/games/<id>/transcript`: a finished game as text, the table talk in place. */
  transcript(gameId) {
    return this.request("GET", `/v1/games/${enc(gameId)}/transcript`, {headers: {Accept: "text/plain"}, text: true,
      retry: true});
  }

  // ------------------------------------------------------------------ table talk
  /** `POST /v1/games/<id>/messages`: to the whole table, or privately to seat `to`. */
  sendMessage(gameId, text, to = null) {
    return this.request("POST", `/v1/games/${enc(gameId)}/messages`, {body: {text, to}});
  }

  /** `GET /v1/games/<id>/messages`: the messages this player may read, after the id `after`. */
  messages(gameId, {after} = {}) {
    return this.request("GET", `/v1/games/${enc(gameId)}/messages`, {query: {after}, retry: true});
  }

  // ------------------------------------------------------------------ standing orders
  /** `PUT /v1/games/<id>/orders`: replace this seat's standing orders; resolves to them with their defaults. */
  async setOrders(gameId, orders) {
    return (await this.request("PUT", `/v1/games/${enc(gameId)}/orders`, {body: {orders}, retry: true})).orders;
  }

  /** `GET /v1/games/<id>/orders`: this seat's standing orders. */
  async orders(gameId) { return (await this.request("GET", `/v1/games/${enc(gameId)}/orders`, {retry: true})).orders; }

  /** `DELETE /v1/games/<id>/orders`: no standing orders in the game. */
  async clearOrders(gameId) { await this.request("DELETE", `/v1/games/${enc(gameId)}/orders`, {retry: true}); }

  // ------------------------------------------------------------------ me
  /** `GET /v1/me/games`: newest first; `awaitingMe` gives the inbox, soonest deadline first. */
  myGames({awaitingMe = false, limit, cursor} = {}) {
    return this.request("GET", "/v1/me/games", {query: {awaiting: awaitingMe ? "me" : undefined, limit, cursor},
      retry: true});
  }

  /** `POST /v1/me/webhooks`: the answer holds the signing `secret`, shown only this once. */
  createWebhook(url, events) { return this.request("POST", "/v1/me/webhooks", {body: {url, events}}); }

  /** `GET /v1/me/webhooks`: this player's webhooks (never their secrets). */
  async webhooks() { return (await this.request("GET", "/v1/me/webhooks", {retry: true})).webhooks; }

  /** `DELETE /v1/me/webhooks/<id>`. */
  async deleteWebhook(webhookId) { await this.request("DELETE", `/v1/me/webhooks/${enc(webhookId)}`, {retry: true}); }

  /** `GET /v1/me/webhooks/<id>/deliveries`: the recent deliveries. */
  async deliveries(webhookId) {
    return (await this.request("GET", `/v1/me/webhooks/${enc(webhookId)}/deliveries`, {retry: true})).deliveries;
  }

  /** `GET /v1/me/tokens`: this player's tokens (ids, dates and scopes; never a token). */
  async tokens() { return (await this.request("GET", "/v1/me/tokens", {retry: true})).tokens; }

  /** `POST /v1/me/tokens`: another token, shown once; `scopes` limits it (all of them unless given). */
  createToken({scopes} = {}) {
    return this.request("POST", "/v1/me/tokens", {body: scopes === undefined ? {} : {scopes}});
  }

  /** `DELETE /v1/me/tokens/<id>`: revoke a token. */
  async revokeToken(tokenId) { await this.request("DELETE", `/v1/me/tokens/${enc(tokenId)}`, {retry: true}); }

  // ------------------------------------------------------------------ transparency log
  // ------------------------------------------------------------------ tournaments
  /** `POST /v1/tournaments`: a Swiss tournament of `game` (`startsAt` in ISO 8601, UTC). */
  createTournament(game, seatsPerTable, rounds, startsAt, minPlayers,
    {maxPlayers = null, timeControl, options = {}, rated = true, roundSeconds, name} = {}) {
    const body = {game, seats_per_table: seatsPerTable, rounds, starts_at: startsAt, min_players: minPlayers,
      max_players: maxPlayers, options, rated};
    if (timeControl !== undefined) body.time_control = timeControl;
    if (roundSeconds !== undefined) body.round_seconds = roundSeconds;
    if (name !== undefined) body.name = name;
    return this.request("POST", "/v1/tournaments", {body});
  }

  /** `GET /v1/tournaments?status=open|running|finished`: one page, oldest first. */
  tournaments({status = "open", limit, cursor} = {}) {
    return this.request("GET", "/v1/tournaments", {query: {status, limit, cursor}, retry: true});
  }

  /** `GET /v1/tournaments/<id>`: settings, standings, every round's tables and results. */
  tournament(tournamentId) { return this.request("GET", `/v1/tournaments/${enc(tournamentId)}`, {retry: true}); }

  /** `POST /v1/tournaments/<id>/join` before the start (joining twice is harmless, so it is retried). */
  joinTournament(tournamentId) {
    return this.request("POST", `/v1/tournaments/${enc(tournamentId)}/join`, {retry: true});
  }

  /** `POST /v1/tournaments/<id>/leave` before the start. */
  leaveTournament(tournamentId) { return this.request("POST", `/v1/tournaments/${enc(tournamentId)}/leave`); }

  /** `POST /v1/tournaments/<id>/start`: its creator starts it early, once `min_players` joined. */
  startTournament(tournamentId) { return this.request("POST", `/v1/tournaments/${enc(tournamentId)}/start`); }

  /** `POST /v1/tournaments/<id>/withdraw`: never paired again; your running games there are resigned. */
  withdrawFromTournament(tournamentId) {
    return this.request("POST", `/v1/tournaments/${enc(tournamentId)}/withdraw`);
  }

  /** `GET /v1/tournaments/<id>/log`: the hash-chained stream as NDJSON text. */
  tournamentLogNdjson(tournamentId) {
    return this.request("GET", `/v1/tournaments/${enc(tournamentId)}/log`,
      {headers: {Accept: "application/x-ndjson"}, text: true, retry: true});
  }

  /** The tournament's stream (public at any time), one envelope per event. */
  async tournamentLog(tournamentId) {
    return ndjson(await this.tournamentLogNdjson(tournamentId));
  }

  /** `GET /v1/keys`: the server's signing keys. */
  async keys() { return (await this.request("GET", "/v1/keys", {retry: true})).keys; }

  /** `GET /v1/transparency/checkpoint`: the log's signed head, a C2SP signed note. */
  checkpoint() {
    return this.request("GET", "/v1/transparency/checkpoint", {headers: {Accept: "text/plain"}, text: true, retry: true});
  }

  /** `GET /v1/transparency/inclusion`: the proof that a finished game is in the tree of `size` leaves. */
  inclusionProof(gameId, size) {
    return this.request("GET", "/v1/transparency/inclusion", {query: {game: gameId, size}, retry: true});
  }

  /** `GET /v1/transparency/consistency`: the proof that the tree of `second` extends that of `first`. */
  async consistencyProof(first, second) {
    return (await this.request("GET", "/v1/transparency/consistency", {query: {from: first, to: second}, retry: true}))
      .hashes;
  }

  /** `POST /v1/transparency/cosignatures`: a witness's C2SP cosignature line of `checkpoint` (as
   * `checkpoint()` gave it), by the Ed25519 key `publicKey` (base64). */
  cosign(checkpoint, cosignature, publicKey) {
    return this.request("POST", "/v1/transparency/cosignatures",
      {body: {checkpoint, cosignature, public_key: publicKey}});
  }

  /** `GET /v1/players/<id>/games/export`: the player's finished games, oldest end first, one object per
   * NDJSON line. `since` (a line's `ended_at`, or Unix milliseconds) resumes an export (the games that
   * ended at that moment come again); `logs` puts each game's published log in its line. */
  async exportGames(playerId, {since, logs = false} = {}) {
    const text = await this.request("GET", `/v1/players/${enc(playerId)}/games/export`,
      {query: {since, logs: logs ? "true" : undefined}, headers: {Accept: "application/x-ndjson"}, text: true,
        retry: true});
    return ndjson(text);
  }

  /** `GET /v1/openapi.json`: the API's own description. */
  openapi() { return this.request("GET", "/v1/openapi.json", {retry: true, token: null}); }
}

const enc = encodeURIComponent;

/** NDJSON text as its objects, blank lines skipped. */
const ndjson = (text) => text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));

/** Seconds to wait: the body's exact `retry_after`, else the Retry-After header, else 0. */
function retryAfter(response, problem) {
  const exact = problem?.retry_after;
  if (typeof exact === "number" && exact >= 0) return exact;
  const header = Number(response.headers.get("Retry-After"));
  return Number.isFinite(header) && header > 0 ? header : 0;
}
