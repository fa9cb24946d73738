// Pax Porfiriana: the market, your tableau and hand, gold, the regime and the headline
// cards on the table; every decision from legal_actions.

import {h, titleCase} from "../dom.js";
import {actionForms, describeAction} from "./generic.js";

const nameOf = (view, id) => view.cards?.[id]?.name || view.names?.[id] || titleCase(id);

function cardTile(view, id, extra = null) {
  const card = view.cards?.[id];
  return h("div", {class: ["pax-card", card?.category && `cat-${card.category}`], title: card ? `${card.category}` : null},
    h("strong", {}, nameOf(view, id)), card?.category ? h("small", {}, ` ${card.category}`) : null, extra);
}

export const pax = {
  orders: [{label: "Stay out of topples I did not buy", order: {decision: "topple", when: {mine: false}, answer: {type: "done"}}}],
  board(game, {seatName}) {
    const view = game.view;
    if (!view) return h("p", {}, "The market is dealt when every seat is taken.");
    const me = view.players.find((p) => p.seat === view.seat);
    return h("div", {class: "pax"},
      h("p", {class: "regime"}, h("strong", {}, `Regime: ${view.regime.name}`),
        ` · mines ${view.regime.mines} · economy ${view.regime.economy} · topple prestige ${view.regime.topple_prestige}`,
        view.depression ? " · depression" : "", ` · turn ${view.turn} · ${titleCase(view.phase)}`,
        view.active !== undefined ? ` · ${seatName(view.active)} acts (${view.actions_left} actions left)` : ""),
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
          h("td", {}, nameOf(view, p.hacendado.card)),
          h("td", {}, [...p.enterprises.map((e) => nameOf(view, e.card)), ...p.partners.map((c) => nameOf(view, c.card ?? c))].join(", ") || "—"),
          h("td", {}, (p.troops.length + p.army.length) || "—"),
          h("td", {}, Object.entries(p.prestige).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ") || "—"),
          h("td", {}, p.income)))))),
      me ? h("p", {}, `Your gold: ${me.gold}`) : null,
      view.decision ? h("p", {}, "Decision: ", describeAction(view.decision)) : null,
      view.result ? h("p", {class: "result"}, `Over: ${view.result.reason ?? ""}`) : null);
  },
  actions(game, post) {
    const view = game.view;
    const label = (a) => {
      const parts = [titleCase(a.type)];
      if (a.card) parts.push(nameOf(view, a.card));
      if (a.enterprise) parts.push(nameOf(view, a.enterprise));
      if (a.side !== undefined) parts.push(`(${a.side})`);
      if (a.to !== undefined) parts.push(`to ${typeof a.to === "string" ? nameOf(view, a.to) : JSON.stringify(a.to).replace(/[{}"]/g, "")}`);
      if (a.target !== undefined) parts.push(`target ${typeof a.target === "string" ? nameOf(view, a.target) : `seat ${a.target}`}`);
      const rest = Object.keys(a).filter((k) => !["type", "card", "enterprise", "side", "to", "target"].includes(k));
      if (rest.length) parts.push(rest.map((k) => `${k} ${JSON.stringify(a[k]).replace(/[{}"]/g, "")}`).join(", "));
      return parts.join(" ");
    };
    return actionForms(game.legal_actions, post, label);
  },
};
