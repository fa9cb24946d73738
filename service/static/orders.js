// Standing orders at the table: the game's common orders as plain choices, which are on, and
// turning them off. Only the seat's own orders are ever read (GET /v1/games/<id>/orders);
// nothing here tells the other seats anything, nor does the server.

import {api} from "./api.js";
import {fill, h} from "./dom.js";

/** JSON with sorted keys: an order as the server returns it compares equal to its choice. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const complete = (order) => ({when: {}, once: false, ...order});

/**
 * The standing-orders panel of a table. ``choices`` are the game's common orders, each
 * {label, order}; orders set otherwise (through the API) are kept as they are and counted.
 * ``place(element)`` puts the panel on the page. Returns {element, refresh(game)}: refresh
 * shows the panel and reads the seat's orders once it is seated, and hides it otherwise.
 */
export function ordersPanel(gameId, choices, {showError, clearError, place}) {
  const element = h("details", {class: "orders", id: "orders"}, h("summary", {}, "Standing orders"));
  let held = null;  // the seat's orders as the server last answered
  let loadedFor = null;

  const isOn = (choice) => held.some((order) => canonical(order) === canonical(complete(choice.order)));
  const others = () => held.filter((order) => !choices.some((choice) => canonical(complete(choice.order)) === canonical(order)));

  async function save(next) {
    clearError();
    try {
      held = next.length ? (await api("PUT", `/v1/games/${gameId}/orders`, {body: {orders: next}})).orders
        : (await api("DELETE", `/v1/games/${gameId}/orders`), []);
    } catch (err) { showError(err); }
    draw();
  }

  function toggle(choice, on) {
    // The choices keep their listed order (the first that matches answers); other orders follow.
    const wanted = choices.filter((c) => (c === choice ? on : isOn(c))).map((c) => complete(c.order));
    return save([...wanted, ...others()]);
  }

  // The choices are drawn only while the panel is open: closed, the page holds its summary alone.
  element.addEventListener("toggle", () => { if (held !== null) draw(); });

  function draw() {
    const on = choices.filter(isOn).length + others().length;
    const summary = h("summary", {}, `Standing orders${on ? ` (${on} on)` : ""}`);
    if (!element.open) { fill(element, summary); return; }
    fill(element, summary,
      h("p", {class: "hint"}, "Decisions made in advance, answered the moment they fall to you. Nobody else at the table "
        + "can see them: an answer they make looks like one you typed the moment the decision fell to you (times are shown "
        + "to the minute or the hour while the game is on). They are consulted each time the game moves."),
      h("ul", {class: "order-choices"}, choices.map((choice, index) => {
        const id = `order-${index}`;
        return h("li", {},
          h("input", {type: "checkbox", id, checked: isOn(choice), onchange: (event) => toggle(choice, event.target.checked)}),
          h("label", {for: id}, choice.label));
      })),
      others().length ? h("p", {class: "hint"}, `${others().length} more set through the API.`) : null,
      on ? h("button", {type: "button", onclick: () => save([])}, "Turn them all off") : null);
  }

  async function refresh(game) {
    const seated = game.seat !== null && game.seat !== undefined && game.status !== "finished"
      && game.status !== "cancelled" && choices.length > 0;
    if (!seated) { element.remove(); return; }
    if (!element.isConnected) place(element);
    if (loadedFor === game.id) return;
    loadedFor = game.id;
    try { held = (await api("GET", `/v1/games/${gameId}/orders`)).orders; } catch (err) { showError(err); return; }
    draw();
  }

  return {element, refresh};
}
