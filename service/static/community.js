// The correspondence community's pages (issue 50): vacations and time zone on the account
// page, the seats offered to substitutes, and reliability beside a player's name.

import {community} from "./api.js";
import {fill, h} from "./dom.js";
import {gameName} from "./words.js";

/** A player's name with their reliability, as the lobby and your games list it. */
export function nameWithReliability(player) {
  if (player.reliability === undefined || player.bot) return player.name;
  return player.reliability === null ? `${player.name} (new)` : `${player.name} (${player.reliability}% reliable)`;
}

/** The account page's vacation and time zone, for a player signed in. */
export function accountCommunity(el, {showError, clearError}) {
  const status = h("p", {id: "vacation-status", "aria-live": "polite"}, "Loading…");
  const days = h("input", {id: "vacation-days", name: "days", type: "number", min: 1, max: 366, value: 7, required: true});
  const end = h("button", {type: "button", hidden: true}, "End my vacation now");
  const zone = h("input", {id: "account-timezone", name: "timezone", autocomplete: "off", spellcheck: "false",
                           "aria-describedby": "timezone-help"});
  const show = (me) => {
    status.textContent = me.vacation_until
      ? `On vacation until ${new Date(me.vacation_until).toLocaleString()} · ${me.vacation_days_left} of ${me.vacation_days_per_year} days left this year.`
      : `Not on vacation · ${me.vacation_days_left} of ${me.vacation_days_per_year} vacation days left this year.`;
    end.hidden = !me.vacation_until;
    zone.value = me.timezone;
  };
  const attempt = (call) => async (event) => {
    event?.preventDefault();
    clearError();
    try { show(await call()); } catch (err) { showError(err); }
  };
  end.addEventListener("click", attempt(() => community.endVacation()));
  el.append(
    h("section", {class: "card", "aria-labelledby": "vacation-title"},
      h("h2", {id: "vacation-title"}, "Vacation"),
      status,
      h("p", {class: "muted"}, "While you are away, your clocks stop in every game of a day or more per move."),
      h("form", {onsubmit: attempt(() => community.startVacation(+days.value))},
        h("label", {for: "vacation-days"}, "Days away"), days,
        h("button", {type: "submit"}, "Start a vacation")),
      end),
    h("section", {class: "card", "aria-labelledby": "timezone-title"},
      h("h2", {id: "timezone-title"}, "Time zone"),
      h("form", {onsubmit: attempt(() => community.setTimezone(zone.value.trim()))},
        h("label", {for: "account-timezone"}, "Your time zone"), zone,
        h("small", {id: "timezone-help"}, "An IANA name such as Europe/Paris: games that pause weekends pause yours."),
        h("button", {type: "submit"}, "Save the time zone"))));
  community.me().then(show).catch(showError);
}

/** The seats running games offer to a substitute, each with a button to take it over. */
export function substitutesPage(el, {showError, clearError, navigate, signedIn}) {
  document.title = "Seats seeking a substitute · Intrigue";
  const list = h("div", {class: "games", id: "substitute-list", "aria-live": "polite"});
  const more = h("button", {type: "button", hidden: true}, "Next page");
  let cursor = null;
  const load = async (first) => {
    if (!first && !cursor) return;
    try {
      const query = new URLSearchParams({limit: "20"});
      if (cursor) query.set("cursor", cursor);
      const page = await community.seekingSubstitute(query);
      if (first && !page.games.length) list.append(h("p", {}, "No seat is waiting for a substitute."));
      for (const game of page.games) {
        list.append(h("article", {class: "game-row", dataset: {game: game.id}},
          h("h3", {}, h("a", {href: `/games/${game.id}`}, `${gameName(game.game)} · ${game.id.slice(0, 8)}`)),
          h("p", {}, game.players.filter(Boolean).map(nameWithReliability).join(", ")),
          game.seats_offered.map((seat) => signedIn() ? h("button", {type: "button", onclick: async () => {
            clearError();
            try {
              await community.takeSeat(game.id, seat);
              navigate(`/games/${game.id}`);
            } catch (err) { showError(err); }
          }}, `Take seat ${seat + 1} of ${gameName(game.game)}`) : h("p", {}, `Seat ${seat + 1} is offered.`))));
      }
      cursor = page.next_cursor;
      more.hidden = !cursor;
    } catch (err) { showError(err); }
  };
  more.addEventListener("click", () => load(false));
  fill(el, h("h1", {}, "Seats seeking a substitute"),
    h("p", {class: "muted"}, "A player left these seats to the bot. Take one over and play it on: your result is not rated."),
    list, more);
  load(true);
}

/** A player page's reliability: the share of decisions on time, and the deadlines and games missed. */
export function reliabilityLine(profile) {
  if (profile.reliability === undefined) return null;
  const figure = profile.reliability === null ? `Reliability: not yet known (${profile.decisions} of 20 decisions made)`
    : `Reliability: ${profile.reliability}% of decisions in time`;
  return h("p", {class: "reliability"}, `${figure} · ${profile.timeouts} missed deadlines · ${profile.abandoned} abandoned games`);
}
