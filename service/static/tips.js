// Rules at hand: what a card, character or advancement does, in a tooltip that opens on
// hover, on keyboard focus and on a tap. The words are made from the game's own data files
// (served at /rules/<game>/<file>.json), so a tooltip quotes the numbers the server plays by.

import {h} from "./dom.js";

const FILES = {coup: ["cards.json"], revolution: ["board.json"], ideology: ["advancements.json", "ideologies.json", "regions.json"],
               pax: ["starter.json"]};
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
  const specials = {spy: "the right to replace another faction's cube with its own", apothecary: "the right to swap two cubes of different factions"};
  return Object.fromEntries(board.characters.map((c) => {
    const gains = [c.support ? `${c.support} support` : null,
      ...Object.entries(c.tokens || {}).map(([k, n]) => `${n} ${k}`),
      c.area ? `a cube in the ${areas[c.area] || words(c.area)}` : null,
      c.special ? (specials[c.special] || words(c.special)) : null].filter(Boolean);
    const immune = c.immune?.length ? ` Cannot be bid on with ${c.immune.join(" or ")}.` : "";
    return [c.id, `${c.name}. The winning bid gets ${gains.join(", ") || "nothing"}.${immune}`];
  }));
}

const KINDS = ["military", "economic", "cultural"];
/** What a conflict of each type needs (the rulebook's diplomacy), said once for the card types. */
const CONFLICT_RULE = {military: "a military conflict is an act of war, only against an ideology you are at war with",
                       economic: "an economic conflict is allowed only against a neutral or enemy ideology",
                       cultural: "a cultural conflict is always allowed"};
const ORDINALS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"};
const IDEOLOGY_ABILITIES = {global_colonization: "Global Colonization: no distance penalty when placing influence in a level-1 region"};

const list = (items) => (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
const sentence = (text) => (text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "");

/** Ideology: each advancement (keyed by its id), each ideology ("ideology:<id>") and each
 * influence card type ("card:<type>"), from advancements.json, ideologies.json and regions.json. */
function ideologyTips([data, roles, map]) {
  const names = Object.fromEntries(data.advancements.map((a) => [a.id, a.name]));
  const regions = Object.fromEntries((map?.regions || []).map((r) => [r.id, r]));
  const effects = {
    defends: (kind) => `defends you: an attacker in ${kind === "economic" ? "an" : "a"} ${kind} conflict discards one more ${kind} card for each of these you hold beyond its own`,
    no_distance_penalty: (kind) => `no distance penalty for your ${kind} influence, placing it or attacking with it`,
    global_influence: (n) => `adds ${n} to your Global Influence while you hold it`,
    use: (what) => (what === "destroy_influence"
      ? "in the conflict phase, against an ideology you are at war with, it goes back to the supply and every card of that ideology in one region is discarded"
      : words(what)),
  };
  const tips = Object.fromEntries(data.advancements.map((a) => {
    const paid = [...Object.entries(a.cost?.cards || {}).map(([k, n]) => `${n} ${k} card${n === 1 ? "" : "s"}`),
      ...(a.cost?.advancements || []).map((id) => names[id] || words(id))];
    const cost = paid.length ? `Costs ${list(paid)}${a.cost?.advancements?.length ? " (spent back to the supply)" : ""}.` : "Costs nothing.";
    const effect = Object.entries(a.effect || {}).map(([k, v]) => (effects[k] ? effects[k](v) : `${words(k)} ${words(v)}`));
    return [a.id, `${a.name}, a level-${a.level} advancement: ${effect.join("; ") || "no effect of its own"}. ${cost} `
      + (a.points ? `Worth ${a.points} tie-break point${a.points === 1 ? "" : "s"}.` : "Worth no tie-break point.")];
  }));
  for (const kind of KINDS) {
    const defends = data.advancements.filter((a) => a.effect?.defends === kind).map((a) => a.name);
    const waives = data.advancements.filter((a) => a.effect?.no_distance_penalty === kind).map((a) => a.name);
    const decks = [...new Set((roles?.ideologies || []).map((i) => i.deck?.[kind]))];
    tips[`card:${kind}`] = `${kind === "economic" ? "An" : "A"} ${kind} influence card: laid beside a region you control (development) `
      + `or an independent one (foreign affairs), or played in a conflict: ${CONFLICT_RULE[kind]}. `
      + `${defends.length ? `${list(defends)} defend${defends.length === 1 ? "s" : ""} against it; ` : ""}`
      + `${waives.length ? `${list(waives)} spare${waives.length === 1 ? "s" : ""} its distance penalty. ` : ""}`
      + `${decks.length === 1 && decks[0] ? `Each ideology's deck holds ${decks[0]}.` : ""}`.trim();
  }
  for (const role of roles?.ideologies || []) {
    const start = regions[role.start_region];
    const abilities = (role.abilities || []).map((a) => IDEOLOGY_ABILITIES[a] || words(a));
    tips[`ideology:${role.id}`] = `${role.name}: starts controlling ${start ? `${start.name} (level ${start.level})` : words(role.start_region)} `
      + `with the advancement ${names[role.start_advancement] || words(role.start_advancement)}; ${
        KINDS.map((k) => `${role.deck?.[k] ?? 0} ${k}`).join(", ")} cards in its deck; ${ORDINALS[role.turn_order] || `number ${role.turn_order}`} in the opening turn order.`
      + `${abilities.length ? ` ${abilities.map(sentence).join(" ")}` : ""}`;
  }
  return tips;
}

// Pax Porfiriana: a card's effect in words, built from what the card file says it does.
const FACTIONS = {blue: "US", green: "federal", white: "local", red: "rebel"};
const DISTRICTS = {sonora: "Sonora", chihuahua: "Chihuahua", america: "America, north of the border"};
const BONUS = {buy: "buy from the market", buy_land: "buy land", play: "play a card", police: "call the police",
               redeploy: "redeploy a troop", sell: "sell a card", speculate: "speculate", upgrade: "upgrade a connection"};
const CONNECTIONS = {boot: "on foot", mule: "by mule", rail: "by rail", ship: "by ship"};
const TARGETS = {seat: "a rival", partner: "a partner in play", troop: "a troop in play"};

/** The regimes' names of Pax's starter set, once its file is in. */
export const paxRegimes = {};

function paxTips([set]) {
  const regimes = Object.fromEntries(set.cards.filter((c) => c.category === "regime").map((c) => [c.id, c.name]));
  Object.assign(paxRegimes, regimes);
  return Object.fromEntries(set.cards.map((c) => [c.id, paxCardWords(c, regimes)]));
}

/** One Pax card's effect in words, from its definition (the set's file, or a table's own
 * ``view.cards``); ``regimes`` names the regimes a regime change may bring. */
export function paxCardWords(card, regimes = {}) {
  const district = (d) => DISTRICTS[d] || words(d);
  const faction = (f) => (FACTIONS[f] ? `${FACTIONS[f]} (${f})` : words(f));
  const prestige = (p) => [].concat(p || []).map((k) => `${words(k).replace(/^./, (c) => c.toUpperCase())}`);
  const ability = (a) => {
    switch (a.kind) {
      case "discount": return `your enterprises${a.district ? ` in ${district(a.district)}` : ""} cost ${a.amount} gold less`;
      case "bonus_action": return `one extra action a turn to ${BONUS[a.action] || words(a.action)}`;
      case "firepower": return `your troops fight with ${a.amount} more firepower`;
      case "topple_fraud": return `in a topple you may discard it for election fraud: Díaz gains ${a.amount} ${
        a.prestige === "any" ? "prestige of a kind you choose" : `${prestige(a.prestige)[0]} prestige`}`;
      default: return words(a.kind);
    }
  };
  const effect = (e) => {
    switch (e.kind) {
      case "regime_change": return `the regime becomes ${regimes[e.to] || words(e.to)}`;
      case "conflict": return `a conflict between the ${list(e.factions.map(faction))} factions: a seat holding both keeps one and discards its cards of the other`;
      case "unrest_others": return `${e.amount} unrest on every other enterprise of its district`;
      case "unrest_district": return `${e.amount} unrest on every enterprise in ${district(e.district)}`;
      case "gain": return `every seat holding a ${faction(e.faction)} card takes ${e.amount} gold`;
      default: return words(e.kind);
    }
  };
  const income = (i) => ({fixed: `pays ${i.value} gold a turn`, upgradable: `pays ${i.value} gold a turn, 1 more for each land bought`,
                          economy: "pays the regime's Economy in gold each turn", mine: "pays the regime's Mines in gold each turn"}[i.kind]
    || `income: ${words(i.kind)}`);
  const gives = (c) => (c.prestige?.length ? ` It counts ${list(prestige(c.prestige))} prestige.` : "");
  const played = (c) => (c.effects?.length ? ` When played: ${list(c.effects.map(effect))}.` : "");
  const abilities = (c) => (c.abilities?.length ? ` ${sentence(list(c.abilities.map(ability)))}` : "");
  const say = {
    enterprise: (c) => `${c.name}: an enterprise in ${district(c.district)} for ${c.cost} gold. It ${income(c.income || {})}. `
      + `Troops reach it ${CONNECTIONS[c.connection] || words(c.connection)}${(c.ovals || []).length ? `; a connection may be built ${
        list(c.ovals.map((o) => `${CONNECTIONS[o.connection] || words(o.connection)} for ${o.cost} gold${o.trunk ? " (a trunk line)" : ""}`))}` : ""}.`
      + `${c.slaves ? ` Worked by slaves: when its unrest outnumbers its cubes it revolts, its owner goes to jail and the liberator gains its ${
        list(prestige(c.liberator_prestige)) || "prestige"}${c.liberator_prestige?.length ? " prestige" : ""}.` : ""}`
      + `${c.arms ? " An arms dealer: its owner earns 2 gold whenever anyone plays an orange card." : ""}${gives(c)}`,
    partner: (c) => `${c.name}: a ${faction(c.faction)} partner for ${c.cost} gold.${abilities(c)}${played(c)}${gives(c)}`,
    troop: (c) => `${c.name}: a ${faction(c.faction)} troop of ${district(c.jurisdiction)}, firepower ${c.firepower}. Sent to an enterprise `
      + `(fare ${Object.entries(c.transport || {}).map(([k, n]) => `${CONNECTIONS[k] || words(k)} ${n}`).join(", ")} gold), it removes `
      + `${c.firepower} unrest and guards yours or extorts a rival's.${played(c)}${gives(c)}`,
    black: (c) => `${c.name}: a black card for ${c.cost} gold against ${TARGETS[c.target] || words(c.target)}`
      + `${c.target === "partner" ? ", which is discarded" : c.target === "troop" ? ", which is discarded" : ""}`
      + `${c.steal ? `; steals up to ${c.steal} gold` : ""}${c.jail ? "; sends the victim to jail" : ""}.`
      + `${c.assassination ? " In a topple it can assassinate a turned hacendado." : ""}`
      + `${c.regime ? ` Outside ${regimes[c.regime] || words(c.regime)} it costs two actions.` : ""}`
      + `${c.opponent_only ? " Only against an opponent." : ""}${played(c)}`
      + `${c.prestige?.length ? ` It lands in the victim's grievances, counting ${list(prestige(c.prestige))} prestige.` : ""}`,
    orange: (c) => `${c.name}: an orange card for ${c.cost} gold against an enterprise${c.district ? ` in ${district(c.district)}` : ""}: `
      + `${c.unrest} unrest${c.steal ? `, and steals up to ${c.steal} gold from its owner` : ""}${c.jail ? "; sends the owner to jail" : ""}.`
      + `${c.scapegoat ? " May be played as a scapegoat, for no gold and no unrest." : ""}${played(c)}`
      + `${c.prestige?.length ? ` It lands in the victim's grievances, counting ${list(prestige(c.prestige))} prestige.` : ""}`,
    headline: (c) => `${c.name}: a ${c.icon} headline, played when bought. Its event: ${list((c.event || []).map(effect)) || "nothing"}; `
      + "or the buyer keeps the status quo.",
    topple: (c) => `${c.name}: a ${c.icon} topple. Buying it calls a vote on Díaz: every seat whose prestige of the kind the regime counts `
      + `beats its tripartite takes power. Its event side: Díaz ${c.heel?.amount < 0 ? "loses" : "gains"} ${Math.abs(c.heel?.amount || 0)} `
      + `${prestige(c.heel?.prestige)[0]} prestige if the regime counts it.`,
    public: (c) => `${c.name}: a public card for ${c.cost} gold, played on your tableau with a face of your choice: ${
      (c.faces || []).map((f) => `${f.name} (${FACTIONS[f.faction] || words(f.faction)} faction${f.prestige?.length ? `, ${list(prestige(f.prestige))} prestige` : ""})${
        f.abilities?.length ? `: ${list(f.abilities.map(ability))}` : ""}${f.effects?.length ? `; when played, ${list(f.effects.map(effect))}` : ""}`).join("; or ")}.`,
    hacendado: (c) => `${c.name}: a hacendado, the character a seat plays. Loyal, it has ${c.loyalist?.income ?? 2} income cubes that pay each turn${
      c.loyalist?.abilities?.length ? `, and ${list(c.loyalist.abilities.map(ability))}` : ""}. A manifesto turns it for good, losing those cubes, into ${
      list((c.orientations || []).map((o) => `the ${o.name} (${FACTIONS[o.faction] || words(o.faction)} faction, ${prestige(o.prestige)[0]} prestige, troops join it ${CONNECTIONS[o.connection] || words(o.connection)})`).concat([]))
        .replace(/ and the /, " or the ")}.`,
    regime: (c) => `${c.name}: a regime. Mines pay ${c.mines}, the economy ${c.economy}; a topple counts ${prestige(c.topple)[0]} prestige.`,
  };
  return (say[card.category] || ((x) => `${x.name}: ${words(x.category)}.`))(card);
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

/** A tap anywhere else closes a tapped tooltip (one open at a time, as on a phone). */
function closeOthers(keep = null) {
  for (const open of document.querySelectorAll(".tip.open")) if (open !== keep) open.classList.remove("open");
}
let listening = false;

/** ``el`` with its tooltip: focusable, described by the text, opened by hover, focus or a tap. */
export function withTip(el, text) {
  if (!text) return el;
  if (!listening) {
    listening = true;
    document.addEventListener("click", () => closeOthers());
  }
  const id = `tip-${++made}`;
  const wrap = h("span", {class: "tip", tabindex: 0, "aria-describedby": id, onclick: (event) => {
    event.stopPropagation();
    closeOthers(wrap);
    wrap.classList.toggle("open");
  }, onkeydown: (event) => { if (event.key === "Escape") { wrap.classList.remove("open"); wrap.blur(); } }},
  el, h("span", {role: "tooltip", id, class: "tip-text"}, text));
  return wrap;
}
