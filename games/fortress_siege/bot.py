"""What Fortress's bots play by: ``evaluate``, the greedy bot's yardstick of a position for
a seat, its share of the table's strength (Fortress cards, hand, and armed characters
weighed by their armor left and power). Only the bots read it; no rule depends on it.
"""

from __future__ import annotations

from games.fortress_siege.state import Player, State

ISMCTS_ITERATIONS = 642
"""ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): about
what a 300 ms move ran on the team's two-core box (2026-11-22)."""


def evaluate(state: State, seat: int) -> float:
    """Share of the table's strength: Fortress cards, hand, and armed characters."""
    if state.over:
        return 1.0 if state.players[seat].in_game else 0.0
    strengths = [_strength(player) for player in state.players]
    total = sum(strengths)
    return strengths[seat] / total if total else 0.5


def _strength(player: Player) -> float:
    if not player.in_game:
        return 0.0
    field = sum(3.0 + 0.4 * character.armor_left + 0.4 * character.power for character in player.battlefield)
    return len(player.fortress) + 0.5 * len(player.hand) + field
