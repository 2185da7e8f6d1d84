"""What things cost and what they may target: resources and dice that pay a cost, and
the legal targets of an effect (rulebook, "Paying costs", "Targets")."""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.dragoborne.cards import (
    WHITE,
    Ability,
    Card,
    card_of,
)
from games.dragoborne.state import Pending, Side, State, remaining_edr


def resource_colour(card_id: str) -> str:
    return card_of(card_id).colour


def payment(side: Side, colour: str | None, cost: int) -> list[str] | None:
    """The resources to rest for ``cost``, at least one of ``colour`` (None: any), or
    None when it cannot be paid. Keeps the rarest colours standing."""
    standing = [r for r in side.resources if r not in side.rested]
    if len(standing) < cost:
        return None
    if cost == 0:
        return []
    counts = Counter(resource_colour(r) for r in standing)
    chosen: list[str] = []
    if colour is not None:
        matching = [r for r in standing if resource_colour(r) == colour]
        if not matching:
            return None
        chosen.append(matching[-1])
    others = sorted((r for r in standing if r not in chosen), key=lambda r: (-counts[resource_colour(r)], r))
    return chosen + others[: cost - len(chosen)]


def die_for(side: Side, colour: str) -> int | None:
    """The unassigned die that pays a die cost: the lowest matching one."""
    best: int | None = None
    for index, die in enumerate(side.dice):
        if (
            die.use == "free"
            and (colour == WHITE or die.colour == colour)
            and (best is None or die.value < side.dice[best].value)
        ):
            best = index
    return best


def ability_payable(side: Side, creature_id: str, ability: Ability) -> bool:
    creature = side.creature(creature_id)
    if creature is None or (ability.rest_cost and creature.rested):
        return False
    if ability.resource_cost and payment(side, None, ability.resource_cost) is None:
        return False
    return not (ability.die_cost and die_for(side, ability.die_cost) is None)


def choices(state: State, seat: int, op: str, max_edr: int = 0) -> list[Any]:
    """Legal targets of an effect ``op`` controlled by ``seat``."""
    own = state.sides[seat]
    foe = state.sides[1 - seat]
    if op in ("damage", "bounce"):
        return [c.id for c in foe.field]
    if op == "destroy":
        return [c.id for c in foe.field if remaining_edr(foe, c) <= max_edr]
    if op == "rest":
        return [c.id for c in foe.field if not c.rested]
    if op == "stand":
        return [c.id for c in own.field if c.rested]
    if op == "barrier":
        return own.standing_forts()
    if op == "reroll":
        return [i for i, d in enumerate(own.dice) if d.use == "free"]
    return [None]


def item_choices(state: State, item: Pending) -> list[Any]:
    effect = item.effect
    return choices(state, item.seat, effect.op, effect.max_edr)


def has_targets(state: State, seat: int, card: Card, effects: Any) -> bool:
    return all(not e.targeted or choices(state, seat, e.op, e.max_edr) for e in effects)
