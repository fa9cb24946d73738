// Ideology: The War of Ideas: the map drawn as SVG from the game's own map data (the
// regions and their neighbours; the layout is computed here, the data has no positions),
// the control each seat holds, your hand, the phase and its decision.

import {h, titleCase} from "../dom.js";
import {actionForms, describeAction} from "./generic.js";
import {tipsOf, withTip} from "../tips.js";

const layouts = new Map();

/** Positions for a region graph: a few hundred steps of a spring layout, the same every time. */
function layout(regions) {
  const key = regions.map((r) => r.id).join(",");
  if (layouts.has(key)) return layouts.get(key);
  const n = regions.length;
  const index = new Map(regions.map((r, i) => [r.id, i]));
  const pos = regions.map((_, i) => ({x: Math.cos((2 * Math.PI * i) / n) * 300, y: Math.sin((2 * Math.PI * i) / n) * 200}));
  const edges = [];
  regions.forEach((r, i) => (r.neighbours || []).forEach((other) => {
    const j = index.get(other);
    if (j !== undefined && j > i) edges.push([i, j]);
  }));
  for (let step = 0; step < 300; step++) {
    const force = pos.map(() => ({x: 0, y: 0}));
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const dx = pos[i].x - pos[j].x, dy = pos[i].y - pos[j].y;
        const d2 = Math.max(dx * dx + dy * dy, 1);
        const push = 4000 / d2;
        force[i].x += dx * push; force[i].y += dy * push;
        force[j].x -= dx * push; force[j].y -= dy * push;
      }
    }
    for (const [i, j] of edges) {
      const dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y;
      force[i].x += dx * 0.02; force[i].y += dy * 0.02;
      force[j].x -= dx * 0.02; force[j].y -= dy * 0.02;
    }
    const cool = 1 - step / 300;
    for (let i = 0; i < n; i++) {
      force[i].x -= pos[i].x * 0.005; force[i].y -= pos[i].y * 0.005;
      pos[i].x += Math.max(-20, Math.min(20, force[i].x)) * cool;
      pos[i].y += Math.max(-20, Math.min(20, force[i].y)) * cool;
    }
  }
  // Fitted into a fixed frame, so node sizes read the same whatever the graph's spread.
  const xs = pos.map((p) => p.x), ys = pos.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  for (const p of pos) {
    p.x = 60 + ((p.x - x0) / (x1 - x0 || 1)) * 880;
    p.y = 50 + ((p.y - y0) / (y1 - y0 || 1)) * 520;
  }
  const box = {x: 0, y: 0, w: 1000, h: 600};
  const result = {pos, edges, box};
  layouts.set(key, result);
  return result;
}

function mapSvg(view, board, seatName) {
  const inPlay = new Map(view.regions.map((r) => [r.id, r]));
  // The whole map (TableSet's board: regions keyed by id) when the feed brought it, else what is in play.
  const known = board?.regions ? (Array.isArray(board.regions) ? board.regions : Object.values(board.regions)) : [];
  const all = known.length ? known : view.regions;
  const {pos, edges, box} = layout(all);
  const svg = h("svg:svg", {viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, class: "ideology-map", role: "img",
                            "aria-label": `Map: ${view.regions.length} regions in play`});
  for (const [i, j] of edges) {
    svg.append(h("svg:line", {x1: pos[i].x, y1: pos[i].y, x2: pos[j].x, y2: pos[j].y, class: "edge"}));
  }
  // Labels are placed one by one, above their region if that spot is free, else below or further
  // out: crowded parts of the map (Europe) keep every name readable.
  const placed = [];
  const labelY = (i, name, radius) => {
    const width = name.length * 7.2, height = 14;
    for (const dy of [-(radius + 8), radius + 16, -(radius + 22), radius + 30, -(radius + 36), radius + 44]) {
      const box = {x0: pos[i].x - width / 2, x1: pos[i].x + width / 2, y0: pos[i].y + dy - height, y1: pos[i].y + dy};
      if (!placed.some((b) => b.x0 < box.x1 && box.x0 < b.x1 && b.y0 < box.y1 && box.y0 < b.y1)) {
        placed.push(box);
        return dy;
      }
    }
    return -(radius + 8);
  };
  all.forEach((region, i) => {
    const live = inPlay.get(region.id);
    const owner = live?.controller;
    const cards = live ? Object.values(live.influence).flat().length : 0;
    const title = live ? `${region.name}: ${live.status}${owner !== null && owner !== undefined ? `, controlled by ${seatName(owner)}` : ""}, ${cards} influence`
      : `${region.name}: not in play`;
    svg.append(h("svg:g", {class: ["region", live ? "live" : "dormant", owner !== null && owner !== undefined ? `seat-${owner}` : null],
                           transform: `translate(${pos[i].x.toFixed(1)},${pos[i].y.toFixed(1)})`},
      h("svg:title", {}, title),
      h("svg:circle", {r: live ? 16 + 2 * (live.development || 0) : 10}),
      h("svg:text", {y: labelY(i, region.name, live ? 16 + 2 * (live.development || 0) : 10), "text-anchor": "middle"}, region.name),
      live ? h("svg:text", {y: 5, "text-anchor": "middle", class: "count"}, String(cards)) : null));
  });
  return svg;
}

/** "Iris (seat 0) ×3, Igor (seat 1)": whose cards are in an area, counted. */
function tally(seats, seatName) {
  const counts = new Map();
  for (const seat of seats) counts.set(seat, (counts.get(seat) || 0) + 1);
  return [...counts].map(([seat, n]) => `${seatName(seat)}${n > 1 ? ` ×${n}` : ""}`).join(", ") || "—";
}

const LETTERS = {m: "military", e: "economic", c: "cultural"};
const PHASE_NAMES = {resources: "resources", exchange: "exchange", development: "development",
                     foreign_affairs: "foreign affairs", conflict: "conflict", diplomacy: "diplomacy", over: "the end"};

/** Names for the ids an event carries, from the table's own data (the TableSet event's board). */
function lexicon(game, feed = []) {
  const board = feed.find((e) => e.type === "TableSet")?.data?.board || {};
  const regionNames = new Map((game?.view?.regions || []).map((r) => [r.id, r.name]));
  for (const [id, r] of Object.entries(board.regions || {})) regionNames.set(id, r.name);
  const region = (id) => regionNames.get(id) || titleCase(id);
  const ideologyName = (id) => board.ideologies?.[id]?.name || titleCase(id);
  const advancement = (id) => board.advancements?.[id]?.name
    || (game?.view?.advancement_cards || []).find((a) => a.id === id)?.name || titleCase(id);
  /** "fascism:m7" or "fascism:military" -> "a military card of Fascism". */
  const card = (id) => {
    if (typeof id !== "string" || !id.includes(":")) return "a card";
    const [owner, rest] = id.split(":");
    const kind = LETTERS[rest[0]] && /^[mec]\d+$/.test(rest) ? LETTERS[rest[0]] : rest;
    return `a ${kind} card of ${ideologyName(owner)}`;
  };
  const cards = (list) => (list?.length ? `${list.length} card${list.length > 1 ? "s" : ""}` : "no card");
  return {region, ideologyName, advancement, card, cards};
}

export function describeIdeology(item, game, {seatName, feed = []}) {
  const d = item.data || {};
  const {region, ideologyName, advancement, card, cards} = lexicon(game, feed);
  switch (item.type) {
    case "TableSet": return `The map is laid out: ${Object.keys(d.board?.regions || {}).length} regions; ideologies in play: ${
      (d.ideologies || []).map(ideologyName).join(", ")}`;
    case "TurnStarted": return `Turn ${d.turn} begins: each seat draws its cards`;
    case "TurnOrderSet": return `Turn ${d.turn}: the order of play is ${(d.order || []).map(seatName).join(", ")}`;
    case "PhaseStarted": return `Turn ${d.turn}: the ${PHASE_NAMES[d.phase] || titleCase(d.phase)} phase${d.region ? ` (a new region: ${region(d.region)})` : ""}`;
    case "CardsDiscarded": return `${seatName(d.seat)} discards ${d.cards ? d.cards.map(card).join(", ") : cards(Array(d.count || 0))}`;
    case "CardsExchanged": return `${seatName(d.seat)} exchanges ${d.discarded ? cards(d.discarded) : cards(Array(d.count || 0))} for new ones`;
    case "DevelopmentDone": return `${seatName(d.seat)} is done developing`;
    case "RegionDeveloped": return `${seatName(d.seat)} develops ${region(d.region)} with ${card(d.card)}`;
    case "AdvancementBought": return `${seatName(d.seat)} buys the advancement ${advancement(d.advancement)}`;
    case "InfluencePlaced": return `${seatName(d.seat)} places ${card(d.card)} in ${region(d.region)}`;
    case "InfluenceRemoved": return `${seatName(d.seat)} removes ${card(d.card)} from ${region(d.region)}`;
    case "Passed": return `${seatName(d.seat)} passes in the ${PHASE_NAMES[d.phase] || titleCase(d.phase)} phase`;
    case "ConflictDeclared": return `${seatName(d.attacker)} attacks ${seatName(d.defender)} in ${region(d.region)} with ${d.influence} influence`;
    case "AttackCancelled": return `${seatName(d.defender)} cancels the attack with ${card(d.card)}`;
    case "AttackRenewed": return `${seatName(d.attacker)} presses on with ${card(d.card)}`;
    case "ConflictWon": return `${seatName(d.attacker)} wins the conflict in ${region(d.region)} against ${seatName(d.defender)}`;
    case "ConflictAbandoned": return `${seatName(d.attacker)} withdraws: the conflict with ${seatName(d.defender)} ends`;
    case "WmdUsed": return `${seatName(d.seat)} uses ${advancement(d.advancement)} against ${seatName(d.target)}: ${cards(d.destroyed)} destroyed`;
    case "OfferMade": return d.offers ? `${seatName(d.seat)} offers: ${Object.entries(d.offers).map(([i, st]) => `${st} to ${ideologyName(i)}`).join(", ") || "neutrality to all"}`
      : `${seatName(d.seat)} seals a diplomatic offer`;
    case "OffersRevealed": return `Turn ${d.turn}: the offers are revealed: ${(d.offers || []).map((o, s) => `${seatName(s)} ${
      Object.entries(o || {}).map(([i, st]) => `${st} to ${ideologyName(i)}`).join(", ") || "neutral to all"}`).join("; ")}`;
    case "RegionsConsolidated": {
      const gained = Object.entries(d.gained || {}).map(([r, s]) => `${seatName(s)} takes ${region(r)}`);
      const lost = (d.lost || []).map((r) => `${region(typeof r === "string" ? r : r.region)} is lost`);
      const told = [...gained, ...lost];
      return `Turn ${d.turn}: control is settled${told.length ? `: ${told.join(", ")}` : ", nothing changes hands"}`;
    }
    case "GameScored": return `The game is scored: ${(d.points || []).map((p, s) => `${seatName(s)} ${p} points`).join(", ")}`;
    default: return null;
  }
}

export const ideology = {
  orders: [{label: "Cancel every attack on me while I can pay for it", order: {decision: "defend", answer: {type: "cancel"}}},
           {label: "Concede every attack on me", order: {decision: "defend", answer: {type: "concede"}}}],
  board(game, {seatName, feed = []}) {
    const view = game.view;
    if (!view) return h("p", {}, "The map is laid out when every seat is taken.");
    const table = feed.find((e) => e.type === "TableSet");
    const me = view.players.find((p) => p.seat === view.seat);
    return h("div", {class: "ideology"},
      h("p", {class: "phase"}, `Turn ${view.turn} · the ${PHASE_NAMES[view.phase] || titleCase(view.phase)} phase`, view.why ? ` — ${view.why}` : ""),
      mapSvg(view, table?.data?.board, seatName),
      h("ul", {class: "map-legend", "aria-label": "Map legend"},
        view.players.map((p) => h("li", {}, h("span", {class: `swatch seat-${p.seat}`, "aria-hidden": "true"}), `${seatName(p.seat)} controls`)),
        h("li", {}, h("span", {class: "swatch free", "aria-hidden": "true"}), "in play, nobody controls it"),
        h("li", {}, h("span", {class: "swatch dormant", "aria-hidden": "true"}), "not in play yet"),
        h("li", {}, "the number: influence cards in the region; a bigger circle: a more developed region")),
      h("div", {class: "scroll"}, h("table", {},
        h("caption", {}, "Regions in play"),
        h("thead", {}, h("tr", {}, ["Region", "Level", "Status", "Controller", "Military", "Economic", "Cultural"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, view.regions.map((r) => h("tr", {},
          h("th", {scope: "row"}, r.name), h("td", {}, r.development ?? r.level), h("td", {}, r.status),
          h("td", {}, r.controller === null || r.controller === undefined ? "—" : seatName(r.controller)),
          ["military", "economic", "cultural"].map((k) => h("td", {}, tally(r.influence?.[k] || [], seatName)))))))),
      h("div", {class: "scroll"}, h("table", {},
        h("caption", {}, "Ideologies"),
        h("thead", {}, h("tr", {}, ["Seat", "Ideology", "Global influence", "Trade power", "Hand", "Regions", "Advancements"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, view.players.map((p) => h("tr", {class: [`seat-${p.seat}`, p.seat === view.seat && "mine"]},
          h("th", {scope: "row"}, seatName(p.seat)), h("td", {}, p.name), h("td", {}, p.global_influence), h("td", {}, p.trade_power),
          h("td", {}, p.hand_size), h("td", {}, p.regions.map((r) => lexicon(game, feed).region(r)).join(", ")),
          h("td", {}, Object.entries(p.advancements).length ? Object.entries(p.advancements).map(([a, n], i) => [i ? ", " : "",
            withTip(h("span", {}, `${lexicon(game, feed).advancement(a)}${n > 1 ? ` ×${n}` : ""}`), tipsOf("ideology")[a])]) : "—")))))),
      view.hand ? h("p", {class: "hand"}, "Your hand: ", Object.entries(view.hand.counts).map(([k, n]) => `${n} ${k}`).join(", ")) : null,
      me && view.discard_owed ? h("p", {}, `You owe a discard of ${view.discard_owed}.`) : null,
      view.conflict ? h("p", {}, `Conflict: ${seatName(view.conflict.attacker)} attacks ${seatName(view.conflict.defender)} in ${
        lexicon(game, feed).region(view.conflict.region)} with ${view.conflict.influence} influence (${view.conflict.stage === "defend" ? "the defender answers" : "the attacker decides"})`) : null,
      h("p", {}, "Relations: ", view.relations.map((r) => `${r.seats.map(seatName).join(" & ")}: ${r.status}`).join("; ")),
      view.result ? h("p", {class: "result"}, `Over (${view.result.reason})`) : null);
  },
  describe: describeIdeology,
  actions(game, post, {seatName, feed = []}) {
    const {region, ideologyName, advancement} = lexicon(game, feed);
    const label = (a) => {
      if (a.type === "exchange" || a.type === "discard") {
        const given = Object.entries(a.discard).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`);
        return given.length ? `${titleCase(a.type)} ${given.join(", ")}` : (a.type === "exchange" ? "Keep my hand" : "Discard nothing");
      }
      if (a.type === "offer") return `Offer: ${Object.entries(a.offers).map(([k, v]) => `${v} to ${ideologyName(k)}`).join(", ") || "neutral to all"}`;
      if (a.type === "buy" && a.advancement) return `Buy the advancement ${advancement(a.advancement)}`;
      const where = a.region ? region(a.region) : "";
      switch (a.type) {
        case "develop": return `Develop ${where} with a ${a.influence} card`;
        case "place": return `Place ${a.influence} influence in ${where}`;
        case "remove": return `Remove ${a.influence} influence from ${where}`;
        case "attack": return `Attack ${seatName(a.target)} in ${where} with ${a.influence} influence`;
        case "wmd": return `Use weapons of mass destruction on ${seatName(a.target)} in ${where}`;
        case "done": return "Done developing";
        case "pass": return "Pass";
        case "cancel": return "Cancel the attack with a matching card";
        case "concede": return "Let the attack succeed";
        case "continue": return "Attack again with another card";
        case "stop": return "Withdraw from the conflict";
        default: return describeAction(a);
      }
    };
    return actionForms(game.legal_actions, post, label);
  },
};
