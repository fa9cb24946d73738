"""WSGI entry point for gunicorn and other servers: ``service.wsgi:app`` (reads REDIS_URL)."""

from service.app import create_app

app = create_app()
