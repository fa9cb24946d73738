// Small DOM helpers: build elements from data, never from HTML strings (nothing a player
// types can ever become markup).

/** An element: h("button", {class: "x", onclick: f}, "text", child...). */
export function h(tag, attrs = {}, ...children) {
  const el = tag.startsWith("svg:")
    ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.setAttribute("class", Array.isArray(value) ? value.filter(Boolean).join(" ") : value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace everything inside ``el``. */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** "3 h 02 min", "45 s": a countdown a person reads at a glance. */
export function duration(seconds) {
  if (seconds <= 0) return "now";
  const s = Math.floor(seconds);
  const days = Math.floor(s / 86400), hours = Math.floor((s % 86400) / 3600);
  const minutes = Math.floor((s % 3600) / 60), secs = s % 60;
  if (days) return `${days} d ${hours} h`;
  if (hours) return `${hours} h ${String(minutes).padStart(2, "0")} min`;
  if (minutes) return `${minutes} min ${String(secs).padStart(2, "0")} s`;
  return `${secs} s`;
}

/** A live countdown element to an ISO time; ticks every second while in the document. */
export function countdown(iso, label = "") {
  const el = h("time", {datetime: iso, class: "countdown"});
  const tick = () => {
    const left = (Date.parse(iso) - Date.now()) / 1000;
    el.textContent = `${label}${duration(left)}`;
    el.classList.toggle("urgent", left < 60);
  };
  tick();
  const timer = setInterval(() => {
    if (!el.isConnected && el.dataset.started) { clearInterval(timer); return; }
    el.dataset.started = "1";
    tick();
  }, 1000);
  return el;
}

export function titleCase(id) {
  return String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}
