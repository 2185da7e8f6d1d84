"""The API server's settings come from the environment, as the table of
``docs/configuration.md`` says, and that table names every setting the service reads."""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path

import pytest

from core.config import Config
from service.cli import gunicorn_settings, settle_heap

ROOT = Path(__file__).resolve().parents[2]
CONFIGURATION = ROOT / "docs" / "configuration.md"


def test_connections_and_workers_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLESTREAM_API_CONNECTIONS", "960")
    monkeypatch.setenv("TABLESTREAM_API_WORKERS", "3")
    settings = gunicorn_settings(Config.from_env())
    assert (settings["worker_connections"], settings["workers"]) == (960, 3)
    assert settings["worker_class"] == "service.crowd_worker.CrowdWorker"


def test_the_defaults_are_those_of_the_configuration_table(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CONNECTIONS", "WORKERS", "CONNECTIONS_PER_ADDRESS", "STREAMS_PER_ADDRESS", "STREAMS_PER_TOKEN"):
        monkeypatch.delenv(f"TABLESTREAM_{name}" if "_PER_" in name else f"TABLESTREAM_API_{name}", raising=False)
    monkeypatch.delenv("TABLESTREAM_HEADER_SECONDS", raising=False)
    config = Config.from_env()
    settings = gunicorn_settings(config)
    assert (settings["worker_connections"], settings["workers"]) == (10_000, 2)
    caps = (config.connections_per_address, config.streams_per_address, config.streams_per_token)
    assert (caps, config.header_seconds) == ((1_000, 500, 64), 5)
    table = CONFIGURATION.read_text()
    for name, default in [
        ("TABLESTREAM_API_CONNECTIONS", "10000"),
        ("TABLESTREAM_CONNECTIONS_PER_ADDRESS", "1000"),
        ("TABLESTREAM_STREAMS_PER_ADDRESS", "500"),
        ("TABLESTREAM_STREAMS_PER_TOKEN", "64"),
        ("TABLESTREAM_HEADER_SECONDS", "5"),
    ]:
        row = re.search(rf"^\| [^|]*`{name}`[^|]* \|.*\| ([^|]*) \|$", table, re.MULTILINE)
        assert row is not None and default in row[1].split(", "), (
            f"docs/configuration.md's table lacks {name} ({default})"
        )


def test_every_setting_the_service_reads_has_a_row_in_the_configuration_table() -> None:
    """A setting read anywhere in the service has its row: none is known only to the code."""
    table = CONFIGURATION.read_text()
    rows = {
        name
        for line in table.splitlines()
        if line.startswith("| `")
        for name in re.findall(r"`(\w+)`", line.split(" | ")[0])
    }
    read: set[str] = set()
    for package in ("core", "service", "workers", "events", "projections", "games"):
        for source in (ROOT / package).rglob("*.py"):
            read |= set(re.findall(r"[\"'](TABLESTREAM_[A-Z_]+)[\"']", source.read_text()))
    assert len(read) > 20, read
    assert not read - rows, f"docs/configuration.md's table lacks {sorted(read - rows)}"


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
