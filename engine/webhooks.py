"""Webhooks: the server comes to correspondence players instead of waiting to be polled.

A player registers URLs for some of four events: ``your_turn`` (a seat of theirs has
just become awaited), ``deadline_soon`` (a quarter of the time before that seat's
default move is left), ``game_over`` and ``invited`` (a game was created with a seat
offered to them). The commit that causes an event only asks for
an RQ job (``dispatch``), which creates the deliveries and makes their first attempts;
retries are ``deliver`` jobs. The request that caused an event never delivers it.

A delivery is a JSON body naming a game and a version, never a card or a bid, signed
with the webhook's secret: ``Intrigue-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256
over "<t>.<raw body>">``. A 2xx within 5 s is success; anything else (an error status,
a redirect, a timeout, a refused destination) is retried with exponential backoff, the
same delivery id every time, until at least 24 h after it was created. A webhook whose
deliveries have failed for 3 days in a row is disabled and says so in its listing.

Destinations on loopback, private, link-local (and other non-global) addresses are
refused unless ``INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1``. The host is resolved once per
attempt, every address checked, and the connection made to the checked address, so a
name that resolves differently a moment later (DNS rebinding) cannot slip through.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import socket
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

import redis
import urllib3
from rq import Queue
from rq.exceptions import DuplicateJobError

from engine.errors import Invalid, NotFound
from engine.settings import RetryPolicy
from engine.webhook_addresses import public_address, url_fault
from events.envelope import canonical_json, parse_time
from events.lean import LeanScript
from events.store import Keys

log = logging.getLogger(__name__)

EVENT_TYPES = ("your_turn", "deadline_soon", "game_over", "invited", "tournament_round", "tournament_over")
#: ``deadline_soon`` fires when this share of a seat's time before its default is left.
DEADLINE_SOON_SHARE = 0.25
QUEUE_NAME = "intrigue-webhooks"
DISPATCH = "workers.webhooks.dispatch"
DELIVER = "workers.webhooks.deliver"
DEADLINE_SOON = "workers.webhooks.deadline_soon"
MAX_WEBHOOKS_PER_PLAYER = 10
RECENT_DELIVERIES = 50
DELIVERY_TTL = 7 * 86400
TIMEOUT_SECONDS = 5.0
#: A claimed attempt that never reported back (a worker died) is retried after this.
ATTEMPT_LEASE = 60.0
MAX_RESPONSE_BYTES = 64 * 1024


# ------------------------------------------------------------------ destinations
class DestinationRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def address_allowed(address: str, private_ok: bool = False) -> bool:
    """True for a globally routable unicast address (or any address when the operator allows it)."""
    if private_ok:
        return True
    return public_address(address)


@dataclass(frozen=True)
class Destination:
    scheme: str
    host: str
    port: int
    target: str  # path and query
    address: str  # the checked address to connect to


def resolve_destination(url: str, private_ok: bool = False) -> Destination:
    """Parse, resolve once and check every address; the first one is the one to connect to."""
    fault = url_fault(url)
    if fault is not None:
        raise DestinationRefused("bad_webhook_url", fault)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise DestinationRefused("bad_webhook_url", "the URL cannot be parsed") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise DestinationRefused("bad_webhook_url", "a webhook URL is http:// or https:// with a host")
    if parts.username or parts.password:
        raise DestinationRefused("bad_webhook_url", "a webhook URL carries no user name or password")
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise DestinationRefused("webhook_host_unresolvable", f"the host {parts.hostname!r} does not resolve") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise DestinationRefused("webhook_host_unresolvable", f"the host {parts.hostname!r} does not resolve")
    refused = [a for a in addresses if not address_allowed(a, private_ok)]
    if refused:
        raise DestinationRefused("webhook_destination_refused",
                                 f"{parts.hostname} resolves to {refused[0]}, a loopback, private or link-local "
                                 "address; the operator allows those with INTRIGUE_WEBHOOKS_ALLOW_PRIVATE=1")
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Destination(parts.scheme, parts.hostname, port, target, addresses[0])


def post_pinned(destination: Destination, body: bytes, headers: Mapping[str, str],
                timeout: float = TIMEOUT_SECONDS) -> int:
    """POST to the checked address itself (TLS still checks the host name); no redirects, no retries."""
    host_header = destination.host if ":" not in destination.host else f"[{destination.host}]"
    default_port = 443 if destination.scheme == "https" else 80
    if destination.port != default_port:
        host_header += f":{destination.port}"
    options: dict[str, Any] = {"timeout": urllib3.Timeout(total=timeout), "retries": False, "maxsize": 1}
    if destination.scheme == "https":
        pool: urllib3.HTTPConnectionPool = urllib3.HTTPSConnectionPool(
            destination.address, destination.port, server_hostname=destination.host,
            assert_hostname=destination.host, cert_reqs="CERT_REQUIRED", **options)
    else:
        pool = urllib3.HTTPConnectionPool(destination.address, destination.port, **options)
    try:
        response = pool.urlopen("POST", destination.target, body=body, headers={**headers, "Host": host_header},
                                redirect=False, retries=False, preload_content=False, assert_same_host=False)
        try:
            response.read(MAX_RESPONSE_BYTES)
        finally:
            response.release_conn()
        return response.status
    finally:
        pool.close()


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Intrigue-Signature`` header value for ``body`` sent at ``timestamp``."""
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


def _iso(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# KEYS: due set. ARGV: delivery id, now, lease. Claims an attempt that is due: one worker wins.
_CLAIM = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not score or tonumber(score) > tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]) + tonumber(ARGV[3]), ARGV[1])
return 1
"""


class Webhooks:
    """Registration (API), notification (the engine's follow-up) and delivery (jobs)."""

    def __init__(self, client: redis.Redis, keys: Keys, queue: Queue | None = None,
                 policy: RetryPolicy | None = None, clock: Callable[[], float] = time.time,
                 private_ok: bool = False) -> None:
        self.redis = client
        self.keys = keys
        self.queue = queue
        self.policy = policy or RetryPolicy()
        #: Whether destinations may be loopback, private or link-local (``INTRIGUE_WEBHOOKS_ALLOW_PRIVATE``).
        self.private_ok = private_ok
        self.clock = clock
        self._claim = LeanScript(client, _CLAIM)

    # ------------------------------------------------------------ registration
    def create(self, player_id: str, url: str, events: Sequence[str]) -> dict[str, Any]:
        try:
            resolve_destination(url, self.private_ok)
        except DestinationRefused as err:
            raise Invalid(err.code, err.message) from None
        if self.redis.scard(self.keys.player_webhooks(player_id)) >= MAX_WEBHOOKS_PER_PLAYER:
            raise Invalid("too_many_webhooks", f"a player may have at most {MAX_WEBHOOKS_PER_PLAYER} webhooks")
        webhook_id, secret = secrets.token_hex(8), secrets.token_hex(32)
        events = [e for e in EVENT_TYPES if e in set(events)]
        pipe = self.redis.pipeline(transaction=False)  # its keys may sit on several cluster shards
        pipe.hset(self.keys.webhook(webhook_id), mapping={
            "id": webhook_id, "player": player_id, "url": url, "events": json.dumps(events), "secret": secret,
            "created_at": _iso(self.clock()), "disabled": "0"})
        pipe.sadd(self.keys.player_webhooks(player_id), webhook_id)
        pipe.sadd(self.keys.hooked_players(), player_id)
        pipe.execute()
        return {"id": webhook_id, "url": url, "events": events, "secret": secret}

    def _load(self, webhook_id: str) -> dict[str, str] | None:
        raw = self.redis.hgetall(self.keys.webhook(webhook_id))
        return {k.decode(): v.decode() for k, v in raw.items()} if raw else None

    def owned(self, player_id: str, webhook_id: str) -> dict[str, str]:
        hook = self._load(webhook_id)
        if hook is None or hook["player"] != player_id:
            raise NotFound("webhook_not_found", f"you have no webhook {webhook_id!r}")
        return hook

    def listing(self, player_id: str) -> list[dict[str, Any]]:
        ids = sorted(raw.decode() for raw in self.redis.smembers(self.keys.player_webhooks(player_id)))
        hooks = [hook for webhook_id in ids if (hook := self._load(webhook_id)) is not None]
        return sorted((_public(hook) for hook in hooks), key=lambda h: h["created_at"])

    def delete(self, player_id: str, webhook_id: str) -> None:
        self.owned(player_id, webhook_id)
        pipe = self.redis.pipeline(transaction=False)  # its keys may sit on several cluster shards
        pipe.delete(self.keys.webhook(webhook_id))  # one key a command: a cluster pipeline allows no more
        pipe.delete(self.keys.webhook_deliveries(webhook_id))
        pipe.srem(self.keys.player_webhooks(player_id), webhook_id)
        pipe.execute()
        if not self.redis.scard(self.keys.player_webhooks(player_id)):
            self.redis.srem(self.keys.hooked_players(), player_id)

    def deliveries(self, player_id: str, webhook_id: str) -> list[dict[str, Any]]:
        self.owned(player_id, webhook_id)
        ids = [raw.decode() for raw in self.redis.lrange(self.keys.webhook_deliveries(webhook_id), 0, -1)]
        pipe = self.redis.pipeline(transaction=False)
        for delivery_id in ids:
            pipe.hgetall(self.keys.delivery(delivery_id))
        out = []
        for raw in pipe.execute():
            if raw:
                out.append(_delivery_view({k.decode(): v.decode() for k, v in raw.items()}))
        return out

    # ---------------------------------------------------- after each commit
    def queue_check(self, pipe: Any, record: Mapping[str, Any], before: Mapping[str, Any] | None) -> list | None:
        """Add to the follow-up pipeline the one question this commit needs: which players have webhooks.

        Returns the notifications the commit would cause (``(type, seat, player)``), or
        None when there are none and nothing was added.
        """
        if self.queue is None:
            return None
        if before is None:  # the game's creation: only its invitations are news
            notes: list[tuple[str, int | None, str]] = [
                ("invited", None, player) for player in record.get("invite") or ()
                if player != record["created_by"]]  # a rematch's asker needs no news of it
            if not notes:
                return None
            pipe.smismember(self.keys.hooked_players(), sorted({player for _, _, player in notes}))
            return notes
        notes = []
        out = set(record.get("resigned") or ())
        for seat, player in enumerate(record["players"]):
            if player is None or "bot" in player:  # a bot seat has no player to notify
                continue
            if seat in out:  # the takeover bot plays a resigned seat: its player is told only of the end
                if record["status"] == "finished" and before["status"] != "finished":
                    notes.append(("game_over", seat, player["id"]))
                continue
            if record["awaiting"][seat] is not None and before["awaiting"][seat] is None:
                notes.append(("your_turn", seat, player["id"]))
            deadline = record["deadlines"][seat]
            # A seat the bot plays has nothing to lose at its deadline: no deadline_soon for it.
            if deadline is not None and deadline != before["deadlines"][seat] and not record["autoplay"][seat]:
                notes.append(("deadline_soon", seat, player["id"]))
            if record["status"] == "finished" and before["status"] != "finished":
                notes.append(("game_over", seat, player["id"]))
        if not notes:
            return None
        pipe.smismember(self.keys.hooked_players(), sorted({player for _, _, player in notes}))
        return notes

    def after_commit(self, record: Mapping[str, Any], notes: list, hooked_flags: Sequence[int],
                     since: Mapping[int, int] | None = None) -> None:
        """Ask for the dispatch jobs of players who have webhooks (a deadline_soon check is booked).

        A ``your_turn`` names the version the seat has been awaited since: the commit's, or
        the one ``since`` gives (a standing order answered after it in the same commit), so it
        reads as it would have had that answer been typed in a commit of its own."""
        assert self.queue is not None
        players = sorted({player for _, _, player in notes})
        hooked = {player for player, flag in zip(players, hooked_flags, strict=True) if flag}
        game_id, version = record["id"], record["version"]
        for kind, seat, player in notes:
            if player not in hooked:
                continue
            deadline = record["deadlines"][seat] if seat is not None else None
            if kind == "deadline_soon":  # a note made only for a seat with a deadline
                assert seat is not None and deadline is not None
                self._book_deadline_soon(record, seat, deadline)
                continue
            news = (since or {}).get(seat, version) if kind == "your_turn" and seat is not None else version
            self._enqueue(DISPATCH, f"hook-{game_id}-{news}-{seat}-{kind}", player, kind, game_id, news,
                          seat, deadline if kind == "your_turn" else None, str(news))

    def _book_deadline_soon(self, record: Mapping[str, Any], seat: int, deadline: str) -> None:
        """Book the check for when a quarter of the seat's time is left; the sweeper asks for it then."""
        started = parse_time(record["updated_at"]).timestamp()
        due = parse_time(deadline).timestamp()
        at = started + (due - started) * (1 - DEADLINE_SOON_SHARE)
        self.redis.zadd(self.keys.deadlines_soon(), {canonical_json([record["id"], seat, deadline]): at})

    def _enqueue(self, func: str, job_id: str, *args: Any) -> None:
        assert self.queue is not None
        # A dispatch makes the first attempt of each of the player's webhooks, one after another.
        attempts = MAX_WEBHOOKS_PER_PLAYER if func == DISPATCH else 1
        options = {"job_id": job_id, "unique": True, "result_ttl": 0, "failure_ttl": 86400,
                   "job_timeout": int(TIMEOUT_SECONDS * (attempts + 3))}
        try:
            self.queue.enqueue(func, *args, **options)
        except DuplicateJobError:
            pass

    # ------------------------------------------------------------- jobs
    def dispatch(self, player_id: str, kind: str, game_id: str, version: int, seat: int | None, deadline: str | None,
                 tag: str) -> int:
        """Create one delivery per active webhook of ``player_id`` that wants ``kind`` and make its
        first attempt; idempotent (a delivery's id comes from the webhook and the notification)."""
        return self.dispatch_to(player_id, kind, f"{game_id}:{seat}:{tag}",
                                {"game": game_id, "version": version, "deadline": deadline},
                                {"game": game_id, "version": version})

    def dispatch_to(self, player_id: str, kind: str, identity: str, said: dict[str, Any],
                    stored: dict[str, Any]) -> int:
        """Create one delivery per active webhook of ``player_id`` that wants ``kind`` and make its
        first attempt: the body is ``said`` with the delivery's id, type and time; ``stored`` goes
        beside it in the delivery's hash. Idempotent: a delivery's id comes from the webhook, the
        kind and ``identity`` (what the notification is about), so a dispatch run twice makes one."""
        fresh: list[str] = []
        for raw in sorted(self.redis.smembers(self.keys.player_webhooks(player_id))):
            hook = self._load(raw.decode())
            if hook is None or hook["disabled"] == "1" or kind not in json.loads(hook["events"]):
                continue
            delivery_id = hashlib.sha256(f"{hook['id']}:{kind}:{identity}".encode()).hexdigest()[:32]
            now = self.clock()
            body = canonical_json({"id": delivery_id, "type": kind, **said, "created_at": _iso(now)})
            key = self.keys.delivery(delivery_id)
            if not self.redis.hsetnx(key, "id", delivery_id):
                continue  # this dispatch ran before: the delivery exists
            pipe = self.redis.pipeline(transaction=False)  # its keys may sit on several cluster shards
            pipe.hset(key, mapping={"webhook": hook["id"], "type": kind, **stored, "body": body, "status": "pending",
                                    "attempts": 0, "created": now, "created_at": _iso(now), "next_retry": _iso(now),
                                    "last_status": ""})
            pipe.expire(key, DELIVERY_TTL)
            pipe.lpush(self.keys.webhook_deliveries(hook["id"]), delivery_id)
            pipe.ltrim(self.keys.webhook_deliveries(hook["id"]), 0, RECENT_DELIVERIES - 1)
            pipe.zadd(self.keys.deliveries_due(), {delivery_id: now})
            pipe.execute()
            fresh.append(delivery_id)
        # The first attempts are made here, in this job, rather than in a job each: one job's
        # overhead less per notification. A delivery this job does not get to (it died) is
        # due in the sorted set, and the sweeper asks for it.
        for delivery_id in fresh:
            self.deliver(delivery_id)
        return len(fresh)

    def deliver(self, delivery_id: str, now: float | None = None) -> str:
        """One attempt of a due delivery; books the next one on failure."""
        now = now if now is not None else self.clock()
        if not self._claim(keys=[self.keys.deliveries_due()], args=[delivery_id, now, ATTEMPT_LEASE]):
            return "not_due"
        key = self.keys.delivery(delivery_id)
        raw = self.redis.hgetall(key)
        delivery = {k.decode(): v.decode() for k, v in raw.items()}
        hook = self._load(delivery.get("webhook", "")) if delivery else None
        if not delivery or hook is None or hook["disabled"] == "1":
            self.redis.zrem(self.keys.deliveries_due(), delivery_id)
            if delivery:
                self.redis.hset(key, mapping={"status": "cancelled", "next_retry": ""})
            return "cancelled"
        body = delivery["body"].encode()
        sent_at = int(self.clock())
        headers = {"Content-Type": "application/json", "User-Agent": "Intrigue-Webhooks/1",
                   "Intrigue-Event": delivery["type"], "Intrigue-Delivery": delivery_id,
                   "Intrigue-Signature": sign(hook["secret"], sent_at, body)}
        try:
            destination = resolve_destination(hook["url"], self.private_ok)
            status: int | None = post_pinned(destination, body, headers, TIMEOUT_SECONDS)
            outcome = str(status)
        except DestinationRefused as err:
            status, outcome = None, err.code
        except (urllib3.exceptions.HTTPError, OSError) as err:
            status, outcome = None, type(err).__name__
        attempts = int(delivery["attempts"]) + 1
        done_at = self.clock()
        if status is not None and 200 <= status < 300:
            pipe = self.redis.pipeline(transaction=False)  # its keys may sit on several cluster shards
            pipe.hset(key, mapping={"status": "delivered", "attempts": attempts, "last_status": outcome,
                                    "last_attempt_at": _iso(done_at), "delivered_at": _iso(done_at),
                                    "next_retry": ""})
            pipe.zrem(self.keys.deliveries_due(), delivery_id)
            pipe.hdel(self.keys.webhook(hook["id"]), "failing_since")
            pipe.execute()
            return "delivered"
        self._failed(hook, key, delivery_id, delivery, attempts, outcome, done_at)
        return "failed"

    def _failed(self, hook: Mapping[str, str], key: str, delivery_id: str, delivery: Mapping[str, str],
                attempts: int, outcome: str, now: float) -> None:
        fields: dict[str, Any] = {"attempts": attempts, "last_status": outcome, "last_attempt_at": _iso(now)}
        pipe = self.redis.pipeline(transaction=False)  # its keys may sit on several cluster shards
        if now - float(delivery["created"]) >= self.policy.retry_for:
            fields.update(status="failed", next_retry="")
            pipe.zrem(self.keys.deliveries_due(), delivery_id)
        else:
            next_at = now + self.policy.delay(attempts)
            fields.update(status="pending", next_retry=_iso(next_at))
            pipe.zadd(self.keys.deliveries_due(), {delivery_id: next_at})
        pipe.hset(key, mapping=fields)
        pipe.hsetnx(self.keys.webhook(hook["id"]), "failing_since", now)
        pipe.execute()
        failing_since = float(self.redis.hget(self.keys.webhook(hook["id"]), "failing_since") or now)
        if now - failing_since >= self.policy.disable_after:
            self.redis.hset(self.keys.webhook(hook["id"]), mapping={
                "disabled": "1", "disabled_at": _iso(now),
                "disabled_reason": f"every delivery failed for {self.policy.disable_after / 86400:g} days"})
            log.warning("webhook %s disabled after failing since %s", hook["id"], _iso(failing_since))

    def sweep(self, now: float | None = None, limit: int = 200) -> int:
        """Ask for what is due: delivery attempts (first tries, retries, attempts whose worker
        died) and deadline_soon checks. The worker's sweeper calls it every second."""
        if self.queue is None:
            return 0
        now = now if now is not None else self.clock()
        due = self.redis.zrangebyscore(self.keys.deliveries_due(), "-inf", now, start=0, num=limit, withscores=True)
        for raw, score in due:
            delivery_id = raw.decode()
            self._enqueue(DELIVER, f"deliver-{delivery_id}-{int(score * 1000)}", delivery_id)
        checks = self.redis.zrangebyscore(self.keys.deadlines_soon(), "-inf", now, start=0, num=limit)
        for raw in checks:
            if not self.redis.zrem(self.keys.deadlines_soon(), raw):
                continue  # another worker's sweeper took it
            game_id, seat, deadline = json.loads(raw)
            due_ms = int(parse_time(deadline).timestamp() * 1000)
            self._enqueue(DEADLINE_SOON, f"soon-{game_id}-{seat}-{due_ms}", game_id, seat, deadline)
        return len(due) + len(checks)


def _public(hook: Mapping[str, str]) -> dict[str, Any]:
    """A webhook as its listing shows it: never the secret."""
    return {"id": hook["id"], "url": hook["url"], "events": json.loads(hook["events"]),
            "created_at": hook["created_at"], "disabled": hook["disabled"] == "1",
            "disabled_at": hook.get("disabled_at"), "disabled_reason": hook.get("disabled_reason"),
            "failing_since": _iso(float(hook["failing_since"])) if hook.get("failing_since") else None}


def _delivery_view(delivery: Mapping[str, str]) -> dict[str, Any]:
    return {"id": delivery["id"], "type": delivery.get("type"), "game": delivery.get("game") or None,
            "version": int(delivery.get("version", 0)), "status": delivery.get("status"),
            "attempts": int(delivery.get("attempts", 0)), "created_at": delivery.get("created_at"),
            "last_attempt_at": delivery.get("last_attempt_at"), "last_status": delivery.get("last_status") or None,
            "next_retry": delivery.get("next_retry") or None, "delivered_at": delivery.get("delivered_at"),
            **({"tournament": delivery["tournament"]} if delivery.get("tournament") else {})}
