"""The CLI on the log, as a subprocess against a real Redis: audit, export, import,
replay and verify-seed on a finished game."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import redis

from core.config import Config
from games import registry
from stores.platform import Platform
from tests.tooling.conftest import humans, play

KIND = "fortress-royals" if registry.get("fortress-royals") else next(k for k in registry.keys() if k != "tiny")


def tablestream(redis_url: str, prefix: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "REDIS_URL": redis_url, "TABLESTREAM_PREFIX": prefix}
    return subprocess.run(
        [sys.executable, "-m", "service.cli", *args], env=env, input=stdin, capture_output=True, text=True, timeout=300
    )


@pytest.fixture
def finished(real_redis: redis.Redis, redis_url: str, prefix: str) -> str:
    platform = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    game = registry.get(KIND)
    assert game is not None
    table = play(platform, platform.handler.create_game(KIND, humans(game.min_players)).table, random.Random(4))
    assert table.status == "finished"
    return table.game_id


def test_audit_export_import_replay_and_verify_seed(finished: str, redis_url: str, prefix: str, tmp_path: Path) -> None:
    audit = tablestream(redis_url, prefix, "audit", finished)
    assert audit.returncode == 0, audit.stderr
    assert "audit passed" in audit.stdout and "hash_chain" in audit.stdout

    exported = tablestream(redis_url, prefix, "export", finished)
    assert exported.returncode == 0
    lines = exported.stdout.splitlines()
    assert len(lines) > 3

    imported = tablestream(redis_url, prefix, "import", "-", stdin=exported.stdout)
    assert imported.returncode == 0, imported.stderr
    assert "imported" in imported.stdout and finished not in imported.stdout.split()[-1]

    tampered = list(lines)
    tampered[5] = tampered[5].replace('"system"', '"human"', 1).replace('"human"', '"bot"', 1)
    refused = tablestream(redis_url, prefix, "import", "-", stdin="\n".join(tampered))
    assert refused.returncode == 1 and "version 5" in refused.stderr

    shown = tablestream(redis_url, prefix, "replay", finished, "--at", "3", "--plain")
    assert shown.returncode == 0 and shown.stdout.startswith("v3 ")

    verified = tablestream(redis_url, prefix, "verify-seed", finished)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "every shuffle and draw re-derived from the seed" in verified.stdout


def test_an_unknown_game_is_a_clear_error(redis_url: str, prefix: str) -> None:
    result = tablestream(redis_url, prefix, "audit", "no-such-game")
    assert result.returncode == 1 and "not_found" in result.stderr
