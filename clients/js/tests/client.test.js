// The Client against a live server: calls, If-Match, one Idempotency-Key kept across retries,
// 429s waited out, and the event stream resumed with Last-Event-ID after a drop.

import assert from "node:assert/strict";
import {createHash, randomBytes} from "node:crypto";
import {test} from "node:test";

import {ApiError, Bot, Client} from "../src/index.js";
import {register, STRICT_URL, URL, watchingFetch} from "./support/helpers.js";

class FirstBot extends Bot {
  choose(view, legalActions) { return legalActions[0]; }
}

/** A finished two-seat game of Coup (this player against the server's bot). */
async function finishedGame(me) {
  const game = await me.createGame("coup", 2, {bots: {1: "random"}});
  await me.join(game.id);
  const final = await new FirstBot(me).play(game.id);
  assert.equal(final.status, "finished");
  return game.id;
}

test("a call answers its JSON, and a refusal is an ApiError with the problem's code", async () => {
  const me = await register("calls");
  assert.match(me.token, /\S{20,}/);
  const game = await me.createGame("coup", 3, {timeControl: {seconds_per_move: 86400}});
  assert.equal(game.status, "open");
  const joined = await me.join(game.id);
  assert.equal(joined.seat, 0);
  const found = await me.findPlayers(me.player.name);
  assert.deepEqual(found.map((p) => p.id), [me.player.id]);
  await assert.rejects(me.game("no-such-game"), (err) => err instanceof ApiError && err.status === 404
    && err.code === "game_not_found");
  const anonymous = new Client(URL);
  await assert.rejects(anonymous.myGames(), (err) => err.status === 401 && err.code === "auth_required");
});

test("a stale decision brings the fresh view and its Idempotency-Key", async () => {
  const me = await register("stale");
  const game = await me.createGame("coup", 2, {bots: {1: "random"}});
  await me.join(game.id);
  let view = await me.game(game.id);
  while (!(view.awaiting.includes(view.seat))) view = await me.game(game.id);
  const answer = await me.act(game.id, view.legal_actions[0], {ifMatch: view.version});
  assert.ok(answer.version > view.version);
  const err = await me.act(game.id, view.legal_actions[0], {ifMatch: view.version}).catch((e) => e);
  assert.ok(err instanceof ApiError && err.stale, `${err}`);
  assert.match(err.idempotencyKey, /^[0-9a-f]{32}$/);
  assert.ok(err.game.version >= answer.version, "the fresh view came with the error");
});

test("an action whose answer was lost is sent again with the same key, and applied once", async () => {
  const me = await register("lost");
  const game = await me.createGame("coup", 2, {bots: {1: "random"}});
  await me.join(game.id);
  let view = await me.game(game.id);
  while (!view.awaiting.includes(view.seat)) view = await me.game(game.id);
  const keys = [];
  let dropped = false;
  const flaky = new Client(URL, {token: me.token, backoff: 0.01, fetch: async (url, init) => {
    const response = await fetch(url, init);
    if (init.method === "POST" && url.endsWith("/actions")) {
      keys.push(init.headers["Idempotency-Key"]);
      if (!dropped) {  // the server applied it; the answer never arrives
        dropped = true;
        await response.arrayBuffer();
        throw new TypeError("fetch failed");
      }
    }
    return response;
  }});
  const action = view.legal_actions.find((a) => a.type === "income") || view.legal_actions[0];
  const answer = await flaky.act(game.id, action, {ifMatch: view.version});
  assert.equal(keys.length, 2);
  assert.equal(keys[0], keys[1], "one key for the decision, on every attempt");
  assert.ok(answer.version > view.version, "the retry got the first attempt's answer, not a conflict");
  // The same decision under another key is stale: the first attempt was the one applied.
  const again = await me.act(game.id, action, {ifMatch: view.version}).catch((err) => err);
  assert.ok(again instanceof ApiError && again.stale, `${again}`);
  assert.notEqual(again.idempotencyKey, keys[0]);
});

test("a 429 is waited out as Retry-After asks", async () => {
  const me = await register("busy", {pace: false}, STRICT_URL);
  let refused = 0;
  const waits = [];
  const client = new Client(STRICT_URL, {token: me.token, pace: false, retries: 20,
    sleep: (seconds) => { waits.push(seconds); return new Promise((r) => setTimeout(r, seconds * 1000)); },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      if (response.status === 429) refused += 1;
      return response;
    }});
  const answers = await Promise.all(Array.from({length: 16}, () => client.myGames()));
  assert.equal(answers.length, 16);
  assert.ok(answers.every((page) => Array.isArray(page.games)));
  assert.ok(refused > 0, "the strict server refused some");
  assert.ok(waits.length >= refused && waits.every((s) => s > 0));
});

test("the event stream resumes after a drop with Last-Event-ID: nothing lost, nothing twice", async () => {
  const me = await register("stream");
  const gameId = await finishedGame(me);
  const whole = [];
  for await (const event of me.stream(gameId)) whole.push(event);
  assert.ok(whole.at(-1).endsGame || whole.some((event) => event.endsGame));

  const opened = [];
  const cutting = new Client(URL, {token: me.token, backoff: 0.01, fetch: async (url, init) => {
    const response = await fetch(url, init);
    if (!url.includes("/events/stream")) return response;
    opened.push(init.headers["Last-Event-ID"] ?? null);
    if (opened.length > 1) return response;
    // The first connection drops early, right after its third whole frame.
    const text = await response.text();
    let cut = 0;
    for (let frames = 0; frames < 3; frames++) cut = text.indexOf("\n\n", cut) + 2;
    const body = new ReadableStream({
      start(controller) { controller.enqueue(new TextEncoder().encode(text.slice(0, cut))); },
      pull(controller) { controller.error(new TypeError("connection reset")); },
    });
    return new Response(body, {status: response.status, headers: response.headers});
  }});
  const stream = cutting.stream(gameId);
  const resumed = [];
  for await (const event of stream) resumed.push(event);
  assert.equal(opened.length, 2);
  assert.equal(opened[0], null);
  assert.ok(opened[1], "the second connection named the last frame it had");
  assert.equal(stream.reconnects, 1);
  const ids = (events) => events.filter((event) => !event.isView).map((event) => event.id);
  assert.deepEqual(ids(resumed), ids(whole));
});

test("tokens: listed, issued and revoked", async () => {
  const me = await register("tokens");
  const issued = await me.createToken();
  assert.match(issued.token, /\S{20,}/);
  const listed = await me.tokens();
  assert.ok(listed.some((token) => token.id === issued.id));
  await me.revokeToken(issued.id);
  assert.ok(!(await me.tokens()).some((token) => token.id === issued.id));
});

test("paced by the RateLimit headers, a burst meets no 429", async () => {
  const me = await register("paced", {}, STRICT_URL);
  const statuses = [];
  const waits = [];
  const client = new Client(STRICT_URL, {token: me.token,
    sleep: (seconds) => { waits.push(seconds); return new Promise((r) => setTimeout(r, seconds * 1000)); },
    fetch: async (url, init) => {
      const response = await fetch(url, init);
      statuses.push(response.status);
      return response;
    }});
  for (let i = 0; i < 12; i++) await client.myGames();
  assert.deepEqual(statuses.filter((status) => status === 429), [], "no 429 met");
  assert.ok(waits.length > 0 && waits.every((s) => s > 0 && s <= 1), `${waits}`);
  assert.ok("player" in client.rateLimit);
});

test("a scoped token, and a bot account", async () => {
  const me = await register("scoped");
  const reader = new Client(URL, {token: (await me.createToken({scopes: ["read"]})).token});
  const listed = await me.tokens();
  assert.deepEqual(listed.map((token) => token.scopes.length).sort(), [1, 6]);
  const refused = await reader.createGame("coup", 2).catch((err) => err);
  assert.ok(refused instanceof ApiError && refused.code === "missing_scope" && refused.problem.scope === "create");
  const robot = await Client.register(URL, `robot${process.pid}`, {bot: true});
  assert.equal(robot.player.bot, true);
  assert.equal((await robot.playerProfile(robot.player.id)).bot_account, true);
});

test("the account: its time zone and a vacation", async () => {
  const me = await register("account");
  const account = await me.me();
  assert.equal(account.timezone, "UTC");
  assert.equal(account.vacation_until, null);
  assert.equal((await me.setTimezone("Asia/Tokyo")).timezone, "Asia/Tokyo");
  const away = await me.startVacation(3);
  assert.notEqual(away.vacation_until, null);
  const back = await me.endVacation();
  assert.equal(back.vacation_until, null);
  assert.ok(Array.isArray((await me.seekingSubstitute({limit: 5})).games));
});

test("a tournament is created, joined, listed and its stream read", async () => {
  const host = await register("tourhost");
  const guest = await register("tourguest");
  const starts = new Date(Date.now() + 86400000).toISOString().replace(/\.\d+Z$/, "Z");
  const created = await host.createTournament("coup", 2, 1, starts, 2);
  assert.equal(created.round_seconds, 14 * 24 * 3600);
  await guest.joinTournament(created.id);
  assert.equal((await guest.tournament(created.id)).id, created.id);
  const stream = await guest.tournamentLog(created.id);
  assert.deepEqual(stream.map((event) => event.type), ["TournamentCreated", "PlayerJoinedTournament"]);
  await guest.leaveTournament(created.id);
  assert.ok(Array.isArray((await guest.tournaments({limit: 5})).tournaments));
  await assert.rejects(guest.tournament("no-such-tournament"), (err) => err instanceof ApiError && err.status === 404);
});

test("the export streams a player's finished games, with their logs on demand", async () => {
  const me = await register("export");
  const gameId = await finishedGame(me);
  const [exported] = (await me.exportGames(me.player.id, {logs: true})).filter((g) => g.id === gameId);
  assert.equal(exported.final_hash, exported.log.at(-2).hash);
  assert.equal(exported.log.at(-1).type, "LogSigned");
  assert.deepEqual((await me.exportGames(me.player.id)).map((g) => g.id), [gameId]);
});

test("a seat joined with a commitment reveals its secret, and the game starts", async () => {
  const host = await register("commit");
  const guest = await register("plain");
  const game = await host.createGame("coup", 2);
  const secret = randomBytes(32).toString("hex");
  const commitment = createHash("sha256").update(Buffer.from(secret, "hex")).digest("hex");
  await host.join(game.id, {commitment});
  await guest.join(game.id);
  const revealed = await host.reveal(game.id, secret);
  assert.equal(revealed.entropy["0"], "revealed");
});

test("a cosignature that does not verify is refused", async () => {
  const me = await register("witness");
  const checkpoint = await me.checkpoint();
  const publicKey = Buffer.alloc(32, 1).toString("base64");
  const line = `— witness.js ${Buffer.alloc(72).toString("base64")}\n`;
  await assert.rejects(me.cosign(checkpoint, line, publicKey), (err) => err instanceof ApiError && err.status === 422
    && err.code === "bad_cosignature");
});
