"""gunicorn's gevent worker, patching everything but ``select``.

redis-py checks every pooled connection with a zero-timeout ``poll()`` before each
command. Under gevent's patched ``select`` that check becomes a trip through the event
loop (a watcher, a timeout, a switch to the hub): about an eighth of an API process's
time in the side-by-side bench. The real ``poll()`` with a zero timeout never blocks,
so it is kept; nothing in the API process selects with a timeout (the feed listener
blocks on its socket, which gevent does patch).
"""

from __future__ import annotations

from gevent import monkey, socket
from gunicorn.workers.ggevent import GeventWorker


class Worker(GeventWorker):
    def patch(self) -> None:
        monkey.patch_all(select=False)
        # What GeventWorker.patch does after patching: rewrap the listening sockets.
        self.sockets = [socket.socket(s.FAMILY, socket.SOCK_STREAM, fileno=s.sock.detach()) for s in self.sockets]
