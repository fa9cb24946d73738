// The Bot against a live server: two bots of this SDK play a whole game of Coup at one table.

import assert from "node:assert/strict";
import {test} from "node:test";

import {Bot, owesDecision} from "../src/index.js";
import {register} from "./support/helpers.js";

class CountingBot extends Bot {
  constructor(client) {
    super(client);
    this.decisions = [];
    this.events = [];
  }

  choose(view, legalActions) {
    assert.ok(owesDecision(view), "asked only for a decision the seat owes");
    this.decisions.push(view.version);
    return legalActions[Math.floor(Math.random() * legalActions.length)];
  }

  onEvent(event) { this.events.push(event); }
}

test("two bots play a game of Coup to its end, deciding once per version", async () => {
  const [anna, boris] = [await register("anna"), await register("boris")];
  const game = await anna.createGame("coup", 2);
  await anna.join(game.id);
  await boris.join(game.id);
  const bots = [new CountingBot(anna), new CountingBot(boris)];
  const finals = await Promise.all(bots.map((bot) => bot.play(game.id)));
  for (const [i, final] of finals.entries()) {
    assert.equal(final.status, "finished");
    assert.equal(final.seat, i);
    assert.ok(bots[i].decisions.length > 0);
    assert.equal(new Set(bots[i].decisions).size, bots[i].decisions.length, "one decision per version");
    assert.ok(bots[i].events.length > 0, "the bot watched the table");
  }
  assert.deepEqual(finals[0].winners, finals[1].winners);
});

test("choose must be written", async () => {
  const me = await register("lazy");
  const game = await me.createGame("coup", 2, {bots: {1: "random"}});
  await me.join(game.id);
  await assert.rejects(new Bot(me).play(game.id), /choose/);
});
