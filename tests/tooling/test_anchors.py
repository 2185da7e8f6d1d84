"""Anchors: the head, the feed and the ledger of finished games make a cut or rewritten
log detectable. Attacks as an operator with write access to Redis
would make them: delete the last command, rewrite every event with recomputed hashes."""

from __future__ import annotations

import json
import random

import fakeredis
import pytest
import redis

from core.config import Config
from core.errors import CommandError
from core.tooling import audit_game, export_lines, import_lines
from events.envelope import GENESIS_HASH, Envelope, NewEvent, chain
from events.ledger import LedgerUnavailable, verify_entries
from projections.views import sealed_data
from service.app import create_app
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from workers.projector import Projector


def finished(platform: Platform, seed: int) -> str:
    table = platform.handler.create_game("tiny", humans(2)).table
    return play(platform, table, random.Random(seed)).game_id


def last_command(platform: Platform, game_id: str) -> list[int]:
    """The versions of the game's last command (its ActionTaken and what followed)."""
    envelopes = platform.store.read(game_id)
    start = max(e.version for e in envelopes if e.type == "ActionTaken")
    return [e.version for e in envelopes if e.version >= start]


def elsewhere(platform: Platform) -> Platform:
    """Another process on the same Redis: no table cached."""
    return Platform(platform.config, platform.redis)


def test_a_deleted_tail_fails_the_audit_and_is_never_served_as_a_shorter_game(platform: Platform) -> None:
    # Given a finished game, when its last command is deleted from the stream (XDEL, as an
    # operator with write access could), then the audit fails at the first missing version
    # naming the missing tail, and the API answers log_damaged instead of the shorter game.
    game_id = finished(platform, 1)
    cut = last_command(platform, game_id)
    platform.redis.xdel(platform.store.key(game_id, "events"), *(f"{v}-0" for v in cut))
    fresh = elsewhere(platform)
    report = audit_game(fresh, game_id)
    assert not report.ok and report.first_bad_version == cut[0], report.as_json()
    assert "tail is missing" in (report.reason or "")

    client = create_app(platform=fresh).test_client()
    replay = client.get(f"/v1/games/{game_id}/replay")
    assert replay.status_code == 500 and replay.get_json()["code"] == "log_damaged"
    platform.redis.delete(platform.snapshots.key(game_id))  # nor from the log alone, in a new process
    game = create_app(platform=elsewhere(platform)).test_client().get(f"/v1/games/{game_id}")
    assert game.status_code == 500 and game.get_json()["code"] == "log_damaged"
    assert game.get_json()["head_version"] == cut[-1] and game.get_json()["version"] == cut[0] - 1


def test_a_deleted_tail_with_its_head_moved_back_still_fails_on_the_feed_and_the_ledger(platform: Platform) -> None:
    # Given the same cut, when the head key is also moved back to the new last event, then
    # the read models' position on the feed and the ledger entry still show the tail.
    game_id = finished(platform, 2)
    Projector(platform).apply(game_id)
    cut = last_command(platform, game_id)
    platform.redis.xdel(platform.store.key(game_id, "events"), *(f"{v}-0" for v in cut))
    kept = platform.store.read(game_id)[-1]
    platform.redis.set(platform.store.key(game_id, "head"), f"{kept.version}:{kept.hash}")
    report = audit_game(elsewhere(platform), game_id)
    assert not report.ok and report.first_bad_version == cut[0], report.as_json()
    assert "feed announced" in (report.reason or "") or "ledger" in (report.reason or "")


def rewritten(platform: Platform, game_id: str, actor_to: str = "bot") -> list[str]:
    """The game's log with every human actor changed (to ``actor_to``) and every seal and
    hash recomputed, as a forger holding the revealed seed would write it. To a bot, the
    log stays consistent with its own outcome, so only its anchors can show the forgery."""
    envelopes = platform.store.read(game_id)
    game = platform.handler.load(game_id).game
    seed = envelopes[-1].data["seed"]
    prev, out = GENESIS_HASH, []
    for e in envelopes:
        actor = actor_to if e.actor == "human" else e.actor
        sealed = sealed_data(game, e.type, e.seat, e.data, seed, e.version)
        (forged,) = chain([NewEvent(e.type, e.data, e.seat, actor, sealed)], e.version, prev, e.at, e.command_id)
        out.append(forged.encode())
        prev = forged.hash
    return out


def replace_log(platform: Platform, game_id: str, forged: list[str]) -> None:
    """Put ``forged`` in place of the game's log, its head moved to match (no snapshot left)."""
    last = Envelope.decode(forged[-1])
    key = platform.store.key(game_id, "events")
    platform.redis.delete(key)
    for version, text in enumerate(forged, start=1):
        platform.redis.xadd(key, {"e": text}, id=f"{version}-0")
    platform.redis.set(platform.store.key(game_id, "head"), f"{last.version}:{last.hash}")
    platform.redis.delete(platform.snapshots.key(game_id))


def test_a_rewritten_log_with_recomputed_hashes_fails_against_the_ledger(platform: Platform) -> None:
    # Given a finished game on the ledger, when its log is replaced by one with every actor
    # changed and every hash recomputed (a chain that checks on its own), then the audit
    # fails: the ledger holds another final head.
    game_id = finished(platform, 3)
    forged = rewritten(platform, game_id)
    replace_log(platform, game_id, forged)
    report = audit_game(elsewhere(platform), game_id)
    assert report.checks["hash_chain"].startswith("ok")  # the forged chain links on its own
    assert not report.ok and "ledger" in (report.reason or ""), report.as_json()


def test_a_log_rewritten_to_say_the_timer_played_fails_at_its_outcome(platform: Platform) -> None:
    # Every human move made the turn timer's: the outcome recorded (who moved by itself,
    # the timer's moves, whether the result counts) no longer follows from the log.
    game_id = finished(platform, 5)
    forged = rewritten(platform, game_id, actor_to="timeout")
    replace_log(platform, game_id, forged)
    report = audit_game(elsewhere(platform), game_id)
    assert report.checks["hash_chain"].startswith("ok")
    assert not report.ok and report.reason == "the recorded outcome is not the fold's outcome", report.as_json()


def test_import_refuses_a_rewritten_or_shortened_log_and_trusts_an_id_only_with_a_ledger_entry(
    platform: Platform,
) -> None:
    game_id = finished(platform, 4)
    header, *events = export_lines(platform, game_id)
    claimed = json.loads(header)
    assert claimed["ledger"]["game"] == game_id and claimed["head"]["version"] == len(events)
    other = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())

    # A rewritten log under the honest header: its final head is not the ledger entry's.
    with pytest.raises(CommandError) as refused:
        import_lines(other, [header, *rewritten(platform, game_id)])
    assert "head" in refused.value.detail
    # A log cut short under the honest header: it ends before the head the header names.
    cut = len(last_command(platform, game_id))
    with pytest.raises(CommandError) as refused:
        import_lines(other, [header, *events[:-cut]])
    assert refused.value.extra["first_bad_version"] == len(events) - cut + 1
    # A ledger entry edited to match the forgery no longer matches its own hash.
    forged_last = Envelope.decode(rewritten(platform, game_id)[-1])
    edited = {
        **claimed,
        "head": {"version": forged_last.version, "hash": forged_last.hash},
        "ledger": {**claimed["ledger"], "hash": forged_last.hash},
    }
    with pytest.raises(CommandError) as refused:
        import_lines(other, [json.dumps(edited), *rewritten(platform, game_id)])
    assert "its own hash" in refused.value.detail
    # Back on the server whose ledger holds the game, the forgery is refused whatever the header says.
    bare = {k: v for k, v in claimed.items() if k not in ("ledger", "head")}
    with pytest.raises(CommandError) as refused:
        import_lines(platform, [json.dumps(bare), *rewritten(platform, game_id)])
    assert "ledger holds" in refused.value.detail
    # Without a ledger entry, the file's id is not trusted; with the honest one, it is kept.
    untrusted, _ = import_lines(other, [json.dumps(bare), *events])
    assert untrusted != game_id
    trusted, _ = import_lines(Platform(Config(redis_url="fake"), fakeredis.FakeRedis()), [header, *events])
    assert trusted == game_id


def test_the_ledger_chains_every_finished_game_and_the_projector_records_one_the_handler_missed(
    platform: Platform,
) -> None:
    ended = [finished(platform, seed) for seed in (5, 6)]
    platform.handler.ledger = None  # a process that died between ending a game and recording it
    missed = finished(platform, 7)
    platform.handler.ledger = platform.ledger
    assert platform.ledger.of(missed) is None
    Projector(platform).apply(missed)
    client = create_app(platform=platform).test_client()
    page = client.get("/v1/ledger").get_json()
    games = [entry["game"] for entry in page["entries"]]
    assert games == [*ended, missed]
    assert verify_entries(page["entries"]) is None
    assert page["head"] == {"index": 3, "entry_hash": page["entries"][-1]["entry_hash"]}
    for entry in page["entries"]:
        table = platform.handler.load(entry["game"])
        assert (entry["version"], entry["hash"]) == (table.version, table.head_hash)
    second = client.get("/v1/ledger?after=1&limit=1").get_json()
    assert second["entries"] == page["entries"][1:2] and second["next_after"] == 2
    # Recording again changes nothing: a game joins the ledger once.
    again = platform.handler.record_finished(platform.handler.load(ended[0]))
    assert again == page["entries"][0] and len(platform.ledger.page()) == 3
    # An entry edited after the fact breaks the chain from there.
    tampered = [dict(e) for e in page["entries"]]
    tampered[1]["version"] += 1
    assert verify_entries(tampered) == "ledger entry 2 does not match its hash"


def test_a_ledger_away_fails_no_move_and_the_projector_records_the_game_once_it_answers(
    platform: Platform, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger is one slot: with its node away, the move that ends a game is appended
    and answered all the same; the projector, which fails on that game (the notice stays
    pending) while the ledger is away, puts it on the ledger once the ledger answers."""
    ended = finished(platform, 5)

    def away(*args: object, **kwargs: object) -> None:
        raise redis.ConnectionError("the ledger's node is away")

    monkeypatch.setattr(platform.ledger, "_record", away)
    missed = finished(platform, 6)  # every move answered, the last one included
    table = platform.handler.load(missed)
    assert table.status == "finished" and platform.ledger.of(missed) is None
    with pytest.raises(LedgerUnavailable):
        Projector(platform).apply(missed)
    monkeypatch.undo()
    Projector(platform).apply(missed)
    entries = platform.ledger.page()
    assert [e["game"] for e in entries] == [ended, missed] and verify_entries(entries) is None
    assert (entries[1]["version"], entries[1]["hash"]) == (table.version, table.head_hash)


def test_every_answer_carries_the_head(platform: Platform) -> None:
    client = create_app(platform=platform).test_client()
    created = client.post("/v1/games", json={"kind": "tiny", "players": humans(2)}).get_json()
    token = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    table = platform.handler.load(created["id"])
    assert created["head"] == {"version": table.version, "hash": table.head_hash}
    acted = client.post(
        f"/v1/games/{created['id']}/actions",
        headers=token,
        json={"action": {"type": "draw"}, "expected_version": table.version},
    ).get_json()
    last = acted["events"][-1]
    assert acted["head"] == {"version": last["version"], "hash": last["hash"]}
    page = client.get(f"/v1/games/{created['id']}/events").get_json()
    assert page["head"] == acted["head"] == client.get(f"/v1/games/{created['id']}").get_json()["head"]
