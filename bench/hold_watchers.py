"""Hold N idle watchers on an Intrigue server until stopped (for bench/side_by_side.py --idle-watchers).

    python bench/hold_watchers.py http://127.0.0.1:8140 5000

Half are event streams, half long-polls (``wait=30``, asked again as each returns), all
on a game nobody plays, from one thread with a selector. Prints ``ready N`` once every
stream has its first bytes, then holds them until SIGTERM or stdin closes.
"""

from __future__ import annotations

import signal
import sys
import threading

import requests
from common import ROOT  # noqa: F401  (puts the repository on the path)

from tests.support.watchers import Watchers


def main() -> None:
    base, count = sys.argv[1], int(sys.argv[2])
    player = requests.post(f"{base}/v1/players", json={"name": "watcher"}, timeout=30).json()
    headers = {"Authorization": f"Bearer {player['token']}"}
    game = requests.post(f"{base}/v1/games", json={"game": "coup", "seats": 3, "options": {}}, headers=headers,
                         timeout=30).json()
    watchers = Watchers(base)
    streams = watchers.open(f"/v1/games/{game['id']}/events/stream", count - count // 2, player["token"])
    poll_path = f"/v1/games/{game['id']}/events?after=1&wait=30"
    polls = watchers.open(poll_path, count // 2, player["token"])
    if not watchers.pump_until(lambda: all(w.received for w in streams), 120):
        sys.exit(f"only {sum(bool(w.received) for w in streams)} of {len(streams)} streams opened")
    watchers.pump_until(lambda: False, 5)  # let the server take in the long-polls' requests too
    print(f"ready {len(streams) + len(polls)}", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    threading.Thread(target=lambda: (sys.stdin.read(), stop.set()), daemon=True).start()
    while not stop.is_set():
        watchers.pump(0.5)
        for poll in polls:  # a long-poll that answered (30 s passed) is asked again on its socket
            if poll.received.endswith(b"}") and b"\r\n\r\n" in poll.received:
                poll.received.clear()
                poll.sock.sendall(poll.request)
    watchers.close()


if __name__ == "__main__":
    main()
