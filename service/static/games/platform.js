// The platform's own events (creation, seats, deadlines, the end), told in words for every
// game's log; a game's describer handles its own events and hands these here.

import {gameName} from "../words.js";

/** The platform's event types: the same list as events/envelope.py's PLATFORM_EVENTS. */
export const PLATFORM_TYPES = ["GameCreated", "PlayerJoined", "GameStarted", "DeadlineMissed", "PlayerLeft",
                               "GameCancelled", "SeatResigned", "GameEnded", "RevealsAwaited", "SecretRevealed",
                               "VacationStarted", "VacationEnded", "SeatSubstituted"];

const REASONS = {last_standing: "the last seat standing", expired: "its seats did not fill in time",
                 resigned: "every other seat resigned", stalled: "play stalled", scored: "the final score"};

export function reasonWords(reason) {
  return REASONS[reason] || String(reason ?? "").replace(/_/g, " ");
}

/** A line for a platform event, or undefined when ``item`` is a game's own event. */
export function describePlatform(item, {seatName}) {
  const d = item.data || {};
  switch (item.type) {
    case "GameCreated": {
      const bots = Object.keys(d.bots || {}).map((s) => `seat ${s}`);
      return `A game of ${gameName(d.game)} for ${d.seats} seats is created${bots.length ? `; bots hold ${bots.join(", ")}` : ""}`;
    }
    case "PlayerJoined": return `${d.player?.name ?? "A player"} sits down in seat ${d.seat}`;
    case "GameStarted": {
      const dropped = (d.dropped || []).map(seatName);
      return `The game starts${dropped.length ? `; ${dropped.join(" and ")} did not reveal in time and ${dropped.length === 1 ? "is" : "are"} left out of the shuffle` : ""}`;
    }
    case "RevealsAwaited": return "Every seat is taken: the seats that committed to a secret reveal it before the deal";
    case "SecretRevealed": return `${seatName(d.seat)} reveals a secret for the shuffle`;
    case "DeadlineMissed": return `${seatName(d.seat)} let a deadline pass: the default move is played${d.autoplay ? "; the bot plays the seat from now on" : ""}`;
    case "PlayerLeft": return `${seatName(d.seat)} leaves the table`;
    case "GameCancelled": return "The creator cancels the game before it starts";
    case "SeatResigned": return `${seatName(d.seat)} resigns: a bot plays the seat from now on`;
    case "VacationStarted": return `${seatName(d.seat)} goes on vacation until ${new Date(d.until).toLocaleString()}: the seat's clock stops`;
    case "VacationEnded": return `${seatName(d.seat)} is back from vacation: the seat's clock runs again`;
    case "SeatSubstituted": return `${d.player?.name ?? "A substitute"} takes seat ${d.seat} over`;
    case "GameEnded": {
      const winners = (d.winners || []).map(seatName);
      if (!winners.length) return `The game ends: ${reasonWords(d.reason)}`;
      return `The game ends (${reasonWords(d.reason)}): ${winners.join(" and ")} ${winners.length === 1 ? "wins" : "share the win"}`;
    }
    default: return undefined;
  }
}
