// Swiss tournaments: the list (open, running, finished) and a tournament's page with its
// standings, its rounds (each table a link to its game) and the join, leave and withdraw buttons.

import {session, tournaments} from "./api.js";
import {fill, h} from "./dom.js";
import {GAME_NAMES, gameName} from "./words.js";

const STATUSES = [["open", "Open"], ["running", "Running"], ["finished", "Finished"]];

function summaryLine(t) {
  const size = `${t.seats_per_table} seats a table · ${t.rounds} round${t.rounds === 1 ? "" : "s"}`;
  const who = `${t.players} player${t.players === 1 ? "" : "s"} (at least ${t.min_players}${t.max_players ? `, at most ${t.max_players}` : ""})`;
  return `${gameName(t.game)} · ${size} · ${who}`;
}

function createForm({showError, navigate}) {
  const field = (id, label, input) => h("div", {class: "field"}, h("label", {for: id}, label), input);
  const game = h("select", {id: "t-game", name: "game"}, Object.keys(GAME_NAMES).map((g) => h("option", {value: g}, gameName(g))));
  const name = h("input", {id: "t-name", name: "name", maxlength: 80, placeholder: "Sunday Swiss"});
  const seats = h("input", {id: "t-seats", name: "seats_per_table", type: "number", value: 3, min: 2, max: 6, required: true});
  const rounds = h("input", {id: "t-rounds", name: "rounds", type: "number", value: 3, min: 1, max: 50, required: true});
  const least = h("input", {id: "t-min", name: "min_players", type: "number", value: 6, min: 2, required: true});
  const later = new Date(Date.now() + 86400000);
  const starts = h("input", {id: "t-starts", name: "starts_at", type: "datetime-local", required: true,
    value: new Date(later.getTime() - later.getTimezoneOffset() * 60000).toISOString().slice(0, 16)});
  const days = h("input", {id: "t-days", name: "days", type: "number", value: 1, min: 0.001, step: "any", required: true});
  return h("details", {class: "card"}, h("summary", {}, "Create a tournament"),
    h("form", {onsubmit: async (event) => {
      event.preventDefault();
      const body = {game: game.value, seats_per_table: +seats.value, rounds: +rounds.value, min_players: +least.value,
        starts_at: new Date(starts.value).toISOString(),
        time_control: {seconds_per_move: Math.max(1, Math.round(+days.value * 86400))}};
      if (name.value.trim()) body.name = name.value.trim();
      if (body.min_players < body.seats_per_table) {  // the server would refuse it (bad_player_bounds): say so first
        showError(new Error(`at least ${body.seats_per_table} players are needed to fill a table of ${body.seats_per_table}`));
        return;
      }
      try {
        const made = await tournaments.create(body);
        navigate(`/tournaments/${made.id}`);
      } catch (err) { showError(err); }
    }},
      field("t-name", "Name", name), field("t-game", "Game", game), field("t-seats", "Seats per table", seats),
      field("t-rounds", "Rounds", rounds), field("t-min", "Players needed to start", least),
      field("t-starts", "Starts at (your local time)", starts), field("t-days", "Days per move", days),
      h("button", {type: "submit"}, "Create the tournament")));
}

export function tournamentsPage(el, {showError, navigate}) {
  document.title = "Tournaments · Intrigue";
  el.append(h("h1", {}, "Tournaments"),
    h("p", {class: "muted"}, "Swiss tournaments: each round seats players of equal score together; a round's tables are ordinary games."));
  if (session.token) el.append(createForm({showError, navigate}));
  for (const [status, title] of STATUSES) {
    const list = h("div", {class: "games", id: `tournaments-${status}`, "aria-live": "polite"}, h("p", {}, "Loading…"));
    const more = h("button", {type: "button", hidden: true}, `More ${title.toLowerCase()} tournaments`);
    let cursor = null;
    const load = async (first) => {
      try {
        const page = await tournaments.list(status, first ? null : cursor);
        if (first) fill(list);
        if (first && !page.tournaments.length) list.append(h("p", {class: "none"}, `No ${title.toLowerCase()} tournament.`));
        for (const t of page.tournaments) {
          list.append(h("article", {class: "game-row", dataset: {tournament: t.id}},
            h("h3", {}, h("a", {href: `/tournaments/${t.id}`}, t.name)),
            h("p", {}, summaryLine(t)),
            h("p", {class: "row-status"}, status === "open" ? `Starts ${new Date(t.starts_at).toLocaleString()}`
              : status === "running" ? `Round ${t.round} of ${t.rounds}` : "Finished")));
        }
        cursor = page.next_cursor;
        more.hidden = !cursor;
      } catch (err) { showError(err); }
    };
    more.addEventListener("click", () => load(false));
    el.append(h("section", {"aria-labelledby": `tournaments-${status}-title`},
      h("h2", {id: `tournaments-${status}-title`}, title), list, more));
    load(true);
  }
}

function standingsTable(t) {
  return h("table", {class: "standings", "aria-label": "Standings"},
    h("thead", {}, h("tr", {}, ["Place", "Player", "Points", "Buchholz", "Rating", "Tables"].map((c) => h("th", {scope: "col"}, c)))),
    h("tbody", {}, t.standings.map((row) => h("tr", {dataset: {player: row.player.id}},
      h("td", {}, String(row.rank)),
      h("td", {}, h("a", {href: `/players/${row.player.id}`}, row.player.name),
        row.withdrawn ? " (withdrawn)" : "", row.bye ? " (had a bye)" : ""),
      h("td", {}, String(row.points)), h("td", {}, String(row.buchholz)),
      h("td", {}, row.rating.toFixed(1)), h("td", {}, String(row.tables))))));
}

function roundSection(t, round, names) {
  const name = (id) => names.get(id) || id;
  return h("section", {class: "card", "aria-labelledby": `round-${round.round}`},
    h("h3", {id: `round-${round.round}`}, `Round ${round.round}${round.ended ? " (ended)" : ` · until ${new Date(round.deadline).toLocaleString()}`}`),
    h("ul", {class: "tables"}, round.tables.map((table) => h("li", {dataset: {game: table.game}},
      h("a", {href: `/games/${table.game}`}, `Table ${table.table + 1}`), ": ",
      table.players.map((id, seat) => `${name(id)}${table.ranks ? ` (${ordinal(table.ranks[seat])})` : ""}`).join(", "),
      table.ranks ? "" : " · playing"))),
    round.byes.length ? h("p", {}, `Bye: ${round.byes.map(name).join(", ")}`) : null);
}

function ordinal(rank) {
  return ["1st", "2nd", "3rd"][rank] || `${rank + 1}th`;
}

export function tournamentPage(el, id, {showError, clearError}) {
  document.title = "Tournament · Intrigue";
  const body = h("div", {"aria-live": "polite"}, h("p", {}, "Loading…"));
  el.append(body);
  const draw = (t) => {
    document.title = `${t.name} · Intrigue`;
    const me = session.player?.id;
    const entry = t.entrants.find((p) => p.id === me);
    const act = (label, call) => h("button", {type: "button", onclick: async () => {
      clearError();
      try { draw(await call(t.id)); } catch (err) { showError(err); }
    }}, label);
    const buttons = [];
    if (session.token && t.status === "open") buttons.push(entry ? act("Leave the tournament", tournaments.leave) : act("Join the tournament", tournaments.join));
    if (session.token && t.status === "open" && me === t.created_by) buttons.push(act("Start now", tournaments.start));
    if (entry && !entry.withdrawn && t.status === "running") buttons.push(act("Withdraw", tournaments.withdraw));
    const names = new Map(t.entrants.map((p) => [p.id, p.name]));
    fill(body,
      h("h1", {}, t.name),
      h("p", {}, summaryLine(t)),
      h("p", {id: "tournament-status"}, t.status === "open" ? `Open · starts ${new Date(t.starts_at).toLocaleString()}`
        : t.status === "running" ? `Running · round ${t.round} of ${t.rounds}` : t.status === "finished" ? "Finished" : "Cancelled"),
      buttons.length ? h("div", {class: "toolbar"}, buttons) : null,
      h("h2", {}, "Standings"), t.standings.length ? standingsTable(t) : h("p", {}, "Nobody has joined yet."),
      h("h2", {}, "Rounds"), t.rounds_played.length ? t.rounds_played.slice().reverse().map((r) => roundSection(t, r, names))
        : h("p", {}, "No round paired yet."));
  };
  tournaments.get(id).then(draw).catch(showError);
}
