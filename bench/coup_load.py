"""Load figures for Intrigue: concurrent random-legal games over HTTP beside a bare XADD baseline.

    pip install -e '.[test,prod]'                # gunicorn, for the production shape
    python bench/coup_load.py                    # embedded Redis, 20 games of Coup, under gunicorn
    python bench/coup_load.py --games 50 --redis-url redis://127.0.0.1:6379/15
    python bench/coup_load.py --game revolution --games 200
    python bench/coup_load.py --game ideology --games 200   # 3 seats; system steps end each phase
    python bench/coup_load.py --game pax --games 100
    python bench/coup_load.py --server serve     # `intrigue serve`, one API process

Prints actions per second and p50/p99 latency of game actions, the same for a bare
Flask endpoint doing one XADD on the same Redis (the baseline), each measured over a
window of --seconds at constant concurrency (a table whose game ends starts a new one
at once), the cost of an early
versus a late action in one long game, and for simultaneous games the time from the
last sealed decision to the worker's resolution (read from the events' own times).
The baseline is served by gunicorn's gevent workers, as Intrigue is.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import requests
from common import PRODUCTION_API_PROCESSES, baseline_server, figures, intrigue_server, percentile, redis_for_bench

from events.envelope import parse_time
from events.store import EventStore, connect
from service.progress import Progress
from tests.support.client import Client

SEATS = {"coup": 3, "revolution": 4, "ideology": 3, "pax": 3}
#: Niceness of the load generator's threads (set from --client-nice).
CLIENT_NICE = 10


def yield_cpu() -> None:
    """Lower this thread's priority (Linux: per thread), as if the clients ran elsewhere.

    The bots share two cores with the server they measure; at equal priority a
    resolution waits behind 200 busy client threads, which measures the bench.
    """
    if CLIENT_NICE:
        os.nice(CLIENT_NICE)


class Window:
    """The measured stretch of a run: every bot starts together and stops at ``end``.

    Throughput is counted at constant concurrency: a bot whose game ends starts another
    one (the lobby requests count as load), and nothing after ``end`` is counted, so the
    figure is not diluted by a tail in which only the slowest games are left.
    """

    def __init__(self, clients: int, seconds: float) -> None:
        self.seconds = seconds
        self.start = self.end = 0.0
        self.ready = threading.Barrier(clients, action=self._open)

    def _open(self) -> None:
        self.start = time.perf_counter()
        self.end = self.start + self.seconds

    def open(self) -> bool:
        return time.perf_counter() < self.end


class Tally:
    """What the bots did inside the window, shared between their threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.requests = 0
        self.games: list[str] = []
        self.finished = 0

    def add(self, latencies: list[float], requests: int, games: list[str], finished: int) -> None:
        with self.lock:
            self.latencies += latencies
            self.requests += requests
            self.games += games
            self.finished += finished


def new_game(clients: list[Client], game: str) -> str:
    game_id = clients[0].create_game(game, len(clients), seconds_per_move=3600)
    for client in clients:
        client.join(game_id)
    return game_id


def play_bot(base: str, game: str, seed: int, window: Window, tally: Tally) -> None:
    """One table of bots: a client that reuses the view each POST returns, as a good client would.

    The players and the first game are set up before the window opens; later games are
    set up inside it. Only requests answered before the window closes are counted.
    """
    yield_cpu()
    rng = random.Random(seed)
    session = requests.Session()
    clients = [Client(base, session=session) for _ in range(SEATS[game])]
    for index, client in enumerate(clients):
        client.token = client.post("/v1/players", {"name": f"bot{seed}-{index}"}, expect=201)["token"]
    game_id = new_game(clients, game)
    window.ready.wait()
    latencies: list[float] = []
    games, finished, calls = [game_id], 0, 0
    views = {0: clients[0].game(game_id)}
    calls += 1
    while window.open():
        latest = max(views.values(), key=lambda v: v["version"])
        if latest["status"] == "finished":
            finished += 1
            game_id = new_game(clients, game)
            games.append(game_id)
            views = {0: clients[0].game(game_id)}
            calls += 2 + len(clients)
            continue
        if not latest["awaiting"]:  # a worker owes a system step: wait for it, and the view it leads to
            views = {0: clients[0].events(game_id, after=latest["version"], wait=5, view=True)["game"]}
            calls += 1
            continue
        seat = rng.choice(latest["awaiting"])
        mine = views.get(seat)
        if mine is None or mine["version"] != latest["version"]:
            mine = views[seat] = clients[seat].game(game_id)
            calls += 1
            if mine["version"] != latest["version"] or not mine["legal_actions"]:
                continue
        action = rng.choice(mine["legal_actions"])
        started = time.perf_counter()
        response = clients[seat].request("POST", f"/v1/games/{game_id}/actions", action,
                                         headers={"If-Match": str(mine["version"])})
        done = time.perf_counter()
        if done >= window.end:
            break
        calls += 1
        if response.status_code == 200:
            views[seat] = response.json()["game"]
            latencies.append(done - started)
        elif response.status_code == 409:
            views = {seat: clients[seat].game(game_id)}
            calls += 1
        else:
            raise RuntimeError(f"unexpected {response.status_code}: {response.text}")
    tally.add(latencies, calls, games, finished)


def run_games(base: str, game: str, count: int, seconds: float) -> tuple[Tally, float]:
    """``count`` tables of bots playing ``game`` back to back for ``seconds``."""
    window, tally = Window(count, seconds), Tally()
    with ThreadPoolExecutor(count + 1) as pool:
        bots = [pool.submit(play_bot, base, game, i, window, tally) for i in range(count)]
        pool.submit(tick, f"{count} tables of {game}", window, bots)
        for bot in bots:
            bot.result()
    return tally, seconds


def tick(label: str, window: Window, bots: list) -> None:
    """A progress line once a second while the window is open."""
    while not window.start and not all(b.done() for b in bots):
        time.sleep(0.1)
    progress = Progress(label + " (seconds)", int(window.seconds))
    for _ in range(int(window.seconds)):
        if all(b.done() for b in bots):
            break
        time.sleep(max(0.0, window.start + progress.done + 1 - time.perf_counter()))
        progress.step()


def run_baseline(base: str, threads: int, seconds: float) -> tuple[list[float], float]:
    """``threads`` clients posting one event each to the bare endpoint, back to back, for ``seconds``."""
    latencies: list[float] = []
    lock = threading.Lock()
    payload = json.dumps({"type": "income", "padding": "x" * 200})
    window = Window(threads, seconds)

    def hammer(_: int) -> None:
        yield_cpu()
        session = requests.Session()
        mine = []
        window.ready.wait()
        while True:
            started = time.perf_counter()
            response = session.post(base + "/xadd", data=payload, headers={"Content-Type": "application/json"})
            done = time.perf_counter()
            assert response.status_code == 200
            if done >= window.end:
                break
            mine.append(done - started)
        with lock:
            latencies.extend(mine)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(hammer, range(threads)))
    return latencies, seconds


def long_coup_game(base: str, actions: int) -> dict[int, float]:
    """One Coup game kept going with exchanges: POST latency by action number."""
    session = requests.Session()
    clients = [Client(base, session=session) for _ in range(3)]
    for index, client in enumerate(clients):
        client.token = client.post("/v1/players", {"name": f"long{index}"}, expect=201)["token"]
    game_id = clients[0].create_game("coup", 3)
    for client in clients:
        client.join(game_id)
    timings: dict[int, float] = {}
    progress = Progress("long game", actions)
    count = 0
    while count < actions:
        view = clients[0].game(game_id)
        if not view["awaiting"]:
            clients[0].events(game_id, after=view["version"], wait=5)
            continue
        seat = view["awaiting"][0]
        legal = clients[seat].game(game_id)["legal_actions"]
        by_type = {a["type"]: a for a in legal}
        action = by_type.get("exchange") or by_type.get("pass") or legal[0]
        started = time.perf_counter()
        clients[seat].act(game_id, action)
        timings[count + 1] = time.perf_counter() - started
        count += 1
        progress.step()
    return timings


def long_pax_game(base: str, actions: int) -> dict[int, float]:
    """One Pax Porfiriana game kept going past ``actions`` (a turn cap it cannot reach; every
    seat speculates when it may, else ends its turn): POST latency by action number."""
    session = requests.Session()
    clients = [Client(base, session=session) for _ in range(3)]
    for index, client in enumerate(clients):
        client.token = client.post("/v1/players", {"name": f"long-pax{index}"}, expect=201)["token"]
    game_id = clients[0].create_game("pax", 3, {"max_turns": 3000})
    for client in clients:
        client.join(game_id)
    timings: dict[int, float] = {}
    progress = Progress("long game", actions)
    while len(timings) < actions:
        view = clients[0].game(game_id)
        if not view["awaiting"]:
            clients[0].events(game_id, after=view["version"], wait=5)
            continue
        seat = view["awaiting"][0]
        legal = clients[seat].game(game_id)["legal_actions"]
        action = next((a for a in legal if a["type"] in ("speculate", "done", "upkeep", "conflict")), legal[-1])
        started = time.perf_counter()
        clients[seat].act(game_id, action)
        timings[len(timings) + 1] = time.perf_counter() - started
        progress.step()
    return timings


def resolution_delays(redis_url: str, game_ids: list[str]) -> list[float]:
    """Seconds from the last seat's decision to the system step that followed it (event times).

    Read from the streams themselves, since the window leaves most games unfinished.
    """
    store = EventStore(connect(redis_url))
    delays = []
    for game_id in game_ids:
        previous = None
        for event in store.read(game_id):
            batch_start = event.cause.get("batch") == event.seq
            if batch_start and event.cause.get("kind") == "system" and previous is not None \
                    and previous.cause.get("kind") == "player":
                delays.append((parse_time(event.at) - parse_time(previous.at)).total_seconds())
            previous = event
    return delays


def main() -> None:
    global CLIENT_NICE
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=sorted(SEATS), default="coup")
    parser.add_argument("--games", type=int, default=20, help="concurrent games (default %(default)s)")
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="length of each measured window, baseline and game (default %(default)s)")
    parser.add_argument("--long-actions", type=int, default=1000, help="length of the long game (coup and pax)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes beside the API")
    parser.add_argument("--server", choices=["gunicorn", "serve"], default="gunicorn",
                        help="gunicorn: the production shape (default); serve: `intrigue serve` as in the README")
    parser.add_argument("--api-processes", type=int, default=PRODUCTION_API_PROCESSES,
                        help="API processes under gunicorn (default %(default)s: as the image on this machine)")
    parser.add_argument("--redis-url", help="measure against this Redis instead of an embedded one")
    parser.add_argument("--url", help="measure an already running Intrigue (its Redis must be --redis-url)")
    parser.add_argument("--client-nice", type=int, default=CLIENT_NICE,
                        help="niceness of the bot threads, so they yield the CPU to the servers (0: equal)")
    args = parser.parse_args()
    CLIENT_NICE = args.client_nice

    processes = args.api_processes if args.server == "gunicorn" else 1
    with redis_for_bench(args.redis_url) as redis_url:
        with baseline_server(redis_url, processes) as baseline:
            base_lat, base_time = run_baseline(baseline, args.games, args.seconds)
        if args.url:
            results = measure(args.url, redis_url, args)
        else:
            with intrigue_server(redis_url, workers=args.workers, server=args.server,
                                 processes=args.api_processes) as base:
                results = measure(base, redis_url, args)
    tally, game_time, delays, timings = results
    game_lat, calls = tally.latencies, tally.requests
    print()
    shape = f"gunicorn x{args.api_processes}" if args.server == "gunicorn" else "intrigue serve"
    where = "given" if args.redis_url else "embedded"
    print(f"concurrency: {args.games} clients/games, {os.cpu_count()} cores, Redis {where}, "
          f"API and baseline under {shape}, {args.workers} worker process(es), bots at nice {args.client_nice}")
    print(f"window: {args.seconds:g} s each; {len(tally.games)} games played in it ({tally.finished} to the end, "
          "a new one started at once)")
    print(figures("baseline (Flask + XADD)", base_lat, base_time))
    print(figures(f"{args.game} actions (POST)", game_lat, game_time))
    base_rate = len(base_lat) / base_time
    game_rate = len(game_lat) / game_time
    print(f"game API requests (GET+POST+long-poll+lobby): {calls / game_time:.1f}/s, "
          f"{calls / max(1, len(game_lat)):.2f} per action")
    print(f"throughput ratio: actions {game_rate / base_rate:.2f} of baseline requests (aim >= 0.50); "
          f"all game requests {calls / game_time / base_rate:.2f}")
    if delays:
        print(f"last decision -> resolution: n={len(delays)}  p50 {percentile(delays, 0.5) * 1000:.1f} ms  "
              f"p99 {percentile(delays, 0.99) * 1000:.1f} ms  max {max(delays) * 1000:.1f} ms")
    if timings:
        early = [timings[i] for i in range(5, 16) if i in timings]
        late_range = range(max(1, len(timings) - 10), len(timings) + 1)
        late = [timings[i] for i in late_range if i in timings]
        ratio = (sum(late) / len(late)) / (sum(early) / len(early))
        print(f"one long game: actions 5-15 mean {sum(early) / len(early) * 1000:.2f} ms, "
              f"actions {late_range.start}-{late_range.stop - 1} mean {sum(late) / len(late) * 1000:.2f} ms, "
              f"ratio {ratio:.2f} (aim <= 1.5)")


def measure(base: str, redis_url: str, args: argparse.Namespace):
    tally, game_time = run_games(base, args.game, args.games, args.seconds)
    delays = resolution_delays(redis_url, tally.games)
    long_game = {"coup": long_coup_game, "pax": long_pax_game}.get(args.game)
    timings = long_game(base, args.long_actions) if long_game and args.long_actions else {}
    return tally, game_time, delays, timings


if __name__ == "__main__":
    main()
