"""ISMCTS's progressive widening at the root: the search tries the actions its
prior ranks best first and lets more in as the iterations grow, so that a seat with
many actions of nearly equal worth does not choose among them by the noise of a few
simulations each. Fortress-royals' secret move of one card (one "keep" and 90 moves
in a ten-card hand) is the case that asked for it."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

import games.ismcts
from games import registry
from games.base import Action, Game, State
from games.bots import greedy_bot
from games.ismcts import ITERATIONS, WIDEN_POWER, WIDEN_SCALE, Key, action_key, search
from games.play import new_game, step

ROYALS = registry.all_games()["fortress-royals"]


def secret_moves(count: int, seed: str) -> list[tuple[State, int]]:
    """Positions where a fortress-royals seat makes its secret move, from greedy play."""
    found: list[tuple[State, int]] = []
    rng = random.Random(seed)
    while len(found) < count:
        play = new_game(ROYALS, 2, None, rng)
        while ROYALS.outcome(play.state) is None and len(found) < count:
            seat = min(ROYALS.to_act(play.state))
            if play.state.phase == "rearrange":
                found.append((play.state, seat))
            step(ROYALS, play, seat, greedy_bot(ROYALS, play.state, seat, rng), rng)
    return found


def worth(game: Game, state: State, seat: int, action: Action) -> float:
    """The evaluation of ``seat``'s position after ``action``, in one guess at the hidden
    cards: a secret move changes only the seat's own hand, so every move is judged
    against the same other hands."""
    world = game.determinize(state, seat, random.Random("worth"))
    return game.evaluate(game.decision(world, seat, action, random.Random(0)).state, seat)


@pytest.fixture
def widths(monkeypatch: pytest.MonkeyPatch) -> list[frozenset[Key] | None]:
    """The root actions each iteration was allowed to try, in order."""
    seen: list[frozenset[Key] | None] = []
    real_iterate = games.ismcts._iterate

    def iterate(*args: Any) -> None:
        seen.append(args[-1])
        real_iterate(*args)

    monkeypatch.setattr(games.ismcts, "_iterate", iterate)
    return seen


def test_the_root_widens_from_the_best_prior_actions(widths: list[frozenset[Key] | None]) -> None:
    # Given a secret move (91 actions), when the search runs 200 iterations, then the
    # n-th iteration may try only the ceil(WIDEN_SCALE * n ** WIDEN_POWER) actions that
    # the prior ranked best, the set only grows, and the choice is one of the last set.
    state, seat = secret_moves(1, "widen-order")[0]
    legal = ROYALS.legal_actions(state, seat)
    chosen = search(ROYALS, state, seat, random.Random(5), iterations=200)
    assert len(widths) == 200
    sizes = [len(allowed) if allowed is not None else len(legal) for allowed in widths]
    expected = [min(len(legal), max(2, math.ceil(WIDEN_SCALE * n**WIDEN_POWER))) for n in range(1, 201)]
    assert sizes == expected
    assert sizes[-1] < len(legal) // 4, "after 200 iterations most of the 91 actions are still untried"
    grown = [allowed for allowed in widths if allowed is not None]
    assert len(grown) == len(widths), "the prior ranks the root's actions before the first simulation"
    assert all(earlier <= later for earlier, later in zip(grown, grown[1:], strict=False))
    last = widths[-1]
    assert last is not None and (seat, action_key(chosen)) in last


def test_widening_off_tries_every_action(widths: list[frozenset[Key] | None]) -> None:
    state, seat = secret_moves(1, "widen-order")[0]
    search(ROYALS, state, seat, random.Random(5), iterations=50, widen_scale=0)
    assert widths == [None] * 50


def test_the_secret_move_never_brings_the_hand_below_keeping_it() -> None:
    # Given twelve secret moves from greedy games, when the search runs its clockless
    # default budget, then the hand it leaves is worth, by the game's own evaluation,
    # at least what keeping the hand as it is would be: a move that brings a royal
    # nearer an end (what the search did without widening, choosing among 91 actions
    # by a few noisy simulations each) is never chosen.
    budget = ITERATIONS["fortress-royals"]
    for index, (state, seat) in enumerate(secret_moves(12, "widen-keep")):
        chosen = search(ROYALS, state, seat, random.Random(index), iterations=budget)
        kept = worth(ROYALS, state, seat, {"type": "keep"})
        assert worth(ROYALS, state, seat, chosen) >= kept - 1e-9, (index, state.hands[seat], chosen)
