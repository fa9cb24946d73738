// The table for any game: its public view as a readable page and its legal actions as
// forms. A game's own module may replace either part; this one makes every game playable.

import {h, titleCase} from "../dom.js";

/** A value as nested lists and tables a person can read. */
export function readable(value, depth = 0) {
  if (value === null || value === undefined) return h("span", {class: "muted"}, "none");
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (!value.length) return h("span", {class: "muted"}, "none");
    if (value.every((v) => v === null || typeof v !== "object")) return value.map((v) => (v === null ? "none" : String(v))).join(", ");
    const keys = [...new Set(value.flatMap((v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : [])))];
    if (keys.length && keys.length <= 10 && value.every((v) => v && typeof v === "object" && !Array.isArray(v)) && depth < 4) {
      return h("div", {class: "scroll"}, h("table", {},
        h("thead", {}, h("tr", {}, keys.map((k) => h("th", {scope: "col"}, titleCase(k))))),
        h("tbody", {}, value.map((row) => h("tr", {}, keys.map((k) => h("td", {}, readable(row[k], depth + 1))))))));
    }
    return h("ol", {start: 0}, value.map((v) => h("li", {}, readable(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", {class: "muted"}, "none");
  if (depth > 5) return JSON.stringify(value);
  return h("dl", {class: "readable"}, entries.map(([k, v]) => [h("dt", {}, titleCase(k)), h("dd", {}, readable(v, depth + 1))]));
}

/** "BidPlaced" -> "Bid placed": an event's name as words, for a game that has no line for it. */
export function eventWords(type) {
  const words = String(type).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "develop: region germany, influence military". */
export function describeAction(action) {
  const rest = Object.entries(action).filter(([k]) => k !== "type")
    .map(([k, v]) => `${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v).replace(/[{}"]/g, "").replace(/,/g, ", ").replace(/:/g, " ") : v}`);
  return `${titleCase(action.type)}${rest.length ? `: ${rest.join(", ")}` : ""}`;
}

/** Legal actions as buttons, or a list to pick from when a kind has many: a click or two each. */
export function actionForms(actions, post, label = describeAction, {group = (a) => a.type, many = 8} = {}) {
  const groups = new Map();
  for (const action of actions) {
    const key = group(action);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(action);
  }
  const out = h("div", {class: "action-forms"});
  let n = 0;
  for (const [key, list] of groups) {
    if (list.length <= many) {
      out.append(h("div", {class: "action-group"}, list.map((action) =>
        h("button", {type: "button", class: "action", onclick: () => post(action)}, label(action)))));
      continue;
    }
    const id = `choice-${n++}`;
    const select = h("select", {id}, list.map((action, i) => h("option", {value: i}, label(action))));
    out.append(h("form", {class: "action-group", onsubmit: (event) => {
      event.preventDefault();
      post(list[Number(select.value)]);
    }}, h("label", {for: id}, `${titleCase(key)} (${list.length} choices)`), select,
      h("button", {type: "submit"}, titleCase(key))));
  }
  return out;
}

export const generic = {
  board(game) {
    return h("div", {class: "generic"}, h("h2", {}, "The table as you see it"), readable(game.view));
  },
  actions(game, post) {
    return actionForms(game.legal_actions, post);
  },
  describe(item, game, {seatName}) {
    // A game without a describer of its own: the event's name in words, and who did it.
    const who = item.actor === null || item.actor === undefined ? "" : `${seatName(item.actor)}: `;
    return `${who}${eventWords(item.type)}`;
  },
};
