FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY games games
COPY events events
COPY projections projections
COPY workers workers
COPY service service
RUN pip install --no-cache-dir '.[prod]'
EXPOSE 8000
CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "4", "--threads", "16", "--worker-class", "gthread", "service.wsgi:app"]
