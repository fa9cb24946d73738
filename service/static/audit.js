// The log's audit in the browser: the hash chain and the seed commitment, recomputed with
// SubtleCrypto exactly as the server's audit does it (events/envelope.py):
//   hash = SHA-256(prev hash + canonical JSON of the event without "hash")
// where canonical JSON has sorted keys, no spaces and non-ASCII text kept as it is. The
// seed revealed by GameEnded must hash to GameCreated's seed_hash. Replaying the rules
// is left to `intrigue verify`; this proves the log is the one the server sealed.

export const GENESIS = "0".repeat(64);

/** One spelling per value: sorted keys, no spaces (Python's json.dumps(sort_keys, separators)). */
export function canonical(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
}

export async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The type of the seats' standing-order changes: a hash chain of their own after the game's. */
export const ORDERS_SET = "StandingOrdersSet";

/** The signed final record a finished game's published log ends with (engine/final_record.py). */
export const LOG_SIGNED = "LogSigned";

/** Check one hash chain; null when it holds, else {ok: false, seq, reason}. */
async function checkChain(events) {
  let prev = GENESIS;
  for (const [index, event] of events.entries()) {
    const seq = index + 1;
    if (event.seq !== seq) return {ok: false, seq, reason: `expected sequence number ${seq}`};
    if (event.prev !== prev) return {ok: false, seq, reason: "prev does not match the hash of the event before it"};
    const body = {seq: event.seq, type: event.type, at: event.at, actor: event.actor, data: event.data,
                  cause: event.cause ?? {}, prev: event.prev};
    if (await sha256(prev + canonical(body)) !== event.hash) {
      return {ok: false, seq, reason: "hash does not match the event's content"};
    }
    prev = event.hash;
  }
  return null;
}

/**
 * Audit an NDJSON log. Resolves to {ok: true, events, winners} or
 * {ok: false, seq, reason}: the first event the chain or the seed disowns. The seats'
 * StandingOrdersSet events, published after the game's, are checked as their own chain
 * (replaying which order answered what is `intrigue verify`'s).
 */
export async function auditLog(text) {
  const lines = text.split("\n").filter((line) => line.trim());
  if (!lines.length) return {ok: false, seq: 0, reason: "the log is empty"};
  const all = [];
  for (const [index, line] of lines.entries()) {
    let event;
    try { event = JSON.parse(line); } catch {
      return {ok: false, seq: index + 1, reason: `line ${index + 1} is not JSON`};
    }
    if (!event || typeof event !== "object") return {ok: false, seq: index + 1, reason: `line ${index + 1} is not an event`};
    all.push(event);
  }
  const events = all.filter((e) => e.type !== ORDERS_SET && e.type !== LOG_SIGNED);
  const orders = all.filter((e) => e.type === ORDERS_SET);
  if (!events.length) return {ok: false, seq: 0, reason: "the log is empty"};
  const broken = await checkChain(events);
  if (broken) return broken;
  const ordersBroken = await checkChain(orders);
  if (ordersBroken) return {...ordersBroken, reason: `standing orders: ${ordersBroken.reason}`};
  const prev = events[events.length - 1].hash;
  const created = events[0];
  if (created.type !== "GameCreated") return {ok: false, seq: 1, reason: "a log starts with GameCreated"};
  const ended = events.find((e) => e.type === "GameEnded");
  if (!ended) return {ok: false, seq: events.length, reason: "the game has not ended: its seed is still secret"};
  if (await sha256(String(ended.data.seed)) !== created.data.seed_hash) {
    return {ok: false, seq: ended.seq, reason: "the revealed seed does not match the commitment in GameCreated"};
  }
  return {ok: true, events: events.length, winners: ended.data.winners, head: prev};
}

const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/**
 * The log's signed final record, checked with the keys ``GET /v1/keys`` lists: resolves to
 * {finalHash, keyId, state}, ``state`` being "verified", "bad" (another hash, an unknown key or
 * a signature that does not hold), "unchecked" (this browser has no Ed25519) or "missing".
 */
export async function checkFinalRecord(text, keys) {
  const all = text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
  const games = all.filter((e) => e.type !== ORDERS_SET && e.type !== LOG_SIGNED);
  const finalHash = games[games.length - 1]?.hash ?? null;
  const signed = all.find((e) => e.type === LOG_SIGNED);
  if (!signed) return {finalHash, keyId: null, state: "missing"};
  const {game, final_hash: named, key_id: keyId, signature} = signed.data;
  const key = keys.find((k) => k.id === keyId && k.alg === "Ed25519");
  if (named !== finalHash || signed.prev !== finalHash || !key) return {finalHash, keyId, state: "bad"};
  const message = new TextEncoder().encode(`intrigue/final-hash/v1\n${game}\n${finalHash}\n`);
  let publicKey;
  try {
    publicKey = await crypto.subtle.importKey("raw", fromBase64(key.public_key), {name: "Ed25519"}, false, ["verify"]);
  } catch {
    return {finalHash, keyId, state: "unchecked"};
  }
  try {
    const ok = await crypto.subtle.verify({name: "Ed25519"}, publicKey, fromBase64(signature), message);
    return {finalHash, keyId, state: ok ? "verified" : "bad"};
  } catch {
    return {finalHash, keyId, state: "bad"};
  }
}
