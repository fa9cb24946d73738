"""RQ job functions: module-level, taking ids and versions, JSON-serialisable arguments.

The worker process sets up one engine (with its projection cache) and every job
uses it; a job does what is due when it runs, so a late or repeated one is harmless.
"""

from __future__ import annotations

from engine.core import Engine
from engine.scheduling import JobScheduler, make_queue, queue_client
from engine.settings import DEFAULT_REDIS_URL, Settings
from events.store import connect

_engine: Engine | None = None
#: How a drain job of this process lingers (see ``Engine.drain_due``): none unless the worker
#: process said so, and the keys of the other queues it serves, whose jobs end a linger.
_linger: float = 0.0
_yield_to: tuple[str, ...] = ()


def install_engine(engine: Engine, linger: float = 0.0, yield_to: tuple[str, ...] = ()) -> None:
    global _engine, _linger, _yield_to
    _engine, _linger, _yield_to = engine, linger, yield_to


def current_engine() -> Engine:
    global _engine
    if _engine is None:
        # A job run by a process that did not install its engine (RQ's own worker command):
        # its settings are read now, the first time a job needs them.
        settings = Settings.from_env()
        client = connect(settings.redis_url or DEFAULT_REDIS_URL, settings.redis_cluster)
        queues = queue_client(client, settings.queue_url, settings.redis_cluster)
        _engine = Engine(client, JobScheduler(make_queue(queues)), settings=settings)
    return _engine


def advance(game_id: str) -> str:
    """Resolve a pending system step, or apply the default action of an expired deadline.

    Nothing queues this job any more (the drain runs each step); it stays so that the
    deadline jobs booked by earlier versions still run, harmlessly, after an upgrade.
    """
    return current_engine().advance(game_id)


def drain() -> int:
    """Run every step that is due now (the games in the due set), and those that fall due
    while the job lingers; how many it ran."""
    return current_engine().drain_due(linger=_linger, yield_to=_yield_to)


def play_out(game_id: str) -> str:
    """At its round's deadline, the takeover bot plays a tournament game's owed seats to its end."""
    return current_engine().tournaments.play_out(game_id)
