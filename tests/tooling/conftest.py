"""A platform on fakeredis with jobs run inline, and helpers to play games through it."""

from __future__ import annotations

import random
from typing import Any

import fakeredis
import pytest

from core.config import Config
from projections.table import Table
from stores.platform import Platform
from workers import wiring
from workers.scheduling import InlineBots


@pytest.fixture
def platform() -> Platform:
    config = Config(redis_url="fake", rate_per_address=10**6, rate_per_token=10**6, inline_jobs=True)
    p = Platform(config, fakeredis.FakeRedis())
    p.handler.scheduler = InlineBots(p)
    wiring.use(p)
    return p


def play(platform: Platform, table: Table, rng: random.Random, max_actions: int = 100_000) -> Table:
    """Random legal actions for whoever is to act, until the game ends or the budget runs out."""
    for _ in range(max_actions):
        if table.status != "active":
            break
        seat = min(table.to_act())
        action = rng.choice(table.game.legal_actions(table.state, seat))
        table = platform.handler.act(table.game_id, seat, action, table.version).table
    return table


def humans(count: int) -> list[dict[str, Any]]:
    return [{"name": f"p{i}"} for i in range(count)]


def whole_version(platform: Platform, game_id: str, at_most: int) -> int:
    """The latest version no later than ``at_most`` that lies just before an action: a
    version between two commands, where a fork or an undo may start."""
    log = platform.handler.store.read(game_id)
    return max(e.version for e in log if e.type == "ActionTaken" and e.version <= at_most + 1) - 1
