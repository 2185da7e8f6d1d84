"""The bots see a win when there is one (in the tiny counter game), and the search
copes with simultaneous choices, games that never end, and a caller's deadline."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from games.base import Game, GameBase, GameEvent, IllegalAction
from games.bots import greedy_bot
from games.ismcts import search
from games.play import new_game, step
from tests.tinygame import GAME as TINY_GAME

TINY = cast(Game, TINY_GAME)

ADD_TWO = {"type": "add", "amount": 2}
DRAW = {"type": "draw"}


def test_greedy_takes_the_winning_move() -> None:
    # Given the counter at 8, when seat 0 chooses, then it adds 2 and reaches 10.
    play = new_game(TINY, 2, {"start": 8}, random.Random(1))
    for seed in range(20):
        assert greedy_bot(TINY, play.state, 0, random.Random(seed)) == ADD_TWO


def test_ismcts_takes_the_winning_move() -> None:
    play = new_game(TINY, 2, {"start": 8}, random.Random(1))
    for seed in range(5):
        assert search(TINY, play.state, 0, random.Random(seed), iterations=50) == ADD_TWO


def test_ismcts_draws_rather_than_hand_the_opponent_the_win() -> None:
    # Given the counter at 7 and three cards in the deck, adding 1 or 2 lets the other
    # seat reach 10; drawing leaves it the same choice with one card fewer, and an odd
    # number of cards means the other seat runs out of draws first.
    play = new_game(TINY, 2, {"start": 7}, random.Random(1))
    step(TINY, play, 0, DRAW, random.Random(1))
    assert play.state.deck and len(play.state.deck) == 3
    for seed in range(5):
        assert search(TINY, play.state, 1, random.Random(seed), iterations=200) == DRAW


def test_ismcts_stops_when_the_deadline_says_so() -> None:
    play = new_game(TINY, 2, {"start": 5}, random.Random(1))
    asked = []

    def deadline() -> bool:
        asked.append(1)
        return len(asked) > 3

    action = search(TINY, play.state, 0, random.Random(1), iterations=10_000, deadline=deadline)
    assert action in TINY.legal_actions(play.state, 0)
    assert len(asked) == 4


@dataclass(frozen=True)
class Rounds:
    """Both seats pick a number at once; the higher scores. Nothing ever ends it."""

    picks: tuple[int | None, int | None] = (None, None)
    points: tuple[int, int] = (0, 0)


class EndlessPicks(GameBase):
    key = "endless-picks"
    title = "Endless picks"
    summary = "Pick 1 to 3 at the same time as the other seat, for ever."
    min_players = 2
    max_players = 2

    def setup(self, options: Mapping[str, Any], players: int, rng: random.Random) -> list[GameEvent]:
        return [GameEvent("Started")]

    def evolve(self, state: Rounds | None, event: GameEvent) -> Rounds:
        if event.type == "Started" or state is None:
            return Rounds()
        picks = list(state.picks)
        picks[event.seat] = event.data["number"]  # type: ignore[index]
        if None in picks:
            return replace(state, picks=(picks[0], picks[1]))
        first, second = picks
        assert first is not None and second is not None
        points = (state.points[0] + (first > second), state.points[1] + (second > first))
        return Rounds((None, None), points)

    def to_act(self, state: Rounds) -> frozenset[int]:
        return frozenset(seat for seat in (0, 1) if state.picks[seat] is None)

    def legal_actions(self, state: Rounds, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "pick", "number": number} for number in (1, 2, 3)]

    def decide(self, state: Rounds, seat: int, action: dict[str, Any], rng: random.Random) -> list[GameEvent]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("Pick 1, 2 or 3, once a round.")
        return [GameEvent("Picked", {"number": action["number"]}, seat)]

    def outcome(self, state: Rounds) -> None:
        return None

    def evaluate(self, state: Rounds, seat: int) -> float:
        total = sum(state.points)
        return 0.5 if total == 0 else state.points[seat] / total

    def determinize(self, state: Rounds, seat: int, rng: random.Random) -> Rounds:
        return state


def test_ismcts_handles_simultaneous_seats_and_a_game_without_end() -> None:
    game = cast(Game, EndlessPicks())
    play = new_game(game, 2, None, random.Random(1))
    assert game.to_act(play.state) == {0, 1}
    for seat in (1, 0):
        action = search(game, play.state, seat, random.Random(seat), iterations=200)
        assert action == {"type": "pick", "number": 3}
        step(game, play, seat, action, random.Random(1))
