// Pax Porfiriana: the market, your tableau and hand, gold, the regime and the headline
// cards on the table; every decision from legal_actions.

import {h, titleCase} from "../dom.js";
import {actionForms} from "./generic.js";
import {paxCardWords, paxRegimes, tipsOf, withTip} from "../tips.js";
import {awaitedWords} from "../words.js";

const nameOf = (view, id) => view.cards?.[id]?.name || view.names?.[id] || titleCase(id);

function cardTile(view, id, extra = null) {
  const card = view.cards?.[id];
  return h("div", {class: ["pax-card", card?.category && `cat-${card.category}`]},
    withTip(h("strong", {}, nameOf(view, id)), tipFor(view, id)), card?.category ? h("small", {}, ` ${card.category}`) : null, extra);
}

/** A card's name that explains the card on hover, focus or tap. */
const tipped = (view, id) => withTip(h("span", {}, nameOf(view, id)), tipFor(view, id));

/** The words of a card: from the table's own card definitions when the view carries them (a
 * custom set too), else from the starter set's file. */
function tipFor(view, id) {
  const card = view.cards?.[id];
  if (!card) return tipsOf("pax")[id];
  const regimes = Object.fromEntries(Object.entries(view.cards).filter(([, c]) => c.category === "regime").map(([key, c]) => [key, c.name]));
  if (view.regime?.id) regimes[view.regime.id] ??= view.regime.name;
  return paxCardWords({id, ...card}, {...paxRegimes, ...regimes});
}
const cardList = (view, ids) => (ids.length ? ids.map((id, i) => [i ? ", " : "", tipped(view, id)]) : "—");

/** "(its rail connection, 3 gold)": an upgrade's oval by what it builds, never by its index
 * (an ordinal only when the card prints two of the same kind). */
function ovalWords(ovals, index) {
  const oval = ovals[index];
  if (!oval) return "(a connection)";
  const twin = ovals.filter((o) => o.connection === oval.connection).length > 1;
  return `(its ${twin ? `${index === 0 ? "first" : "second"} ` : ""}${oval.connection} connection${oval.cost !== undefined ? `, ${oval.cost} gold` : ""}${
    oval.trunk ? ", a trunk line" : ""})`;
}

/** " (turned: the Maderista)" once a manifesto turned the hacendado; nothing while loyal. */
function hacendadoSide(view, hacendado) {
  if (hacendado.side === null || hacendado.side === undefined || hacendado.side === "loyalist") return "";
  const turned = view.cards?.[hacendado.card]?.orientations?.[hacendado.side]?.name;
  return ` (turned${turned ? `: the ${turned}` : ""})`;
}

/** Why a game of Pax ended, in words (GameDecided's reason). */
const END_WORDS = {succession: "Díaz is toppled: a succession", annexation: "Díaz is toppled: an annexation", coup: "Díaz is toppled: a coup",
                   revolt: "Díaz is toppled: a revolt", diaz_survives: "Díaz survived the last topple: the richest seat wins",
                   turn_limit: "the turn limit: the richest seat wins"};

const GOLD_WHY = {income: "income", buy: "a purchase", sell: "a sale", bribe: "a bribe", payroll: "payroll"};
const STEPS = {actions: "actions", discard: "discards", restore: "the market is restored", income: "income",
               upkeep: "upkeep", end: "the end of the turn"};

/** Card names from the table's own data: the set's definitions in GameSetUp, or the view's. */
function cardNamer(view, feed = []) {
  const setUp = feed.find((e) => e.type === "GameSetUp")?.data?.cards || [];
  const names = new Map(setUp.map((card) => [card.id, card.name]));
  return (id) => (id === null || id === undefined ? "a hidden card" : names.get(id) || view?.cards?.[id]?.name || view?.names?.[id] || titleCase(id));
}

function zoneWords(zone, name, seatName) {
  if (!zone) return "somewhere";
  if (zone.zone === "market") return "the market";
  if (zone.zone === "hand") return zone.seat !== undefined ? `${seatName(zone.seat)}'s hand` : "a hand";
  if (zone.zone === "tableau" || zone.zone === "enterprises") return `${seatName(zone.seat)}'s tableau`;
  if (zone.zone === "limbo") return "the headlines";
  if (zone.zone === "grievances") return `${seatName(zone.seat)}'s grievances`;
  if (zone.zone === "discard") return "the discard pile";
  if (zone.zone === "public") return "the public cards";
  return zone.seat !== undefined ? `${seatName(zone.seat)}'s ${titleCase(zone.zone).toLowerCase()}` : `the ${titleCase(zone.zone).toLowerCase()}`;
}

function actionWords(action, name, seatName) {
  const card = action.card ? name(action.card) : null;
  switch (action.type) {
    case "buy": return `buys ${card}`;
    case "buy_public": return `buys the public card ${card}`;
    case "play": return `plays ${card}${action.target !== undefined ? ` against ${typeof action.target === "number" ? seatName(action.target) : name(action.target)}` : ""}`;
    case "sell": return `sells ${card}`;
    case "redeploy": return `redeploys ${card}`;
    case "buy_land": return `buys land for ${name(action.enterprise)}`;
    case "upgrade": return `builds a connection on ${name(action.enterprise)}`;
    case "police": return action.jail ? "bribes the way out of jail" : `sends the police to ${name(action.enterprise)}`;
    case "speculate": return `speculates${card ? ` on ${card}` : ""}`;
    case "end_turn": return "ends the turn";
    default: return titleCase(action.type).toLowerCase();
  }
}

/** The decision the game waits on, in words: who decides what, and which card asks it (in the
 * past tense at a replayed version: nobody is asked anything any more). */
function decisionWords(view, seatName, live = true) {
  const d = view.decision;
  const name = cardNamer(view);
  const from = d.source || d.card ? ` (${name(d.source || d.card)})` : "";
  if (d.seat === null || d.seat === undefined) return `${live ? "Being settled" : "At this version, being settled"}: ${titleCase(d.kind).toLowerCase()}${from}`;
  return live ? `Decision: ${seatName(d.seat)} ${awaitedWords("pax", d.kind)}${from}`
    : `At this version, ${seatName(d.seat)} was still ${awaitedWords("pax", d.kind)}${from}`;
}

export function describePax(item, game, {seatName, feed = []}) {
  const d = item.data || {};
  const name = cardNamer(game?.view, feed);
  switch (item.type) {
    case "GameSetUp": return `${d.seats} seats sit down to Pax Porfiriana; ${seatName(d.first)} plays first`;
    case "TurnStarted": return `Turn ${d.turn}: ${seatName(d.seat)} has ${d.actions} actions`;
    case "ActionTaken": return `${seatName(d.seat)} ${actionWords(d.action || {}, name, seatName)}${d.spent ? ` (${d.spent} gold)` : ""}${d.bonus ? " as a bonus action" : ""}`;
    case "StepChanged": return d.ended ? `${seatName(d.seat)} ends the turn` : `Next: ${STEPS[d.step] || titleCase(d.step).toLowerCase()}`;
    case "GoldMoved": {
      const why = GOLD_WHY[d.why] || (d.why ? titleCase(d.why).toLowerCase() : "a payment");
      if (d.from === null || d.from === undefined) return `${seatName(d.to)} takes ${d.amount} gold from the bank (${why})`;
      if (d.to === null || d.to === undefined) return `${seatName(d.from)} pays ${d.amount} gold to the bank (${why})`;
      return `${seatName(d.from)} pays ${d.amount} gold to ${seatName(d.to)} (${why})`;
    }
    case "CardMoved": return `${name(d.card)} goes from ${zoneWords(d.from, name, seatName)} to ${zoneWords(d.to, name, seatName)}`;
    case "MarketRestored": return `The market is filled again${d.drawn?.length ? `: ${d.drawn.map(name).join(", ")} drawn` : ""}`;
    case "BribeCubesChanged": return `${seatName(d.seat)} ${d.delta > 0 ? "adds" : "removes"} ${Math.abs(d.delta)} bribe cube${Math.abs(d.delta) === 1 ? "" : "s"} on ${name(d.card)}`;
    case "ConnectionCubeSet": return d.seat === null || d.seat === undefined ? `A connection cube comes off ${name(d.enterprise)}` : `${seatName(d.seat)} connects ${name(d.enterprise)}`;
    case "ExtortionCubeSet": return d.seat === null || d.seat === undefined ? `The extortion cube comes off ${name(d.enterprise)}` : `${seatName(d.seat)} puts an extortion cube on ${name(d.enterprise)}`;
    case "SpeculationCubeSet": return d.seat === null || d.seat === undefined ? `The speculation cube comes off ${name(d.card)}` : `${seatName(d.seat)} speculates on ${name(d.card)}`;
    case "IncomeCubesChanged": return `${name(d.enterprise)} ${d.delta > 0 ? "gains" : "loses"} ${Math.abs(d.delta)} income`;
    case "UnrestChanged": return `Unrest at ${name(d.enterprise)} ${d.delta > 0 ? "rises" : "falls"} by ${Math.abs(d.delta)}`;
    case "HacendadoCubesChanged": return `${seatName(d.seat)}'s hacendado ${d.delta > 0 ? "gains" : "loses"} ${Math.abs(d.delta)} cube${Math.abs(d.delta) === 1 ? "" : "s"}`;
    case "HacendadoTurned": return d.side === null ? `${seatName(d.seat)}'s hacendado is assassinated; the heir is loyal` : `${seatName(d.seat)} publishes a manifesto`;
    case "JailChanged": return d.jailed ? `${seatName(d.seat)} goes to jail` : `${seatName(d.seat)} leaves jail`;
    case "DiazDefenceChanged": return `${seatName(d.seat)} discards ${name(d.card)}: Díaz gains ${d.amount} ${d.prestige}`;
    case "RegimeChanged": return `The regime changes to ${name(d.regime)}`;
    case "DepressionChanged": return d.on ? "Two bears in a row: a depression begins" : "Two bulls in a row: the depression ends";
    case "DecisionsQueued": return `${(d.items || []).length} decision${(d.items || []).length === 1 ? "" : "s"} to settle${
      d.items?.[0]?.source ? ` (from ${name(d.items[0].source)})` : ""}`;
    case "DecisionDone": return d.seat === null || d.seat === undefined ? "An effect is applied" : `${seatName(d.seat)} decides${d.choice !== undefined ? ` (${typeof d.choice === "string" ? titleCase(d.choice).toLowerCase() : d.choice})` : ""}`;
    case "ToppleStarted": return `${seatName(d.buyer)} buys ${name(d.card)}: a topple under ${name(d.regime)}, ${d.prestige} counts, Díaz holds ${d.diaz}`;
    case "ToppleResolved": return d.topplers?.length ? `Díaz falls: ${d.topplers.map(seatName).join(" and ")} beat their rivals` : "Díaz survives the topple";
    case "ToppleLeftMarket": return `${name(d.card)} leaves the market`;
    case "GameDecided": return `The game ends (${END_WORDS[d.reason] || String(d.reason ?? "").replace(/_/g, " ")}): ${(d.winners || []).map(seatName).join(" and ")} ${(d.winners || []).length === 1 ? "wins" : "share the win"}`;
    default: return null;
  }
}

export const pax = {
  orders: [{label: "Stay out of topples I did not buy", order: {decision: "topple", when: {mine: false}, answer: {type: "done"}}}],
  describe: describePax,
  board(game, {seatName, replay = false}) {
    const view = game.view;
    const live = !replay && game.status === "active";
    if (!view) return h("p", {}, "The market is dealt when every seat is taken.");
    const me = view.players.find((p) => p.seat === view.seat);
    return h("div", {class: "pax"},
      h("p", {class: "regime"}, h("strong", {}, "Regime: ", withTip(h("span", {}, view.regime.name), tipFor(view, view.regime.id))),
        ` · mines pay ${view.regime.mines} · economy ${view.regime.economy} · a topple counts ${titleCase(view.regime.topple_prestige)} prestige`,
        view.depression ? " · depression" : "", ` · turn ${view.turn} · ${titleCase(view.phase)}`,
        view.active !== undefined && view.active !== null ? (live ? ` · ${seatName(view.active)} acts (${view.actions_left} actions left)`
          : ` · ${seatName(view.active)} had the turn`) : ""),
      h("section", {"aria-label": "Headline cards"}, h("h3", {}, "On the table"),
        h("div", {class: "pax-row"}, view.public.length ? view.public.map((id) => cardTile(view, id)) : h("p", {}, "none"))),
      h("section", {"aria-label": "Market"}, h("h3", {}, `Market (deck: ${view.deck_count})`),
        view.market.map((row, r) => h("div", {class: "pax-row", "aria-label": `market row ${r + 1}`},
          row.map((slot) => (slot ? cardTile(view, slot.card, h("span", {class: "cost"}, ` ${slot.cost} gold`)) : h("div", {class: "pax-card empty"}, "empty")))))),
      view.hand ? h("section", {"aria-label": "Your hand"}, h("h3", {}, "Your hand"),
        h("div", {class: "pax-row"}, view.hand.length ? view.hand.map((id) => cardTile(view, id)) : h("p", {}, "empty"))) : null,
      h("div", {class: "scroll"}, h("table", {},
        h("caption", {}, "Players"),
        h("thead", {}, h("tr", {}, ["Seat", "Gold", "Hand", "Hacendado", "Tableau", "Troops", "Prestige", "Income"].map((c) => h("th", {scope: "col"}, c)))),
        h("tbody", {}, view.players.map((p) => h("tr", {class: [p.seat === view.seat && "mine"]},
          h("th", {scope: "row"}, seatName(p.seat)), h("td", {}, p.gold), h("td", {}, p.hand_count),
          h("td", {class: "hacendado"}, tipped(view, p.hacendado.card), hacendadoSide(view, p.hacendado)),
          h("td", {}, cardList(view, [...p.enterprises.map((e) => e.card), ...p.partners.map((c) => c.card ?? c)])),
          h("td", {}, cardList(view, p.troops || [])),
          h("td", {}, Object.entries(p.prestige).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ") || "—"),
          h("td", {}, p.income)))))),
      me ? h("p", {}, `Your gold: ${me.gold}`) : null,
      view.decision && !view.result ? h("p", {class: "pax-decision"}, decisionWords(view, seatName, live)) : null,
      view.result ? h("p", {class: "result"}, `Game over (${END_WORDS[view.result.reason] || String(view.result.reason ?? "").replace(/_/g, " ")}): ${
        (view.result.winners || []).map(seatName).join(" and ") || "nobody"} ${(view.result.winners || []).length > 1 ? "share the win" : "wins"}.`) : null);
  },
  actions(game, post, {seatName}) {
    const view = game.view;
    const label = (a) => {
      const parts = [titleCase(a.type).replace("Buy public", "Buy the public card")];
      if (a.card) parts.push(nameOf(view, a.card));
      if (a.enterprise) parts.push(nameOf(view, a.enterprise));
      if (a.side !== undefined) parts.push(`(its ${titleCase(String(a.side)).toLowerCase()} side)`);
      if (a.face !== undefined) parts.push(`as ${view.cards?.[a.card]?.faces?.[a.face]?.name || `face ${a.face + 1}`}`);
      if (a.oval !== undefined) parts.push(ovalWords(view.cards?.[a.enterprise]?.ovals || [], a.oval));
      if (a.to !== undefined) parts.push(`to ${typeof a.to === "string" ? (a.to === "hacendado" ? "your private army" : nameOf(view, a.to))
        : typeof a.to === "number" ? seatName(a.to) : Object.entries(a.to).map(([k, v]) => `${titleCase(k).toLowerCase()} ${
          typeof v === "string" && (view.cards?.[v] || view.names?.[v]) ? nameOf(view, v) : v}`).join(", ")}`);
      if (a.target !== undefined) parts.push(`against ${typeof a.target === "string" ? nameOf(view, a.target) : seatName(a.target)}`);
      const rest = Object.keys(a).filter((k) => !["type", "card", "enterprise", "side", "to", "target", "face", "oval"].includes(k));
      // Any other field in words: a card by its name, a choice by its words, a flag by its name.
      const said = (v) => (Array.isArray(v) ? v.map(said).join(" and ") || "nothing"
        : typeof v === "string" ? (view.cards?.[v] || view.names?.[v] ? nameOf(view, v) : titleCase(v).toLowerCase())
          : typeof v === "number" ? (Number.isInteger(v) && v >= 0 && v < (view.seats || 0) ? seatName(v) : String(v))
            : v && typeof v === "object" ? Object.entries(v).map(([k2, v2]) => `${titleCase(k2).toLowerCase()} ${said(v2)}`).join(", ") : "");
      if (rest.length) parts.push(rest.map((k) => (a[k] === true ? titleCase(k).toLowerCase() : a[k] === false ? ""
        : `${titleCase(k).toLowerCase()}: ${said(a[k])}`)).filter(Boolean).join(", "));
      return parts.join(" ");
    };
    return actionForms(game.legal_actions, post, label);
  },
};
