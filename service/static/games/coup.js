// Coup: your two cards, every seat's coins and lost influence, the action on the table,
// its target, and the window to challenge, block or pass.

import {countdown, h} from "../dom.js";
import {actionForms} from "./generic.js";
import {tipsOf, withTip} from "../tips.js";

const CLAIMS = {tax: "duke", assassinate: "assassin", steal: "captain", exchange: "ambassador"};
const VERBS = {income: "takes income", foreign_aid: "asks for foreign aid", tax: "takes tax", exchange: "exchanges",
               steal: "steals from", assassinate: "assassinates", coup: "launches a coup against"};

const ACTION_NAMES = {income: "income", foreign_aid: "foreign aid", tax: "tax", exchange: "exchange", steal: "steal",
                      assassinate: "assassination", coup: "coup"};

const cardName = (view, id) => view?.card_names?.[id] ?? id;

function card(view, id, {hidden = false, lost = false} = {}) {
  if (hidden) return h("span", {class: "coup-card face-down", "aria-label": "a hidden card"}, "?");
  return withTip(h("span", {class: ["coup-card", `c-${id}`, lost && "lost"], "aria-label": lost ? `${cardName(view, id)}, lost` : cardName(view, id)},
    cardName(view, id)), tipsOf("coup")[id]);
}

function actionLine(view, seatName, cls = "coup-action", tag = "p") {
  const action = view.action;
  if (!action) return null;
  const claim = action.claim ? ` claiming the ${cardName(view, action.claim)}` : "";
  const target = action.target !== null && action.target !== undefined ? ` ${seatName(action.target)}` : "";
  return h(tag, {class: cls}, h("strong", {}, seatName(action.seat)), ` ${VERBS[action.type] || action.type}${target}${claim}`,
    action.paid ? ` (paid ${action.paid})` : "");
}

/** The common standing orders, as plain choices (games/coup/README.md lists the conditions). */
const ORDERS = [
  {label: "Allow every claim and block unless I am targeted",
   order: {decision: "react", when: {targeted: false}, answer: {type: "pass"}}},
  {label: "Never challenge a block",
   order: {decision: "react", when: {blocking: true}, answer: {type: "pass"}}},
  {label: "Always block a steal from me with the Captain if I hold it",
   order: {decision: "react", when: {action: "steal", targeted: true, holding: "captain"}, answer: {type: "block", card: "captain"}}},
  {label: "Always block a steal from me with the Ambassador if I hold it",
   order: {decision: "react", when: {action: "steal", targeted: true, holding: "ambassador"}, answer: {type: "block", card: "ambassador"}}},
  {label: "Always block an assassination of me with the Contessa if I hold it",
   order: {decision: "react", when: {action: "assassinate", targeted: true, holding: "contessa"}, answer: {type: "block", card: "contessa"}}},
  // Listed after the blocks: when one of those is on and answers, these are not reached.
  {label: "Never challenge a steal from me (a block above, if on, comes first)",
   order: {decision: "react", when: {action: "steal", targeted: true, blocking: false}, answer: {type: "pass"}}},
  {label: "Never challenge an assassination of me (a block above, if on, comes first)",
   order: {decision: "react", when: {action: "assassinate", targeted: true, blocking: false}, answer: {type: "pass"}}},
];

/** Why ``me`` must give up a card now: the latest challenge, assassination or coup that costs it one. */
function lossReason(view, me, feed, seatName) {
  for (let i = feed.length - 1; i >= 0; i--) {
    const {type, data: d = {}} = feed[i];
    if (type === "ChallengeSettled" && d.proven && d.challenger === me) {
      return `your challenge failed: ${seatName(d.claimant)} showed the ${cardName(view, d.card)}.`;
    }
    if (type === "ChallengeSettled" && !d.proven && d.claimant === me) {
      return `you were challenged and do not hold the ${cardName(view, d.card)}.`;
    }
    if (type === "ActionSucceeded" && d.type === "assassinate" && d.target === me) {
      return `${seatName(d.seat)} assassinates you.`;
    }
    if (type === "ActionDeclared" && d.type === "coup" && d.target === me) {
      return `${seatName(d.seat)} launches a coup against you.`;
    }
    if (type === "TurnEnded") break;
  }
  return "the rules take one of your cards.";
}

export const coup = {
  orders: ORDERS,
  board(game, {seatName, replay = false}) {
    const view = game.view;
    const live = !replay && game.status === "active";
    // The end: the result and the final state only, nothing left on the table (live or replayed).
    const ended = game.status === "finished" && (!replay || view?.phase === "over" || (view?.winner ?? null) !== null);
    if (!view) return h("p", {}, "The cards are dealt when every seat is taken.");
    const seats = view.seats.map((seat) => {
      const mine = seat.hand !== undefined;
      const faces = mine ? seat.hand : seat.shown;  // shown: every card, in a finished game's replay
      const hidden = faces ? faces.map((id) => card(view, id)) : Array.from({length: seat.influence}, () => card(view, null, {hidden: true}));
      const onTurn = view.turn === seat.seat && view.phase !== "over" && !ended;
      return h("article", {class: ["coup-seat", mine && "mine", !seat.alive && "exiled", onTurn && live && "on-turn",
                                   ended && (seat.seat === view.winner || (view.winner == null && game.winners?.includes(seat.seat))) && "winner"],
                           "aria-label": seatName(seat.seat), dataset: {seat: seat.seat}},
        h("h3", {}, seatName(seat.seat), mine ? " · you" : "", onTurn ? (live ? " · to play" : " · had the turn") : "",
          ended && (seat.seat === view.winner || (view.winner == null && game.winners?.includes(seat.seat))) ? " · the winner" : ""),
        h("p", {class: "coins"}, h("span", {class: "coin-count"}, String(seat.coins)), seat.coins === 1 ? " coin" : " coins"),
        h("div", {class: "cards", "aria-label": mine ? "your cards" : "cards"}, hidden, seat.revealed.map((id) => card(view, id, {lost: true}))),
        !seat.alive ? h("p", {class: "muted"}, "Exiled") : null);
    });
    if (ended) {
      const standing = view.seats.filter((seat) => seat.alive);
      // A game ended by the platform (a resignation) has its winners on the game, not in the view.
      const winners = view.winner !== null && view.winner !== undefined ? [view.winner] : (game.winners || []);
      return h("div", {class: "coup"},
        h("div", {class: "coup-seats"}, seats),
        h("div", {class: "coup-centre coup-final"},
          h("p", {class: "result"}, winners.length ? `Game over: ${winners.map(seatName).join(" and ")} ${winners.length > 1 ? "share the win" : "wins"}.` : "Game over."),
          h("p", {}, `Final state after ${view.turn_number} turns: ${standing.map((seat) => `${seatName(seat.seat)} with ${
            seat.influence ?? (seat.hand || seat.shown || []).length} influence and ${seat.coins} coin${seat.coins === 1 ? "" : "s"}`).join("; ") || "nobody standing"}; `,
            `treasury ${view.treasury} coins, court deck ${view.deck_size} cards.`)));
    }
    const window = view.window;
    return h("div", {class: "coup"},
      h("div", {class: "coup-seats"}, seats),
      h("div", {class: "coup-centre"},
        h("p", {}, `Treasury: ${view.treasury} coins · court deck: ${view.deck_size} cards · turn ${view.turn_number}`),
        live ? actionLine(view, seatName) : view.action ? h("p", {class: "coup-history"}, "At this version: ", actionLine(view, seatName, "past-action", "span")) : null,
        view.block ? h("p", {class: "coup-block"}, live ? null : "At this version: ", h("strong", {}, seatName(view.block.seat)),
          ` blocks claiming the ${cardName(view, view.block.card)}`) : null,
        window && live ? h("p", {class: "coup-window"}, `${window.kind === "block" ? "The block" : window.kind === "block_offer" ? "Block offer" : "Reactions"}: waiting for `,
          window.waiting.map(seatName).join(", ") || "nobody") : null,
        window && !live ? h("p", {class: "coup-window"}, `${window.kind === "block" ? "The block" : window.kind === "block_offer" ? "A block" : "Reactions"} could still come from `,
          window.waiting.map(seatName).join(", ") || "nobody") : null,
        window && game.deadline && live ? h("p", {class: "coup-clock"}, "The window closes in ", countdown(game.deadline)) : null,
        view.exchange?.drawn && live ? h("p", {}, "You drew: ", view.exchange.drawn.map((id) => card(view, id)),
          ` Keep ${view.exchange.keep}.`) : null));
  },
  redrawOnFeed(game, item) {
    return game.awaiting_kinds?.[game.seat] === "reveal" && ["ChallengeSettled", "ActionSucceeded", "ActionDeclared"].includes(item.type);
  },
  decisionKey(game) {
    const view = game.view || {};
    return [view.window, view.action, view.block, view.exchange];  // the same buttons may mean something else
  },
  withState(view, state) {
    if (!view || !state?.seats) return view;
    return {...view, seats: view.seats.map((seat, i) => (seat.hand ? seat : {...seat, shown: state.seats[i]?.hidden ?? []}))};
  },
  actions(game, post, {seatName, feed = []}) {
    const view = game.view;
    const label = (a) => {
      switch (a.type) {
        case "income": return "Income (+1 coin)";
        case "foreign_aid": return "Foreign aid (+2 coins)";
        case "tax": return `Tax: claim the ${cardName(view, "duke")} (+3)`;
        case "exchange": return `Exchange: claim the ${cardName(view, "ambassador")}`;
        case "steal": return `Steal from ${seatName(a.target)} (claim the ${cardName(view, "captain")})`;
        case "assassinate": return `Assassinate ${seatName(a.target)} (claim the ${cardName(view, "assassin")}, pay 3)`;
        case "coup": return `Coup against ${seatName(a.target)} (pay 7)`;
        case "pass": return "Pass";
        case "challenge": return view.block ? `Challenge the block (${cardName(view, view.block.card)})`
          : `Challenge the ${cardName(view, CLAIMS[view.action?.type] || "")}`;
        case "block": return `Block with the ${cardName(view, a.card)}`;
        case "reveal": return `Lose the ${cardName(view, a.card)}`;
        case "keep": return `Keep ${a.cards.map((id) => cardName(view, id)).join(" + ")}`;
        default: return a.type;
      }
    };
    // What the decision is about comes before the buttons, so a phone shows it above a long list.
    const me = view.seats.find((seat) => seat.hand !== undefined);
    const kind = game.awaiting_kinds?.[game.seat];
    return h("div", {class: "coup-decision"},
      me ? h("p", {class: "coup-mine"}, "Your cards: ", me.hand.map((id) => card(view, id))) : null,
      kind === "react" || kind === "reveal" ? actionLine(view, seatName, "decision-claim") : null,
      kind === "react" && view.block ? h("p", {class: "decision-block"}, h("strong", {}, seatName(view.block.seat)),
        ` blocks claiming the ${cardName(view, view.block.card)}`) : null,
      kind === "reveal" ? h("p", {class: "coup-loss"}, h("strong", {}, "You lose an influence: "), lossReason(view, game.seat, feed, seatName),
        " Choose the card to give up.") : null,
      actionForms(game.legal_actions, post, label, {many: 12}));
  },
  describe(item, game, {seatName}) {
    const d = item.data || {};
    const view = game?.view;
    switch (item.type) {
      case "CardsDealt": return d.hand ? `Cards dealt; yours: ${d.hand.map((id) => cardName(view, id)).join(", ")}`
        : d.hands ? `Cards dealt: ${d.hands.map((hand, s) => `${seatName(s)} ${hand.map((id) => cardName(view, id)).join(" and ")}`).join("; ")}` : "Cards dealt";
      case "ActionDeclared": return `${seatName(d.seat)} ${VERBS[d.type] || d.type}${d.target !== undefined ? ` ${seatName(d.target)}` : ""}${d.claim ? ` claiming the ${cardName(view, d.claim)}` : ""}`;
      case "Passed": return `${seatName(d.seat)} passes`;
      case "BlockDeclared": return `${seatName(d.seat)} blocks claiming the ${cardName(view, d.card)}`;
      case "BlockOffered": return `${seatName(d.seat)}'s ${ACTION_NAMES[d.type] || "action"} may now be blocked`;
      case "ChallengeSettled": return `${seatName(d.challenger)} challenges ${seatName(d.claimant)}: ${d.proven ? `the ${cardName(view, d.card)} is shown, the challenge fails` : "a bluff, the challenge wins"}`;
      case "InfluenceLost": return `${seatName(d.seat)} loses the ${cardName(view, d.card)}${d.exiled ? " and is exiled" : ""}`;
      case "ActionSucceeded": return `${seatName(d.seat)}'s ${ACTION_NAMES[d.type] || "action"} goes ahead${d.amount !== undefined ? ` (${d.amount} coins)` : ""}${d.type === "exchange" && d.drawn ? `; draws ${d.drawn.map((id) => cardName(view, id)).join(" and ")}` : ""}`;
      case "WindowClosed": return d.kind === "block" ? "Nobody challenges the block: it stands" : "Nobody challenges or blocks";
      case "TurnEnded": return `Turn passes to ${seatName(d.next)}`;
      case "ExchangeCompleted": return `${seatName(d.seat)} completes the exchange${d.kept ? `, keeping ${d.kept.map((id) => cardName(view, id)).join(" and ")}` : ""}`;
      default: return null;
    }
  },
};
