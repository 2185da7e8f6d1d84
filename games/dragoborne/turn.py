"""The opening and the main phase (rulebook, "Setup", "Turn sequence"): the mulligan, the
start of a turn (dice rolled, a card drawn), resources, summoning, spells, Dragoshields,
Dragocross, abilities, moving and switching creatures, and the end of a turn."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from games.base import Action
from games.dragoborne.cards import (
    CREATURES_PER_FORT,
    FORTS,
    HAND_LIMIT,
    Ability,
    card_of,
)
from games.dragoborne.costs import ability_payable, dice_for, die_for, has_targets, payment, payments, resources_for
from games.dragoborne.effects import DIE_FACES, Builder, ability_items, draw_cards, queue, triggers
from games.dragoborne.state import Creature, Pending, State


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


def _paying(state: State, seat: int, colour: str | None, cost: int) -> list[dict[str, Any]]:
    """The payment fields an action carries: revision 1, none (the engine chose); from
    revision 2, ``pay`` (the colours rested), once per distinct payment."""
    side = state.sides[seat]
    if state.rules < 2:
        return [] if payment(side, colour, cost) is None else [{}]
    return [{"pay": paid} for paid in payments(side, colour, cost)]


def _ability_costs(state: State, seat: int, ability: Ability) -> list[dict[str, Any]]:
    """The cost fields of an [ACT] activation: from revision 2, the resources (``pay``) and
    the die (``die``) it spends are the player's choice; revision 1 chose for the player."""
    if state.rules < 2:
        return [{}]
    side = state.sides[seat]
    options: list[dict[str, Any]] = [{}]
    if ability.resource_cost:
        options = [{"pay": paid} for paid in payments(side, None, ability.resource_cost)]
    if ability.die_cost:
        options = [dict(o, die=die) for o in options for die in dice_for(side, ability.die_cost)]
    return options


def _switchable(state: State, seat: int, first: Creature, second: Creature) -> bool:
    """Two creatures on different forts trade places; from revision 2 only between forts
    that stand, as a move or a summon only goes onto a standing fort."""
    if first.fort == second.fort:
        return False
    forts = state.sides[seat].forts
    return state.rules < 2 or bool(forts[first.fort] and forts[second.fort])


def shield_forts(state: State, seat: int, die: int) -> list[int]:
    """The forts before which ``seat``'s free die ``die`` may stand as a Dragoshield: a
    standing fort of its owner's without one ("the Dragoshield" defends it, so one a fort);
    under ``shields_follow_banners`` only one whose banner has the die's colour."""
    side = state.sides[seat]
    colour = side.dice[die].colour
    return [
        fort
        for fort in side.standing_forts()
        if side.shield_at(fort) is None
        and (not state.shields_follow_banners or card_of(side.banners[fort], state.rules).colour == colour)
    ]


def movable(state: State, seat: int) -> list[Creature]:
    """The creatures of ``seat`` that may move or switch: all of them from revision 3 (the
    Main Phase sets no limit); under revisions 1 and 2 those that have not this turn."""
    field = state.sides[seat].field
    return [c for c in field if not c.moved] if state.moves_once_a_turn else list(field)


def main_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    out: list[Action] = []
    open_forts = [f for f in side.standing_forts() if len(side.on_fort(f)) < CREATURES_PER_FORT]
    paying_for: dict[tuple[str | None, int], list[dict[str, Any]]] = {}  # cards of one colour and cost pay alike
    for card_id in side.hand:
        card = card_of(card_id, state.rules)
        paying = paying_for.get((card.colour, card.cost))
        if paying is None:
            paying = paying_for[card.colour, card.cost] = _paying(state, seat, card.colour, card.cost)
        if card.type == "creature":
            out.extend({"type": "summon", "card": card_id, "fort": f, **pay} for f in open_forts for pay in paying)
        elif card.type == "spell" and paying and has_targets(state, seat, card, card.effects):
            out.extend({"type": "cast", "card": card_id, **pay} for pay in paying)
    for index, die in enumerate(side.dice):
        if die.use != "free":
            continue
        out.extend({"type": "shield", "die": index, "fort": fort} for fort in shield_forts(state, seat, index))
        for creature in side.field:
            if creature.cross is None:
                out.append({"type": "cross", "die": index, "creature": creature.id})
    for creature in side.field:
        card = card_of(creature.id, state.rules)
        for number, ability in enumerate(card.abilities):
            if (
                ability.timing == "ACT"
                and ability_payable(side, creature.id, ability)
                and has_targets(state, seat, card, ability.effects)
            ):
                out.extend(
                    {"type": "activate", "creature": creature.id, "ability": number, **costs}
                    for costs in _ability_costs(state, seat, ability)
                )
    may_move = movable(state, seat)
    for creature in may_move:
        out.extend({"type": "move", "creature": creature.id, "fort": f} for f in open_forts if f != creature.fort)
    for first, second in combinations(may_move, 2):
        if _switchable(state, seat, first, second):
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


def _paid(b: Builder, seat: int, action: Action, colour: str | None, cost: int) -> list[str] | None:
    """The resources an action rests: named by the player from revision 2, else the engine's."""
    side = b.state.sides[seat]
    if b.state.rules >= 2:
        return resources_for(side, list(action.get("pay", [])))
    return payment(side, colour, cost)


def summon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id, b.state.rules)
    paid = _paid(b, seat, action, card.colour, card.cost)
    b.emit("CreatureSummoned", {"seat": seat, "card": card_id, "fort": action["fort"], "paid": paid}, seat)
    queue(b, triggers(b.state.rules, seat, card_id, "summoned"))


def cast(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id, b.state.rules)
    paid = _paid(b, seat, action, card.colour, card.cost)
    b.emit("SpellCast", {"seat": seat, "card": card_id, "paid": paid}, seat)
    queue(b, [Pending("effect", seat, card_id, "spell", j) for j in range(len(card.effects))])


def shield(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "fort": action["fort"]}, seat)


def cross(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "creature": action["creature"]}, seat)


def activate(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    side = b.state.sides[seat]
    number = action["ability"]
    ability = card_of(action["creature"], b.state.rules).abilities[number]
    paid = _paid(b, seat, action, None, ability.resource_cost) if ability.resource_cost else []
    engine_die = die_for(side, ability.die_cost) if ability.die_cost else None
    die = action.get("die") if b.state.rules >= 2 else engine_die
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
