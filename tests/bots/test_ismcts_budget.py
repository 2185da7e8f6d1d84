"""ISMCTS's budget: a time on a clock the caller hands in, checked before
every iteration; without a clock, a fixed number of iterations and the same choice
for the same rng. The clocks here are fake (a counter), so nothing is timed."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any, cast

import pytest

import games.ismcts
from games import registry
from games.base import Game
from games.bots import choose
from games.ismcts import DEFAULT_ITERATIONS, search
from games.play import new_game
from tests.bots.positions import game_kinds, positions
from tests.tinygame import GAME as TINY_GAME

TINY = cast(Game, TINY_GAME)
ADD_TWO = {"type": "add", "amount": 2}


def ticking(step: float) -> Callable[[], float]:
    """A clock that moves on by ``step`` seconds each time it is read."""
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


@pytest.fixture
def iterations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    counted: list[int] = []
    real_iterate = games.ismcts._iterate

    def iterate(*args: Any, **kwargs: Any) -> None:
        counted.append(1)
        real_iterate(*args, **kwargs)

    monkeypatch.setattr(games.ismcts, "_iterate", iterate)
    return counted


def test_the_clock_budget_stops_the_search_at_the_first_check_past_it(iterations: list[int]) -> None:
    # Given a clock read once at the start and once before each iteration, one second a read,
    # when the budget is 5 s, then the reads at 1, 2, 3 and 4 s let an iteration run and the
    # one at 5 s stops the search: a move overshoots its budget by at most one iteration.
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    action = search(TINY, play.state, 0, random.Random(1), clock=ticking(1.0), seconds=5.0)
    assert action in TINY.legal_actions(play.state, 0)
    assert len(iterations) == 4


def test_with_a_clock_the_time_is_the_budget_not_the_iteration_count(iterations: list[int]) -> None:
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    tick = 1 / 1024  # a power of two: the fake clock adds up exactly
    search(TINY, play.state, 0, random.Random(1), clock=ticking(tick), seconds=900 * tick)
    assert len(iterations) == 899 > DEFAULT_ITERATIONS


def test_without_a_clock_the_search_runs_its_fixed_count(iterations: list[int]) -> None:
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    search(TINY, play.state, 0, random.Random(1))
    assert len(iterations) == DEFAULT_ITERATIONS
    iterations.clear()
    search(TINY, play.state, 0, random.Random(1), iterations=37)
    assert len(iterations) == 37


def test_the_deadline_stops_a_search_on_the_clock_too(iterations: list[int]) -> None:
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    reads = []

    def deadline() -> bool:
        reads.append(1)
        return len(reads) > 2

    search(TINY, play.state, 0, random.Random(1), clock=ticking(0.001), seconds=60.0, deadline=deadline)
    assert len(iterations) == 2


def test_choose_hands_the_clock_to_the_search(iterations: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    # Given the worker's call with a clock, then the search runs for MOVE_SECONDS on it.
    monkeypatch.setattr(games.ismcts, "MOVE_SECONDS", 0.25)
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    choose("ismcts", TINY, play.state, 0, random.Random(1), clock=ticking(1 / 32))
    assert len(iterations) == 7
    iterations.clear()
    choose("ismcts", TINY, play.state, 0, random.Random(1), deadline=lambda: False)
    assert len(iterations) == DEFAULT_ITERATIONS, "a deadline alone keeps the fixed count"


def test_one_iteration_already_plays_what_the_evaluation_prefers() -> None:
    # The root's prior (the greedy look, as virtual visits) is there before any simulation:
    # given the counter at 8, the win (adding 2) is chosen after a single iteration.
    play = new_game(TINY, 2, {"start": 8}, random.Random(1))
    for seed in range(5):
        assert search(TINY, play.state, 0, random.Random(seed), iterations=1) == ADD_TWO


@pytest.mark.parametrize("kind", game_kinds())
def test_a_fixed_iteration_count_gives_the_same_choice_for_the_same_rng(kind: str) -> None:
    game = registry.all_games()[kind]
    for index, (state, seat) in enumerate(positions(game, 4, f"determinism-{kind}")):
        first = search(game, state, seat, random.Random(index), iterations=30)
        again = search(game, state, seat, random.Random(index), iterations=30)
        assert first == again


@pytest.mark.parametrize("kind", game_kinds())
def test_on_a_clock_the_choice_does_not_depend_on_the_other_seats_hidden_cards(kind: str) -> None:
    # Given a position and the same position with every card the seat cannot see re-dealt,
    # when the search runs on the same (fake) clock and rng, then it chooses the same action.
    game = registry.all_games()[kind]
    bot = partial(search, seconds=0.03)
    for index, (state, seat) in enumerate(positions(game, 4, f"clock-swap-{kind}")):
        swapped = game.determinize(state, seat, random.Random(f"clock-swap-{index}"))
        chosen = bot(game, state, seat, random.Random(index), clock=ticking(0.001))
        chosen_when_swapped = bot(game, swapped, seat, random.Random(index), clock=ticking(0.001))
        assert chosen == chosen_when_swapped
