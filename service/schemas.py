"""Marshmallow schemas: request validation and the response shapes in the OpenAPI document."""

from __future__ import annotations

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields, validate

from engine.seat_bots import STRATEGIES
from service.plain_text import PATTERN, OneLine
from service.scopes import SCOPES

DAY = 86400
#: What a game's creator reads about seating bots (the request's ``bots``).
BOTS_DESCRIPTION = ("Seats bots hold from the start, by seat number (0 is the first seat): `ismcts` (a search "
                    "from the seat's own view and feed) or `random` (a random legal move). The people join the "
                    "other seats; the game starts when they are filled. At least one seat is left for a person")
MIN_RELIABILITY_DESCRIPTION = ("A percentage: a player whose reliability (GET /v1/players/{player_id}) is below it "
                               "cannot join (403 `too_unreliable`); one with no figure yet may")
SUBSTITUTES_DESCRIPTION = ("Whether a seat the bot took over, or that resigned, is offered to a substitute "
                           "(GET /v1/games?seeking_substitute=true); default true")


#: How a game's times are shown (projections.views.shown_time), for the API reference.
SHOWN_TIMES = ("While the game is on, rounded down to the minute (under an hour per move) or the hour, so an answer a "
               "standing order made reads as one typed then; exact once the game is over.")

class PlayerCreateSchema(Schema):
    class Meta:
        unknown = EXCLUDE

    name = fields.String(required=True, validate=[validate.Length(min=1, max=40), OneLine()],
                         metadata={"description": "Display name shown to the other seats: 1 to 40 characters, "
                                                  "no control characters, line breaks or bidirectional overrides",
                                   "pattern": PATTERN})
    bot = fields.Boolean(load_default=False, metadata={
        "description": "Register a bot account: shown as a bot wherever its name is shown (`bot_account`), "
                       "kept off leaderboards unless asked for, and kept out of `humans_only` games"})


class PlayerSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    token = fields.String(metadata={"description": "Bearer token; shown once, keep it secret"})
    bot = fields.Boolean(metadata={"description": "Present and true for a bot account"})


SCOPES_FIELD_DESCRIPTION = ("What the token may do: read (views, feeds, streams, my games, transcripts), play "
                            "(join, leave, resign, actions, standing orders), chat, create (games, rematches, "
                            "invitations), webhooks, account (tokens, profile)")


class TokenCreateSchema(Schema):
    class Meta:
        unknown = RAISE

    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPES)), validate=validate.Length(min=1, max=6),
                         metadata={"description": SCOPES_FIELD_DESCRIPTION + ". Without it: every scope.",
                                   "example": ["read", "play"]})


class TokenSchema(Schema):
    id = fields.String(required=True, metadata={"description": "Names the token in DELETE /v1/me/tokens/{token_id}"})
    created_at = fields.String(required=True)
    last_used_at = fields.String(allow_none=True, metadata={
        "description": "To the nearest minute: each API process notes a token's use at most once a minute"})
    current = fields.Boolean(metadata={"description": "Whether this is the token of the request"})
    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPES)), required=True,
                         metadata={"description": SCOPES_FIELD_DESCRIPTION})


class TokenListSchema(Schema):
    tokens = fields.List(fields.Nested(TokenSchema), required=True)


class TokenIssuedSchema(Schema):
    id = fields.String(required=True)
    token = fields.String(required=True, metadata={"description": "Bearer token; shown once, keep it secret"})
    created_at = fields.String(required=True)
    last_used_at = fields.String(allow_none=True)
    scopes = fields.List(fields.String(validate=validate.OneOf(SCOPES)), required=True,
                         metadata={"description": SCOPES_FIELD_DESCRIPTION})


class TimeControlSchema(Schema):
    class Meta:
        unknown = RAISE

    seconds_per_move = fields.Integer(strict=True, load_default=DAY, validate=validate.Range(min=1, max=30 * DAY),
                                      metadata={"description": "Time each decision may take before its default"})
    autoplay_after = fields.Integer(strict=True, load_default=3, validate=validate.Range(min=1, max=100),
                                    metadata={"description": "Missed deadlines in a row before the bot plays the seat"})
    autoplay_seconds = fields.Integer(strict=True, load_default=10, validate=validate.Range(min=1, max=30 * DAY),
                                      metadata={"description": "Time the bot leaves a seat it plays before moving"})
    reserve_seconds = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=30 * DAY),
                                     metadata={"description": "A time bank per seat: a seat past its move deadline "
                                                              "spends it before the default move is played"})
    vacation = fields.Boolean(metadata={"description": "Whether the seats' clocks stop while their players are on "
                                                       "vacation (POST /v1/me/vacation). Default: true with a day or "
                                                       "more per move; a game of less than a day per move ignores "
                                                       "vacations whatever this says"})
    max_vacation_days = fields.Integer(strict=True, load_default=30, validate=validate.Range(min=0, max=365),
                                       metadata={"description": "The pause this game accepts from all its seats' "
                                                                "vacations together, in days"})
    pause_weekends = fields.Boolean(load_default=False, metadata={
        "description": "Deadlines do not run on Saturdays and Sundays in each seat's own time zone (PATCH /v1/me "
                       "{timezone}; the one its player had when joining)"})


#: The default time control, loaded by one schema built once.
_TIME_CONTROL = TimeControlSchema()


class GameCreateSchema(Schema):
    game = fields.String(required=True, metadata={"example": "coup"})
    seats = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=12), metadata={"example": 3})
    options = fields.Dict(keys=fields.String(), load_default=dict)
    time_control = fields.Nested(TimeControlSchema, load_default=lambda: _TIME_CONTROL.load({}))
    bots = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict,
                       metadata={"description": BOTS_DESCRIPTION})
    rated = fields.Boolean(load_default=None, allow_none=True,
                           metadata={"description": "Whether the result moves its players' ratings (default: "
                                                    "true unless a seat is a bot's)"})
    unlisted = fields.Boolean(load_default=False, metadata={"description": "Keep the game out of the lobby: only "
                                                                           "those given its id find it"})
    invite = fields.List(fields.String(validate=validate.Length(min=1, max=64)), load_default=list,
                         validate=validate.Length(max=12),
                         metadata={"description": "Player ids: only they (and you) may join; each sees the game "
                                                  "in /v1/me/games and gets an `invited` webhook"})
    min_reliability = fields.Integer(strict=True, load_default=None, allow_none=True,
                                     validate=validate.Range(min=0, max=100),
                                     metadata={"description": MIN_RELIABILITY_DESCRIPTION})
    substitutes = fields.Boolean(load_default=True, metadata={"description": SUBSTITUTES_DESCRIPTION})
    humans_only = fields.Boolean(load_default=False, metadata={
        "description": "Keep bot accounts out: their join is 403 `humans_only`"})


class PlayerMatchSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    bot_account = fields.Boolean(metadata={"description": "Present and true for a bot account"})


class PlayerMatchesSchema(Schema):
    players = fields.List(fields.Nested(PlayerMatchSchema), required=True,
                          metadata={"description": "Players whose name starts with the prefix, in name order"})


class PlayerRefSchema(Schema):
    id = fields.String()
    name = fields.String()
    bot = fields.String(validate=validate.OneOf(STRATEGIES),
                        metadata={"description": "Present on a seat a bot holds: its strategy"})
    reliability = fields.Float(allow_none=True, metadata={
        "description": "In the lobby and /v1/me/games: the player's reliability (GET /v1/players/{player_id}); "
                       "null until they have made 20 decisions"})
    bot_account = fields.Boolean(metadata={"description": "Present and true for a bot account (a program "
                                                          "playing through the API)"})


class GameSummarySchema(Schema):
    id = fields.String(required=True)
    game = fields.String(required=True)
    status = fields.String(validate=validate.OneOf(["open", "starting", "active", "finished", "cancelled"]),
                           metadata={"description": "`cancelled`: its creator called it off before it started; "
                                                    "`starting`: every seat is taken, and the committed seats' "
                                                    "secrets are awaited (POST /v1/games/{game_id}/reveal)"})
    version = fields.Integer()
    seats = fields.Integer()
    players = fields.List(fields.Nested(PlayerRefSchema, allow_none=True))
    options = fields.Dict()
    time_control = fields.Nested(TimeControlSchema)
    created_at = fields.String()
    updated_at = fields.String(metadata={"description": "The last event's time. " + SHOWN_TIMES})
    seed_hash = fields.String(metadata={"description": "sha256 of the secret seed, revealed at the end. It proves "
                                                       "the shuffles only when `scenario` is false"})
    bots = fields.Dict(keys=fields.String(), values=fields.String(validate=validate.OneOf(STRATEGIES)),
                       metadata={"description": "The seats bots hold, by seat number, with their strategy"})
    scenario = fields.Boolean(metadata={"description": "True when the creator fixed hidden information (a deck's "
                                                       "order, a region pile) with an option: the creator may know "
                                                       "every hand, and nothing is shuffled from the seed, so "
                                                       "`seed_hash` says nothing of fairness. Shown from creation on"})
    resigned = fields.List(fields.Integer(), metadata={
        "description": "Seats that resigned, in the order they did: out of the running, played by the bot"})
    unlisted = fields.Boolean(metadata={"description": "Kept out of the lobby"})
    humans_only = fields.Boolean(metadata={"description": "Present and true when bot accounts may not join"})
    rematch_of = fields.String(allow_none=True, metadata={"description": "The game this one is the rematch of"})
    rated = fields.Boolean(metadata={"description": "Whether its result moves its players' ratings"})
    tournament = fields.String(metadata={"description": "Present on a table of a tournament's round: its id"})
    round = fields.Integer(metadata={"description": "Present on a table of a tournament: the round it belongs to"})
    invite = fields.List(fields.String(), metadata={"description": "Ids of the players invited: only they (and "
                                                                   "the creator) may join. Empty: anyone may"})
    min_reliability = fields.Integer(allow_none=True, metadata={"description": MIN_RELIABILITY_DESCRIPTION})
    substitutes = fields.Boolean(metadata={"description": SUBSTITUTES_DESCRIPTION})
    seats_offered = fields.List(fields.Integer(), metadata={
        "description": "In GET /v1/games?seeking_substitute=true: the seats a substitute may take over (POST "
                       "/v1/games/{game_id}/join with {\"seat\": N})"})
    entropy = fields.Dict(keys=fields.String(), values=fields.String(
        validate=validate.OneOf(["committed", "revealed", "dropped"])), metadata={
        "description": "Fair shuffles: each seat that joined with a commitment, and where its secret stands. "
                       "`dropped`: not revealed in time, left out of the seed's mix"})


class GameViewSchema(GameSummarySchema):
    awaiting = fields.List(fields.Integer(), metadata={"description": "Seats that owe a decision now"})
    awaiting_kinds = fields.Dict(keys=fields.String(), values=fields.String())
    phase = fields.String(allow_none=True, metadata={"description": "The game's own phase (its view's `phase`); "
                                                                     "null before the game starts"})
    deadline = fields.String(allow_none=True, metadata={"description": "Earliest deadline among awaited seats"})
    deadlines = fields.Dict(keys=fields.String(), values=fields.String())
    autoplay = fields.List(fields.Integer(), metadata={"description": "Seats the built-in bot is playing"})
    reserve = fields.List(fields.Float(), metadata={"description": "Each seat's time bank left, in seconds (a seat "
                                                                   "past its move deadline is spending it now)"})
    move_deadlines = fields.Dict(keys=fields.String(), values=fields.String(),
                                 metadata={"description": "Awaited seats' move deadlines, where their reserve "
                                                          "starts to run (`deadlines` include the reserve)"})
    vacation_until = fields.Dict(keys=fields.String(), values=fields.String(), metadata={
        "description": "Seats whose players are on vacation, with when it ends: their clocks are stopped until "
                       "then and their deadlines moved on by the pause (docs/community.md)"})
    seat = fields.Integer(allow_none=True, metadata={"description": "The caller's seat, null for spectators"})
    view = fields.Dict(allow_none=True, metadata={"description": "The game as the caller's seat sees it"})
    legal_actions = fields.List(fields.Dict(), metadata={"description": "Complete actions to post as they are"})
    winners = fields.List(fields.Integer(), allow_none=True)
    reason = fields.String(allow_none=True)
    seed = fields.String(allow_none=True, metadata={"description": "The seed, once the game has ended"})
    rematch = fields.String(allow_none=True, metadata={"description": "A finished game's rematch, once a player "
                                                                      "asked for one (GET /v1/games/<id>)"})


NEXT_CURSOR = "Pass as cursor for the next page; null after the last page"


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": NEXT_CURSOR})


class InboxEntrySchema(GameSummarySchema):
    winners = fields.List(fields.Integer(), allow_none=True, metadata={
        "description": "A finished game's winning seats; null before the end (a game listed before this field "
                       "was added shows null until its next move)"})
    seat = fields.Integer(allow_none=True, metadata={"description": "Your seat; null for a game you are invited to"})
    invited = fields.Boolean(metadata={"description": "True: an open game you are invited to and have not joined"})
    awaiting_me = fields.Boolean()
    deadline = fields.String(allow_none=True)


class InboxSchema(Schema):
    games = fields.List(fields.Nested(InboxEntrySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": NEXT_CURSOR})


class JoinResultSchema(Schema):
    seat = fields.Integer(required=True)
    game = fields.Nested(GameViewSchema)


class RatingSchema(Schema):
    rating = fields.Float(metadata={"description": "The conservative rating: mu less three sigma (sorted by)"})
    mu = fields.Float(metadata={"description": "Estimated skill (Weng-Lin Plackett-Luce; a new player has 25)"})
    sigma = fields.Float(metadata={"description": "Uncertainty of mu; shrinks as games are played"})
    games = fields.Integer(metadata={"description": "Rated games finished in this title"})


class PlayerProfileSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    bot_account = fields.Boolean(metadata={"description": "Present and true for a bot account"})
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(RatingSchema),
                          metadata={"description": "Per title played rated: the rating and games played"})
    reliability = fields.Float(required=True, allow_none=True, metadata={
        "description": "Percent of the player's decisions, in their last 100 games that ended, made before "
                       "their deadline; null until they have made 20 decisions"})
    decisions = fields.Integer(required=True, metadata={"description": "Decisions made in those games"})
    timeouts = fields.Integer(required=True, metadata={"description": "Deadlines missed in those games (before "
                                                                      "the bot took the seat over)"})
    abandoned = fields.Integer(required=True, metadata={"description": "Those games where the bot took the "
                                                                       "seat over and the player never came back "
                                                                       "(or a substitute took it)"})


class LeaderboardEntrySchema(RatingSchema):
    rank = fields.Integer(metadata={"description": "1 for the best"})
    player = fields.String(metadata={"description": "The player's id"})
    name = fields.String()
    bot_account = fields.Boolean(metadata={"description": "Present and true for a bot account (with bots=true)"})


class LeaderboardSchema(Schema):
    game = fields.String()
    min_games = fields.Integer(metadata={"description": "Rated games a player needs to be listed"})
    players = fields.List(fields.Nested(LeaderboardEntrySchema))
    next_cursor = fields.String(allow_none=True, metadata={"description": NEXT_CURSOR})


class ResignResultSchema(Schema):
    version = fields.Integer(metadata={"description": "The game's version after the resignation"})
    game = fields.Nested(GameViewSchema, metadata={"description": "The game as you now see it: a spectator's view"})


class ActionSchema(Schema):
    """An action object: ``type`` plus the fields that action takes (see ``legal_actions``)."""

    class Meta:
        unknown = INCLUDE

    type = fields.String(required=True, validate=validate.Length(min=1, max=64), metadata={"example": "income"})


class FeedEventSchema(Schema):
    seq = fields.Integer(allow_none=True, metadata={"description": "The event's version; null for a ChatMessage"})
    id = fields.String(metadata={"description": "A ChatMessage's id (<version>-<n>)"})
    version = fields.Integer(metadata={"description": "A ChatMessage's version: the event it followed"})
    type = fields.String()
    at = fields.String(metadata={"description": "When it happened (a ChatMessage: when it was said, exact). An "
                                                "event's: " + SHOWN_TIMES})
    actor = fields.Integer(allow_none=True)
    data = fields.Dict()


class ActionResultSchema(Schema):
    version = fields.Integer(metadata={"description": "The game's version after the action"})
    events = fields.List(fields.Nested(FeedEventSchema), metadata={"description": "Events it caused, as you see them"})
    game = fields.Nested(GameViewSchema, metadata={"description": "Your view after the action; left out when "
                                                                  "you sent Prefer: return=minimal"})


class EventPageSchema(Schema):
    events = fields.List(fields.Nested(FeedEventSchema),
                         metadata={"description": "Events, and table talk (type ChatMessage, seq null) right "
                                                  "after the event it followed"})
    version = fields.Integer(metadata={"description": "Pass as `after` to continue"})
    messages_after = fields.String(allow_none=True, metadata={"description": "Pass as `messages_after` to "
                                                                             "continue the table talk"})
    status = fields.String()
    game = fields.Nested(GameViewSchema, metadata={"description": "Your game view as of this answer (with view=true)"})


class ReplaySchema(Schema):
    version = fields.Integer()
    game = fields.Nested(GameViewSchema)
    state = fields.Dict(allow_none=True, metadata={"description": "Full state (finished games and operator only)"})
    messages = fields.List(fields.Dict(), metadata={"description": "Table talk you could see up to this version"})


class ProblemSchema(Schema):
    type = fields.String()
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    code = fields.String(metadata={"description": "Stable machine-readable error code"})
    version = fields.Integer(metadata={"description": "Current game version, where it matters"})
    legal_actions = fields.List(fields.Dict(), metadata={"description": "For a rule violation: what you may do"})
    errors = fields.Dict(metadata={"description": "For malformed input: the fields at fault"})
    retry_after = fields.Float(metadata={"description": "For 429 and 503: the exact seconds to wait "
                                                        "(Retry-After rounds them up)"})
    order = fields.Integer(allow_none=True, metadata={"description": "For bad_order: the refused order's place "
                                                                     "in the list, from 0 (null: the list itself)"})
    field = fields.String(metadata={"description": "For bad_order: the field at fault (when.<condition> for a "
                                                   "condition)"})
    scope = fields.String(metadata={"description": "For missing_scope: the scope the call needs"})
    policy = fields.String(metadata={"description": "For a 429: the rate-limit policy spent (as in the "
                                                    "RateLimit-Policy header)"})


BASE64_HASH = {"description": "A SHA-256 hash in standard base64", "pattern": "^[A-Za-z0-9+/]{43}=$"}


class SigningKeySchema(Schema):
    id = fields.String(required=True, metadata={"description": "`<name>+<key hash>` as the checkpoint's signature "
                                                               "line names it (C2SP signed-note key id, in hex)"})
    alg = fields.String(required=True, validate=validate.OneOf(["Ed25519"]))
    public_key = fields.String(required=True, metadata={"description": "The 32-byte public key in standard base64"})


class KeyListSchema(Schema):
    keys = fields.List(fields.Nested(SigningKeySchema), required=True)


class LogLeafSchema(Schema):
    game = fields.String(required=True)
    final_hash = fields.String(required=True, metadata={"description": "The last hash of the game's chained log"})
    seed_hash = fields.String(required=True, metadata={"description": "The game's committed seed_hash"})
    ended_at = fields.String(required=True, metadata={"description": "When the game's last event was appended"})


class InclusionProofSchema(Schema):
    index = fields.Integer(required=True, metadata={"description": "The game's leaf, counted from 0"})
    size = fields.Integer(required=True, metadata={"description": "The tree size the proof is for"})
    leaf = fields.Nested(LogLeafSchema, required=True, metadata={
        "description": "The leaf's data: its canonical JSON (sorted keys, no spaces) is what is hashed"})
    hashes = fields.List(fields.String(metadata=BASE64_HASH), required=True,
                         metadata={"description": "RFC 9162's inclusion path, leaf to root"})


class ConsistencyProofSchema(Schema):
    hashes = fields.List(fields.String(metadata=BASE64_HASH), required=True,
                         metadata={"description": "RFC 9162's consistency proof (empty when from equals to)"})


# ------------------------------------------------------------------ the community (issue 50)
class AccountSchema(Schema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    timezone = fields.String(required=True, metadata={"description": "Your IANA time zone (default UTC): whose "
                                                                     "weekends pause games with pause_weekends"})
    vacation_until = fields.String(required=True, allow_none=True,
                                   metadata={"description": "When your vacation ends; null when you are not on one"})
    vacation_days_left = fields.Integer(required=True, metadata={"description": "Vacation days left this year "
                                                                                "(UTC calendar year)"})
    vacation_days_per_year = fields.Integer(required=True, metadata={
        "description": "Days every player has a year (INTRIGUE_VACATION_DAYS_PER_YEAR)"})


class AccountPatchSchema(Schema):
    class Meta:
        unknown = RAISE

    timezone = fields.String(required=True, validate=validate.Length(min=1, max=64),
                             metadata={"description": "An IANA time zone name, e.g. Europe/Paris (422 "
                                                      "`bad_timezone` for a name the server does not know)",
                                       "example": "Europe/Paris"})


class VacationSchema(Schema):
    class Meta:
        unknown = RAISE

    days = fields.Integer(required=True, strict=True, validate=validate.Range(min=1, max=366),
                          metadata={"description": "Whole days, from now: at most the days you have left "
                                                   "(409 `not_enough_vacation`)", "example": 7})

