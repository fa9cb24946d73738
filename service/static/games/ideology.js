// Ideology: The War of Ideas: the map drawn as SVG from the game's own map data (the
// regions and their neighbours; the layout is computed here, the data has no positions),
// the control each seat holds, your hand, the phase and its decision.

import {h, titleCase} from "../dom.js";
import {actionForms, describeAction} from "./generic.js";

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
      h("svg:text", {y: live ? -24 - 2 * (live.development || 0) : -14, "text-anchor": "middle"}, region.name),
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

export const ideology = {
  orders: [{label: "Cancel every attack on me while I can pay for it", order: {decision: "defend", answer: {type: "cancel"}}},
           {label: "Concede every attack on me", order: {decision: "defend", answer: {type: "concede"}}}],
  board(game, {seatName, feed = []}) {
    const view = game.view;
    if (!view) return h("p", {}, "The map is laid out when every seat is taken.");
    const table = feed.find((e) => e.type === "TableSet");
    const me = view.players.find((p) => p.seat === view.seat);
    return h("div", {class: "ideology"},
      h("p", {class: "phase"}, `Turn ${view.turn} · phase: ${titleCase(view.phase)}`, view.why ? ` — ${view.why}` : ""),
      mapSvg(view, table?.data?.board, seatName),
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
          h("td", {}, p.hand_size), h("td", {}, p.regions.map(titleCase).join(", ")),
          h("td", {}, Object.entries(p.advancements).map(([a, n]) => `${titleCase(a)}${n > 1 ? ` ×${n}` : ""}`).join(", ") || "—")))))),
      view.hand ? h("p", {class: "hand"}, "Your hand: ", Object.entries(view.hand.counts).map(([k, n]) => `${n} ${k}`).join(", ")) : null,
      me && view.discard_owed ? h("p", {}, `You owe a discard of ${view.discard_owed}.`) : null,
      view.conflict ? h("p", {}, `Conflict: ${seatName(view.conflict.attacker)} attacks ${seatName(view.conflict.defender)} in ${titleCase(view.conflict.region)} (${view.conflict.influence}, ${view.conflict.stage})`) : null,
      h("p", {}, "Relations: ", view.relations.map((r) => `${r.seats.map(seatName).join(" & ")}: ${r.status}`).join("; ")),
      view.result ? h("p", {class: "result"}, `Over (${view.result.reason})`) : null);
  },
  actions(game, post) {
    const label = (a) => {
      if (a.type === "exchange" || a.type === "discard") {
        const given = Object.entries(a.discard).filter(([, n]) => n).map(([k, n]) => `${n} ${k}`);
        return given.length ? `${titleCase(a.type)} ${given.join(", ")}` : (a.type === "exchange" ? "Keep my hand" : "Discard nothing");
      }
      if (a.type === "offer") return `Offer: ${Object.entries(a.offers).map(([k, v]) => `${titleCase(k)} ${v}`).join(", ") || "neutral to all"}`;
      if (a.region) return `${titleCase(a.type)} ${a.influence ?? ""} in ${titleCase(a.region)}${a.target !== undefined ? ` against seat ${a.target}` : ""}`.replace("  ", " ");
      return describeAction(a);
    };
    return actionForms(game.legal_actions, post, label);
  },
};
