"""gunicorn settings for the API (the image sets ``GUNICORN_CMD_ARGS=--config python:service.gunicorn_conf``).

Only what the command line cannot say: gunicorn's own refusals (a header too large,
a malformed request line) are written as problem+json like every answer of the API.
"""

from __future__ import annotations

from typing import Any


def post_worker_init(worker: Any) -> None:
    from service.http_errors import answer_gunicorn_errors_as_problems

    answer_gunicorn_errors_as_problems()
