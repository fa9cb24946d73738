// Words for the identifiers the API speaks in (a decision's kind, a game's id): what a
// person reads in the status line and the lists, never the identifier itself.

export const GAME_NAMES = {coup: "Coup", revolution: "Revolution!", ideology: "Ideology: The War of Ideas",
                           pax: "Pax Porfiriana"};

/** One line per game for the home page: what it is, in a sentence. */
export const GAME_BLURBS = {
  coup: "Bluff, claim a character and call the others' bluffs; the last player with influence wins.",
  revolution: "Sealed bids of force, blackmail and gold for the characters of a city in revolt.",
  ideology: "Ideologies of the 20th century compete for the world's regions with influence and advancements.",
  pax: "Mexico before its revolution: build enterprises, buy headlines and topple the regime when it suits you.",
};

/** What an awaited seat is asked to do, by game and by the API's ``awaiting_kinds`` value. */
const AWAITED = {
  coup: {turn: "to play a turn", react: "to react to the claim", reveal: "to choose a card to lose",
         keep: "to choose the cards to keep"},
  revolution: {bid: "to seal a bid", spy: "to place the Spy", apothecary: "to choose the Apothecary's swap"},
  ideology: {discard: "to discard", exchange: "to exchange cards", develop: "to develop a region",
             foreign_affairs: "to act in foreign affairs", conflict: "to act in the conflict phase",
             defend: "to defend", press: "to press the attack or withdraw", offer: "to make a diplomatic offer"},
  pax: {turn: "to take actions", conflict: "to take a side in the conflict", retreat: "to decide a retreat",
        topple: "to vote on toppling the regime", discard_order: "to order the discards", upkeep: "to pay upkeep",
        battle_retreat: "to choose where to retreat", effect: "to settle a card's effect",
        regime_change: "to settle a change of regime"},
};

export function gameName(id) {
  return GAME_NAMES[id] || humanize(id);
}

/** "to play a turn": what ``kind`` asks of a seat in ``game`` (a plain phrase for an unknown kind). */
export function awaitedWords(game, kind) {
  if (!kind) return "";
  return AWAITED[game]?.[kind] || `to ${humanize(kind).toLowerCase()}`;
}

/** "foreign_affairs" -> "Foreign affairs"; a last resort where no name is known. */
export function humanize(id) {
  return String(id).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}
