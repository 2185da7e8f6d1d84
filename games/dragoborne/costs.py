"""What things cost and what they may target: resources and dice that pay a cost, and
the legal targets of an effect (rulebook, "Paying costs", "Targets")."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from games.dragoborne.cards import (
    WHITE,
    card_of,
)
from games.dragoborne.state import Pending, Side, State, remaining_edr


@cache
def resource_colour(card_id: str) -> str:
    """A resource pays as its card's colour; cards and banners are printed alike in every revision."""
    return card_of(card_id, 1).colour


def standing_resources(side: Side) -> tuple[str, ...]:
    """The resources of ``side`` that stand, in the order they were placed."""
    rested = side.rested
    if not rested:
        return side.resources
    return tuple([r for r in side.resources if r not in rested])


def payment(side: Side, colour: str | None, cost: int) -> list[str] | None:
    """The resources to rest for ``cost``, at least one of ``colour`` (None: any), or
    None when it cannot be paid. Keeps the rarest colours standing.

    Revision 1 only: the engine chose, and its choice could leave a later card unpayable
    that another choice would have paid; revision 2 lets the player choose
    (``payments``)."""
    paid = engine_payment(standing_resources(side), colour, cost)
    return None if paid is None else list(paid)


@lru_cache(maxsize=16384)
def engine_payment(standing: tuple[str, ...], colour: str | None, cost: int) -> tuple[str, ...] | None:
    """``payment`` for the standing resources ``standing``, in their order: the last one of
    ``colour``, then the others of the commonest colours first (``_ranked``)."""
    if len(standing) < cost:
        return None
    if cost == 0:
        return ()
    ranked = _ranked(standing)
    if colour is None:
        return ranked[:cost]
    chosen = next((r for r in reversed(standing) if resource_colour(r) == colour), None)
    if chosen is None:
        return None
    return (chosen, *[r for r in ranked if r != chosen][: cost - 1])


@lru_cache(maxsize=4096)
def _ranked(standing: tuple[str, ...]) -> tuple[str, ...]:
    """The standing resources, those of the commonest colours first, then by id: the order
    the engine's choice takes them in, worked out once for a hand of resources whatever the
    cost and colour asked."""
    counts = dict(_colour_counts(standing))
    return tuple(sorted(standing, key=lambda r: (-counts[resource_colour(r)], r)))


def payments(side: Side, colour: str | None, cost: int) -> list[list[str]]:
    """Revision 2: every distinct way to pay ``cost``, at least one of ``colour`` (None:
    any), each as the sorted colours of the resources it rests. Two resources of a colour
    pay alike, so payments that rest the same colours leave the same resources payable and
    are offered once; payments that rest different colours leave different ones, and each
    is offered. The engine's revision-1 choice comes first. Empty when nothing pays."""
    return [list(paid) for paid in standing_payments(standing_resources(side), colour, cost)]


@lru_cache(maxsize=16384)
def standing_payments(standing: tuple[str, ...], colour: str | None, cost: int) -> tuple[tuple[str, ...], ...]:
    """``payments`` for the standing resources ``standing``, in their order (which the
    engine's choice depends on): the same few hands of resources come up again and again,
    turn after turn and card after card, so each is worked out once."""
    found = _colour_payments(_colour_counts(standing), colour, cost)
    engine = engine_payment(standing, colour, cost)
    if engine is not None:
        first = tuple(sorted(resource_colour(r) for r in engine))
        found = tuple(sorted(found, key=lambda paid: paid != first))
    return found


@lru_cache(maxsize=4096)
def _colour_counts(standing: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """How many standing resources of each colour, by colour."""
    colours = [resource_colour(r) for r in standing]
    return tuple((colour, colours.count(colour)) for colour in sorted(set(colours)))


@lru_cache(maxsize=4096)
def _colour_payments(counts: tuple[tuple[str, int], ...], colour: str | None, cost: int) -> tuple[tuple[str, ...], ...]:
    """Every multiset of colours, as a sorted tuple, that ``counts`` can rest for ``cost``
    with at least one of ``colour``: it depends on the colours alone, and far fewer mixes of
    colours come up than hands of resources."""
    found: list[tuple[str, ...]] = []

    def extend(index: int, left: int, chosen: tuple[str, ...]) -> None:
        if left == 0:
            if colour is None or colour in chosen:
                found.append(chosen)
            return
        if index == len(counts):
            return
        here, held = counts[index]
        for taken in range(min(held, left), -1, -1):
            extend(index + 1, left - taken, chosen + (here,) * taken)

    extend(0, cost, ())
    return tuple(found)


def resources_for(side: Side, colours: list[str]) -> list[str]:
    """The standing resources a payment named by colour rests: of each colour, the most
    recently placed first (which of two alike pays changes nothing)."""
    up = standing_resources(side)
    paid: list[str] = []
    for colour in colours:
        paid.append(next(r for r in reversed(up) if resource_colour(r) == colour and r not in paid))
    return paid


def dice_for(side: Side, colour: str) -> list[int]:
    """Revision 2: the unassigned dice that may pay a die cost of ``colour``, one per
    distinct colour and value (two such dice are alike), the lowest value first."""
    seen: set[tuple[str, int]] = set()
    out: list[int] = []
    free = [i for i, d in enumerate(side.dice) if d.use == "free" and (colour == WHITE or d.colour == colour)]
    for index in sorted(free, key=lambda i: (side.dice[i].value, i)):
        die = side.dice[index]
        if (die.colour, die.value) not in seen:
            seen.add((die.colour, die.value))
            out.append(index)
    return out


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


def choices(state: State, seat: int, op: str, max_edr: int = 0) -> list[Any]:
    """Legal targets of an effect ``op`` controlled by ``seat``."""
    own = state.sides[seat]
    foe = state.sides[1 - seat]
    if op in ("damage", "bounce"):
        return [c.id for c in foe.field]
    if op == "destroy":
        return [c.id for c in foe.field if remaining_edr(foe, c, state.rules) <= max_edr]
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
    effect = item.effect(state.rules)
    return choices(state, item.seat, effect.op, effect.max_edr)
