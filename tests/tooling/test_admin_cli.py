"""The operator's and the analyst's CLI, as a subprocess against a real Redis: a finished
game analysed with its progress shown, kept as the game's analysis; a game in play refused;
reports listed and resolved; a player closed, whose key then stops."""

from __future__ import annotations

import random

import redis

from core.config import Config
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from tests.tooling.test_cli import KIND, tablestream


def test_a_finished_game_is_analysed_from_the_command_line(
    real_redis: redis.Redis, redis_url: str, prefix: str
) -> None:
    platform = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    table = play(platform, platform.handler.create_game(KIND, humans(2), {"rounds": 1}).table, random.Random(3))
    assert table.status == "finished"
    done = tablestream(redis_url, prefix, "analyse", table.game_id, "--iterations", "20")
    assert done.returncode == 0, done.stderr
    assert "decisions analysed at 20 iterations each" in done.stdout
    assert "analysis" in done.stderr, "the progress is shown"
    kept = platform.analyses.get(table.game_id)
    assert kept is not None and kept["iterations"] == 20 and kept["decisions"]
    in_play = platform.handler.create_game(KIND, humans(2)).table
    refused = tablestream(redis_url, prefix, "analyse", in_play.game_id)
    assert refused.returncode == 1 and "game_in_play" in refused.stderr
    wrong = tablestream(redis_url, prefix, "analyse", table.game_id, "--iterations", "0")
    assert wrong.returncode == 2 and "iterations are 1 to 100000" in wrong.stderr


def test_reports_are_listed_and_resolved_and_a_closed_players_key_stops(
    real_redis: redis.Redis, redis_url: str, prefix: str
) -> None:
    platform = Platform(Config(redis_url=redis_url, prefix=prefix), real_redis)
    ann, _ = platform.players.register("cli-ann")
    bob, bob_key = platform.players.register("cli-bob")
    filed = platform.moderation.report(ann, bob, "spam", None, "links in the chat")
    listed = tablestream(redis_url, prefix, "reports")
    assert listed.returncode == 0 and "1 open report" in listed.stdout
    assert filed["id"] in listed.stdout and "cli-ann reports cli-bob for spam" in listed.stdout
    resolved = tablestream(redis_url, prefix, "resolve-report", filed["id"], "dismissed", "--note", "no links")
    assert resolved.returncode == 0
    assert "0 open reports" in tablestream(redis_url, prefix, "reports").stdout
    assert tablestream(redis_url, prefix, "resolve-report", filed["id"], "dismissed").returncode == 1
    assert platform.players.authenticate(bob_key) is not None
    closed = tablestream(redis_url, prefix, "close-player", "CLI-BOB")
    assert closed.returncode == 0 and "closed" in closed.stdout
    assert platform.players.authenticate(bob_key) is None
    assert tablestream(redis_url, prefix, "close-player", "nobody").returncode == 1
