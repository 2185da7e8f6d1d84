"""The start of a round (rulebook, "Setup" and "Building the Fortress"): the first
player chosen, the deck shuffled (or, in a two-player Even Round, kept), two cards dealt
to each, and each player's choice to keep or swap their two dealt cards."""

from __future__ import annotations

import random

from games.base import Action, GameEvent, IllegalAction, seats_from
from games.fortress_royals.cards import DEALT, DECK
from games.fortress_royals.fields import need_fields, seat_field
from games.fortress_royals.state import ARRANGE, CHOOSE_FIRST, State

ARRANGES = [{"type": "keep_dealt"}, {"type": "swap_dealt"}]


def shuffled_deck(rng: random.Random) -> list[str]:
    cards = list(DECK)
    rng.shuffle(cards)
    return cards


def choose_first(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    if state.phase != CHOOSE_FIRST:
        raise IllegalAction("The first player is chosen only before a round.")
    need_fields(action, "seat")
    first = seat_field(action, "seat", state.players)
    number = state.round + 1
    even = state.players == 2 and number % 2 == 0
    events = [
        GameEvent("FirstPlayerChosen", {"by": seat, "seat": first}, seat),
        GameEvent("RoundStarted", {"round": number, "direction": 1 if number % 2 else -1, "even": even}),
    ]
    if even:
        deck = list(state.deck)
    else:
        if state.orders:
            deck = list(state.orders[min(state.shuffles + 1, len(state.orders) - 1)])
        else:
            deck = shuffled_deck(rng)
        events.append(GameEvent("DeckShuffled", {"deck": deck}))
    direction = 1 if number % 2 else -1
    order = seats_from(first, state.players, direction)
    for place, dealt_to in enumerate(order):
        cards = [deck[place + index * state.players] for index in range(DEALT)]
        events.append(GameEvent("CardsDealt", {"seat": dealt_to, "cards": cards}))
    return events


def arrange(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    if state.phase != ARRANGE:
        raise IllegalAction("The two dealt cards are arranged only before the first draw.")
    need_fields(action)
    swapped = action["type"] == "swap_dealt"
    events = [GameEvent("DealtCardsArranged", {"seat": seat, "swapped": swapped}, seat)]
    if state.waiting == {seat}:
        first = state.first if state.first is not None else 0
        events.append(GameEvent("CardDrawn", {"seat": first, "card": state.deck[0]}, first))
    return events
