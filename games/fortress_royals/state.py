"""The table of Fortress (royals in hand) as the rules, views and bots read it: the phases
of play a round goes through, the frozen ``State`` a game is folded into, and its small
pure accessors (the next seat in this round's direction, a copy with one hand changed).
Hands are tuples read left to right as their owner holds them: index 0 is the left end,
the last index the right end. How each event changes the state lives in ``evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.base import next_seat, replace
from games.fortress_royals.cards import DECK

# Phases of play, in the order a round goes through them.
FIRST_DRAW = "first_draw"  # only inside setup: ties are redrawn before anyone acts
CHOOSE_FIRST = "choose_first"  # the high card (or the round's lowest scorer) names the first player
ARRANGE = "arrange"  # everyone holds two dealt cards and may swap them
FORTIFY = "fortify"  # draws in turn, each placed at an end
REARRANGE = "rearrange"  # everyone may move one card anywhere, or keep the hand
ATTACK = "attack"
OVER = "over"


@dataclass(frozen=True)
class State:
    players: int
    target: int | None
    rounds: int | None
    orders: tuple[tuple[str, ...], ...]
    royals_pair: bool = False  # rules 2: every royal is "rank of 0", so any two royals are equal ranks
    defence_kings_score_captured: bool = True  # rules 1: a King taken from an attacker scores as captured
    phase: str = FIRST_DRAW
    round: int = 0
    direction: int = 1  # +1 clockwise (to the left), -1 counter-clockwise
    even: bool = False  # the two-player Even Round, played on the undealt deck
    first: int | None = None
    opener: int | None = None  # the first player of round 1
    chooser: int | None = None
    turn: int | None = None
    waiting: frozenset[int] = frozenset()
    hands: tuple[tuple[str, ...], ...] = ()
    revealed: frozenset[str] = frozenset()
    pending: str | None = None  # the card the seat to act drew and has not placed yet
    deck: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    captured: tuple[tuple[str, ...], ...] = ()
    taken_in_defence: tuple[tuple[str, ...], ...] = ()  # the royals in ``captured`` that attacked
    set_aside: tuple[str, ...] = DECK  # cards out of the current round (in the box before round 1)
    passes: int = 0  # consecutive passes
    shuffles: int = 0
    hands_shown: bool = False  # after a round's tally, until the next round starts
    first_draws: tuple[tuple[str | None, ...], ...] = ()
    scores: tuple[int, ...] = ()
    round_points: tuple[tuple[int, ...], ...] = ()
    round_end: str | None = None
    winners: tuple[int, ...] = ()
    result: str | None = None

    def copy_with(self, **changes: Any) -> State:
        """A copy with ``changes``: ``dataclasses.replace`` without re-running ``__init__``,
        which folds are too hot for."""
        return replace(self, **changes)

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in this round's direction of play."""
        return next_seat(seat, self.players, self.direction)

    def with_hand(self, seat: int, hand: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        return self.hands[:seat] + (hand,) + self.hands[seat + 1 :]
