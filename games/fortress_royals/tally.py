"""Tallying a round, the end of the game, and who chooses the next first player.

Rulebook, "Tallying a round" and "After a round and end goal".
"""

from __future__ import annotations

from games.fortress_royals.cards import CAPTURED_POINTS, PROTECTED_POINTS, TAKEN_IN_DEFENCE_POINTS
from games.fortress_royals.state import State


def captured_points(state: State, seat: int) -> int:
    """A captured pile's worth. Under rules 2 only royals the seat's own attack beat are
    "captured" in the tally's sense; royals taken from an attacker are "other royals"."""
    if state.defence_kings_score_captured:
        return sum(CAPTURED_POINTS[card] for card in state.captured[seat])
    taken = state.taken_in_defence[seat]
    return sum(CAPTURED_POINTS[card] for card in state.captured[seat] if card not in taken) + sum(
        TAKEN_IN_DEFENCE_POINTS[card] for card in taken
    )


def round_points(state: State) -> list[int]:
    """Each seat's points: its captured royals plus the royals still in its hand."""
    return [
        captured_points(state, seat) + sum(PROTECTED_POINTS[card] for card in state.hands[seat])
        for seat in range(state.players)
    ]


def turn_order(state: State) -> list[int]:
    first = state.first if state.first is not None else 0
    return [(first + index * state.direction) % state.players for index in range(state.players)]


def next_chooser(state: State, points: list[int]) -> int:
    """The round's lowest scorer; among equals, the earliest in the round's turn order."""
    lowest = min(points)
    return next(seat for seat in turn_order(state) if points[seat] == lowest)


def game_result(state: State, scores: list[int]) -> tuple[list[int], str] | None:
    """Winners and a reason once the round just tallied (``state.round``) ends the game."""
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    if state.rounds is not None:
        if state.round < state.rounds:
            return None
        played = "1 round" if state.rounds == 1 else f"{state.rounds} rounds"
        return leaders, f"highest score after {played}"
    assert state.target is not None
    if best < state.target:
        return None
    return leaders, f"reached the target score of {state.target} with {best} points"
