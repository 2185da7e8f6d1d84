"""Audits: every kind's random games pass; one changed byte, action or seed fails at the
right version; export and import keep a log whole and refuse a tampered one."""

from __future__ import annotations

import json
import random

import pytest

from core.errors import CommandError
from core.tooling import audit_game, export_lines, import_lines
from events.envelope import Envelope, chain
from events.store import NewEvent
from games import registry
from games.rng import derive_rng
from projections.audit import audit_entries
from projections.views import sealed_data
from stores.platform import Platform
from tests.short import short
from tests.tooling.conftest import humans, play

KINDS = [k for k in registry.keys() if k != "tiny"]


def finished_game(platform: Platform, kind: str, seed: int, cap: int = 100_000) -> str:
    game = registry.get(kind)
    assert game is not None
    table = platform.handler.create_game(kind, humans(game.min_players), short(kind)).table
    return play(platform, table, random.Random(seed), cap).game_id


@pytest.mark.parametrize("kind", ["tiny", *KINDS])
def test_a_random_game_of_every_kind_passes_its_audit(platform: Platform, kind: str) -> None:
    game_id = finished_game(platform, kind, seed=1, cap=400)
    report = audit_game(platform, game_id)
    assert report.ok, report.as_json()
    assert report.actions > 0
    assert set(report.checks) >= {"hash_chain", "seed", "actions"}


def rechain(entries: list[tuple[int, str]], at: int, change, seed: str | None = None) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    """Edit the event at version ``at`` and rebuild every hash after it, as a forger would:
    with the seed (the revealed one unless given), the forger also seals the edited data again."""
    envelopes = [Envelope.decode(t) for _, t in entries]
    edited = change(envelopes[at - 1].as_dict())
    envelopes[at - 1] = Envelope.from_dict(edited)
    game = registry.get(envelopes[0].data["kind"])
    revealed = seed or next((e.data["seed"] for e in envelopes if e.type == "SeedRevealed"), None)
    assert game is not None and isinstance(revealed, str)
    prev = envelopes[at - 2].hash if at > 1 else "0" * 64
    out = [e.encode() for e in envelopes[: at - 1]]
    for e in envelopes[at - 1 :]:
        sealed = sealed_data(game, e.type, e.seat, e.data, revealed, e.version)
        (fixed,) = chain([NewEvent(e.type, e.data, e.seat, e.actor, sealed)], e.version, prev, e.at, e.command_id)
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
    from core.config import Config
    from stores.platform import Platform as P

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


def _first_digit_in_data(text: str) -> int | None:
    start, end = text.find('"data":'), text.find('"hash":')
    return next((i for i in range(start, end) if text[i].isdigit()), None)


def _another_digit(digit: str) -> str:
    return "1" if digit != "1" else "2"  # never a leading zero: the text stays valid JSON


@pytest.mark.parametrize("kind", KINDS)
def test_in_every_kind_one_changed_byte_fails_the_audit_at_that_version(platform: Platform, kind: str) -> None:
    # Given a finished game of this kind, when one byte of one event's data changes,
    # then the audit fails at that event's version: its hash no longer matches, or (a value
    # the event hid, which the hash covers only as a commitment) its commitment no longer opens.
    game_id = finished_game(platform, kind, seed=21)
    entries = platform.store.read_raw(game_id)
    assert audit_entries(game_id, entries).ok
    version, text, at = next(
        (v, t, i) for v, t in entries[len(entries) // 2 :] if (i := _first_digit_in_data(t)) is not None
    )
    entries[version - 1] = (version, text[:at] + _another_digit(text[at]) + text[at + 1 :])
    report = audit_entries(game_id, entries)
    assert not report.ok and report.first_bad_version == version, report.as_json()
    reason = report.reason or ""
    assert "hash" in reason or (Envelope.decode(text).sealed is not None and "commitment" in reason), reason


def _action_with_other_effects(platform: Platform, game_id: str) -> tuple[int, dict, int]:
    """From the middle of the log on, the first recorded action that another legal action
    could have replaced with a different first event: (its version, that action's data as
    a forger holding the revealed seed records it, its draws included, the version of the
    first event it would not produce)."""
    envelopes = platform.store.read(game_id)
    seed = envelopes[-1].data["seed"]
    for taken in envelopes[len(envelopes) // 2 :]:
        if taken.type != "ActionTaken" or taken.seat is None:
            continue
        before = platform.tables.at(game_id, taken.version - 1)
        assert before is not None
        game, recorded = before.game, envelopes[taken.version]
        for other in game.legal_actions(before.state, taken.seat):
            if other == taken.data["action"]:
                continue
            rng = derive_rng(seed, taken.version)
            first = game.decide(before.state, taken.seat, other, rng)[0]
            if (first.type, first.seat, first.data) != (recorded.type, recorded.seat, dict(recorded.data)):
                draws = getattr(rng, "draws", [])
                return taken.version, {"action": other, **({"draws": draws} if draws else {})}, recorded.version
    raise AssertionError("no action in the second half of the game had an alternative")


@pytest.mark.parametrize("kind", KINDS)
def test_in_every_kind_a_changed_action_fails_the_audit_where_its_events_part(platform: Platform, kind: str) -> None:
    # Given a finished game, when one recorded action is replaced by another legal one and
    # the chain is rebuilt as a forger would, then the audit fails at the first event that
    # the new action does not produce; replaced by an action that was not legal, it fails
    # at the action itself.
    game_id = finished_game(platform, kind, seed=22)
    entries = platform.store.read_raw(game_id)
    target, other, first_event = _action_with_other_effects(platform, game_id)

    def legal_other(raw: dict) -> dict:
        return {**raw, "data": other}

    report = audit_entries(game_id, rechain(entries, target, legal_other))
    assert not report.ok and report.first_bad_version == first_event, report.as_json()
    assert "re-deciding" in (report.reason or "")

    def illegal(raw: dict) -> dict:
        return {**raw, "data": {"action": {"type": "take-every-card"}}}

    report = audit_entries(game_id, rechain(entries, target, illegal))
    assert not report.ok and report.first_bad_version == target, report.as_json()
    assert "not among the legal actions" in (report.reason or "")


@pytest.mark.parametrize("kind", KINDS)
def test_in_every_kind_a_changed_seed_fails_the_audit_where_it_is_revealed(platform: Platform, kind: str) -> None:
    # Given a finished game, when the revealed seed is replaced and the chain rebuilt,
    # then the audit fails at SeedRevealed: the seed no longer matches the commitment.
    game_id = finished_game(platform, kind, seed=23)
    entries = platform.store.read_raw(game_id)
    ended = len(entries)
    assert Envelope.decode(entries[-1][1]).type == "SeedRevealed"

    def change(raw: dict) -> dict:
        return {**raw, "data": {**raw["data"], "seed": raw["data"]["seed"][::-1]}}

    report = audit_entries(game_id, rechain(entries, ended, change))
    assert not report.ok and report.first_bad_version == ended, report.as_json()
    assert "commitment" in (report.reason or "")


def test_import_gives_a_new_id_when_the_files_id_could_not_be_one_of_ours(platform: Platform) -> None:
    # Given an export whose header names an id with characters our ids never have (it
    # would go into Redis keys and job ids), when it is imported, then it gets a new id.
    import fakeredis

    from core.config import Config
    from stores.platform import Platform as P

    game_id = finished_game(platform, "tiny", seed=10)
    header, *events = export_lines(platform, game_id)
    forged_id = "x}:seed"
    elsewhere = P(Config(redis_url="fake"), fakeredis.FakeRedis())
    new_id, report = import_lines(elsewhere, [json.dumps({**json.loads(header), "game": forged_id}), *events])
    assert report.ok and new_id != forged_id and new_id.replace("-", "").replace("_", "").isalnum()
    assert elsewhere.store.read_raw(new_id) == platform.store.read_raw(game_id)


def test_a_changed_draw_record_fails_the_audit_where_it_is_recorded(platform: Platform) -> None:
    # Given a finished game whose actions drew at random (dragoborne rolls its dice every
    # turn), when one recorded draw is changed and the log re-sealed and re-hashed as a
    # forger holding the revealed seed would, then the audit fails at that action: the seed
    # gives another result for that label. The same for the deal's draws in GameCreated.
    game_id = finished_game(platform, "dragoborne", seed=31)
    entries = platform.store.read_raw(game_id)
    envelopes = [Envelope.decode(t) for _, t in entries]
    drawn = next(e for e in envelopes if e.type == "ActionTaken" and e.data.get("draws"))
    assert drawn.data["draws"][0]["label"] == f"v{drawn.version}/0"

    def other_result(raw: dict) -> dict:
        draws = [dict(d) for d in raw["data"]["draws"]]
        first = draws[0]
        if "integer" in first:
            low, high = first["integer"]
            first["result"] = low if first["result"] != low else high
        else:
            first["result"] = list(reversed(first["result"]))
        return {**raw, "data": {**raw["data"], "draws": draws}}

    report = audit_entries(game_id, rechain(entries, drawn.version, other_result))
    assert not report.ok and report.first_bad_version == drawn.version, report.as_json()
    assert "draws" in (report.reason or "")
    assert envelopes[0].data["draws"], "the deal's shuffles are recorded in GameCreated"
    report = audit_entries(game_id, rechain(entries, 1, other_result))
    assert not report.ok and report.first_bad_version == 1 and "draws" in (report.reason or ""), report.as_json()
