// Rules at hand: what a card, character or advancement does, in a tooltip that opens on
// hover, on keyboard focus and on a tap. The words are made from the game's own data files
// (served at /rules/<game>/<file>.json), so a tooltip quotes the numbers the server plays by.

import {h} from "./dom.js";

const FILES = {coup: ["cards.json"], revolution: ["board.json"], ideology: ["advancements.json"], pax: ["starter.json"]};
const loaded = new Map();
let made = 0;

const words = (id) => String(id).replace(/_/g, " ");

function coupTips([cards]) {
  const coins = (n) => `${n} coin${n === 1 ? "" : "s"}`;
  const doing = {
    tax: (a) => `Tax: take ${coins(a.gain)} from the treasury`,
    assassinate: (a) => `Assassinate: pay ${coins(a.cost)}; the target loses an influence`,
    steal: (a) => `Steal: take up to ${coins(a.gain)} from another player`,
    exchange: () => `Exchange: draw ${cards.exchange_draw} court cards, then return as many`,
  };
  const blocking = {foreign_aid: "foreign aid", steal: "stealing", assassinate: "an assassination"};
  return Object.fromEntries(cards.characters.map((c) => {
    const act = c.action ? `${doing[c.action](cards.actions[c.action])}.` : "No action of its own.";
    const blocks = c.blocks.length ? ` Blocks ${c.blocks.map((b) => blocking[b] || words(b)).join(" and ")}.` : "";
    return [c.id, `${c.name}. ${act}${blocks}`];
  }));
}

function revolutionTips([board]) {
  const areas = Object.fromEntries((board.areas || []).map((a) => [a.id, a.name]));
  const specials = {spy: "replace another faction's cube with yours", apothecary: "swap two cubes of different factions"};
  return Object.fromEntries(board.characters.map((c) => {
    const gains = [c.support ? `${c.support} support` : null,
      ...Object.entries(c.tokens || {}).map(([k, n]) => `${n} ${k}`),
      c.area ? `a cube in the ${areas[c.area] || words(c.area)}` : null,
      c.special ? (specials[c.special] || words(c.special)) : null].filter(Boolean);
    const immune = c.immune?.length ? ` Cannot be bid on with ${c.immune.join(" or ")}.` : "";
    return [c.id, `${c.name}. The winning bid gets ${gains.join(", ") || "nothing"}.${immune}`];
  }));
}

function ideologyTips([data]) {
  const names = Object.fromEntries(data.advancements.map((a) => [a.id, a.name]));
  const effects = {
    defends: (v) => `defends your ${v} influence against attacks`,
    no_distance_penalty: (v) => `no distance penalty for ${v} influence`,
  };
  return Object.fromEntries(data.advancements.map((a) => {
    const cost = [...Object.entries(a.cost?.cards || {}).map(([k, n]) => `${n} ${k} cards`),
      ...(a.cost?.advancements || []).map((id) => names[id] || words(id))].join(" and ");
    const effect = Object.entries(a.effect || {}).map(([k, v]) => (effects[k] ? effects[k](v) : `${words(k)}: ${
      typeof v === "object" ? JSON.stringify(v).replace(/[{}"[\]]/g, "").replace(/[_:,]/g, " ") : words(v)}`)).join("; ");
    return [a.id, `${a.name} (level ${a.level}, ${a.points} point${a.points === 1 ? "" : "s"}). Costs ${cost || "nothing"}. ${
      effect ? `${effect.charAt(0).toUpperCase()}${effect.slice(1)}.` : ""}`.trim()];
  }));
}

function paxTips([set]) {
  return Object.fromEntries(set.cards.map((c) => {
    const facts = [`${words(c.category)} card`];
    if (c.cost !== undefined) facts.push(`costs ${c.cost} gold`);
    if (c.district) facts.push(`in ${words(c.district)}`);
    if (c.faction) facts.push(`${c.faction} faction`);
    if (c.income) facts.push(`income: ${words(c.income.kind)}${c.income.value ? ` ${c.income.value}` : ""}`);
    if (c.firepower) facts.push(`firepower ${c.firepower}`);
    if (c.unrest) facts.push(`unrest ${c.unrest}`);
    if (c.prestige?.length) facts.push(`prestige: ${[].concat(c.prestige).map(words).join(", ")}`);
    const abilities = [...(c.abilities || []), ...(c.effects || []), ...(c.event || [])].map((a) => words(a.kind));
    if (abilities.length) facts.push(`effects: ${abilities.join(", ")}`);
    if (c.faces) facts.push(`faces: ${c.faces.map((f) => f.name).join(" or ")}`);
    return [c.id, `${c.name}: ${facts.join("; ")}.`];
  }));
}

const BUILDERS = {coup: coupTips, revolution: revolutionTips, ideology: ideologyTips, pax: paxTips};

/** Start loading ``game``'s tooltips; resolves to {id: text} (empty for a game without data). */
export function loadTips(game) {
  if (!loaded.has(game)) {
    const files = FILES[game] || [];
    const promise = Promise.all(files.map((f) => fetch(`/rules/${game}/${f}`).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${f}: ${r.status}`))))))
      .then((data) => { const tips = files.length ? BUILDERS[game](data) : {}; loaded.set(game, tips); return tips; });
    loaded.set(game, promise);
  }
  const held = loaded.get(game);
  return held instanceof Promise ? held : Promise.resolve(held);
}

/** The tooltips of ``game`` if loaded already (drawing never waits for them). */
export function tipsOf(game) {
  const held = loaded.get(game);
  return held instanceof Promise || !held ? {} : held;
}

/** ``el`` with its tooltip: focusable, described by the text, opened by hover, focus or a tap. */
export function withTip(el, text) {
  if (!text) return el;
  const id = `tip-${++made}`;
  const wrap = h("span", {class: "tip", tabindex: 0, "aria-describedby": id, onclick: (event) => {
    event.stopPropagation();
    wrap.classList.toggle("open");
  }, onkeydown: (event) => { if (event.key === "Escape") { wrap.classList.remove("open"); wrap.blur(); } }},
  el, h("span", {role: "tooltip", id, class: "tip-text"}, text));
  return wrap;
}
