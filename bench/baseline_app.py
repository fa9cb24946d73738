"""The baseline for bench scripts: a bare Flask endpoint doing one XADD, served like Intrigue (gunicorn)."""

from __future__ import annotations

import os

import redis
from flask import Flask, request

app = Flask(__name__)
client = redis.Redis.from_url(os.environ["REDIS_URL"], max_connections=10_000)  # as Intrigue's


@app.post("/xadd")
def xadd() -> tuple[dict[str, str], int]:
    entry = client.xadd("bench:baseline", {"e": request.get_data()}, maxlen=10_000, approximate=True)
    return {"id": entry.decode()}, 200

