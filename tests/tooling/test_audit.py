"""Audits: every kind's random games pass; one changed byte, action or seed fails at the
right version; export and import keep a log whole and refuse a tampered one."""

from __future__ import annotations

import json
import random

import pytest

from events.envelope import Envelope, chain
from events.store import NewEvent
from games import registry
from projections.audit import audit_entries
from service.errors import CommandError
from service.platform import Platform
from service.tooling import audit_game, export_lines, import_lines
from tests.tooling.conftest import humans, play

KINDS = [k for k in registry.keys() if k != "tiny"]


def finished_game(platform: Platform, kind: str, seed: int, cap: int = 100_000) -> str:
    game = registry.get(kind)
    assert game is not None
    table = platform.handler.create_game(kind, humans(game.min_players)).table
    return play(platform, table, random.Random(seed), cap).game_id


@pytest.mark.parametrize("kind", ["tiny", *KINDS])
def test_a_random_game_of_every_kind_passes_its_audit(platform: Platform, kind: str) -> None:
    game_id = finished_game(platform, kind, seed=1, cap=400)
    report = audit_game(platform, game_id)
    assert report.ok, report.as_json()
    assert report.actions > 0
    assert set(report.checks) >= {"hash_chain", "seed", "actions"}


def rechain(entries: list[tuple[int, str]], at: int, change) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    """Edit the event at version ``at`` and rebuild every hash after it, as a forger would."""
    envelopes = [Envelope.decode(t) for _, t in entries]
    edited = change(envelopes[at - 1].as_dict())
    envelopes[at - 1] = Envelope.from_dict(edited)
    prev = envelopes[at - 2].hash if at > 1 else "0" * 64
    out = [e.encode() for e in envelopes[: at - 1]]
    for e in envelopes[at - 1 :]:
        (fixed,) = chain([NewEvent(e.type, e.data, e.seat, e.actor)], e.version, prev, e.at, e.command_id)
        out.append(fixed.encode())
        prev = fixed.hash
    return list(enumerate(out, start=1))


def test_one_changed_byte_fails_the_chain_at_that_version(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=2)
    entries = platform.store.read_raw(game_id)
    target = len(entries) // 2
    version, text = entries[target - 1]
    entries[target - 1] = (version, text.replace('"actor":"', '"actor":"x', 1))
    report = audit_entries(game_id, entries)
    assert not report.ok and report.first_bad_version == target
    assert "hash" in (report.reason or "")


def test_a_changed_action_fails_at_that_action_even_with_the_chain_rebuilt(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=3)
    entries = platform.store.read_raw(game_id)
    taken = [v for v, t in entries if Envelope.decode(t).type == "ActionTaken"]
    target = taken[1]

    def change(raw: dict) -> dict:
        action = raw["data"]["action"]
        other = {"type": "add", "amount": 1} if action != {"type": "add", "amount": 1} else {"type": "add", "amount": 2}
        return {**raw, "data": {"action": other}}

    report = audit_entries(game_id, rechain(entries, target, change))
    assert not report.ok
    assert report.first_bad_version in (target, target + 1), report.as_json()


def test_a_changed_draw_fails_where_the_seed_derives_another_card(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=4)
    entries = platform.store.read_raw(game_id)
    dealt = next(v for v, t in entries if Envelope.decode(t).type == "Dealt")

    def change(raw: dict) -> dict:
        deck = list(raw["data"]["deck"])
        deck[0], deck[1] = deck[1], deck[0]
        return {**raw, "data": {**raw["data"], "deck": deck}}

    report = audit_entries(game_id, rechain(entries, dealt, change))
    assert not report.ok and report.first_bad_version == dealt
    assert "deal" in (report.reason or "")


def test_a_changed_seed_fails_at_the_event_that_reveals_it(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=5)
    entries = platform.store.read_raw(game_id)
    ended = len(entries)
    assert Envelope.decode(entries[-1][1]).type == "SeedRevealed"

    def change(raw: dict) -> dict:
        return {**raw, "data": {**raw["data"], "seed": "0" * 64}}

    report = audit_entries(game_id, rechain(entries, ended, change))
    assert not report.ok and report.first_bad_version == ended
    assert "commitment" in (report.reason or "")


def test_a_snapshot_that_differs_from_the_fold_is_reported(platform: Platform) -> None:
    from dataclasses import replace

    game_id = finished_game(platform, "tiny", seed=6)
    table = platform.tables.at(game_id, 10)
    assert table is not None
    wrong = replace(table, state=replace(table.state, count=table.state.count + 1))
    report = audit_entries(game_id, platform.store.read_raw(game_id), snapshot=wrong)
    assert not report.ok and report.first_bad_version == 10


def test_export_then_import_keeps_the_log_and_a_colliding_id_gets_a_new_one(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=7)
    lines = list(export_lines(platform, game_id))
    assert json.loads(lines[0])["format"] == "tablestream-export/1"
    new_id, report = import_lines(platform, lines)
    assert report.ok and new_id != game_id
    assert platform.store.read_raw(new_id) == platform.store.read_raw(game_id)
    imported = platform.handler.load(new_id)
    assert imported.game_id == new_id and imported.state == platform.handler.load(game_id).state


def test_import_keeps_the_original_id_when_it_is_free(platform: Platform) -> None:
    from service.config import Config
    from service.platform import Platform as P

    game_id = finished_game(platform, "tiny", seed=8)
    lines = list(export_lines(platform, game_id))
    import fakeredis

    elsewhere = P(Config(redis_url="fake"), fakeredis.FakeRedis())
    new_id, _ = import_lines(elsewhere, lines)
    assert new_id == game_id
    assert audit_game(elsewhere, game_id).ok


def test_import_refuses_a_tampered_log_naming_its_first_bad_version(platform: Platform) -> None:
    game_id = finished_game(platform, "tiny", seed=9)
    lines = list(export_lines(platform, game_id))
    lines[6] = lines[6].replace('"human"', '"robot"')
    with pytest.raises(CommandError) as refused:
        import_lines(platform, lines)
    assert refused.value.extra["first_bad_version"] == 6
    assert "version 6" in refused.value.detail
    assert sorted(platform.store.game_ids()) == [game_id]


def test_a_game_in_play_exports_its_seed_so_the_import_can_check_its_draws(platform: Platform) -> None:
    table = platform.handler.create_game("tiny", humans(2)).table
    table = platform.handler.act(table.game_id, 0, {"type": "draw"}, table.version).table
    lines = list(export_lines(platform, table.game_id))
    assert json.loads(lines[0])["seed"] == platform.vault.seed(table.game_id)
    new_id, report = import_lines(platform, lines)
    assert report.ok and "re-decided" in report.checks["actions"]
