"""The opening and the main phase (rulebook, "Setup", "Turn sequence"): the mulligan, the
start of a turn (dice rolled, a card drawn), resources, summoning, spells, Dragoshields,
Dragocross, abilities, moving and switching creatures, and the end of a turn."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import lru_cache
from itertools import combinations
from operator import is_
from typing import Any

from games.base import Action
from games.dragoborne.cards import (
    CREATURES_PER_FORT,
    FORTS,
    HAND_LIMIT,
    TARGETED,
    Ability,
    Effect,
    card_of,
)
from games.dragoborne.costs import (
    choices,
    dice_for,
    die_for,
    engine_payment,
    payment,
    resources_for,
    standing_payments,
    standing_resources,
)
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


def _paying(rules: int, standing: tuple[str, ...], colour: str | None, cost: int) -> list[list[str] | None]:
    """The payments an action may carry, from the standing resources ``standing``: revision 1,
    one without ``pay`` (None: the engine chose) when the cost can be paid; from revision 2,
    each distinct ``pay`` (the colours rested)."""
    if rules < 2:
        return [] if engine_payment(standing, colour, cost) is None else [None]
    return [list(paid) for paid in standing_payments(standing, colour, cost)]


def _aimed(state: State, seat: int) -> Callable[[tuple[Effect, ...]], bool]:
    """``has_targets`` for ``seat`` in ``state``, asking ``choices`` once for each kind of
    target however many cards and abilities aim at it."""
    found: dict[tuple[str, int], bool] = {}

    def aimed(effects: tuple[Effect, ...]) -> bool:
        for effect in effects:
            if effect.op in TARGETED:
                key = (effect.op, effect.max_edr)
                some = found.get(key)
                if some is None:
                    some = found[key] = bool(choices(state, seat, effect.op, effect.max_edr))
                if not some:
                    return False
        return True

    return aimed


def _playing(
    state: State, seat: int, open_forts: list[int], resources: tuple[str, ...], aimed: Callable[..., bool]
) -> list[Action]:
    """Summoning a creature of the hand onto a fort with room, and casting a spell that has
    its targets, each once for every way of paying for it."""
    out: list[Action] = []
    for effects, actions in _plays(state.rules, state.sides[seat].hand, resources, tuple(open_forts)):
        if effects is None or aimed(effects):
            out += actions
    return out


@lru_cache(maxsize=1024)
def _plays(
    rules: int, hand: tuple[str, ...], resources: tuple[str, ...], open_forts: tuple[int, ...]
) -> tuple[tuple[tuple[Effect, ...] | None, tuple[Action, ...]], ...]:
    """The summons and casts of ``_playing`` card by card, in the order of the hand, each with
    the effects that must have targets (None for a creature's summons): they depend on the
    hand, the standing resources and the forts with room alone, which most actions of a
    main phase (a die set, a creature moved) leave as they were."""
    out: list[tuple[tuple[Effect, ...] | None, tuple[Action, ...]]] = []
    paying_for: dict[tuple[str | None, int], list[list[str] | None]] = {}  # cards of one colour and cost pay alike
    for card_id in hand:
        card = card_of(card_id, rules)
        paying = paying_for.get((card.colour, card.cost))
        if paying is None:
            paying = paying_for[card.colour, card.cost] = _paying(rules, resources, card.colour, card.cost)
        if not paying:
            continue
        if card.type == "creature":
            if rules < 2:
                summons = [{"type": "summon", "card": card_id, "fort": f} for f in open_forts]
            else:
                summons = [
                    {"type": "summon", "card": card_id, "fort": f, "pay": paid} for f in open_forts for paid in paying
                ]
            out.append((None, tuple(summons)))
        elif card.type == "spell":
            if rules < 2:
                casts: list[Action] = [{"type": "cast", "card": card_id}]
            else:
                casts = [{"type": "cast", "card": card_id, "pay": paid} for paid in paying]
            out.append((card.effects, tuple(casts)))
    return tuple(out)


def shield_forts(state: State, seat: int, standing: list[int]) -> dict[str, list[int]]:
    """By a die's colour, the forts before which a free die of ``seat``'s may stand as a
    Dragoshield: a standing fort (of ``standing``) without one ("the Dragoshield" defends
    it, so one a fort); under ``shields_follow_banners`` only one whose banner has the
    die's colour."""
    side = state.sides[seat]
    shielded = {die.fort for die in side.dice if die.use == "shield"}
    unshielded = [fort for fort in standing if fort not in shielded]
    colours = {die.colour for die in side.dice}
    if not state.shields_follow_banners:
        return {colour: unshielded for colour in colours}
    banners = {fort: card_of(side.banners[fort], state.rules).colour for fort in unshielded}
    return {colour: [fort for fort in unshielded if banners[fort] == colour] for colour in colours}


def _dice_actions(state: State, seat: int, standing: list[int]) -> list[Action]:
    """Each free die set as a Dragoshield before a fort, or as a Dragocross on a creature
    without one."""
    side = state.sides[seat]
    free = [index for index, die in enumerate(side.dice) if die.use == "free"]
    if not free:
        return []
    out: list[Action] = []
    shields = shield_forts(state, seat, standing)
    uncrossed = [creature.id for creature in side.field if creature.cross is None]
    for index in free:
        out += [{"type": "shield", "die": index, "fort": fort} for fort in shields[side.dice[index].colour]]
        out += [{"type": "cross", "die": index, "creature": creature} for creature in uncrossed]
    return out


def _activations(state: State, seat: int, resources: tuple[str, ...], aimed: Callable[..., bool]) -> list[Action]:
    """Each [ACT] ability of a creature on the field whose costs can be paid and whose
    effects have their targets, once for each way of paying (``_ability_costs``)."""
    side = state.sides[seat]
    out: list[Action] = []
    for creature in side.field:
        for number, ability in enumerate(card_of(creature.id, state.rules).abilities):
            if (
                ability.timing == "ACT"
                and not (ability.rest_cost and creature.rested)
                and not (ability.resource_cost and engine_payment(resources, None, ability.resource_cost) is None)
                and not (ability.die_cost and die_for(side, ability.die_cost) is None)
                and aimed(ability.effects)
            ):
                out += [
                    {"type": "activate", "creature": creature.id, "ability": number, **costs}
                    for costs in _ability_costs(state, seat, ability, resources)
                ]
    return out


def _ability_costs(state: State, seat: int, ability: Ability, resources: tuple[str, ...]) -> list[dict[str, Any]]:
    """The cost fields of an [ACT] activation: from revision 2, the resources (``pay``, of
    the standing ``resources``) and the die (``die``) it spends are the player's choice;
    revision 1 chose for the player."""
    if state.rules < 2:
        return [{}]
    side = state.sides[seat]
    options: list[dict[str, Any]] = [{}]
    if ability.resource_cost:
        options = [{"pay": list(paid)} for paid in standing_payments(resources, None, ability.resource_cost)]
    if ability.die_cost:
        options = [dict(o, die=die) for o in options for die in dice_for(side, ability.die_cost)]
    return options


def movable(state: State, seat: int) -> list[Creature]:
    """The creatures of ``seat`` that may move or switch: all of them from revision 3 (the
    Main Phase sets no limit); under revisions 1 and 2 those that have not this turn."""
    field = state.sides[seat].field
    return [c for c in field if not c.moved] if state.moves_once_a_turn else list(field)


def _movements(state: State, seat: int, open_forts: list[int]) -> list[Action]:
    """Moving a creature that may move onto another fort with room, and switching two on
    different forts; from revision 2 a switch is only between forts that stand, as a move
    or a summon only goes onto a standing fort."""
    forts = state.sides[seat].forts
    anywhere = state.rules < 2
    may_move = movable(state, seat)
    out: list[Action] = []
    for creature in may_move:
        out += [{"type": "move", "creature": creature.id, "fort": f} for f in open_forts if f != creature.fort]
    for first, second in combinations(may_move, 2):
        if first.fort != second.fort and (anywhere or (forts[first.fort] and forts[second.fort])):
            out.append({"type": "switch", "creatures": [first.id, second.id]})
    return out


KEPT_LISTINGS = 6
"""How many of its latest answers ``main_actions`` keeps: a bot's search asks again and
again for the same seat's actions at the root, in samples that differ only in cards the
seat cannot see, with a few other listings in between."""

_kept: list[tuple[tuple[tuple[Any, ...], tuple[Any, ...], tuple[Action, ...]], ...]] = [()]


def main_actions(state: State, seat: int) -> list[Action]:
    """The actions of the main phase, worked out again only when something they depend on
    has changed: the seat's hand, field, dice, resources, banners and standing forts, the
    opponent's field and dice, and the rules. Those are immutable values, so a listing kept
    for the very same ones (compared by identity: a re-deal of hidden cards keeps them) is
    the listing. Like ``remembered``, each caller gets a list of its own; the listed actions
    are shared, and no caller changes them. The answers kept are replaced whole, so threads
    sharing the game see old ones or new ones, never half."""
    side, foe = state.sides[seat], state.sides[1 - seat]
    reads = (side.hand, side.field, side.dice, side.resources, side.rested, side.banners, foe.field, foe.dice)
    facts = (seat, state.rules, state.shields_match_banners, tuple(map(bool, side.forts)))
    kept = _kept[0]
    for held_reads, held_facts, actions in kept:
        if held_reads[0] is reads[0] and all(map(is_, held_reads, reads)) and held_facts == facts:
            return list(actions)
    fresh = _main_actions(state, seat)
    _kept[0] = ((reads, facts, tuple(fresh)), *kept[: KEPT_LISTINGS - 1])
    return fresh


def _main_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    holding = [0] * FORTS
    for creature in side.field:
        holding[creature.fort] += 1
    standing = [f for f in range(FORTS) if side.forts[f]]
    open_forts = [f for f in standing if holding[f] < CREATURES_PER_FORT]
    resources = standing_resources(side)
    aimed = _aimed(state, seat)
    return [
        *_playing(state, seat, open_forts, resources, aimed),
        *_dice_actions(state, seat, standing),
        *_activations(state, seat, resources, aimed),
        *_movements(state, seat, open_forts),
        {"type": "combat"},
        {"type": "end_turn"},
    ]


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
