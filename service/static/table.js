// A game's table: the seat's view drawn by the game's own module (or the generic one),
// its legal actions as clicks, the live stream, table talk, and, once the game is over,
// the replay slider, the transcript and the log's audit.

import {api, client, follow, joinGame, revealIfDue, session} from "./api.js";
import {auditLog, checkFinalRecord} from "./audit.js";
import {countdown, fill, h, titleCase} from "./dom.js";
import {generic, readable} from "./games/generic.js";
import {coup} from "./games/coup.js";
import {revolution} from "./games/revolution.js";
import {ideology} from "./games/ideology.js";
import {pax} from "./games/pax.js";
import {ordersPanel} from "./orders.js";
import {awaitedWords} from "./words.js";
import {describePlatform} from "./games/platform.js";
import {loadTips} from "./tips.js";

const TABLES = {coup, revolution, ideology, pax};
const NAMES = {coup: "Coup", revolution: "Revolution!", ideology: "Ideology: The War of Ideas", pax: "Pax Porfiriana"};

export function seatName(game, seat) {
  if (seat === null || seat === undefined) return "nobody";
  const player = game.players?.[seat];
  return player ? `${player.name} (seat ${seat})` : `seat ${seat}`;
}

export function tablePage(el, id, {showError, clearError, navigate}) {
  let game = null;
  let actionsKey = null;
  let finishedDrawn = false;
  let connection = "connecting";
  const feedItems = [];
  const head = h("header", {class: "table-head"});
  const status = h("div", {class: "status", "aria-live": "polite"});
  const board = h("section", {class: "board", "aria-label": "Table"});
  const decision = h("section", {class: "decision", "aria-label": "Your decision", id: "decision"});
  const chatList = h("ol", {class: "messages", "aria-live": "polite", id: "chat-messages"});
  const chatPanel = h("section", {class: "chat", "aria-label": "Table talk"});
  const feed = h("ol", {class: "feed-list", id: "feed"});
  const over = h("section", {class: "over", "aria-label": "Replay and audit"});
  let orders = null;  // the standing-orders panel, once the game (and so its choices) is known
  const life = h("div", {class: "toolbar table-life", id: "table-life"});
  let lifeKey = null;
  el.append(head, status, life,
    h("div", {class: "table-layout"},
      h("div", {class: "table-main"}, decision, board, over),
      h("aside", {class: "table-side"}, chatPanel,
        h("details", {class: "feed", open: true}, h("summary", {}, "What happened"), feed))));

  const table = () => TABLES[game?.game] || generic;

  let tipsAsked = false;
  function apply(view, force = false) {
    if (!force && game && view.version < game.version) return;  // an older answer arrived late
    game = view;
    draw();
    if (game.status === "starting" || game.status === "active") {  // fair shuffles: this seat's secret, when due
      revealIfDue(game).then((revealed) => { if (revealed) apply(revealed); })
        .catch((err) => { if (err.code !== "game_not_starting") showError(err); });  // the wait ended first
    }
    if (!tipsAsked) {  // the rules at hand: drawn again once the game's data files are in
      tipsAsked = true;
      loadTips(game.game).then(() => { actionsKey = null; draw(); }).catch(showError);
    }
  }

  async function reload() {
    try { apply(await api("GET", `/v1/games/${id}`), true); } catch (err) { showError(err); }
  }

  async function post(action) {
    clearError();
    for (const button of decision.querySelectorAll("button, input, select")) button.disabled = true;
    // The SDK sends one key per decision: a 500 or 503 leaves the outcome unknown, so the same
    // request is sent again with the same key, and the server answers what happened (never twice).
    try {
      const answer = await client.act(id, action, {ifMatch: game.version});
      apply(answer.game);
      return true;
    } catch (err) {
      showError(err);
      actionsKey = null;
      if (err.status === 409) await reload();  // someone moved first: the view as it is now
      else draw();
      return false;
    }
  }

  function draw() {
    const mySeat = game.seat;
    const myTurn = game.status === "active" && game.legal_actions.length > 0 && game.awaiting.includes(mySeat);
    document.title = `${myTurn ? "● Your turn · " : ""}${NAMES[game.game] || game.game} · Intrigue`;
    fill(head,
      h("h1", {}, `${NAMES[game.game] || titleCase(game.game)} `, h("small", {}, `game ${id.slice(0, 8)}`)),
      h("p", {class: "who"}, mySeat === null || mySeat === undefined
        ? (game.status !== "open" ? "You are watching."
          : session.token ? joinButton() : h("a", {href: `/account?next=/games/${id}`}, "Sign up or sign in to take a seat"))
        : `You are ${seatName(game, mySeat)}.`),
      h("p", {class: "seated"}, "At the table: ", game.players.map((p, s) => [s ? ", " : "",
        p ? (p.bot ? `${p.name} (seat ${s}, a bot)` : [h("a", {href: `/players/${p.id}`}, p.name), p.bot_account ? ` (seat ${s}, a bot account)` : ` (seat ${s})`]) : `seat ${s} free`])));
    drawStatus(myTurn);
    drawLife();
    fill(board, table().board(game, {seatName: (s) => seatName(game, s), feed: feedItems}));
    const key = JSON.stringify([game.status, game.seat, game.phase, game.awaiting_kinds?.[game.seat], game.legal_actions,
                                table().decisionKey?.(game)]);
    if (key !== actionsKey) {
      actionsKey = key;
      fill(decision);
      if (game.legal_actions.length && game.status === "active") {
        decision.append(h("h2", {}, myTurn ? "Your move" : "You may still act"),
          (table().actions || generic.actions)(game, post, {seatName: (s) => seatName(game, s), feed: feedItems}));
      }
    }
    drawChatForm();
    if (!orders) {
      orders = ordersPanel(id, table().orders || [], {showError, clearError, place: (panel) => decision.after(panel)});
    }
    orders.refresh(game);
    if (game.status === "finished" && !finishedDrawn) {
      finishedDrawn = true;
      drawFinished();
    }
  }

  function joinButton() {
    return h("button", {type: "button", onclick: async () => {
      try {
        const joined = await joinGame(id);
        apply(joined.game, true);
        restart();
      } catch (err) { showError(err); }
    }}, "Take a seat");
  }

  function finalResult() {
    return `Game over. Winner${game.winners.length > 1 ? "s" : ""}: ${game.winners.map((s) => seatName(game, s)).join(", ") || "nobody"}`;
  }

  function drawStatus(myTurn) {
    // A game that is over has nothing live to follow: no connection state beside its result.
    const over = game.status === "finished" || game.status === "cancelled";
    const parts = over ? [] : [h("span", {class: `conn conn-${connection}`}, connection === "live" ? "● live" : connection)];
    if (game.status === "open") {
      const seated = game.players.filter(Boolean).length;
      parts.push(h("span", {}, `Waiting for players: ${seated}/${game.seats} seated. Share this page's address to invite them.`));
    } else if (game.status === "cancelled") {
      parts.push(h("strong", {}, "Cancelled: its creator called it off before it started."));
    } else if (game.status === "finished") {
      parts.push(h("strong", {class: "result"}, finalResult()));
    } else if (game.status === "starting") {
      const waiting = Object.keys(game.entropy || {}).filter((s) => game.entropy[s] === "committed").map((s) => seatName(game, Number(s)));
      parts.push(h("span", {class: "awaiting"}, `Every seat is taken: waiting for ${waiting.join(", ") || "nobody"} to reveal a secret for the shuffle`));
      if (game.deadline) parts.push(h("span", {}, " · starts anyway in ", countdown(game.deadline)));
    } else {
      const awaited = game.awaiting.map((s) => `${seatName(game, s)} ${awaitedWords(game.game, game.awaiting_kinds?.[s])}`.trim());
      parts.push(h("span", {class: "awaiting"}, awaited.length ? `Awaiting ${awaited.join(", ")}` : "Resolving…"));
      if (game.deadline) parts.push(h("span", {}, " · deadline in ", countdown(game.deadline)));
      if (myTurn) parts.push(h("strong", {class: "your-turn"}, " · Your turn"));
    }
    parts.push(h("span", {class: "version"}, ` · version ${game.version}`));
    fill(status, parts);
  }

  // ------------------------------------------------------------ the table's life
  /** "Are you sure?" in the page itself: a question, the action's own button and a way back. */
  function confirming(question, yes, act) {
    const back = h("button", {type: "button", class: "action", onclick: () => { lifeKey = null; drawLife(); }}, "No, go back");
    const sure = h("button", {type: "button", onclick: act}, yes);
    fill(life, h("p", {role: "alert", class: "confirm"}, question), sure, back);
    sure.focus();
  }

  async function lifeCall(method, path, then) {
    clearError();
    try { then(await api(method, path)); } catch (err) { showError(err); lifeKey = null; drawLife(); }
  }

  function drawLife() {
    const seated = game.seat !== null && game.seat !== undefined;
    const created = feedItems.find((e) => e.type === "GameCreated")?.data?.created_by;
    const creator = Boolean(created) && created === session.player?.id;
    const resigned = seated && (game.resigned || []).includes(game.seat);
    const key = JSON.stringify([game.status, seated, creator, resigned, game.rematch, game.game]);
    if (key === lifeKey) return;
    lifeKey = key;
    const rules = h("a", {href: `/rules/${game.game}`, class: "rules-link"}, `Rules of ${NAMES[game.game] || titleCase(game.game)}`);
    const buttons = [];
    if (game.status === "open" && seated) {
      buttons.push(h("button", {type: "button", class: "action", onclick: () => lifeCall("POST", `/v1/games/${id}/leave`,
        (view) => { apply(view, true); restart(); })}, "Leave this game"));
    }
    if (game.status === "open" && creator) {
      buttons.push(h("button", {type: "button", class: "action", onclick: () => confirming(
        "Cancel this game for everyone? It cannot be started again.", "Yes, cancel the game",
        () => lifeCall("DELETE", `/v1/games/${id}`, () => reload()))}, "Cancel the game"));
    }
    if (game.status === "active" && seated && !resigned) {
      buttons.push(h("button", {type: "button", class: "action", onclick: () => confirming(
        "Resign? You are out of the running for good, and a bot plays your seat to the end.", "Yes, resign",
        () => lifeCall("POST", `/v1/games/${id}/resign`, (done) => apply(done.game, true)))}, "Resign…"));
    }
    if (game.status === "finished" && seated) {
      buttons.push(h("button", {type: "button", onclick: () => lifeCall("POST", `/v1/games/${id}/rematch`,
        (joined) => navigate(`/games/${joined.game.id}`))}, game.rematch ? "Join the rematch" : "Rematch"));
    }
    if (game.status === "cancelled") buttons.push(h("p", {}, "This game was cancelled before it started."));
    fill(life, buttons, rules);
  }

  // ------------------------------------------------------------ table talk
  const chatText = h("input", {id: "chat-text", name: "text", maxlength: 500, required: true, autocomplete: "off"});
  const chatTo = h("select", {id: "chat-to", name: "to"});
  const chatForm = h("form", {class: "chat-form", onsubmit: async (event) => {
    event.preventDefault();
    clearError();
    const to = chatTo.value === "" ? null : Number(chatTo.value);
    try {
      await api("POST", `/v1/games/${id}/messages`, {body: {text: chatText.value, to}});
      chatText.value = "";
    } catch (err) { showError(err); }
  }},
    h("label", {for: "chat-to"}, "To"), chatTo,
    h("label", {for: "chat-text"}, "Message"), chatText,
    h("button", {type: "submit"}, "Send"));
  chatPanel.append(h("h2", {}, "Table talk"), chatList);

  function drawChatForm() {
    const seated = game.seat !== null && game.seat !== undefined && game.status !== "finished";
    if (!seated) { chatForm.remove(); return; }
    const chosen = chatTo.value;
    const wanted = [["", "Everyone"], ...game.players.map((p, s) => (p && s !== game.seat ? [String(s), seatName(game, s)] : null))
      .filter(Boolean)];
    if (chatTo.options.length !== wanted.length) {
      fill(chatTo, wanted.map(([value, label]) => h("option", {value}, label)));
      chatTo.value = chosen;
      if (chatTo.selectedIndex < 0) chatTo.value = "";
    }
    if (!chatForm.isConnected) chatPanel.append(chatForm);
  }

  function addMessage(item) {
    const {from, to, text} = item.data;
    const whom = to === null ? "to everyone" : `to ${game ? seatName(game, to) : `seat ${to}`}`;
    chatList.append(h("li", {class: to === null ? "public" : "private", dataset: {id: item.id}},
      h("strong", {}, game ? seatName(game, from) : `seat ${from}`), ` ${whom}: `, text));
  }

  let replayAt = null;  // the replay slider's version, once the game is over: the log stops there

  function feedLine(item) {
    const names = {seatName: (s) => (game ? seatName(game, s) : `seat ${s}`), feed: feedItems};
    const line = describePlatform(item, names) ?? (table().describe || generic.describe)(item, game, names);
    return line ? h("li", {dataset: {seq: item.seq}}, h("span", {class: "seq"}, `${item.seq} `), line) : null;
  }

  function addFeed(item) {
    feedItems.push(item);
    if (item.type === "GameCreated" && game) { lifeKey = null; drawLife(); }  // says who may cancel
    if (replayAt !== null && item.seq > replayAt) return;
    const line = feedLine(item);
    if (line) {
      feed.prepend(line);
      while (feed.children.length > 60) feed.lastChild.remove();
    }
    // A decision that tells why it is asked (Coup's "you lose an influence: ...") is drawn again
    // when the event that says why arrives after the view that asks it.
    if (game && table().redrawOnFeed?.(game, item)) { actionsKey = null; draw(); }
  }

  /** The log as it stood at ``version`` (the replay slider's), newest first. */
  function drawFeedUpTo(version) {
    replayAt = version;
    const lines = feedItems.filter((e) => e.seq !== null && e.seq <= version).map(feedLine).filter(Boolean);
    fill(feed, lines.slice(-60).reverse());
  }

  // ------------------------------------------------------------ after the end
  /** The final hash, whether the server's signature of it holds, and the proof the game is in the public log. */
  async function drawSealed(place) {
    const SAID = {verified: "verified with the server's published key", bad: "does NOT hold: this log is not the one the server signed",
                  unchecked: "present; this browser cannot check Ed25519 signatures (intrigue verify --url can)",
                  missing: "missing: the server did not sign this log"};
    try {
      const [text, keys, checkpoint] = await Promise.all([api("GET", `/v1/games/${id}/log`, {text: true}),
        api("GET", "/v1/keys"), api("GET", "/v1/transparency/checkpoint", {text: true})]);
      const signed = await checkFinalRecord(text, keys.keys);
      const size = checkpoint.split("\n")[1];
      fill(place,
        h("p", {}, "Final hash: ", h("code", {id: "final-hash"}, signed.finalHash)),
        h("p", {id: "signature-status", class: `signature ${signed.state}`},
          `Signature${signed.keyId ? ` (key ${signed.keyId})` : ""}: ${SAID[signed.state]}.`),
        h("p", {}, h("a", {id: "inclusion-proof", href: `/v1/transparency/inclusion?${new URLSearchParams({game: id, size})}`},
          `Proof that this game is in the public log of ${size} games`), " (RFC 9162; see the signed checkpoint at ",
          h("a", {href: "/v1/transparency/checkpoint"}, "/v1/transparency/checkpoint"), ")."));
    } catch (err) { fill(place, "The signature could not be checked."); showError(err); }
  }

  function drawFinished() {
    const max = game.version;
    const slider = h("input", {type: "range", id: "replay-version", min: 1, max, value: max, step: 1});
    const label = h("output", {for: "replay-version", id: "replay-label"}, `Version ${max} of ${max}`);
    const shown = h("div", {class: "replay-board", id: "replay-board"});
    let pending = 0;
    const show = async () => {
      const version = Number(slider.value);
      const ticket = ++pending;
      try {
        const replay = await api("GET", `/v1/games/${id}/replay?version=${version}`);
        if (ticket !== pending) return;
        label.textContent = `Version ${version} of ${max}`;
        // A past version of a finished game: nobody is to act, no clock runs, the result stands.
        const seen = {...game, ...replay.game, deadline: null, legal_actions: []};
        // Once the game is over the replay holds everything (the state): a table may show it.
        if (replay.state && table().withState) seen.view = table().withState(seen.view, replay.state);
        drawFeedUpTo(version);
        fill(shown, h("p", {class: "replay-note"}, version === max ? "The final position. " : `As it stood at version ${version}. `,
          h("strong", {}, `Result: ${game.winners.map((s) => seatName(game, s)).join(" and ") || "nobody"} won.`)),
          replay.state ? h("details", {}, h("summary", {}, "Everything at this version (the game is over)"), readable(replay.state)) : null,
          table().board(seen, {seatName: (s) => seatName(game, s), replay: true,
                               feed: feedItems.filter((e) => e.seq !== null && e.seq <= version)}));
      } catch (err) { showError(err); }
    };
    slider.addEventListener("input", show);
    const transcript = h("pre", {class: "transcript", id: "transcript"});
    const verdict = h("output", {id: "audit-result", class: "audit", "aria-live": "polite"});
    const runAudit = async (text) => {
      verdict.textContent = "Checking…";
      const report = await auditLog(text);
      verdict.className = `audit ${report.ok ? "ok" : "bad"}`;
      verdict.textContent = report.ok
        ? `Verified: ${report.events} events, the hash chain holds and the seed matches its commitment.`
        : `Not verified: event ${report.seq}: ${report.reason}.`;
    };
    const sealed = h("div", {class: "transparency", id: "transparency", "aria-live": "polite"}, "Checking the server's signature…");
    const file = h("input", {type: "file", id: "audit-file", accept: ".ndjson,.jsonl,.txt,application/x-ndjson"});
    file.addEventListener("change", async () => { if (file.files[0]) await runAudit(await file.files[0].text()); });
    fill(over,
      h("h2", {}, "Replay"),
      h("div", {class: "field"}, h("label", {for: "replay-version"}, "Version"), slider, label),
      shown,
      h("h2", {}, "Audit"),
      h("p", {}, "The log's hash chain and seed commitment, recomputed in this browser."),
      h("div", {class: "toolbar"},
        h("button", {type: "button", id: "audit-button", onclick: async () => {
          try { await runAudit(await api("GET", `/v1/games/${id}/log`, {text: true})); } catch (err) { showError(err); }
        }}, "Audit this game's log"),
        h("a", {href: `/v1/games/${id}/log`, download: `${id}.ndjson`}, "Download the log")),
      h("div", {class: "field"}, h("label", {for: "audit-file"}, "Audit a log file"), file),
      verdict,
      h("h2", {}, "Transparency"), sealed,
      h("h2", {}, "Transcript"), transcript);
    drawSealed(sealed);
    api("GET", `/v1/games/${id}/transcript`, {text: true}).then((text) => { transcript.textContent = text; })
      .catch(showError);
    show();
  }

  // ------------------------------------------------------------ live
  let stop = null;
  function restart() {
    if (stop) stop();
    feedItems.length = 0;
    fill(feed);
    fill(chatList);
    stop = follow(`/v1/games/${id}/events/stream?view=true`, (type, data) => {
      if (type === "game") apply(data);
      else if (type === "ChatMessage") addMessage(data);
      else addFeed(data);
    }, {
      onState: (state, err) => {
        connection = state;
        if (err) showError(err);
        if (game) drawStatus(game.status === "active" && game.legal_actions.length > 0 && game.awaiting.includes(game.seat));
      },
    });
  }
  restart();
  return () => { if (stop) stop(); };
}
