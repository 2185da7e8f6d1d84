"""Games stored under envelope schema 1 keep verifying under their own rule:
nothing is rewritten. The exports in tests/data/schema1/ were made by the service as it
was before schema 2 (commit 850e222): a finished tiny game, a tiny game in play, and a
finished fortress-siege game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from core.tooling import audit_game, import_lines
from events.envelope import Envelope
from projections.audit import audit_entries
from service.app import create_app
from stores.platform import Platform

DATA = Path(__file__).resolve().parents[1] / "data" / "schema1"


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().splitlines()


@pytest.mark.parametrize("name", ["tiny-finished.ndjson", "tiny-in-play.ndjson", "fortress-siege-finished.ndjson"])
def test_a_schema_1_export_audits_clean_under_its_own_rule(name: str) -> None:
    header, *events = lines(name)
    entries = list(enumerate(events, start=1))
    assert all(Envelope.decode(text).schema == 1 and "schema" not in json.loads(text) for _, text in entries)
    report = audit_entries(json.loads(header)["game"], entries, seed=json.loads(header).get("seed"))
    assert report.ok, report.as_json()
    assert "re-decided" in report.checks["actions"] and "deal" in report.checks


def test_a_schema_1_game_in_play_shows_no_hash_until_it_ends_and_its_continuation_audits(platform: Platform) -> None:
    # Given a game begun under schema 1 and imported in play, when a seat and a spectator
    # read it, then no hash or prev_hash is shown (those hashes covered hidden cards whole),
    # the head's hash is null, and the actions appended now (schema 2) keep the game's draw
    # recipe; once it ends, every hash is shown and the mixed log audits clean.
    game_id, _ = import_lines(platform, lines("tiny-in-play.ndjson"))
    table = platform.handler.load(game_id)
    assert table.schema == 1 and table.status == "active"
    client = create_app(platform=platform).test_client()
    page = client.get(f"/v1/games/{game_id}/events").get_json()
    assert {(e["hash"], e["prev_hash"]) for e in page["events"]} == {(None, None)}
    assert page["head"] == {"version": table.version, "hash": None}

    rng = random.Random(5)
    while table.status == "active":
        seat = min(table.to_act())
        table = platform.handler.act(
            game_id, seat, rng.choice(table.game.legal_actions(table.state, seat)), table.version
        ).table
        if table.status == "active":
            shown = client.get(f"/v1/games/{game_id}/events").get_json()["events"]
            assert {e["hash"] for e in shown} == {None}
    envelopes = platform.store.read(game_id)
    assert {e.schema for e in envelopes} == {1, 2}
    assert not any("draws" in e.data for e in envelopes if e.type == "ActionTaken")
    ended = client.get(f"/v1/games/{game_id}/events?limit=1000").get_json()["events"]
    assert all(e["hash"] == env.hash for e, env in zip(ended, envelopes, strict=True))
    report = audit_game(platform, game_id)
    assert report.ok, report.as_json()
