"""Openings for a seat (docs/verification.md, section 3): while a game is in play, each
event a seat reads carries the salts of the commitments whose values it is shown, so that
its client checks its own cards against the chain as they arrive.

Given a game of every kind in play, as its human seat and a spectator read it, then the
seat is given an opening for every commitment whose value it is shown whole and for no
other, the spectator none; the web client's live chain opens them piece by piece, in any
order; and when the server shows the seat another card than the chain holds, the live
chain stops at that version with the verifiers' own words. (That no opening helps anyone
learn a card hidden from them is the attacker's test: tests/reliability.)"""

from __future__ import annotations

import copy
import json
import random
import subprocess
from typing import Any

import pytest

from service import verifier
from stores.platform import Platform
from tests.verify.conftest import KINDS, NODE_CLI, Case, Games, node, python_verdict
from tests.verify.test_tampering import opening_salt_changed, own_card_changed

Record = dict[str, Any]


def live_states(pieces: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The web client's LiveChain state after each piece it is pushed."""
    done = subprocess.run(
        [node(), str(NODE_CLI), "--live"], input=json.dumps(pieces), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    states = json.loads(done.stdout)
    assert isinstance(states, list) and len(states) == len(pieces)
    return states


def shuffled_pieces(events: list[dict[str, Any]], rng: random.Random) -> list[list[dict[str, Any]]]:
    """The events in pieces of one to five, the pieces in a shuffled order, some twice
    (pages, the stream and action answers overlap and race)."""
    pieces, start = [], 0
    while start < len(events):
        size = rng.randint(1, 5)
        pieces.append(events[start : start + size])
        start += size
    pieces += rng.sample(pieces, len(pieces) // 4)
    rng.shuffle(pieces)
    return pieces


def openings_of(record: Record) -> int:
    return sum(len(event.get("openings", [])) for event in record["events"])


@pytest.mark.parametrize("kind", KINDS)
def test_a_seat_is_given_an_opening_for_each_value_it_is_shown_and_no_other(
    kind: str, games: Games, platform: Platform
) -> None:
    # given: a game in play, its log as the store holds it (every value whole)
    game = games.in_play(kind)
    truth = {e.version: e for e in platform.store.read(game.game_id)}
    seat, spectator = game.seat_record, game.spectator_record
    # then: the seat's openings name exactly the commitments whose values its data shows whole
    expected, given = set(), set()
    for event in seat["events"]:
        full = truth[event["version"]].data
        for path in commitment_places(event.get("sealed")):
            shown, value = verifier.located(event["data"], path)
            whole = verifier.canonical_json(verifier.located(full, path)[1])
            if shown and verifier.canonical_json(value) == whole:
                expected.add((event["version"], json.dumps(path)))
        given |= {(event["version"], json.dumps(o["path"])) for o in event.get("openings", [])}
    assert expected, f"{kind}: the seat was shown none of its hidden values"
    assert given == expected
    # and the spectator none; the finished game's record none (its seed opens everything)
    assert openings_of(spectator) == 0
    assert openings_of(games.finished(kind)) == 0


def commitment_places(sealed: Any, path: tuple[str | int, ...] = ()) -> list[list[str | int]]:
    if verifier.is_commitment(sealed):
        return [list(path)]
    if isinstance(sealed, dict):
        return [p for key, value in sealed.items() for p in commitment_places(value, (*path, key))]
    if isinstance(sealed, list):
        return [p for i, value in enumerate(sealed) for p in commitment_places(value, (*path, i))]
    return []


@pytest.mark.parametrize("kind", KINDS)
def test_the_client_s_live_chain_opens_a_seat_s_values_as_they_arrive(kind: str, games: Games) -> None:
    # given: the seat's events and the spectator's, in overlapping pieces in a random order
    game, rng = games.in_play(kind), random.Random(kind)
    seat, spectator = game.seat_record["events"], game.spectator_record["events"]
    # when: the web client's live chain is pushed them
    seat_states = live_states(shuffled_pieces(seat, rng))
    spectator_states = live_states(shuffled_pieces(spectator, rng))
    # then: the whole chain holds, with every opening checked once, in order; a spectator opens none
    assert seat_states[-1] == {
        "verifiedTo": len(seat),
        "failure": None,
        "unhashed": False,
        "opened": openings_of(game.seat_record),
    }
    assert [s["opened"] for s in seat_states] == sorted(s["opened"] for s in seat_states)
    assert spectator_states[-1] == {"verifiedTo": len(spectator), "failure": None, "unhashed": False, "opened": 0}


@pytest.mark.parametrize("tamper", [own_card_changed, opening_salt_changed])
@pytest.mark.parametrize("kind", KINDS)
def test_the_live_chain_stops_where_the_seat_is_shown_another_value(kind: str, tamper: Any, games: Games) -> None:
    # given: the seat's events with one of its own values (or its salt) not what the chain holds
    case, version, reason = tamper(copy.deepcopy(games.in_play(kind).seat_record))
    assert isinstance(case.record, dict)
    events = case.record["events"]
    # when: the live chain is pushed them as a page at a time
    states = live_states([events[i : i + 10] for i in range(0, len(events), 10)])
    # then: it checked up to the version before, and names it as the verifiers do
    assert states[-1]["verifiedTo"] == version - 1
    assert states[-1]["failure"] == {"version": version, "reason": reason}
    py = python_verdict(Case(case.record))
    assert (py["first_bad_version"], py["reason"]) == (version, reason)
