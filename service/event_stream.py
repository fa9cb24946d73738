"""One server-sent event stream of a game's feed: its frames, and the pushes that send them early.

A stream parks on its watch between pages. When this process commits to the game, the
committing greenlet, once its own answer is sent, hands the commit to the parked streams
(``events.watch.FeedWatcher.push``): each builds the same frames it would have built on
waking (the seat's events, then its view) and sends them at once, in the committer's turn.
Waking the stream instead would send them only after everything else the event loop had
ready, which near saturation was most of a move's delay (docs/performance.md).

A push is only sent when it cannot interleave with the stream's own writes or reorder its
frames: the stream is parked (what it yielded was written whole), it has delivered
everything before the commit, nothing but events is pending on its watch, and gunicorn's
gevent worker serves it with a chunked body (``service.gevent_worker.chunked_socket``).
Whatever the kernel does not take at once is left for the stream's own greenlet to send
when it wakes, so a slow reader never holds up the committer. Otherwise the stream wakes on
Redis's announcement and reads, as it always did.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.core import Engine, RawPage
from engine.streams import Lease
from events.envelope import Envelope
from events.watch import Watch
from projections.record import seat_now
from projections.views import feed_item
from service.answers import dump_bytes
from service.gevent_worker import chunked_socket, send_now
from service.view_cache import VIEWS

log = logging.getLogger(__name__)

#: An idle event stream sends a comment this often, so proxies and clients see it alive.
KEEP_ALIVE_SECONDS = 15
MAX_PAGE = 500


#: The head of every event stream's answer (the route's, spelt out for the front's fast handler).
STREAM_HEADERS = (("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache"),
                  ("X-Accel-Buffering", "no"))


class EventStream:
    """The frames of one caller's stream (iterate it), and the pusher its watch is given."""

    def __init__(self, eng: Engine, game_id: str, record: dict[str, Any], seat: int | None | str,
                 after: int, cursor: str | None, with_view: bool, lease: Lease | None,
                 opened: tuple[Watch, RawPage] | None = None, player_id: str | None = None) -> None:
        """``opened``: the watch registered for the stream and its first page, read after it
        (a stream whose opening read them before its answer began: see
        ``service.setup_requests.open_stream_from_start``); the stream ends the registration.

        ``player_id``: the caller, when a player. Their seat is taken again from each record
        the stream redacts with, not kept from the opening: a seat they leave in an open game
        may be another player's by the time its cards are dealt, and a stream held open across
        that must show them as a spectator sees them.
        """
        self.eng = eng
        self.player_id = player_id
        self.game_id = game_id
        self.current = record
        self.seat = seat
        self.after = after
        self.cursor = cursor
        self.base = after + 1  # as in the feed: without a chat cursor, messages that followed a later event
        self.with_view = with_view
        self.lease = lease
        #: gunicorn's ``write`` for this response (what ``start_response`` returned), if known.
        self.write: Callable[[bytes], Any] | None = None
        self._parked = False
        self._unsent = b""  # a push's bytes the kernel did not take at once (framing included)
        self._broken = False
        self._watch: Watch | None = None
        self._opened = opened
        self._frames = self._generate()

    # ------------------------------------------------------------------ WSGI iterable
    def __iter__(self) -> Iterator[bytes]:
        return self._frames

    def close(self) -> None:
        """Called by the server when the stream ends (even one never started).

        It also unties the stream from its watch and the server's response, which refer back
        to it: the stream's objects (its record among them) are then freed as it ends, not
        left to the garbage collector's next pass over the older objects.
        """
        try:
            self._frames.close()
        finally:
            if self._watch is not None:
                self._watch.pusher = None
                self._watch = None
            self.write = None
            if self._opened is not None:  # also when the frames never started
                self.eng.watcher.unregister(self.game_id, self._opened[0])
            if self.lease is not None:
                self.lease.release()

    # ------------------------------------------------------------------ frames
    def page_frames(self, items: list[dict[str, Any]], moved: bool) -> bytes:
        """One write: the page's items, then (if events moved the stream) the caller's view."""
        frames = []
        for item in items:
            position = item["seq"] if item["seq"] is not None else item["version"]
            frame_id = f"{position}/{item['id']}" if item["seq"] is None else (
                f"{position}/{self.cursor}" if self.cursor else str(position))
            frames.append(f"id: {frame_id}\nevent: {item['type']}\ndata: ".encode())
            frames.append(dump_bytes(item))
            frames.append(b"\n\n")
        if self.with_view and moved:
            frame_id = f"{self.after}/{self.cursor}" if self.cursor else str(self.after)
            frames.append(f"id: {frame_id}\nevent: game\ndata: ".encode())
            frames.append(VIEWS.rendered(self.current, self.seat))
            frames.append(b"\n\n")
        return b"".join(frames)

    def _generate(self) -> Iterator[bytes]:
        opening = b": intrigue event stream\n\n"
        if self.with_view:
            opening += b"event: game\ndata: " + VIEWS.rendered(self.current, self.seat) + b"\n\n"
        yield opening
        eng = self.eng
        watch, first = self._opened if self._opened is not None else (eng.watcher.register(self.game_id), None)
        try:
            watch.pusher = self.push
            self._watch = watch
            while True:
                before = self.after
                # The first page was read when the stream was opened, after its watch was registered.
                page = first if first is not None else eng.read_page(self.game_id, self.after, self.cursor, self.base,
                                                                     MAX_PAGE, watch)
                first = None
                self.seat = seat_now(page.record, self.player_id, self.seat)
                items, self.after, self.cursor, full, page_record = eng.page_items(page, self.seat, self.after,
                                                                                   self.cursor)
                self.current = page_record or self.current
                frames = self.page_frames(items, self.after != before)
                if frames:
                    yield frames
                if full:  # more is waiting: the next page at once
                    continue
                # Anything appended after this page announces itself to the watch (registered
                # before the first read), so the page is not read again before waiting: a
                # second read at once would cost a round trip for nothing (a new stream reads
                # the store, not memory).
                # A finished record is the last (nothing is appended after the end): once the
                # stream has passed its version, only a record read earlier needs the store.
                if self.current["status"] == "finished" and (not items or self.current["version"] <= self.after
                                                             or eng.version(self.game_id) <= self.after):
                    self._send_unsent()  # a push of the last events may have left some
                    return
                self._parked = True
                try:
                    notified = watch.wait(KEEP_ALIVE_SECONDS)
                finally:
                    self._parked = False
                if self._broken or not self._send_unsent():
                    return
                if not notified:
                    yield b": keep-alive\n\n"
                if self.lease is not None:
                    self.lease.renew_if_due()
        finally:
            eng.watcher.unregister(self.game_id, watch)

    # ------------------------------------------------------------------ pushes
    def _send_unsent(self) -> bool:
        """Send what a push left (this greenlet may wait on the reader); False if the reader is gone."""
        if not self._unsent:
            return True
        unsent, self._unsent = self._unsent, b""
        sock = chunked_socket(self.write)
        try:
            if sock is None:
                raise OSError("the stream's socket is gone")
            sock.sendall(unsent)
        except OSError:
            self._broken = True
            return False
        return True

    def push(self, before: int, record: dict[str, Any], events: Sequence[Envelope]) -> None:
        """Send ``events`` (those after ``before``, leading to ``record``) now, if they may go
        first (see the module's text); else leave them to the stream's own wake-up."""
        watch = self._watch
        if (watch is None or not self._parked or self._unsent or self._broken or self.after != before
                or not watch.may_push()):
            return
        sock = chunked_socket(self.write)
        if sock is None:
            return
        self.seat = seat_now(record, self.player_id, self.seat)
        items = [item for e in events if (item := feed_item(record, e, self.seat)) is not None]
        held = self.current, self.after
        self.current, self.after = record, events[-1].seq
        try:
            body = self.page_frames(items, True)
        except Exception:  # nothing sent: the stream reads these events when it wakes
            self.current, self.after = held
            raise
        chunk = b"%X\r\n%s\r\n" % (len(body), body)
        # Delivered from here on: these bytes are this stream's to send, now or when it wakes
        # (marked before the send, so that whoever reads them finds the watch told).
        watch.pushed(self.after)
        try:
            sent = send_now(sock, chunk)
        except OSError:  # the reader is gone: the stream ends when it wakes
            self._broken = True
            watch.pushed(self.after, wake=True)
            return
        self._unsent = chunk[sent:]
        log.debug("pushed game %s up to version %d to a stream of seat %s", self.game_id, self.after, self.seat)
        if self._unsent or record["status"] == "finished":  # it must finish a write, or end after the last event
            watch.pushed(self.after, wake=True)
