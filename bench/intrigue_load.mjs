// A light load client for Intrigue, shaped like the peer's (N tables of 3 seats, one move in
// flight per table, a random legal move as soon as a seat is awaited, counted over a window).
// Node's own http module with keep-alive sockets and no dependencies, so the client costs a
// small share of the machine and reports that share itself.
//
//   node bench/intrigue_load.mjs --url http://127.0.0.1:8140 --games 100 --seconds 20 \
//        --feed sse --server-pids 123,456
//
// --feed sse   each seat holds one server-sent event stream with its view (`view=true`): a move
//              is one POST; the acting seat's new view comes back in the POST's answer and the
//              other seats' views come down their streams (the README's bot loop). With
//              --minimal 1 the POST asks `Prefer: return=minimal` (no view in the answer) and the
//              next move waits for a stream to bring the new version. The POST is then cheaper,
//              but the streams send more views (3.06-3.08 per move against 2.82-2.85: a bot that
//              moves again at once lets a stream send one view for two events), and the server's
//              CPU per move showed no difference the machine could resolve.
// --feed poll  no streams: a seat reads its view (GET) when it is stale and long-polls the feed
//              while a worker owes a step (the shape of bench/coup_load.py's bots).
// Latency, three ways, each from sending a move's POST:
//   p50/p99            to the moment the next decision can be made: the seat that acts next
//                      holds the view of the new version (from the POST's answer when it is
//                      the mover, from its stream otherwise; after a worker's step when one is
//                      owed), or the game is over. This is what a player waits for, and what
//                      the peer's figure is (its broadcast reaches every seat at once).
//   post_p50/post_p99  to the POST's own answer.
//   extra_p50/extra_p99 the first less the second: how much later than the answer the next
//                      decision's view arrived (0 when the mover acts again).
import http from 'node:http';
import fs from 'node:fs';

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => {
  if (a.startsWith('--')) acc.push([a.slice(2), all[i + 1]]);
  return acc;
}, []));
const BASE = new URL(args.url || 'http://127.0.0.1:8140');
const GAMES = Number(args.games || 100);
const SECONDS = Number(args.seconds || 20);
const SEATS = Number(args.seats || 3);
const FEED = args.feed || 'sse';
const GAME = args.game || 'coup';
const SERVER_PIDS = (args['server-pids'] || '').split(',').filter(Boolean).map(Number);
const MINIMAL = FEED === 'sse' && args.minimal === '1';
let viewFrames = 0; // `game` frames the streams delivered during the window

let seed = Number(args.seed || 7);
function rand() { // mulberry32, as the peer's client
  seed |= 0; seed = (seed + 0x6D2B79F5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const choice = (xs) => xs[Math.floor(rand() * xs.length)];

// Set-up calls share one pool; each seat then keeps a connection of its own, as the peer's
// client gives each seat its own socket (a pool shared by every seat would send most moves
// down the few sockets it reuses first, all held by one server process).
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 30000 });
const seatAgent = () => new http.Agent({ keepAlive: true, maxSockets: 1, keepAliveMsecs: 30000 });

function request(method, path, { token, body, headers = {}, via = agent } = {}) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? null : Buffer.from(JSON.stringify(body));
    const h = { ...headers };
    if (token) h.Authorization = `Bearer ${token}`;
    if (data) { h['Content-Type'] = 'application/json'; h['Content-Length'] = data.length; }
    const req = http.request({ host: BASE.hostname, port: BASE.port, path, method, headers: h, agent: via }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        let parsed; try { parsed = text ? JSON.parse(text) : null; } catch (e) { throw new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`); }
        resolve({ status: res.statusCode, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

// A request over the player's rate limit (429) waits as it is told, as a client should, and
// is counted; the per-player limit stays on, as the image runs it.
let refused = 0;
const pause = (r) => new Promise((resolve) => setTimeout(resolve, Math.max(1, 1000 * ((r.body && r.body.retry_after) || 0.01))));

async function call(method, path, opts, expect = 200) {
  let r = await request(method, path, opts);
  while (r.status === 429) {
    refused++;
    await pause(r);
    r = await request(method, path, opts);
  }
  if (r.status !== expect) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

// One seat's stream of views: every `game` event holds the seat's view as of that event.
function openStream(seat, gameId) {
  const path = `/v1/games/${gameId}/events/stream?view=true`;
  const req = http.request({ host: BASE.hostname, port: BASE.port, path, method: 'GET',
    headers: { Authorization: `Bearer ${seat.token}`, Accept: 'text/event-stream' } });
  let buffer = '';
  req.on('response', (res) => {
    res.setEncoding('utf8');
    if (res.statusCode === 429) { // over the player's rate limit: open it again once told to
      let text = '';
      res.on('data', (chunk) => { text += chunk; });
      res.on('end', () => {
        refused++;
        pause({ body: JSON.parse(text || '{}') }).then(() => {
          if (seat.stream === req) seat.stream = openStream(seat, gameId);
        });
      });
      return;
    }
    res.on('data', (chunk) => {
      buffer += chunk;
      let cut;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        let type = 'message', data = '';
        for (const line of block.split('\n')) {
          if (line.startsWith('event: ')) type = line.slice(7);
          else if (line.startsWith('data: ')) data += line.slice(6);
        }
        if (type === 'game') {
          if (open()) viewFrames++;
          seat.offer(JSON.parse(data));
        }
      }
    });
    res.on('error', () => {});
  });
  req.on('error', () => {});
  req.end();
  return req;
}

class Seat {
  constructor(token) {
    this.token = token; this.view = null; this.waiters = []; this.stream = null; this.agent = seatAgent();
  }
  offer(view) {
    if (this.view && view.version < this.view.version) return;
    this.view = view;
    const ready = this.waiters.filter((w) => view.version >= w.version);
    this.waiters = this.waiters.filter((w) => view.version < w.version);
    for (const w of ready) w.resolve(view);
  }
  // The seat's view at ``version`` or later, from its stream (null after ``ms``).
  until(version, ms) {
    if (this.view && this.view.version >= version) return Promise.resolve(this.view);
    return new Promise((resolve) => {
      const w = { version, resolve };
      this.waiters.push(w);
      setTimeout(() => { this.waiters = this.waiters.filter((x) => x !== w); resolve(null); }, ms);
    });
  }
}

async function newGame(t, seats) {
  const body = { game: GAME, seats: SEATS, options: {}, time_control: { seconds_per_move: 3600 } };
  const game = await call('POST', '/v1/games', { token: seats[0].token, via: seats[0].agent, body }, 201);
  for (const seat of seats) {
    if (seat.stream) seat.stream.destroy();
    seat.view = null; seat.stream = null;
    const joined = await call('POST', `/v1/games/${game.id}/join`, { token: seat.token, via: seat.agent });
    seat.offer(joined.game);
  }
  if (FEED === 'sse') for (const seat of seats) seat.stream = openStream(seat, game.id);
  return game.id;
}

const window_ = { start: 0, end: 0 };
const open = () => performance.now() < window_.end;

function latest(seats) {
  let best = null;
  for (const s of seats) if (s.view && (!best || s.view.version > best.version)) best = s.view;
  return best;
}

async function setUp(t) {
  const seats = [];
  for (let i = 0; i < SEATS; i++) {
    const p = await call('POST', '/v1/players', { body: { name: `node${t}-${i}` } }, 201);
    seats.push(new Seat(p.token));
  }
  return { seats, gameId: await newGame(t, seats) };
}

async function playTable(t, table) {
  const lat = [], posts = [], extras = [];
  let pending = null; // the last move's { started, answered }, until its next decision is ready
  const decided = () => { // the next decision's view is here: the last move's latency is known
    if (!pending) return;
    const now = performance.now();
    if (now < window_.end) { lat.push(now - pending.started); extras.push(now - pending.answered); }
    pending = null;
  };
  const { seats } = table;
  let gameId = table.gameId;
  let calls = 0, finished = 0, games = 1, conflicts = 0, stalls = 0;
  while (open()) {
    const st = latest(seats);
    if (st.status === 'finished') {
      decided();
      finished++; games++;
      gameId = await newGame(t, seats);
      calls += 1 + SEATS;
      continue;
    }
    if (!st.awaiting.length) { // a system step is owed (one its commit left to a worker): it comes down a feed
      if (FEED === 'sse') {
        await Promise.race(seats.map((s) => s.until(st.version + 1, 5000)));
      } else {
        const r = await call('GET', `/v1/games/${gameId}/events?after=${st.version}&wait=5&view=true`,
          { token: seats[0].token });
        seats[0].offer(r.game);
        calls++;
      }
      continue;
    }
    const idx = choice(st.awaiting);
    const seat = seats[idx];
    let mine = seat.view;
    if (!mine || mine.version < st.version) {
      if (FEED === 'sse') {
        mine = await seat.until(st.version, 5000);
        if (!mine) { // counted like the peer client's stuck moves: re-read the view, give up after 3
          stalls++;
          if (stalls > 3) throw new Error(`table ${t}: seat ${idx}'s stream stalled at ${st.version}`);
          mine = await call('GET', `/v1/games/${gameId}`, { token: seat.token, via: seat.agent });
          seat.offer(mine);
          calls++;
        }
      } else {
        mine = await call('GET', `/v1/games/${gameId}`, { token: seat.token, via: seat.agent });
        seat.offer(mine);
        calls++;
      }
      if (mine.version !== st.version || !mine.legal_actions.length) continue;
    }
    if (!mine.legal_actions.length) continue;
    decided();
    const action = choice(mine.legal_actions);
    const started = performance.now();
    // --minimal 1: no view in the answer (Prefer: return=minimal); the next turn waits for
    // a stream to pass the new version instead.
    const headers = { 'If-Match': String(mine.version) };
    if (MINIMAL) headers.Prefer = 'return=minimal';
    const r = await request('POST', `/v1/games/${gameId}/actions`,
      { token: seat.token, via: seat.agent, body: action, headers });
    const ended = performance.now();
    if (ended >= window_.end) break;
    calls++;
    if (r.status === 200) {
      posts.push(ended - started);
      pending = { started, answered: ended };
      if (r.body.game) seat.offer(r.body.game);
      else await Promise.race(seats.map((s) => s.until(r.body.version, 5000)));
    } else if (r.status === 409) {
      conflicts++;
      const fresh = await call('GET', `/v1/games/${gameId}`, { token: seat.token, via: seat.agent });
      seat.offer(fresh);
      calls++;
    } else if (r.status === 429) {
      refused++;
      await pause(r);
    } else {
      throw new Error(`table ${t}: POST answered ${r.status} ${JSON.stringify(r.body)}`);
    }
  }
  for (const s of seats) if (s.stream) s.stream.destroy();
  return { lat, posts, extras, calls, finished, games, conflicts, stalls };
}

function cpuOf(pid) {
  try {
    const parts = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(parts[11]) + Number(parts[12])) / 100;
  } catch (e) { return 0; }
}
function machine() {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: (total - f[3] - f[4]) / 100, total: total / 100 };
}
function cpuSnap() {
  return { client: cpuOf(process.pid), server: SERVER_PIDS.reduce((a, p) => a + cpuOf(p), 0),
    each: SERVER_PIDS.map(cpuOf), m: machine() };
}
function pct(xs, f) { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(f * s.length))]; }

(async () => {
  const tables = [];
  for (let t = 0; t < GAMES; t++) tables.push(await setUp(t));
  if (FEED === 'sse') await Promise.all(tables.flatMap((tb) => tb.seats.map((s) => s.until(s.view.version, 5000))));
  window_.start = performance.now();
  window_.end = window_.start + SECONDS * 1000;
  const snapOpen = cpuSnap();
  let snapClose = null;
  setTimeout(() => { snapClose = cpuSnap(); }, SECONDS * 1000);
  const results = await Promise.all(tables.map((tb, t) => playTable(t, tb)));
  const lat = results.flatMap((r) => r.lat);
  const posts = results.flatMap((r) => r.posts), extras = results.flatMap((r) => r.extras);
  const sum = (k) => results.reduce((a, r) => a + r[k], 0);
  const out = { moves: posts.length, rate: posts.length / SECONDS, p50: pct(lat, 0.5), p99: pct(lat, 0.99),
    post_p50: pct(posts, 0.5), post_p99: pct(posts, 0.99), extra_p50: pct(extras, 0.5), extra_p99: pct(extras, 0.99),
    mean: lat.reduce((a, b) => a + b, 0) / lat.length, calls: sum('calls'), finished: sum('finished'),
    games: sum('games'), conflicts: sum('conflicts'), stalls: sum('stalls'), limited: refused, feed: FEED, minimal: MINIMAL,
    stream_views_per_move: viewFrames / Math.max(1, posts.length) };
  if (snapClose) {
    const cap = snapClose.m.total - snapOpen.m.total;
    out.capacity = cap;
    out.machine_busy = (snapClose.m.busy - snapOpen.m.busy) / cap;
    out.client_cpu = snapClose.client - snapOpen.client;
    out.server_cpu = snapClose.server - snapOpen.server;
    out.client_share = out.client_cpu / cap;
    out.server_share = out.server_cpu / cap;
    out.server_ms_per_move = out.server_cpu / posts.length * 1000;
    out.ms_per_move_by_pid = Object.fromEntries(SERVER_PIDS.map((p, i) =>
      [p, Number(((snapClose.each[i] - snapOpen.each[i]) / posts.length * 1000).toFixed(3))]));
  }
  console.log(`intrigue ${GAME} (${FEED}): ${GAMES} tables x ${SEATS} seats, window ${SECONDS} s; ` +
    `moves ${posts.length} ${out.rate.toFixed(1)}/s; to the next decision's view p50 ${out.p50.toFixed(2)} ms ` +
    `p99 ${out.p99.toFixed(2)} ms; the POST alone p99 ${out.post_p99.toFixed(2)} ms; ` +
    `the stream's extra delay p99 ${out.extra_p99.toFixed(2)} ms; ` +
    `requests per move ${(out.calls / Math.max(1, posts.length)).toFixed(2)}, ` +
    `stream views per move ${out.stream_views_per_move.toFixed(2)}`);
  console.log(JSON.stringify(out));
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
