"""gunicorn settings for the API (``gunicorn -c service/gunicorn_conf.py service.wsgi:app``).

The worker class is gevent: a long-poll or a server-sent event stream is a greenlet
waiting on a socket, not a thread, so thousands of watchers cost memory, not threads,
and do not hold up a move (see docs/ARCHITECTURE.md for the measurements behind it).
"""

import os

bind = os.environ.get("INTRIGUE_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
#: gevent, with ``select`` left unpatched (see service/gevent_worker.py for why).
worker_class = "service.gevent_worker.Worker"
#: Open connections per API process: watchers plus players.
worker_connections = 10_000
#: For ``-k gthread`` comparisons only (the bench's --worker-class): threads per process.
threads = 66
#: Long keep-alive: clients that post a move every few hundred milliseconds keep their socket.
keepalive = 75
#: Request lines up to gunicorn's ceiling, so an over-long query is the app's 400, not a 414.
limit_request_line = 8190
#: A long-poll waits up to 30 s; a stream lives as long as its client.
timeout = 60
