FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games games
COPY events events
COPY projections projections
COPY workers workers
COPY service service
RUN pip install --no-cache-dir .
EXPOSE 8000
# gunicorn with gevent workers (service/gunicorn_conf.py): a long-poll or an event stream is a
# greenlet, so thousands of watchers hold no thread each and do not slow a move.
# WEB_CONCURRENCY sets the API processes (default 2).
CMD ["gunicorn", "-c", "python:service.gunicorn_conf", "service.wsgi:app"]
