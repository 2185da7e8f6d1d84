"""Building the hands (rulebook, "Building the Fortress"): each drawn card placed at the
left or right end of its hand, then, once every hand holds ten cards, one card moved
anywhere or the hand kept. ``place`` also serves the attack phase's Ace draw."""

from __future__ import annotations

import random

from games.base import Action, GameEvent, IllegalAction
from games.fortress_royals import combat
from games.fortress_royals.cards import FORTIFIED
from games.fortress_royals.fields import end_field, need_fields
from games.fortress_royals.state import FORTIFY, REARRANGE, State

PLACES = [{"type": "place", "end": combat.LEFT}, {"type": "place", "end": combat.RIGHT}]


def place(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    if state.pending is None:
        raise IllegalAction("You have no drawn card to place.")
    need_fields(action, "end")
    end = end_field(action, "end")
    events = [GameEvent("CardPlaced", {"seat": seat, "end": end}, seat)]
    if state.phase == FORTIFY:
        following = state.next_seat(seat)
        if len(state.hands[following]) < FORTIFIED:
            events.append(GameEvent("CardDrawn", {"seat": following, "card": state.deck[0]}, following))
        else:
            events.append(GameEvent("DrawsCompleted", {}))
    return events


def finalize(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    if state.phase != REARRANGE:
        raise IllegalAction("You may move one card only once every hand has 10 cards.")
    if action["type"] == "keep":
        need_fields(action)
        return [GameEvent("HandFinalized", {"seat": seat, "move": None}, seat)]
    need_fields(action, "from", "to")
    size = len(state.hands[seat])
    positions = []
    for name in ("from", "to"):
        value = action[name]
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
            raise IllegalAction(f"'{name}' must be a position in your hand, from 0 to {size - 1}.")
        positions.append(value)
    if positions[0] == positions[1]:
        raise IllegalAction('Moving a card to where it already is keeps the hand: send {"type": "keep"}.')
    return [GameEvent("HandFinalized", {"seat": seat, "move": positions}, seat)]
