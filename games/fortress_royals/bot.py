"""What Fortress (royals in hand)'s bots play by: ``evaluate``, the greedy bot's yardstick
of a position for a seat, from the scores so far plus what the seat holds this round
(royals captured, royals in hand weighed by how deep they sit, cards in hand). Only the
bots read it; no rule depends on it.
"""

from __future__ import annotations

import math

from games.fortress_royals import tally
from games.fortress_royals.cards import PROTECTED_POINTS, ROYAL
from games.fortress_royals.state import OVER, State

ISMCTS_ITERATIONS = 627
"""ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): about
what a 300 ms move ran on the team's two-core box (2026-11-22)."""


def evaluate(state: State, seat: int) -> float:
    if state.phase == OVER:
        return 1.0 / len(state.winners) if seat in state.winners else 0.0
    projected = [state.scores[owner] + _round_prospect(state, owner) for owner in range(state.players)]
    best_other = max(projected[owner] for owner in range(state.players) if owner != seat)
    return 0.5 + 0.5 * math.tanh((projected[seat] - best_other) / 8.0)


def _round_prospect(state: State, seat: int) -> float:
    """Points the seat holds this round: captured royals in full, royals in hand
    discounted by how close they sit to an end, plus a little for cards in hand."""
    gained: float = tally.captured_points(state, seat)
    hand = state.hands[seat]
    depth_scale = max(1.0, len(hand) / 2.0)
    for index, card in enumerate(hand):
        if ROYAL[card]:
            depth = min(index, len(hand) - 1 - index)
            gained += PROTECTED_POINTS[card] * (0.4 + 0.6 * min(1.0, depth / depth_scale))
    return gained + 0.1 * len(hand)
