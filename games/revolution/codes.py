"""Every code Revolution!'s rules refuse with, and what it means: the declaration the API reference
and the conformance suite read (a code raised and not listed here fails the suite)."""

from __future__ import annotations

RULE_CODES: dict[str, str] = {
    "bad_seats": "Revolution! is not played by this many seats",
    "unknown_option": "an option Revolution! does not have",
    "bad_option": "an option's value is out of range",
    "bad_action": "the action is not an object with a `type`",
    "unknown_action": "an action type Revolution! does not have",
    "unknown_field": "a key the action does not take",
    "missing_field": "a field the action's type requires is missing",
    "bad_field": "a field's value is not of the JSON type the action declares for it",
    "game_over": "the game has ended",
    "awaiting_seats": "a system step asked for while a seat still owes a decision",
    "not_bidding": "a bid outside the bidding phase, or after the seat's last bid",
    "bad_bid": "`bids` is not an object of token counts per character",
    "unknown_character": "a character id not on the bid board",
    "unknown_token_kind": "a token kind that does not exist",
    "bad_count": "a token count that is not a whole number",
    "negative_count": "a negative token count",
    "immune_to_force": "a Force token on a character immune to Force",
    "immune_to_blackmail": "a Blackmail token on a character immune to Blackmail",
    "too_many_characters": "a bid on more characters than a round allows",
    "must_bid_all_tokens": "fewer tokens of a kind placed than held",
    "not_enough_tokens": "more tokens of a kind placed than held",
    "not_your_decision": "a Spy or Apothecary decision by a seat that has no such reward",
    "wrong_decision": "a decision for the other reward than the one owed",
    "unknown_area": "an area that is not on the board",
    "bad_owner": "a cube's owner that is not a seat of this game",
    "no_such_cube": "that seat has no cube in that area",
    "own_cube": "the Spy pointed at the seat's own cube",
    "same_area": "an Apothecary swap within one area",
    "same_owner": "an Apothecary swap of two cubes of one owner",
    "area_controlled": "a cube in an area the area-control option protects",
    "no_cubes_left": "the Spy's winner has no cube to put in place",
}
