// The client's pages and its router: every page has an address (bookmark, share, reload),
// and the server answers each of them with this same page.

import {api, ApiError, joinGame, session} from "./api.js";
import {countdown, fill, h, titleCase} from "./dom.js";
import {tablePage} from "./table.js";
import {tournamentPage, tournamentsPage} from "./tournaments.js";
import {GAME_BLURBS, GAME_NAMES, gameName} from "./words.js";
import {markdown} from "./markdown.js";
import {accountCommunity, nameWithReliability, reliabilityLine, substitutesPage} from "./community.js";

export {gameName};

const main = document.getElementById("main");
const notice = document.getElementById("notice");
let cleanup = null;

/** Show an API refusal (its detail) or any other failure, where a screen reader hears it. */
export function showError(err) {
  const text = err instanceof ApiError ? err.message : `Something went wrong: ${err.message || err}`;
  notice.textContent = text;
  notice.hidden = false;
}

export function clearError() {
  notice.hidden = true;
  notice.textContent = "";
}

export function navigate(path) {
  history.pushState(null, "", path);
  render();
  main.focus({preventScroll: true});  // a screen reader starts at the new page, not the old link
  window.scrollTo(0, 0);
}

const GAMES = Object.keys(GAME_NAMES);

/** The games this server hosts: the lobby's ``game`` filter in its API reference. */
async function hostedGames() {
  const doc = await openapi();
  const lobbyParams = doc.paths["/v1/games"]?.get?.parameters || [];
  const hosted = lobbyParams.find((p) => p.name === "game")?.schema?.enum;
  return hosted?.length ? hosted : GAMES;
}

const routes = [
  [/^\/$/, home],
  [/^\/lobby\/?$/, lobby],
  [/^\/new\/?$/, newGame],
  [/^\/me\/?$/, myGames],
  [/^\/account\/?$/, account],
  [/^\/substitutes\/?$/, (el) => substitutesPage(el, {showError, clearError, navigate, signedIn: () => Boolean(session.token)})],
  [/^\/games\/([A-Za-z0-9_-]+)\/?$/, (el, id) => tablePage(el, id, {showError, clearError, navigate})],
  [/^\/players\/([A-Za-z0-9_-]+)\/?$/, playerPage],
  [/^\/leaderboards(?:\/([a-z]+))?\/?$/, leaderboardPage],
  [/^\/rules\/([a-z]+)\/?$/, rulesPage],
  [/^\/tournaments\/?$/, (el) => tournamentsPage(el, {showError, navigate})],
  [/^\/tournaments\/([A-Za-z0-9_-]+)\/?$/, (el, id) => tournamentPage(el, id, {showError, clearError})],
];

function render() {
  if (cleanup) { cleanup(); cleanup = null; }
  clearError();
  updateAccountLink();
  const path = location.pathname;
  for (const [pattern, page] of routes) {
    const match = pattern.exec(path);
    if (match) {
      fill(main);
      const result = page(main, ...match.slice(1));
      cleanup = typeof result === "function" ? result : null;
      return;
    }
  }
  document.title = "Not found · Intrigue";
  fill(main, h("h1", {}, "Not found"), h("p", {}, h("a", {href: "/"}, "Back to the lobby")));
}

function updateAccountLink() {
  const link = document.getElementById("account-link");
  const player = session.player;
  link.textContent = session.token ? `Account (${player?.name || "signed in"})` : "Sign in";
  for (const a of document.querySelectorAll("header nav a")) {
    if (a.getAttribute("href") === location.pathname) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

// Links inside the client change the page without a reload; anything else is left alone.
document.addEventListener("click", (event) => {
  const a = event.target.closest("a[href]");
  if (!a || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || url.pathname.startsWith("/v1") || url.pathname === "/docs") return;
  if (a.hasAttribute("download")) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener("popstate", render);
window.addEventListener("unhandledrejection", (event) => { showError(event.reason); event.preventDefault(); });

// ---------------------------------------------------------------------------- pages

function home(el) {
  const hosted = h("ul", {class: "hosted", id: "hosted-games"});
  el.append(h("section", {class: "card", "aria-labelledby": "hosted-title"},
    h("h2", {id: "hosted-title"}, "Games hosted here"), hosted));
  hostedGames().then((games) => fill(hosted, games.map((g) => h("li", {},
    h("strong", {}, gameName(g)), GAME_BLURBS[g] ? ` · ${GAME_BLURBS[g]} ` : " ",
    h("a", {href: `/rules/${g}`}, `Rules of ${gameName(g)}`))))).catch(showError);
  const rest = h("div", {});
  el.append(rest);
  return session.token ? lobby(rest) : account(rest);
}

function account(el) {
  document.title = "Account · Intrigue";
  const player = session.player;
  if (session.token) {
    el.append(
      h("h1", {}, "Your account"),
      h("p", {}, `Signed in as ${player?.name || "a player"}${player?.id ? ` (${player.id})` : ""}.`),
      h("p", {}, "Your token stays in this browser. Keep a copy to sign in elsewhere: it is shown once, at sign-up."),
      h("button", {type: "button", onclick: () => { session.signOut(); navigate("/account"); }}, "Sign out"),
    );
    accountCommunity(el, {showError, clearError});
    return;
  }
  // Where to go back to after signing in: only one of this client's tables.
  const wanted = new URLSearchParams(location.search).get("next") || "";
  const next = /^\/games\/[A-Za-z0-9_-]+$/.test(wanted) ? wanted : null;
  const nameInput = h("input", {id: "signup-name", name: "name", required: true, maxlength: 40, autocomplete: "nickname"});
  const tokenInput = h("input", {id: "signin-token", name: "token", required: true, autocomplete: "off", spellcheck: "false"});
  const shown = h("section", {class: "token-shown", "aria-live": "polite"});
  el.append(
    h("h1", {}, "Play Intrigue"),
    shown,
    h("section", {class: "card signing"},
      h("h2", {}, "Sign up"),
      h("form", {onsubmit: async (event) => {
        event.preventDefault();
        clearError();
        try {
          const made = await api("POST", "/v1/players", {body: {name: nameInput.value.trim()}, token: null});
          session.signIn(made.token, {id: made.id, name: made.name});
          // Signed up: the forms to sign up or in are done with; the token is what is left to see.
          for (const section of el.querySelectorAll("section.signing")) section.hidden = true;
          fill(shown, h("h2", {}, "Signed up"),
               h("p", {}, `Welcome, ${made.name}. Your token (copy it to sign in on another device):`),
               h("output", {class: "token"}, made.token),
               h("p", {}, next ? h("a", {href: next}, "Back to the game") : h("a", {href: "/lobby"}, "Go to the lobby")));
          updateAccountLink();
        } catch (err) { showError(err); }
      }},
        h("label", {for: "signup-name"}, "Your name"), nameInput,
        h("button", {type: "submit"}, "Sign up"))),
    h("section", {class: "card signing"},
      h("h2", {}, "Sign in with a token"),
      h("form", {onsubmit: async (event) => {
        event.preventDefault();
        clearError();
        const token = tokenInput.value.trim();
        try {
          // A 401 if the token is not a player's; a game of theirs, if any, says their name.
          const mine = await api("GET", "/v1/me/games?limit=1", {token});
          const seated = mine.games[0];
          const me = seated?.players?.[seated.seat];
          session.signIn(token, me ? {id: me.id, name: me.name} : {name: "you"});
          navigate(next || "/me");
        } catch (err) { showError(err); }
      }},
        h("label", {for: "signin-token"}, "Token"), tokenInput,
        h("button", {type: "submit"}, "Sign in"))),
  );
}

function seatsLine(game) {
  const taken = game.players.filter(Boolean);
  return `${taken.length}/${game.seats} seated${taken.length ? ": " + taken.map(nameWithReliability).join(", ") : ""}`;
}

function timeControlLine(tc) {
  if (!tc) return "";
  const days = tc.seconds_per_move / 86400;
  const move = days >= 1 ? `${+days.toFixed(2)} d/move` : `${tc.seconds_per_move} s/move`;
  const line = tc.reserve_seconds ? `${move} + ${+(tc.reserve_seconds / 86400).toFixed(2)} d reserve` : move;
  return tc.pause_weekends ? `${line} · weekends paused` : line;
}

function lobby(el) {
  document.title = "Lobby · Intrigue";
  const params = new URLSearchParams(location.search);
  const filter = h("select", {id: "lobby-game", name: "game"},
    h("option", {value: ""}, "All games"),
    GAMES.map((g) => h("option", {value: g, selected: params.get("game") === g}, gameName(g))));
  const list = h("div", {class: "games", "aria-live": "polite"});
  const more = h("button", {type: "button", hidden: true}, "Next page");
  let cursor = null;
  const listed = new Set();
  const load = async (reset) => {
    if (!reset && !cursor) return;  // no next page: nothing to add (never the first page again)
    try {
      const query = new URLSearchParams({limit: "20"});
      if (filter.value) query.set("game", filter.value);
      if (!reset && cursor) query.set("cursor", cursor);
      const page = await api("GET", `/v1/games?${query}`);
      if (reset) { fill(list); listed.clear(); }
      if (reset && !page.games.length) list.append(h("p", {}, "No open games. Create one!"));
      for (const game of page.games) {
        if (listed.has(game.id)) continue;
        listed.add(game.id);
        list.append(gameRow(game, true));
      }
      cursor = page.next_cursor;
      more.hidden = !cursor;
    } catch (err) { showError(err); }
  };
  filter.addEventListener("change", () => {
    history.replaceState(null, "", filter.value ? `/lobby?game=${filter.value}` : "/lobby");
    load(true);
  });
  more.addEventListener("click", () => load(false));
  el.append(h("h1", {}, "Lobby: open games"),
    h("div", {class: "toolbar"}, h("label", {for: "lobby-game"}, "Game"), filter,
      h("a", {href: "/new", class: "button"}, "Create a game"),
      h("a", {href: "/substitutes"}, "Seats seeking a substitute")),
    list, more);
  load(true);
}

function winnersLine(game) {
  const names = game.winners.map((s) => game.players[s]?.name ?? `seat ${s}`);
  return names.length ? `${names.length > 1 ? "Winners" : "Winner"}: ${names.join(", ")}` : "Nobody won";
}

function statusLine(game) {
  if (game.status === "open") return game.invited ? "You are invited · waiting for players" : "Waiting for players";
  if (game.status === "cancelled") return "Cancelled before it started";
  if (game.status === "finished") return game.winners ? `Finished · ${winnersLine(game)}` : "Finished";
  return "In progress";
}

function gameRow(game, joinable) {
  const join = (joinable || game.invited) && session.token ? h("button", {type: "button", onclick: async () => {
    try {
      await joinGame(game.id);
      navigate(`/games/${game.id}`);
    } catch (err) { showError(err); }
  }}, game.invited ? `Accept the invitation to ${gameName(game.game)}` : `Join ${gameName(game.game)}`) : null;
  return h("article", {class: "game-row", dataset: {game: game.id}},
    h("h3", {}, h("a", {href: `/games/${game.id}`}, `${gameName(game.game)} · ${game.id.slice(0, 8)}`)),
    h("p", {}, seatsLine(game), " · ", timeControlLine(game.time_control)),
    joinable ? null : h("p", {class: "row-status"}, statusLine(game)),
    game.deadline && game.status === "active" ? h("p", {}, game.awaiting_me ? "Your move: " : "Next deadline: ", countdown(game.deadline)) : null,
    join);
}

let documentCache = null;
async function openapi() {
  documentCache ??= api("GET", "/v1/openapi.json", {token: null});
  return documentCache;
}

function newGame(el) {
  document.title = "New game · Intrigue";
  if (!session.token) {
    el.append(h("h1", {}, "New game"), h("p", {}, h("a", {href: "/account"}, "Sign up or sign in"), " to create a game."));
    return;
  }
  const game = h("select", {id: "new-game", name: "game"}, GAMES.map((g) => h("option", {value: g}, gameName(g))));
  const seats = h("input", {id: "new-seats", name: "seats", type: "number", value: 3, min: 2, max: 6, required: true});
  const days = h("input", {id: "new-days", name: "days", type: "number", value: 1, min: 0.001, step: "any", required: true});
  const reserve = h("input", {id: "new-reserve", name: "reserve", type: "number", value: 0, min: 0, step: "any"});
  const weekends = h("input", {id: "new-weekends", name: "pause_weekends", type: "checkbox"});
  const minReliability = h("input", {id: "new-min-reliability", name: "min_reliability", type: "number", min: 0, max: 100,
                                     step: 1, placeholder: "anyone", "aria-describedby": "min-reliability-help"});
  const optionBox = h("fieldset", {class: "options"});
  // Play against bots: any seat may be a bot's (ISMCTS); the creator sits in the first seat left.
  const botBox = h("fieldset", {class: "bots", id: "new-bots"});
  const drawBots = () => {
    const chosen = new Set([...botBox.querySelectorAll("input:checked")].map((i) => i.value));
    const count = Math.max(0, Math.min(Number(seats.value) || 0, Number(seats.max) || 6));
    fill(botBox, h("legend", {}, "Play against bots"),
      h("p", {class: "muted", id: "bots-help"}, "Tick the seats a bot plays (the ISMCTS bot); you sit in the first seat left."),
      Array.from({length: count}, (_, s) => h("div", {class: "field"},
        h("input", {type: "checkbox", id: `bot-seat-${s}`, value: String(s), checked: chosen.has(String(s)),
                    "aria-describedby": "bots-help"}),
        h("label", {for: `bot-seat-${s}`}, `Seat ${s + 1} is a bot`))));
  };
  seats.addEventListener("input", drawBots);
  // Invite people by name: each name is looked up (GET /v1/players?name=) and sent as an id.
  const inviteInput = h("input", {id: "new-invite", name: "invite", autocomplete: "off", list: "invite-names",
                                  "aria-describedby": "invite-help"});
  const inviteNames = h("datalist", {id: "invite-names"});
  let lookups = 0;
  inviteInput.addEventListener("input", async () => {
    const last = inviteInput.value.split(",").pop().trim();
    const ticket = ++lookups;
    if (last.length < 2) return;
    try {
      const found = await api("GET", `/v1/players?${new URLSearchParams({name: last})}`);
      if (ticket !== lookups) return;
      const before = inviteInput.value.split(",").slice(0, -1).map((n) => n.trim()).filter(Boolean);
      fill(inviteNames, found.players.map((p) => h("option", {value: [...before, p.name].join(", ")})));
    } catch (err) { showError(err); }
  });
  const advanced = h("textarea", {id: "new-options-json", name: "options_json", rows: 3, spellcheck: "false",
                                  placeholder: '{"deck": ["duke", ...]}'});
  const schemaFor = async () => (await openapi()).components.schemas[`${titleCase(game.value)}Create`];
  let drawn = 0;
  async function drawOptions() {
    const ticket = ++drawn;  // a later choice of game wins over a slower earlier one
    try {
      const doc = await openapi();
      const schema = doc.components.schemas[`${titleCase(game.value)}Create`];
      if (ticket !== drawn) return;
      seats.min = schema.properties.seats.minimum;
      seats.max = schema.properties.seats.maximum;
      if (+seats.value < +seats.min) seats.value = seats.min;
      if (+seats.value > +seats.max) seats.value = seats.max;
      const props = resolve(doc, schema.properties.options)?.properties || {};
      const fields = [];
      for (const [name, raw] of Object.entries(props)) {
        const prop = resolve(doc, raw) || {};
        const choices = [prop, ...(prop.anyOf || prop.oneOf || [])].map((p) => resolve(doc, p) || {});
        const kinds = choices.flatMap((p) => [].concat(p.type || []));
        const numeric = choices.find((p) => [].concat(p.type || []).includes("integer")) || {};
        const values = choices.flatMap((p) => p.enum || []).filter((v) => v !== null);
        const id = `opt-${name}`;
        let input = null;
        if (kinds.includes("boolean")) input = h("input", {id, type: "checkbox", dataset: {option: name, kind: "boolean"}, checked: prop.default === true});
        else if (values.length) input = h("select", {id, dataset: {option: name, kind: "enum"}}, h("option", {value: ""}, "default"),
          values.map((v) => h("option", {value: JSON.stringify(v)}, String(v))));
        else if (kinds.includes("integer")) input = h("input", {id, type: "number", step: 1, min: numeric.minimum, max: numeric.maximum,
          placeholder: prop.default ?? "default", dataset: {option: name, kind: "integer"}});
        if (input) fields.push(h("div", {class: "field"}, h("label", {for: id}, titleCase(name)), input,
          prop.description ? h("small", {}, prop.description) : null));
      }
      fill(optionBox, h("legend", {}, "Options"), fields.length ? fields : h("p", {}, "No simple options for this game."));
    } catch (err) { showError(err); }
  };
  game.addEventListener("change", async () => { await drawOptions(); drawBots(); });
  drawOptions().then(drawBots);
  el.append(h("h1", {}, "Create a game"),
    h("form", {class: "card", onsubmit: async (event) => {
      event.preventDefault();
      clearError();
      const options = {};
      for (const input of optionBox.querySelectorAll("[data-option]")) {
        const {option, kind} = input.dataset;
        if (kind === "boolean") { if (input.checked) options[option] = true; }
        else if (kind === "enum") { if (input.value) options[option] = JSON.parse(input.value); }
        else if (input.value !== "") options[option] = Number(input.value);
      }
      if (advanced.value.trim()) {
        try { Object.assign(options, JSON.parse(advanced.value)); } catch {
          showError(new Error("the advanced options are not valid JSON")); return;
        }
      }
      const time_control = {seconds_per_move: Math.max(1, Math.round(+days.value * 86400))};
      if (+reserve.value > 0) time_control.reserve_seconds = Math.round(+reserve.value * 86400);
      if (weekends.checked) time_control.pause_weekends = true;
      const body = {game: game.value, seats: +seats.value, options, time_control};
      if (minReliability.value !== "") body.min_reliability = Math.round(+minReliability.value);
      const bots = [...botBox.querySelectorAll("input:checked")].map((i) => i.value);
      if (bots.length) body.bots = Object.fromEntries(bots.map((s) => [s, "ismcts"]));
      try {
        const names = inviteInput.value.split(",").map((n) => n.trim()).filter(Boolean);
        if (names.length) body.invite = await Promise.all(names.map(async (name) => {
          const found = await api("GET", `/v1/players?${new URLSearchParams({name})}`);
          const exact = found.players.find((p) => p.name.toLowerCase() === name.toLowerCase());
          if (!exact) throw new Error(`nobody here is called ${name}`);
          return exact.id;
        }));
        const made = await api("POST", "/v1/games", {body});
        await joinGame(made.id);
        navigate(`/games/${made.id}`);
      } catch (err) { showError(err); }
    }},
      h("div", {class: "field"}, h("label", {for: "new-game"}, "Game"), game),
      h("div", {class: "field"}, h("label", {for: "new-seats"}, "Seats"), seats),
      h("fieldset", {}, h("legend", {}, "Time control"),
        h("div", {class: "field"}, h("label", {for: "new-days"}, "Days per move"), days),
        h("div", {class: "field"}, h("label", {for: "new-reserve"}, "Reserve (days)"), reserve),
        h("div", {class: "field"}, weekends, h("label", {for: "new-weekends"}, "Pause on weekends"))),
      h("div", {class: "field"}, h("label", {for: "new-min-reliability"}, "Minimum reliability (%)"), minReliability,
        h("small", {id: "min-reliability-help"}, "Players who make fewer of their moves in time cannot join; newcomers can.")),
      botBox,
      h("div", {class: "field"}, h("label", {for: "new-invite"}, "Invite (names, comma-separated)"), inviteInput, inviteNames,
        h("small", {id: "invite-help"}, "Only the people you invite (and you) may then take a seat.")),
      optionBox,
      h("details", {}, h("summary", {}, "Advanced options (JSON)"),
        h("label", {for: "new-options-json"}, "Options as JSON, merged over the ones above"), advanced),
      h("button", {type: "submit"}, "Create and sit down")));
}

function resolve(doc, schema) {
  if (schema && schema.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split("/").pop()]);
  if (schema && schema.allOf && schema.allOf.length === 1) return resolve(doc, schema.allOf[0]);
  return schema;
}

function myGames(el) {
  document.title = "My games · Intrigue";
  if (!session.token) {
    el.append(h("h1", {}, "My games"), h("p", {}, h("a", {href: "/account"}, "Sign up or sign in"), " to see your games."));
    return;
  }
  const section = (id, title, none) => {
    const list = h("div", {class: "games", id: `${id}-list`, dataset: {none}});
    el.append(h("section", {"aria-labelledby": `${id}-title`}, h("h2", {id: `${id}-title`}, title), list));
    return list;
  };
  el.append(h("h1", {}, "My games"));
  const inbox = section("inbox", "Awaiting me", "Nothing awaits you.");
  const invited = section("invited", "Invitations", "No invitation.");
  const waiting = section("open", "Waiting for players", "No game waiting for players.");
  const playing = section("playing", "In progress", "No game in progress.");
  const finished = section("finished", "Finished", "No finished game yet.");
  const more = h("button", {type: "button", hidden: true}, "More of my games");
  el.append(more);
  const listFor = (g) => (g.invited ? invited : g.status === "open" ? waiting
    : g.status === "finished" || g.status === "cancelled" ? finished : playing);
  const listed = new Set();
  let cursor = null;
  let first = true;
  const page = async () => {
    if (!first && !cursor) return;  // past the last page: nothing more (never the first page again)
    try {
      const query = new URLSearchParams({limit: "50"});
      if (cursor) query.set("cursor", cursor);
      const mine = await api("GET", `/v1/me/games?${query}`);
      for (const g of mine.games) {
        if (listed.has(g.id)) continue;
        listed.add(g.id);
        listFor(g).append(gameRow(g, false));
      }
      for (const list of [invited, waiting, playing, finished]) {
        list.querySelector("p.none")?.remove();
        if (!list.children.length) list.append(h("p", {class: "none"}, list.dataset.none));
      }
      first = false;
      cursor = mine.next_cursor;
      more.hidden = !cursor;
    } catch (err) { showError(err); }
  };
  more.addEventListener("click", page);
  (async () => {
    try {
      const awaited = await api("GET", "/v1/me/games?awaiting=me&limit=50");
      fill(inbox, awaited.games.length ? awaited.games.map((g) => gameRow(g, false)) : h("p", {}, inbox.dataset.none));
    } catch (err) { showError(err); }
    await page();
  })();
}

function rulesPage(el, game) {
  document.title = `Rules of ${gameName(game)} · Intrigue`;
  const body = h("div", {class: "rules"}, h("p", {}, "Loading the rules…"));
  el.append(h("h1", {}, `Rules of ${gameName(game)}`),
    h("p", {class: "muted"}, "The summary this server plays by. Where it and the rulebook differ, the rulebook is right."),
    body);
  api("GET", `/rules/${game}.md`, {text: true, token: null})
    .then((text) => fill(body, markdown(text)))
    .catch((err) => { fill(body, h("p", {}, "No rules summary for this game.")); showError(err); });
}

function ratingLine(r) {
  return `rating ${r.rating.toFixed(1)} (skill ${r.mu.toFixed(1)} ± ${(3 * r.sigma).toFixed(1)}) · ${r.games} rated game${r.games === 1 ? "" : "s"}`;
}

function playerPage(el, id) {
  document.title = "Player · Intrigue";
  const card = h("section", {class: "card", "aria-live": "polite"}, h("p", {}, "Loading…"));
  el.append(card);
  api("GET", `/v1/players/${id}`).then((player) => {
    document.title = `${player.name} · Intrigue`;
    const titles = Object.entries(player.ratings || {});
    fill(card, h("h1", {}, player.name), reliabilityLine(player),
      player.bot_account ? h("p", {}, "A bot account: a program playing through the API.") : null,
      titles.length ? h("ul", {class: "ratings"}, titles.map(([g, r]) => h("li", {},
        h("a", {href: `/leaderboards/${g}`}, gameName(g)), `: ${ratingLine(r)}`)))
        : h("p", {}, "No rated game finished yet."),
      h("p", {}, h("a", {href: "/leaderboards"}, "All leaderboards")));
  }).catch(showError);
}

function leaderboardPage(el, wanted) {
  const game = wanted || GAMES[0];
  document.title = `Leaderboard of ${gameName(game)} · Intrigue`;
  const chooser = h("nav", {"aria-label": "Leaderboards", class: "toolbar"},
    GAMES.map((g) => h("a", {href: `/leaderboards/${g}`, "aria-current": g === game ? "page" : null}, gameName(g))));
  const list = h("ol", {class: "leaderboard", id: "leaderboard"});
  const note = h("p", {class: "muted"});
  const more = h("button", {type: "button", hidden: true}, "More players");
  let cursor = null;
  const load = async (first) => {
    if (!first && !cursor) return;
    try {
      const query = new URLSearchParams({limit: "50"});
      if (cursor) query.set("cursor", cursor);
      const page = await api("GET", `/v1/leaderboards/${game}?${query}`);
      note.textContent = `Players with at least ${page.min_games} rated games, best first (rating: skill less three deviations).`;
      for (const entry of page.players) {
        list.append(h("li", {value: entry.rank}, h("a", {href: `/players/${entry.player}`}, entry.name), ` · ${ratingLine(entry)}`));
      }
      if (first && !page.players.length) list.append(h("li", {class: "none"}, "Nobody has played enough rated games yet."));
      cursor = page.next_cursor;
      more.hidden = !cursor;
    } catch (err) { showError(err); }
  };
  more.addEventListener("click", () => load(false));
  el.append(h("h1", {}, `Leaderboard: ${gameName(game)}`), chooser, note, list, more);
  load(true);
}

render();
