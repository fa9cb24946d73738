FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md constraints.txt ./
COPY games games
COPY bots bots
COPY events events
COPY projections projections
COPY engine engine
COPY workers workers
COPY service service
# The JavaScript SDK the web client imports, shipped with its static files (service/webclient.py).
COPY clients/js/src service/static/sdk
# The versions CI ran (constraints.txt; .ci/lock refreshes it).
RUN pip install --no-cache-dir -c constraints.txt '.[prod]'
# The processes run as an unprivileged user, not root.
RUN useradd --system --no-create-home --uid 10001 intrigue
USER intrigue
# gunicorn's own refusals (a header too large...) as problem+json; see service/gunicorn_conf.py.
ENV GUNICORN_CMD_ARGS="--config python:service.gunicorn_conf"
EXPOSE 8000
# gunicorn with gevent workers (service/gunicorn_conf.py, through GUNICORN_CMD_ARGS): a
# long-poll or an event stream is a greenlet, so thousands of watchers hold no thread each
# and do not slow a move. WEB_CONCURRENCY sets the API processes (default: one per core
# but one, at least one).
CMD ["gunicorn", "service.wsgi:app"]
