"""The opening and the main phase (rulebook, "Setup", "Turn sequence"): the mulligan, the
start of a turn (dice rolled, a card drawn), resources, summoning, spells, Dragoshields,
Dragocross, abilities, moving and switching creatures, and the end of a turn."""

from __future__ import annotations

import random
from itertools import combinations

from games.base import Action
from games.dragoborne.cards import (
    CREATURES_PER_FORT,
    FORTS,
    HAND_LIMIT,
    card_of,
)
from games.dragoborne.costs import ability_payable, die_for, has_targets, payment
from games.dragoborne.effects import DIE_FACES, Builder, ability_items, draw_cards, queue, triggers
from games.dragoborne.state import Pending, State


def mulligan_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    if side.mulliganed:
        return []
    hand = side.hand
    return [
        {"type": "mulligan", "cards": list(chosen)}
        for size in range(len(hand) + 1)
        for chosen in combinations(hand, size)
    ]


def main_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    out: list[Action] = []
    open_forts = [f for f in side.standing_forts() if len(side.on_fort(f)) < CREATURES_PER_FORT]
    for card_id in side.hand:
        card = card_of(card_id)
        if payment(side, card.colour, card.cost) is None:
            continue
        if card.type == "creature":
            out.extend({"type": "summon", "card": card_id, "fort": f} for f in open_forts)
        elif card.type == "spell" and has_targets(state, seat, card, card.effects):
            out.append({"type": "cast", "card": card_id})
    banner_colours = [card_of(b).colour for b in side.banners]
    for index, die in enumerate(side.dice):
        if die.use != "free":
            continue
        for fort in side.standing_forts():
            if banner_colours[fort] == die.colour and side.shield_at(fort) is None:
                out.append({"type": "shield", "die": index, "fort": fort})
        for creature in side.field:
            if creature.cross is None:
                out.append({"type": "cross", "die": index, "creature": creature.id})
    for creature in side.field:
        card = card_of(creature.id)
        for number, ability in enumerate(card.abilities):
            if (
                ability.timing == "ACT"
                and ability_payable(side, creature.id, ability)
                and has_targets(state, seat, card, ability.effects)
            ):
                out.append({"type": "activate", "creature": creature.id, "ability": number})
    movable = [c for c in side.field if not c.moved]
    for creature in movable:
        out.extend({"type": "move", "creature": creature.id, "fort": f} for f in open_forts if f != creature.fort)
    for first, second in combinations(movable, 2):
        if first.fort != second.fort:
            out.append({"type": "switch", "creatures": [first.id, second.id]})
    out.append({"type": "combat"})
    out.append({"type": "end_turn"})
    return out


def mulligan(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    side = b.state.sides[seat]
    returned = list(action["cards"])
    deck = list(side.deck)
    if returned:
        deck += returned
        rng.shuffle(deck)
    b.emit(
        "HandMulliganed",
        {"seat": seat, "returned": returned, "deck": deck, "drawn": deck[: len(returned)]},
        seat,
    )
    if all(s.mulliganed for s in b.state.sides):
        for each, other in enumerate(b.state.sides):
            barriers = [list(other.deck[2 * f : 2 * f + 2]) for f in range(FORTS)]
            b.emit("BarriersPlaced", {"seat": each, "forts": barriers}, each)
        start_turn(b, b.state.first, rng)


def start_turn(b: Builder, seat: int, rng: random.Random) -> None:
    """The Start Phase: stand, roll the dice, draw, then the (optional) resource step."""
    turn = b.state.turn + 1
    b.emit("TurnStarted", {"seat": seat, "turn": turn}, seat)
    values = [rng.randint(1, DIE_FACES) for _ in b.state.sides[seat].dice]
    b.emit("DiceRolled", {"seat": seat, "values": values}, seat)
    if not draw_cards(b, seat, 1):
        return
    skips = turn == 1 or not b.state.sides[seat].deck
    b.emit("PhaseChanged", {"phase": "main" if skips else "resource"})


def resource(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("ResourcePlaced", {"seat": seat, "card": b.state.sides[seat].deck[0]}, seat)
    b.emit("PhaseChanged", {"phase": "main"})


def skip_resource(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PhaseChanged", {"phase": "main"})


def summon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id)
    paid = payment(b.state.sides[seat], card.colour, card.cost)
    b.emit("CreatureSummoned", {"seat": seat, "card": card_id, "fort": action["fort"], "paid": paid}, seat)
    queue(b, triggers(seat, card_id, "summoned"))


def cast(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id)
    paid = payment(b.state.sides[seat], card.colour, card.cost)
    b.emit("SpellCast", {"seat": seat, "card": card_id, "paid": paid}, seat)
    queue(b, [Pending("effect", seat, card_id, "spell", j) for j in range(len(card.effects))])


def shield(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "fort": action["fort"]}, seat)


def cross(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "creature": action["creature"]}, seat)


def activate(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    side = b.state.sides[seat]
    number = action["ability"]
    ability = card_of(action["creature"]).abilities[number]
    paid = payment(side, None, ability.resource_cost) if ability.resource_cost else []
    die = die_for(side, ability.die_cost) if ability.die_cost else None
    b.emit(
        "AbilityActivated",
        {
            "seat": seat,
            "creature": action["creature"],
            "ability": number,
            "rest": ability.rest_cost,
            "paid": paid,
            "die": die,
        },
        seat,
    )
    queue(b, ability_items(seat, action["creature"], number, ability))


def move_creature(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CreatureMoved", {"seat": seat, "creature": action["creature"], "fort": action["fort"]}, seat)


def switch(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CreaturesSwitched", {"seat": seat, "creatures": list(action["creatures"])}, seat)


def end_turn(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    if len(b.state.sides[seat].hand) > HAND_LIMIT:
        b.emit("PhaseChanged", {"phase": "discard"})
        return
    finish_turn(b, rng)


def discard(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardDiscarded", {"seat": seat, "card": action["card"]}, seat)
    if len(b.state.sides[seat].hand) <= HAND_LIMIT:
        finish_turn(b, rng)


def finish_turn(b: Builder, rng: random.Random) -> None:
    """The rest of the End Phase: damage cleared, then a player without forts loses."""
    b.emit("DamageCleared", {})
    fallen = [seat for seat, side in enumerate(b.state.sides) if not side.standing_forts()]
    if fallen:
        winners = [seat for seat in range(len(b.state.sides)) if seat not in fallen]
        b.emit(
            "GameEnded",
            {
                "winners": winners,
                "reason": "all forts of seat " + " and ".join(map(str, fallen)) + " were destroyed",
            },
        )
        return
    start_turn(b, 1 - b.state.active, rng)
