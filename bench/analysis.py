"""What a post-game analysis costs (``core.analysis``; rows (13)).

  python -m bench.analysis [--quick]

Per kind, one game of two random bots (fortress-royals one round, stomping-grounds its
turn limit at 10: the shapes the tests play) is created on an in-process platform
(fakeredis, bots played inline), then analysed at the analysis' budget
(``core.analysis.ITERATIONS`` iterations a decision). The baseline, measured in the same
run on the same decisions, is what the ISMCTS bot spends choosing at the same budget
(``games.ismcts.search``): the analysis tries every action at every decision and keeps
the log's every table, where the bot widens to a few. Rows: CPU seconds per game, and
per decision, with the ratio to the bot's; for scale (no target: a job on a worker).
"""

from __future__ import annotations

import random
import time
from typing import Any

import fakeredis

from bench.common import Row, command, figure
from core.analysis import ITERATIONS, analyse
from core.config import Config
from games.ismcts import search
from stores.platform import Platform
from workers.scheduling import InlineBots

OPTIONS: dict[str, dict[str, Any]] = {"fortress-royals": {"rounds": 1}, "stomping-grounds": {"turn_limit": 10}}
KINDS = ("dragoborne", "dragon-fortress", "fortress-royals", "fortress-siege", "stomping-grounds")


def one_kind(kind: str, iterations: int) -> tuple[float, float, int]:
    """(analysis CPU s, the bot's CPU s on the same decisions, decisions) for one game of ``kind``."""
    platform = Platform(Config(redis_url="fake", prefix=f"bench-analysis-{kind}"), fakeredis.FakeRedis())
    platform.handler.scheduler = InlineBots(platform)
    game_id = platform.handler.create_game(
        kind, [{"bot": "random"}] * 2 if kind != "dragon-fortress" else [{"bot": "random"}] * 3, OPTIONS.get(kind)
    ).table.game_id
    started = time.process_time()
    found = analyse(platform, game_id, iterations)
    spent = time.process_time() - started
    bot = 0.0
    for decision in found["decisions"]:
        table = platform.tables.at(game_id, decision["version"] - 1)
        assert table is not None and table.state is not None
        started = time.process_time()
        search(table.game, table.state, decision["seat"], random.Random(decision["version"]), iterations=iterations)
        bot += time.process_time() - started
    return spent, bot, len(found["decisions"])


def run(quick: bool) -> list[Row]:
    iterations = ITERATIONS // 4 if quick else ITERATIONS
    rows = []
    for kind in KINDS:
        spent, bot, decisions = one_kind(kind, iterations)
        rows.append(
            figure(
                f"(13) analysis CPU s per game, {kind} ({decisions} decisions)",
                spent,
                bot,
                "s",
                "ISMCTS bot, same decisions and budget",
            )
        )
        if decisions:
            rows.append(
                figure(
                    f"(13) analysis CPU ms per decision, {kind}",
                    1000 * spent / decisions,
                    1000 * bot / decisions,
                    "ms",
                    "ISMCTS bot, same decisions and budget",
                )
            )
    return rows


if __name__ == "__main__":
    command(__doc__, run)
