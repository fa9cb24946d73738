FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games games
COPY events events
COPY projections projections
COPY workers workers
COPY service service
RUN pip install --no-cache-dir '.[prod]'
# The processes run as an unprivileged user, not root.
RUN useradd --system --no-create-home --uid 10001 intrigue
USER intrigue
# gunicorn's own refusals (a header too large...) as problem+json; see service/gunicorn_conf.py.
ENV GUNICORN_CMD_ARGS="--config python:service.gunicorn_conf"
EXPOSE 8000
# Every long-poll (GET .../events?wait=30) holds a thread for up to 30 s: 4 x 64 threads
# serve 256 waiting clients at once. See docs/ARCHITECTURE.md for the long keep-alive.
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--threads", "64", "--worker-class", "gthread", \
     "--keep-alive", "75", "service.wsgi:app"]
