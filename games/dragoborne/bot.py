"""What Dragoborne's bots play by: ``evaluate``, the greedy bot's yardstick of a position
for a seat, from the material each side holds on the table (forts and their barriers,
creatures by their current stats, dice, cards in hand and resources) and what its
standing resources can still pay for; and ``considered``, the actions a bot chooses among.
Only the bots read them; no rule depends on them.
"""

from __future__ import annotations

import math

from games.base import Action
from games.dragoborne.cards import card_of
from games.dragoborne.costs import engine_payment, standing_resources
from games.dragoborne.state import Side, State, stats

ISMCTS_ITERATIONS = 130
"""ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): about
what a 300 ms move ran on the team's two-core box (2026-11-22)."""


def considered(state: State, seat: int, legal: list[Action]) -> list[Action]:
    """The legal actions a bot chooses among (``games.ismcts.considered``): all of them, but
    for a move or switch of a creature that has moved or switched this turn. From rules
    revision 3 a creature may move any number of times a turn, and a bot that valued no move
    above another would move for ever; so a bot moves each creature once a turn, as the
    rules of revisions 1 and 2 did. It reads only what the seat's view shows (``moved``)."""
    moved = {c.id for c in state.sides[seat].field if c.moved}
    if not moved:
        return legal
    return [
        action
        for action in legal
        if not (action["type"] == "move" and action["creature"] in moved)
        and not (action["type"] == "switch" and not moved.isdisjoint(action["creatures"]))
    ]


def _material(state: State, seat: int) -> float:
    side: Side = state.sides[seat]
    standing = side.standing_forts()
    power = 0.0
    for creature in side.field:
        atk, edr = stats(side, creature, state.rules)
        edr = max(edr - creature.damage, 0)  # remaining_edr, from the stats already worked out
        power += 1.0 + atk + edr * 0.8 + (0.0 if creature.rested else 0.3)
    # A die not yet assigned is worth a Dragoshield: its owner can still make it one. Counting
    # it as nothing made ending a turn look better than using the dice.
    shields = sum(1.0 + 0.4 * (d.value - d.damage) for d in side.dice if d.use in ("shield", "free"))
    return (
        6.0 * len(standing)
        + 2.2 * sum(len(pile) for pile in side.forts)
        + power
        + shields
        + 1.0 * (len(side.hand) + len(side.lifted))  # a broken barrier is its owner's card (hand or Fort Burst)
        + 0.8 * len(side.resources)
        + 0.05 * _payable(state, side)
    )


def _payable(state: State, side: Side) -> int:
    """Cards in hand the standing resources could still pay for: a tie-break between ways of
    paying a cost (revision 2), so that the bot keeps the colours its hand needs standing."""
    cards = [card_of(c, state.rules) for c in side.hand]
    resources = standing_resources(side)
    return sum(
        1 for card in cards if card.type != "banner" and engine_payment(resources, card.colour, card.cost) is not None
    )


def evaluate(state: State, seat: int) -> float:
    if state.phase == "over":
        if seat in state.winners:
            return 1.0 / len(state.winners)
        return 0.0
    lead = _material(state, seat) - _material(state, 1 - seat)
    if state.attack is not None and state.pending and state.pending[0].kind == "block":
        lead += 1.5 if state.active == seat else -1.5
    return 0.5 + 0.5 * math.tanh(lead / 25.0)
