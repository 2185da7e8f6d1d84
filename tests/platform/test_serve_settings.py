"""The API server's settings come from the environment, as the README's table says."""

from __future__ import annotations

import gc
import sys

import pytest

from core.config import Config
from service.cli import gunicorn_settings, settle_heap


def test_threads_and_workers_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESTREAM_API_THREADS", "96")
    monkeypatch.setenv("TABLESTREAM_API_WORKERS", "3")
    settings = gunicorn_settings(Config.from_env())
    assert (settings["threads"], settings["workers"], settings["worker_class"]) == (96, 3, "gthread")


def test_the_defaults_are_the_readme_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLESTREAM_API_THREADS", raising=False)
    monkeypatch.delenv("TABLESTREAM_API_WORKERS", raising=False)
    settings = gunicorn_settings(Config.from_env())
    assert (settings["threads"], settings["workers"]) == (32, 2)


def test_a_settled_heap_is_out_of_the_collector_s_sight() -> None:
    """What a worker loaded to start is frozen: a full collection no longer walks it."""
    loaded = [["a card"], {"a": "table"}]  # containers the collector tracks
    assert any(o is loaded for o in gc.get_objects())
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0
        assert not any(o is loaded for o in gc.get_objects())  # no generation holds it now
    finally:
        gc.unfreeze()


@pytest.mark.skipif(sys.platform != "linux", reason="SO_REUSEPORT spreads connections on Linux only")
def test_each_worker_gets_a_socket_of_its_own_except_on_port_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PORT", "8123")
    assert gunicorn_settings(Config.from_env())["reuse_port"] is True
    monkeypatch.setenv("PORT", "0")  # each worker would bind a port of its own
    assert gunicorn_settings(Config.from_env())["reuse_port"] is False
