// Revolution!: the bid board with the sealed-bid form (it refuses a bid the seat cannot
// pay before sending it), the city's areas, and each round's results as they resolve.

import {h, titleCase} from "../dom.js";
import {actionForms, describeAction} from "./generic.js";
import {tipsOf, withTip} from "../tips.js";

const PHASES = {bidding: "bids are being sealed", resolution: "the characters are being resolved",
                patronage: "patronage is paid", over: "the game is over"};
/** The same at a replayed version: history, not a prompt. */
const PAST_PHASES = {bidding: "bids were being sealed", resolution: "the characters were being resolved",
                     patronage: "patronage was being paid", over: "the game is over"};
const END_WORDS = {board_full: "the city's areas are full", round_limit: "the last round is played"};
const KINDS = ["force", "blackmail", "gold"];
const characterName = (id) => titleCase(id);
const areaName = (id) => titleCase(id);
const bidWords = (bids) => Object.entries(bids || {}).map(([c, t]) => `${tokens(t)} on the ${characterName(c)}`).join("; ") || "nothing";
const tokens = (hand) => KINDS.filter((k) => hand?.[k]).map((k) => `${hand[k]} ${k}`).join(", ") || "nothing";

/** A revealed bid: each character (explaining itself) and the tokens on it, or "forfeit". */
function bidCells(bids) {
  const placed = Object.entries(bids || {});
  return placed.length ? placed.map(([c, t], i) => [i ? "; " : "", withTip(h("span", {}, characterName(c)), tipsOf("revolution")[c]), `: ${tokens(t)}`])
    : "forfeit";
}

/** The latest round with results: each character's winner, then what a Spy or an Apothecary
 * did to the cubes afterwards (so the results agree with the city), and every seat's bid. */
function lastRound(feed) {
  let start = -1;
  for (let i = feed.length - 1; i >= 0; i--) {
    if (feed[i].type === "BidsRevealed") { start = i; break; }
  }
  if (start < 0) return null;
  const after = feed.slice(start);
  const resolved = after.filter((e) => e.type === "CharacterResolved");
  if (!resolved.length) return null;
  return {round: feed[start].data.round ?? resolved[0].data.round, bids: feed[start].data.bids,
          results: after.filter((e) => ["CharacterResolved", "SpyReplacedCube", "ApothecarySwappedCubes"].includes(e.type))};
}

function resultLine(item, seatName) {
  const r = item.data;
  if (item.type === "SpyReplacedCube") return `Then ${seatName(r.seat)}'s Spy replaced ${seatName(r.owner)}'s cube in the ${areaName(r.area)} with its own`;
  if (item.type === "ApothecarySwappedCubes") return `Then ${seatName(r.seat)}'s Apothecary swapped ${seatName(r.first.owner)}'s cube in the ${areaName(r.first.area)} with ${seatName(r.second.owner)}'s in the ${areaName(r.second.area)}`;
  return [withTip(h("span", {}, characterName(r.character)), tipsOf("revolution")[r.character]), `: ${r.winner === null ? "nobody wins" : `won by ${seatName(r.winner)}`}${
    r.winner !== null && r.support ? ` (+${r.support} support${r.cube ? `, a cube in the ${areaName(r.cube)}` : ""})` : ""}`];
}

export const revolution = {
  orders: [{label: "Bid as last round whenever my hand allows it",
            order: {decision: "bid", answer: {type: "bid_as_last_round"}}}],
  board(game, {seatName, feed = [], replay = false}) {
    const view = game.view;
    const live = !replay && game.status === "active";
    if (!view) return h("p", {}, "The board is set when every seat is taken.");
    const seats = Array.from({length: view.seats}, (_, s) => s);
    const results = lastRound(feed);
    return h("div", {class: "revolution"},
      h("p", {}, `Round ${view.round} of at most ${view.max_rounds} · ${(live || view.result ? PHASES : PAST_PHASES)[view.phase] || titleCase(view.phase)}`),
      h("div", {class: "scroll"}, h("table", {class: "rev-seats"},
        h("caption", {}, "Factions"),
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Seat"), h("th", {scope: "col"}, "Support"),
          h("th", {scope: "col"}, "Tokens"), h("th", {scope: "col"}, "Cubes left"), h("th", {scope: "col"}, "Bid"))),
        h("tbody", {}, seats.map((s) => h("tr", {class: s === view.seat ? "mine" : null},
          h("th", {scope: "row"}, seatName(s)), h("td", {}, view.support[s]), h("td", {}, tokens(view.hands[s])),
          h("td", {}, view.supply[s]),
          h("td", {}, view.bids_placed ? (view.bids_placed[s] ? "sealed" : live ? "thinking" : "not sealed") : "—")))))),
      h("div", {class: "scroll"}, h("table", {class: "rev-areas"},
        h("caption", {}, "The city"),
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Area"), h("th", {scope: "col"}, "Value"),
          h("th", {scope: "col"}, "Spaces"), seats.map((s) => h("th", {scope: "col"}, seatName(s))))),
        h("tbody", {}, view.areas.map((area) => h("tr", {},
          h("th", {scope: "row"}, titleCase(area.id)), h("td", {}, area.support),
          h("td", {}, `${area.cubes.reduce((a, b) => a + b, 0)}/${area.spaces}`),
          seats.map((s) => h("td", {class: area.controlled_by === s ? "control" : null}, area.cubes[s] || ""))))))),
      view.revealed_bids && !results?.bids ? h("div", {class: "scroll"}, h("table", {class: "rev-bids"}, h("caption", {}, "Bids revealed"),
        h("tbody", {}, view.revealed_bids.map((bids, s) => h("tr", {}, h("th", {scope: "row"}, seatName(s)),
          h("td", {}, bidCells(bids))))))) : null,
      results ? h("section", {class: "rev-results", "aria-label": `Round ${results.round} results`},
        h("h3", {}, `Round ${results.round} results`),
        h("ul", {}, results.results.map((r) => h("li", {}, resultLine(r, seatName)))),
        results.bids ? h("div", {class: "scroll"}, h("table", {class: "rev-bids"}, h("caption", {}, `Round ${results.round} bids, as revealed`),
          h("tbody", {}, results.bids.map((bids, s) => h("tr", {}, h("th", {scope: "row"}, seatName(s)),
            h("td", {}, bidCells(bids))))))) : null) : null,
      view.result ? h("p", {class: "result"}, `Game over (${END_WORDS[view.result.reason] || titleCase(view.result.reason ?? "").toLowerCase()}): ${
        (view.result.winners || []).map(seatName).join(" and ") || "nobody"} ${(view.result.winners || []).length > 1 ? "share the win" : "wins"}. Final support: ${
        view.result.support.map((v, s) => `${seatName(s)} ${v}`).join(", ")}.`) : null);
  },
  decisionKey(game) {
    return [game.view?.my_bid, game.view?.bid_limits, game.view?.round, game.view?.decision];
  },
  actions(game, post, {seatName}) {
    const view = game.view;
    if (view.phase !== "bidding" || !view.bid_limits) {
      const label = (a) => (a.type === "spy" ? `Spy: replace ${seatName(a.owner)}'s cube in the ${titleCase(a.area)}`
        : a.type === "skip" ? "Leave the cubes as they are"
        : a.type === "apothecary" ? `Swap ${seatName(a.first.owner)}'s cube in the ${titleCase(a.first.area)} with ${seatName(a.second.owner)}'s in the ${titleCase(a.second.area)}`
          : describeAction(a));
      return actionForms(game.legal_actions, post, label);
    }
    const limits = view.bid_limits;
    const held = limits.tokens;
    const inputs = [];
    const rows = limits.characters.map((character) => h("tr", {},
      h("th", {scope: "row"}, withTip(h("span", {}, titleCase(character.id)), tipsOf("revolution")[character.id])),
      KINDS.map((kind) => {
        if (!character.allowed.includes(kind) || !held[kind]) return h("td", {class: "muted"}, "—");
        const input = h("input", {type: "number", min: 0, max: held[kind], step: 1, inputmode: "numeric",
                                  "aria-label": `${titleCase(character.id)} ${kind}`, class: "bid-input",
                                  dataset: {character: character.id, kind}});
        inputs.push(input);
        return h("td", {}, input);
      })));
    const problem = h("p", {class: "form-error", role: "alert", id: "bid-error"});
    const placed = h("p", {class: "bid-sum", "aria-live": "polite"});
    const sums = () => {
      const total = {force: 0, blackmail: 0, gold: 0};
      const named = new Set();
      for (const input of inputs) {
        const n = Number(input.value || 0);
        total[input.dataset.kind] += n;
        if (n > 0) named.add(input.dataset.character);
      }
      return {total, named};
    };
    const refresh = () => {
      const {total} = sums();
      placed.textContent = `Placed: ${KINDS.filter((k) => held[k]).map((k) => `${total[k]}/${held[k]} ${k}`).join(", ") || "nothing to place"}`;
    };
    const form = h("form", {class: "bid-form", novalidate: true, oninput: refresh, onsubmit: (event) => {
      event.preventDefault();
      const {total, named} = sums();
      const errors = [];
      for (const kind of KINDS) {
        const have = held[kind] || 0;
        if (total[kind] > have) errors.push(`You hold ${have} ${kind} and this bid places ${total[kind]}: that is over your budget.`);
        else if (limits.must_place_all && total[kind] < have) errors.push(`Place all your ${kind}: ${have - total[kind]} left.`);
      }
      if (inputs.some((i) => i.value !== "" && (!Number.isInteger(Number(i.value)) || Number(i.value) < 0))) errors.push("Counts are whole numbers, 0 or more.");
      if (named.size > limits.max_characters) errors.push(`At most ${limits.max_characters} characters.`);
      if (errors.length) { problem.textContent = errors.join(" "); return; }
      problem.textContent = "";
      const bids = {};
      for (const input of inputs) {
        const n = Number(input.value || 0);
        if (n > 0) (bids[input.dataset.character] ??= {})[input.dataset.kind] = n;
      }
      post({type: "bid", bids});
    }},
      h("p", {}, `Your hand: ${tokens(held)}. Spread all of it over at most ${limits.max_characters} characters.`),
      h("div", {class: "scroll"}, h("table", {class: "bid-table"},
        h("thead", {}, h("tr", {}, h("th", {scope: "col"}, "Character"), KINDS.map((k) => h("th", {scope: "col"}, titleCase(k))))),
        h("tbody", {}, rows))),
      placed, problem,
      h("button", {type: "submit"}, view.my_bid ? "Replace my sealed bid" : "Seal my bid"));
    refresh();
    return h("div", {},
      view.my_bid ? h("p", {class: "my-bid"}, "Your sealed bid: ", Object.entries(view.my_bid.bids).map(([c, t]) => `${titleCase(c)}: ${tokens(t)}`).join("; ") || "forfeit",
        ". You may change it until the last seat bids.") : null,
      form,
      h("details", {}, h("summary", {}, "Or seal a ready-made bid"),
        actionForms(game.legal_actions, post, (a) => Object.entries(a.bids).map(([c, t]) => `${titleCase(c)}: ${tokens(t)}`).join("; "), {many: 10})));
  },
  describe(item, game, {seatName}) {
    const d = item.data || {};
    const round = d.round ? `Round ${d.round}: ` : "";
    switch (item.type) {
      case "BoardPrepared": return `The city is set: each faction holds ${tokens(d.hands?.[0])}`;
      case "RoundStarted": return `Round ${d.round} begins${d.hands ? `: ${d.hands.map((hand, s) => `${seatName(s)} holds ${tokens(hand)}`).join("; ")}` : ""}`;
      case "BidPlaced":
        if (d.forfeit) return `${seatName(d.seat)} sits the round out and forfeits its tokens`;
        return `${seatName(d.seat)} seals a bid${d.bids ? `: ${bidWords(d.bids)}` : ""}`;
      case "BidsRevealed": return `${round}the bids are revealed: ${(d.bids || []).map((bids, s) => `${seatName(s)} ${bidWords(bids)}`).join("; ")}`;
      case "CharacterResolved": {
        if (d.winner === null || d.winner === undefined) return `${round}nobody wins the ${characterName(d.character)}`;
        const gains = [d.support ? `${d.support} support` : null, d.tokens && tokens(d.tokens) !== "nothing" ? tokens(d.tokens) : null,
                       d.cube ? `a cube in the ${areaName(d.cube)}` : null].filter(Boolean);
        return `${round}${seatName(d.winner)} wins the ${characterName(d.character)}${gains.length ? `: ${gains.join(", ")}` : ""}`;
      }
      case "SpyReplacedCube": return `${seatName(d.seat)}'s Spy replaces ${seatName(d.owner)}'s cube in the ${areaName(d.area)} with its own`;
      case "ApothecarySwappedCubes": return `${seatName(d.seat)}'s Apothecary swaps ${seatName(d.first.owner)}'s cube in the ${areaName(d.first.area)} with ${seatName(d.second.owner)}'s in the ${areaName(d.second.area)}`;
      case "RewardSkipped": return `${seatName(d.seat)} has no use for the ${characterName(d.character)}`;
      case "PatronagePaid": {
        const paid = (d.gold || []).map((gold, s) => (gold ? `${seatName(s)} ${gold} gold` : null)).filter(Boolean);
        return `${round}patronage pays ${paid.join(", ") || "nobody"}`;
      }
      case "GameScored": return `Final support: ${(d.support || []).map((v, s) => `${seatName(s)} ${v}`).join(", ")}`;
      default: return null;
    }
  },
};
