// Ideology: The War of Ideas: the map drawn as SVG from the game's own map data (the
// regions and their neighbours; the layout is computed here, the data has no positions),
// the control each seat holds, your hand, the phase and its decision.

import {h, titleCase} from "../dom.js";
import {actionForms, describeAction} from "./generic.js";
import {tipsOf, withTip} from "../tips.js";

const layouts = new Map();
let maps = 0;

/** Where the default map's regions sit: [column, row(, rows)] on a grid that follows the world:
 * the Americas, then (after the Atlantic) Europe and Africa, the Middle East, Asia and Oceania.
 * Every pair of neighbours is side by side or corner to corner, so no link runs under a tile;
 * Russia spans two rows to touch Sweden, Eastern Europe, Turkey and Asia. */
const WORLD = {
  canada: [0, 0], united_states: [0, 1], mexico: [0, 2], cuba: [1, 2], central_america: [1, 3], colombia: [1, 4],
  peru: [0, 5], brazil: [1, 5], chile: [0, 6], argentina: [1, 6],
  iceland: [2, 0], sweden: [3, 0], great_britain: [2, 1], germany: [3, 1], eastern_europe: [4, 1], russia: [5, 0, 2],
  france: [2, 2], italy: [3, 2], balkans: [4, 2], turkey: [5, 2], spain: [2, 3], north_africa: [3, 3], israel: [4, 3],
  iraq: [5, 3], iran: [6, 3], west_africa: [2, 4], central_africa: [3, 4], egypt: [4, 4], arabia: [5, 4],
  south_africa: [3, 5], east_africa: [4, 5],
  siberia: [6, 1], central_asia: [6, 2], japan: [7, 0], korea: [7, 1], china: [7, 2], pakistan: [7, 3],
  southeast_asia: [8, 2], india: [8, 3], philippines: [9, 2], indonesia: [9, 3], australia: [9, 4], new_zealand: [9, 5],
};
const CELL = {w: 106, h: 62};
const TILE = {w: 102, h: 54};
const ATLANTIC = 0.25;  // extra columns of sea between the Americas and the Old World
const MARGIN = 8;

/** Grid cells for any other map: a spring layout of its graph, each region then given the
 * free cell nearest its spot, so tiles never overlap whatever the map. */
function springCells(regions) {
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
        const push = 4000 / Math.max(dx * dx + dy * dy, 1);
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
  const cols = Math.max(1, Math.ceil(Math.sqrt(n * 1.8))), rows = Math.ceil(n / cols) + 1;
  const xs = pos.map((p) => p.x), ys = pos.map((p) => p.y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const taken = new Set();
  return pos.map((p) => {
    const want = {c: ((p.x - x0) / (x1 - x0 || 1)) * (cols - 1), r: ((p.y - y0) / (y1 - y0 || 1)) * (rows - 1)};
    let best = null;
    for (let c = 0; c < cols; c++) {
      for (let r = 0; r < rows; r++) {
        const d = (c - want.c) ** 2 + (r - want.r) ** 2;
        if (!taken.has(`${c},${r}`) && (!best || d < best.d)) best = {c, r, d};
      }
    }
    taken.add(`${best.c},${best.r}`);
    return [best.c, best.r];
  });
}

/** Tiles for a region graph: the world grid for the default map, else a spring layout on a grid. */
function layout(regions) {
  const key = regions.map((r) => r.id).join(",");
  if (layouts.has(key)) return layouts.get(key);
  const world = regions.every((r) => WORLD[r.id]);
  const cells = world ? regions.map((r) => WORLD[r.id]) : springCells(regions);
  const tiles = cells.map(([c, r, span = 1]) => {
    const x = MARGIN + (c + (world && c >= 2 ? ATLANTIC : 0)) * CELL.w;
    const y = MARGIN + r * CELL.h;
    return {x, y, w: TILE.w, h: TILE.h + (span - 1) * CELL.h, cx: x + TILE.w / 2, cy: y + TILE.h / 2, span};
  });
  const index = new Map(regions.map((r, i) => [r.id, i]));
  const edges = [];
  regions.forEach((r, i) => (r.neighbours || []).forEach((other) => {
    const j = index.get(other);
    if (j !== undefined && j > i) edges.push([i, j]);
  }));
  const box = {w: Math.max(...tiles.map((t) => t.x + t.w)) + MARGIN, h: Math.max(...tiles.map((t) => t.y + t.h)) + MARGIN};
  const result = {tiles, edges, box};
  layouts.set(key, result);
  return result;
}

/** Where a link leaves ``tile`` towards ``other``: its centre, or for a tall tile the row facing it. */
function anchor(tile, other) {
  const top = tile.y + TILE.h / 2, bottom = tile.y + tile.h - TILE.h / 2;
  return {x: tile.cx, y: Math.max(top, Math.min(bottom, other.cy))};
}

/** The tile an arrow key leads to from tile ``i``: the nearest one that way (rows count double). */
function neighbourTile(tiles, i, key) {
  const way = {ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1]}[key];
  if (!way) return null;
  let best = null;
  tiles.forEach((t, j) => {
    const dx = t.cx - tiles[i].cx, dy = t.cy - tiles[i].cy;
    const along = dx * way[0] + dy * way[1], across = Math.abs(dx * way[1]) + Math.abs(dy * way[0]);
    if (j === i || along <= 0) return;
    const cost = along + 2 * across;
    if (best === null || cost < best.cost) best = {j, cost};
  });
  return best ? best.j : null;
}

/** A name in at most two lines that fit a tile: "Central America" -> ["Central", "America"]. */
function nameLines(name) {
  if (name.length <= 10 || !name.includes(" ")) return [name];
  const middle = name.length / 2;
  let cut = -1;
  for (let i = 0; i < name.length; i++) if (name[i] === " " && (cut < 0 || Math.abs(i - middle) < Math.abs(cut - middle))) cut = i;
  return [name.slice(0, cut), name.slice(cut + 1)];
}

/** What a region is and does, from the map's own data (its printed level and its neighbours). */
export function regionTip(region, names, live, seatName) {
  const level = region.level;
  const near = (region.neighbours || []).map((id) => names.get(id) || titleCase(id));
  const now = live ? ` Now: ${live.status}${live.controller !== null && live.controller !== undefined ? ` by ${seatName(live.controller)}` : ""}, development ${
    live.development ?? live.level}, ${Object.values(live.influence || {}).flat().length} influence cards.` : " Not in play yet: it comes up from the region pile.";
  return `${region.name}, printed level ${level}. Independent, each area holds as many cards as its development level; `
    + `controlled, up to ${2 * level}. Its controller adds its development level to Global Influence. `
    + `Neighbours: ${near.join(", ") || "none"} (no distance penalty from a controlled neighbour).${now}`;
}

function mapSvg(view, board, seatName) {
  const inPlay = new Map(view.regions.map((r) => [r.id, r]));
  // The whole map (TableSet's board: regions keyed by id) when the feed brought it, else what is in play.
  const known = board?.regions ? (Array.isArray(board.regions) ? board.regions : Object.values(board.regions)) : [];
  const all = known.length ? known : view.regions;
  const names = new Map(all.map((r) => [r.id, r.name]));
  const {tiles, edges, box} = layout(all);
  const svg = h("svg:svg", {viewBox: `0 0 ${box.w} ${box.h}`, class: "ideology-map", role: "group",
                            "aria-label": `Map: ${view.regions.length} regions in play of ${all.length}`});
  for (const [i, j] of edges) {
    const a = anchor(tiles[i], tiles[j]), b = anchor(tiles[j], tiles[i]);
    svg.append(h("svg:line", {x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "edge"}));
  }
  // One tooltip for the whole map, placed under the tile it tells about (hover, focus or tap).
  const tipId = `map-tip-${++maps}`;  // a finished table draws two maps (live and replayed)
  const tip = h("div", {role: "tooltip", id: tipId, class: "tip-text map-tip"});
  const wrap = h("div", {class: "map-wrap"});
  let pinned = null;
  const show = (g, text) => {
    tip.textContent = text;
    const frame = wrap.getBoundingClientRect(), at = g.getBoundingClientRect();
    tip.style.top = `${at.bottom - frame.top + 4}px`;
    tip.style.left = `${Math.max(0, Math.min(at.left - frame.left, frame.width - Math.min(352, frame.width)))}px`;
    tip.classList.add("open");
  };
  const hide = (g) => { if (pinned !== g) tip.classList.remove("open"); };
  // One tab stop for the whole map (the seat's own region, else the first in play); the arrow
  // keys go from tile to tile, as in any grid, so the keyboard need not cross 43 tiles.
  const mine = all.findIndex((r) => inPlay.get(r.id)?.controller === view.seat && view.seat !== null && view.seat !== undefined);
  const first = mine >= 0 ? mine : Math.max(0, all.findIndex((r) => inPlay.has(r.id)));
  const groups = [];
  const move = (from, to) => {
    groups[from].setAttribute("tabindex", "-1");
    groups[to].setAttribute("tabindex", "0");
    groups[to].focus();
  };
  all.forEach((region, i) => {
    const live = inPlay.get(region.id);
    const owner = live?.controller;
    const controlled = owner !== null && owner !== undefined;
    const cards = live ? Object.values(live.influence).flat().length : 0;
    const t = tiles[i];
    const lines = nameLines(region.name);
    const info = live ? `level ${live.development ?? live.level} · ${cards}` : `level ${region.level}`;
    const top = t.h / 2 - (lines.length === 1 ? 2 : 10);  // the name's first baseline, from the tile's top
    const text = regionTip(region, names, live, seatName);
    // The accessible name starts with what the tile shows (its name and its numbers), then says it.
    const label = `${lines.join(" ")} ${info}: ${live ? `${live.status}${controlled ? ` by ${seatName(owner)}` : ""}, development ${
      live.development ?? live.level}, ${cards} influence cards` : "not in play yet"}`;
    const g = h("svg:g", {class: ["region", live ? "live" : "dormant", controlled ? `seat-${owner}` : null],
                          transform: `translate(${t.x},${t.y})`, tabindex: i === first ? 0 : -1, role: "button", "aria-label": label,
                          "aria-describedby": tipId, dataset: {region: region.id},
                          onmouseenter: () => show(g, text), onmouseleave: () => hide(g), onfocus: () => show(g, text),
                          onblur: () => { if (pinned === g) pinned = null; hide(g); },
                          onclick: (event) => { event.stopPropagation(); pinned = pinned === g ? null : g; if (pinned) show(g, text); else hide(g); },
                          onkeydown: (event) => {
                            if (event.key === "Escape") { pinned = null; tip.classList.remove("open"); return; }
                            if (event.key === "Enter" || event.key === " ") { event.preventDefault(); g.dispatchEvent(new MouseEvent("click")); return; }
                            const next = neighbourTile(tiles, i, event.key);
                            if (next !== null) { event.preventDefault(); move(i, next); }
                          }},
      h("svg:rect", {width: t.w, height: t.h, rx: 6}),
      h("svg:text", {class: "name", x: t.w / 2, y: top, "text-anchor": "middle"},
        // A space ends each line, so the tile's text reads "Great Britain level 3" (its accessible name starts so too).
        lines.map((line, k) => h("svg:tspan", {x: t.w / 2, dy: k ? 15 : 0}, `${line} `))),
      h("svg:text", {class: "info", x: t.w / 2, y: top + 15 * (lines.length - 1) + 16, "text-anchor": "middle"}, info));
    groups.push(g);
    svg.append(g);
  });
  wrap.append(h("div", {class: "map-frame"}, svg), tip);
  return wrap;
}

/** "Iris (seat 0) ×3, Igor (seat 1)": whose cards are in an area, counted. */
function tally(seats, seatName) {
  const counts = new Map();
  for (const seat of seats) counts.set(seat, (counts.get(seat) || 0) + 1);
  return [...counts].map(([seat, n]) => `${seatName(seat)}${n > 1 ? ` ×${n}` : ""}`).join(", ") || "—";
}

const LETTERS = {m: "military", e: "economic", c: "cultural"};
/** Why a game of Ideology ended, in words (GameScored's reason). */
const END_WORDS = {global_influence: "a seat holds 12 Global Influence at the end of a turn", stalled: "nothing could change any more",
                   turn_limit: "the turn limit"};
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
  board(game, {seatName, feed = [], replay = false}) {
    const view = game.view;
    const live = !replay && game.status === "active";
    if (!view) return h("p", {}, "The map is laid out when every seat is taken.");
    const table = feed.find((e) => e.type === "TableSet");
    const me = view.players.find((p) => p.seat === view.seat);
    const tips = tipsOf("ideology");
    const known = table?.data?.board?.regions ? Object.values(table.data.board.regions) : view.regions;
    const regionNames = new Map([...view.regions, ...known].map((r) => [r.id, r.name]));
    const regionWords = (r) => regionTip(known.find((k) => k.id === r.id) || r, regionNames, r, seatName);
    return h("div", {class: "ideology"},
      h("p", {class: "phase"}, `Turn ${view.turn} · the ${PHASE_NAMES[view.phase] || titleCase(view.phase)} phase`, view.why ? ` — ${view.why}` : ""),
      mapSvg(view, table?.data?.board, seatName),
      h("ul", {class: "map-legend", "aria-label": "Map legend"},
        view.players.map((p) => h("li", {}, h("span", {class: `swatch seat-${p.seat}`, "aria-hidden": "true"}), `${seatName(p.seat)} controls`)),
        h("li", {}, h("span", {class: "swatch free", "aria-hidden": "true"}), "in play, nobody controls it"),
        h("li", {}, h("span", {class: "swatch dormant", "aria-hidden": "true"}), "not in play yet"),
        h("li", {}, "“level 3 · 9”: the region's development level, then the influence cards in it"),
        h("li", {}, "a line: neighbouring regions; hover, focus or tap a region to read about it")),
      h("div", {class: "scroll"}, h("table", {},
        h("caption", {}, "Regions in play"),
        h("thead", {}, h("tr", {}, ["Region", "Level", "Status", "Controller", "Military", "Economic", "Cultural"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, view.regions.map((r) => h("tr", {},
          h("th", {scope: "row"}, withTip(h("span", {}, r.name), regionWords(r))), h("td", {}, r.development ?? r.level), h("td", {}, r.status),
          h("td", {}, r.controller === null || r.controller === undefined ? "—" : seatName(r.controller)),
          ["military", "economic", "cultural"].map((k) => h("td", {}, tally(r.influence?.[k] || [], seatName)))))))),
      h("div", {class: "scroll"}, h("table", {},
        h("caption", {}, "Ideologies"),
        h("thead", {}, h("tr", {}, ["Seat", "Ideology", "Global influence", "Trade power", "Hand", "Regions", "Advancements"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, view.players.map((p) => h("tr", {class: [`seat-${p.seat}`, p.seat === view.seat && "mine"]},
          h("th", {scope: "row"}, seatName(p.seat)), h("td", {}, withTip(h("span", {}, p.name), tips[`ideology:${p.ideology}`])),
          h("td", {}, p.global_influence), h("td", {}, p.trade_power),
          h("td", {}, p.hand_size), h("td", {}, p.regions.map((r) => lexicon(game, feed).region(r)).join(", ")),
          h("td", {}, Object.entries(p.advancements).length ? Object.entries(p.advancements).map(([a, n], i) => [i ? ", " : "",
            withTip(h("span", {}, `${lexicon(game, feed).advancement(a)}${n > 1 ? ` ×${n}` : ""}`), tips[a])]) : "—")))))),
      view.hand ? h("p", {class: "hand"}, "Your hand: ", Object.entries(view.hand.counts).map(([k, n], i) => [i ? ", " : "",
        withTip(h("span", {}, `${n} ${k}`), tips[`card:${k}`])])) : null,
      me && view.discard_owed && live ? h("p", {}, `You owe a discard of ${view.discard_owed}.`) : null,
      view.conflict && !view.result ? h("p", {}, live ? "Conflict: " : "At this version, a conflict: ", `${seatName(view.conflict.attacker)} attacks ${seatName(view.conflict.defender)} in ${
        lexicon(game, feed).region(view.conflict.region)} with ${view.conflict.influence} influence (${view.conflict.stage === "defend"
          ? (live ? "the defender answers" : "the defender was to answer") : (live ? "the attacker decides" : "the attacker was to decide")})`) : null,
      h("p", {}, "Relations: ", view.relations.map((r) => `${r.seats.map(seatName).join(" & ")}: ${r.status}`).join("; ")),
      view.result ? h("p", {class: "result"}, `Game over (${END_WORDS[view.result.reason] || titleCase(view.result.reason).toLowerCase()}): ${
        (view.result.winners || []).map(seatName).join(" and ") || "nobody"} ${(view.result.winners || []).length > 1 ? "share the win" : "wins"}.`) : null);
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
