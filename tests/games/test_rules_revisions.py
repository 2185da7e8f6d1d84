"""A stored game keeps the rules it was played under (``GameBase.rules_revision``): the
logs in tests/data/rules1/ were played before any kind's rules changed, and every action
in them is still re-decided to the recorded events; a game in play goes on under its
revision; a new game records the current one, and a client may ask for an earlier one."""

from __future__ import annotations

import json
import random
from pathlib import Path

import fakeredis
import pytest

from core.config import Config
from core.tooling import audit_game, import_lines
from games import registry
from games.base import InvalidOptions, rules_of
from projections.audit import audit_entries
from stores.platform import Platform

DATA = Path(__file__).resolve().parents[1] / "data" / "rules1"
KINDS = ("dragoborne", "dragon-fortress", "fortress-royals", "fortress-siege", "stomping-grounds")


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().splitlines()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("state", ["finished", "in-play"])
def test_a_game_stored_under_the_first_rules_audits_clean(kind: str, state: str) -> None:
    header, *events = lines(f"{kind}-{state}.ndjson")
    created = json.loads(events[0])
    assert "rules" not in created["data"]["options"], "stored before revisions"
    report = audit_entries(
        json.loads(header)["game"], list(enumerate(events, start=1)), seed=json.loads(header).get("seed")
    )
    assert report.ok, report.as_json()
    assert "re-decided" in report.checks["actions"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_game_in_play_under_the_first_rules_goes_on_under_them(kind: str) -> None:
    platform = Platform(Config(redis_url="fake", inline_jobs=True), fakeredis.FakeRedis())
    game_id, _ = import_lines(platform, lines(f"{kind}-in-play.ndjson"))
    table = platform.handler.load(game_id)
    assert table.status == "active" and rules_of(table.options) == 1
    rng = random.Random(kind)
    for _ in range(40):
        if table.status != "active":
            break
        seat = min(table.to_act())
        action = rng.choice(table.game.legal_actions(table.state, seat))
        table = platform.handler.act(game_id, seat, action, table.version).table
    assert audit_game(platform, game_id).ok


@pytest.mark.parametrize("kind", KINDS)
def test_a_new_game_records_its_rules_revision_and_an_earlier_one_may_be_asked_for(kind: str) -> None:
    game = registry.get(kind)
    assert game is not None
    players = 3 if kind == "dragon-fortress" else 2
    checked = game.validate_options(None, players)
    assert rules_of(checked) == game.rules_revision
    assert ("rules" in checked) == (game.rules_revision > 1), "revision 1 games look as they always did"
    assert rules_of(game.validate_options({"rules": 1}, players)) == 1
    for wrong in (0, game.rules_revision + 1, "2", True):
        with pytest.raises(InvalidOptions, match="rules revision"):
            game.validate_options({"rules": wrong}, players)
