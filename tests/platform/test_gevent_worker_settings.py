"""The API worker reads gunicorn's settings from plain attributes, with the same values."""

from __future__ import annotations

from gunicorn.config import Config

from service.gevent_worker import freeze_settings


def test_frozen_settings_read_as_before_and_properties_still_compute() -> None:
    cfg = Config()
    cfg.set("keepalive", 75)
    cfg.set("limit_request_line", 8190)
    before = {name: getattr(cfg, name) for name in cfg.settings}
    freeze_settings(cfg)
    assert {name: getattr(cfg, name) for name in cfg.settings} == before
    assert "keepalive" in vars(cfg)  # a plain lookup now, not Config.__getattr__
    assert cfg.keepalive == 75
    # A setting that Config also computes as a property (the string names a class) stays computed.
    assert "worker_class" not in vars(cfg)
    assert isinstance(cfg.worker_class, type)
