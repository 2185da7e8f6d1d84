"""Random play: the shared contract check, then our own invariants over thousands of games
(every card of every deck in exactly one place, the map's limits, every game ends)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.bots import greedy_bot
from games.play import new_game, random_game, step
from games.stomping_grounds import GAME
from games.stomping_grounds.board import REALMS_PER_PLAYER, adjacent_realms
from games.stomping_grounds.cards import deck_ids
from games.stomping_grounds.state import State
from tests.games.contract import check_contract

SHORT = {"turn_limit": 3}


def check_invariants(state: State) -> None:
    for seat, p in enumerate(state.players):
        mine = f"s{seat}-"
        places = [*p.deck, *p.hand, *p.stash, *p.junk, *p.burned, *p.hoard]
        places += [r.card for r in state.realms if r.card.startswith(mine)]
        places += [r.challenge for r in state.realms if r.challenge and r.challenge.startswith(mine)]
        places += [i.card for i in state.stack if i.card and i.card.startswith(mine)]
        assert sorted(places) == sorted(deck_ids(seat, p.deck_key)), f"seat {seat}'s cards are not conserved"
        assert p.dragon is None or p.dragon in state.where, "a dragon is off the map"
        assert 0 <= p.known_bottom <= len(p.deck)
    assert len(state.realms) <= REALMS_PER_PLAYER * state.count
    assert len(state.where) == len(state.realms), "two realms share a space"
    if len(state.realms) > 1:
        assert all(adjacent_realms(state, r.at) for r in state.realms), "a realm is not edge to edge"


def test_contract_short_games() -> None:
    check_contract(GAME, players=[2, 3, 4], games=10, options=SHORT, check_every=3)


def test_contract_full_games() -> None:
    check_contract(GAME, players=[2, 4], games=1, seed=7, check_every=25)


def test_thousands_of_random_games_conserve_cards_and_end() -> None:
    """Random legal play at 2, 3 and 4 seats, with turn limits of 1 to 5 rounds so that games
    stop at every stage: cards are conserved per deck and every game ends, by the rulebook's
    win or by the turn limit (RULINGS.md), never later."""
    rng = random.Random(2024)
    reasons = set()
    for index in range(2000):
        players = 2 + index % 3
        limit = 1 + index % 5
        play = new_game(GAME, players, {"turn_limit": limit}, rng)
        for _ in range(5000):
            if GAME.outcome(play.state) is not None:
                break
            seat = rng.choice(sorted(GAME.to_act(play.state)))
            action = rng.choice(GAME.legal_actions(play.state, seat))
            step(GAME, play, seat, action, rng)
            if index % 10 == 0:
                check_invariants(play.state)
        check_invariants(play.state)
        outcome = GAME.outcome(play.state)
        assert outcome is not None, f"game {index} did not end"
        assert play.state.turn <= limit * players
        reasons.add(outcome["reason"].split(":")[0])
    assert reasons <= {"no cards left in deck, stash and junk", "turn limit"}


def test_full_length_random_games_end_by_the_turn_limit_at_the_latest() -> None:
    for index in range(12):
        play = random_game(GAME, 2 + index % 3, random.Random(index))
        outcome = GAME.outcome(play.state)
        assert outcome is not None
        assert play.state.turn <= GAME.validate_options(None, 2)["turn_limit"] * play.state.count
        check_invariants(play.state)


def test_greedy_dragons_reach_the_rulebook_win() -> None:
    """The rulebook's win (no cards in deck, stash and junk) is reachable in real play."""
    reasons = []
    for index in range(6):
        rng = random.Random(index)
        play = new_game(GAME, 2, None, rng)
        while GAME.outcome(play.state) is None:
            seat = min(GAME.to_act(play.state))
            step(GAME, play, seat, greedy_bot(GAME, play.state, seat, rng), rng)
        check_invariants(play.state)
        reasons.append(GAME.outcome(play.state)["reason"])  # type: ignore[index]
    assert sum(r.startswith("no cards left") for r in reasons) >= 4, reasons


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    moves=st.integers(0, 150),
    junk=st.sampled_from(
        [
            {"type": "play", "card": "s9-nothing-1"},
            {"type": "fly", "to": [99, 99]},
            {"type": "burn", "pile": "deck", "count": 0},
            {"type": "burn", "pile": "hand", "count": 1},
            {"type": "duel", "opponent": 0, "colour": "green"},
            {"type": "attempt", "at": [0, 0]},
            {"type": "pass", "seat": 1},
            {"type": "draw", "count": True},
            {"type": "place_dragon", "at": [0, 0], "extra": 1},
            {"type": "end_phase", "phase": "reclaim"},
        ]
    ),
)
def test_illegal_actions_are_refused_and_append_nothing(seed: int, moves: int, junk: dict) -> None:  # type: ignore[type-arg]
    rng = random.Random(seed)
    play = new_game(GAME, 2 + seed % 3, SHORT, rng)
    for _ in range(moves):
        if GAME.outcome(play.state) is not None:
            break
        seat = rng.choice(sorted(GAME.to_act(play.state)))
        step(GAME, play, seat, rng.choice(GAME.legal_actions(play.state, seat)), rng)
    before = (len(play.events), play.state)
    for seat in range(play.state.count):
        if junk in GAME.legal_actions(play.state, seat):
            continue
        try:
            step(GAME, play, seat, junk, rng)
        except IllegalAction as error:
            assert error.reason
        else:
            raise AssertionError(f"{junk} was accepted")
    assert (len(play.events), play.state) == before
