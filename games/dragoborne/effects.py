"""Card effects, interpreted from the card data: the builder every decision uses, the queue
of pending steps, triggers, drawing, destroying creatures and the effects themselves."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from games.base import EventBuilder, evolve_by_type
from games.dragoborne.cards import Ability, card_of
from games.dragoborne.evolve import EVOLVE
from games.dragoborne.state import Pending, State, remaining_edr

DIE_FACES = 6


class Builder(EventBuilder):
    """The events of one decision, each folded as it is emitted."""

    def __init__(self, state: State) -> None:
        super().__init__(state, partial(evolve_by_type, EVOLVE))


def ability_items(seat: int, source: str, number: int, ability: Ability) -> list[Pending]:
    return [Pending("effect", seat, source, f"a{number}", j) for j in range(len(ability.effects))]


def triggers(rules: int, seat: int, source: str, trigger: str) -> list[Pending]:
    card = card_of(source, rules)
    items: list[Pending] = []
    for number in card.triggers(trigger):
        items += ability_items(seat, source, number, card.abilities[number])
    return items


def queue(b: Builder, items: list[Pending]) -> None:
    if items:
        b.emit("EffectsQueued", {"items": [item.as_json() for item in items]})


def draw_cards(b: Builder, seat: int, count: int) -> bool:
    """Draw ``count`` cards; a player who must draw from an empty deck loses."""
    for _ in range(count):
        deck = b.state.sides[seat].deck
        if not deck:
            b.emit(
                "GameEnded",
                {"winners": [1 - seat], "reason": f"seat {seat} had to draw from an empty deck"},
            )
            return False
        b.emit("CardsDrawn", {"seat": seat, "cards": [deck[0]]}, seat)
    return True


def destroy(b: Builder, seat: int, creature_id: str) -> None:
    b.emit("CreatureDestroyed", {"seat": seat, "creature": creature_id}, seat)
    queue(b, triggers(b.state.rules, seat, creature_id, "destroyed"))


def sweep(b: Builder) -> None:
    """Destroy every creature whose EDR dropped below zero and every broken Dragoshield."""
    while True:
        state = b.state
        found = False
        for seat in (state.active, 1 - state.active):
            side = state.sides[seat]
            for creature in side.field:
                if remaining_edr(side, creature, state.rules) < 0:
                    destroy(b, seat, creature.id)
                    found = True
                    break
            if found:
                break
            for index, die in enumerate(side.dice):
                if die.use == "shield" and die.value - die.damage < 0:
                    b.emit("ShieldDestroyed", {"seat": seat, "die": index}, seat)
                    found = True
                    break
            if found:
                break
        if not found:
            return


def apply_effect(b: Builder, item: Pending, target: Any, rng: random.Random) -> None:
    """One effect primitive; a targeted effect without a target does nothing."""
    effect = item.effect(b.state.rules)
    seat, foe = item.seat, 1 - item.seat
    op = effect.op
    if op == "draw":
        draw_cards(b, seat, effect.amount)
        return
    if op == "search":
        _search(b, seat, effect.card_type, effect.colour, rng)
        return
    if target is None:
        return
    if op == "damage":
        b.emit("CreatureDamaged", {"seat": foe, "creature": target, "amount": effect.amount}, foe)
    elif op == "destroy":
        destroy(b, foe, target)
    elif op == "rest":
        b.emit("CreatureRested", {"seat": foe, "creature": target}, foe)
    elif op == "stand":
        b.emit("CreatureStood", {"seat": seat, "creature": target}, seat)
    elif op == "bounce":
        b.emit("CreatureReturned", {"seat": foe, "creature": target}, foe)
    elif op == "barrier":
        deck = b.state.sides[seat].deck
        if deck:
            b.emit("BarrierAdded", {"seat": seat, "fort": target, "card": deck[0]}, seat)
    elif op == "reroll":
        b.emit("DieRerolled", {"seat": seat, "die": target, "value": rng.randint(1, DIE_FACES)}, seat)
    sweep(b)


def _search(b: Builder, seat: int, card_type: str, colour: str, rng: random.Random) -> None:
    deck = b.state.sides[seat].deck
    for card_id in deck:
        card = card_of(card_id, b.state.rules)
        if (not card_type or card.type == card_type) and (not colour or card.colour == colour):
            b.emit("CardSearched", {"seat": seat, "card": card_id}, seat)
            break
    order = list(b.state.sides[seat].deck)
    rng.shuffle(order)
    b.emit("DeckShuffled", {"seat": seat, "deck": order}, seat)
