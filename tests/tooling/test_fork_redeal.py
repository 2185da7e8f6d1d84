"""A fork of a game in play re-deals what its seat could not see, and that re-deal is
recorded like a deal: its draws come from the fork's seed under the labels v1/0, v1/1,
... (the fork's first command), are committed in ForkedFrom, and the audit deals the
fork again from its seed with the rules and compares (docs/verification.md, section 5).

Attacks as an operator holding the fork's seed would make them: deal the fork from
other draws and record those, or record no draws at all, with every seal, hash and the
head recomputed."""

from __future__ import annotations

import random
from typing import Any

from core.tooling import audit_game, export_lines
from events.envelope import GENESIS_HASH, NewEvent, chain
from games.codec import decode, encode
from games.rng import Draws, derive_rng
from projections.views import sealed_data
from service import verifier
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from tests.tooling.test_anchors import elsewhere, replace_log


def fork_in_play(platform: Platform, seed: int = 1) -> tuple[str, str]:
    """``(parent, fork)``: a tiny game part-played, forked by seat 0 at its last version."""
    table = play(platform, platform.handler.create_game("tiny", humans(2)).table, random.Random(seed), 3)
    assert table.status == "active"
    fork = platform.handler.fork(table.game_id, table.version, 0)
    return table.game_id, fork.table.game_id


def forged(platform: Platform, game_id: str, first_data: dict[str, Any]) -> list[str]:
    """The fork's log with ForkedFrom's data replaced, sealed with the fork's seed and every
    hash after it recomputed, as the operator could write it."""
    envelopes = platform.store.read(game_id)
    game = platform.handler.load(game_id).game
    seed = platform.vault.seed(game_id)
    assert seed is not None
    prev, out = GENESIS_HASH, []
    for e in envelopes:
        data = first_data if e.version == 1 else e.data
        sealed = sealed_data(game, e.type, e.seat, data, seed, e.version)
        (event,) = chain([NewEvent(e.type, data, e.seat, e.actor, sealed)], e.version, prev, e.at, e.command_id)
        out.append(event.encode())
        prev = event.hash
    return out


def test_a_fork_records_its_re_deal_and_its_audit_deals_it_again(platform: Platform) -> None:
    _, fork_id = fork_in_play(platform)
    first = platform.store.read(fork_id)[0]
    assert [draw["label"] for draw in first.data["draws"]] == [f"v1/{k}" for k in range(len(first.data["draws"]))]
    report = audit_game(elsewhere(platform), fork_id)
    assert report.ok, report.as_json()
    assert report.checks["fork"].startswith("ok"), report.checks
    assert "re-deal draws re-derive" in report.checks["deal"], report.checks


def test_a_fork_dealt_from_other_draws_fails_at_version_1(platform: Platform) -> None:
    # The operator deals the fork from a generator of its own choosing and records its
    # draws honestly as the draws it made: the labels are right, the results are not the
    # seed's, and both the audit and the standalone verifier say so.
    parent, fork_id = fork_in_play(platform, 2)
    first = platform.store.read(fork_id)[0]
    past = platform.tables.at(parent, first.data["version"])
    assert past is not None
    # The fork's own seed is random: a deal of five unseen cards matches another seed's one
    # time in 120, so the operator's generator is the first of a few that deals other cards.
    for attempt in range(10):
        other = Draws(f"not the fork's seed {attempt}", "v1")
        state = past.game.determinize(past.state, 0, other)
        if state != decode(first.data["state"]):
            break
    else:
        raise AssertionError("ten other seeds dealt the fork's own cards")
    data = {**first.data, "state": encode(state), "draws": other.draws}
    replace_log(platform, fork_id, forged(platform, fork_id, data))
    report = audit_game(elsewhere(platform), fork_id)
    assert not report.ok and report.first_bad_version == 1, report.as_json()
    assert report.reason == "the fork's draw v1/0 is not what the seed gives", report.as_json()
    record = export_record(platform, fork_id)
    verdict = verifier.verify(record)
    assert (verdict.ok, verdict.first_bad_version) == (False, 1), verdict
    assert verdict.reason == "shuffle v1/0 is not what the seed gives", verdict


def test_a_fork_re_dealt_with_no_draws_recorded_fails_the_audit(platform: Platform) -> None:
    # With no draws recorded, no verifier without the rules can tell the re-deal from any
    # other; the audit deals the fork again from its seed and finds other cards.
    parent, fork_id = fork_in_play(platform, 3)
    first = platform.store.read(fork_id)[0]
    past = platform.tables.at(parent, first.data["version"])
    assert past is not None
    # A fork that records no draws is audited as one made before draws were recorded: dealt
    # again by recipe 1's generator. The operator's deal differs from that one and from the
    # recorded one (the tiny game hides few cards: a first choice may be either by chance).
    seed = platform.vault.seed(fork_id)
    recipe_1 = past.game.determinize(past.state, 0, derive_rng(seed, 0, recipe=1))
    choices = (past.game.determinize(past.state, 0, random.Random(f"the operator's choice {i}")) for i in range(100))
    state = next(s for s in choices if s not in (recipe_1, decode(first.data["state"])))
    data = {key: value for key, value in first.data.items() if key != "draws"}
    replace_log(platform, fork_id, forged(platform, fork_id, {**data, "state": encode(state)}))
    report = audit_game(elsewhere(platform), fork_id)
    assert not report.ok and report.first_bad_version == 1, report.as_json()
    assert report.reason == "the fork's re-dealt cards are not the ones its seed deals", report.as_json()


def test_a_fork_s_honest_re_deal_still_passes_once_rewritten_the_same(platform: Platform) -> None:
    # The forging helper itself changes nothing when handed the recorded data: the two
    # failures above come from the changed deal, not from the rewrite.
    _, fork_id = fork_in_play(platform, 4)
    first = platform.store.read(fork_id)[0]
    replace_log(platform, fork_id, forged(platform, fork_id, dict(first.data)))
    report = audit_game(elsewhere(platform), fork_id)
    assert report.ok, report.as_json()
    assert verifier.verify(export_record(platform, fork_id)).ok


def export_record(platform: Platform, game_id: str) -> verifier.Record:
    """The operator's export of the fork (with its seed: it is in play), for the verifier."""
    return verifier.parse_record("\n".join(export_lines(elsewhere(platform), game_id)))
