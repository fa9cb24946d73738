"""WSGI entry point for gunicorn and other servers: ``service.wsgi:app`` (settings from the environment)."""

from engine.settings import Settings
from service.app import create_app

#: gunicorn's exit status for a worker that cannot boot: the arbiter stops instead of respawning it.
WORKER_BOOT_ERROR = 3

app = create_app(settings=Settings.at_start("intrigue", exit_status=WORKER_BOOT_ERROR))
