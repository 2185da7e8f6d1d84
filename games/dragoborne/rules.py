"""Dragoborne rules: what each seat may do now, and the events each action causes.

``decide`` runs the action, then ``settle`` works through the queue of pending steps
(effects, the block step of an attack, Fort Burst choices) until it reaches one that
needs a player's choice, or empties it. Effects are interpreted from the card data;
no card is named here.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import combinations
from typing import Any

from games.base import Action, EventBuilder, GameEvent
from games.dragoborne.cards import (
    CREATURES_PER_FORT,
    FORTS,
    HAND_LIMIT,
    WHITE,
    Ability,
    Card,
    card_of,
)
from games.dragoborne.state import Pending, Side, State, evolve, remaining_edr, stats

DIE_FACES = 6


class Builder(EventBuilder):
    """The events of one decision, each folded as it is emitted."""

    def __init__(self, state: State) -> None:
        super().__init__(state, evolve)


# ---------------------------------------------------------------- costs


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


# ---------------------------------------------------------------- targets


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


# ---------------------------------------------------------------- legal actions


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.phase == "over":
        return []
    if state.pending:
        return _pending_actions(state, seat)
    if state.phase == "mulligan":
        return _mulligan_actions(state, seat)
    if seat != state.active:
        return []
    if state.phase == "resource":
        return [{"type": "resource"}, {"type": "skip_resource"}]
    if state.phase == "main":
        return _main_actions(state, seat)
    if state.phase == "combat":
        return _combat_actions(state, seat)
    if state.phase == "discard":
        return [{"type": "discard", "card": card} for card in state.sides[seat].hand]
    return []


def to_act(state: State) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if state.pending:
        return frozenset({state.pending[0].seat})
    if state.phase == "mulligan":
        return frozenset(s for s, side in enumerate(state.sides) if not side.mulliganed)
    return frozenset({state.active})


def _pending_actions(state: State, seat: int) -> list[Action]:
    item = state.pending[0]
    if item.seat != seat:
        return []
    if item.kind == "burst":
        take = {"type": "take"}
        return [{"type": "burst"}, take] if card_of(item.source).burst else [take]
    if item.kind == "block":
        assert state.attack is not None
        fort = state.attack[1]
        blockers = [c.id for c in state.sides[seat].on_fort(fort) if not c.rested]
        return [{"type": "block", "creature": c} for c in blockers] + [{"type": "no_block"}]
    return [{"type": "target", "target": t} for t in item_choices(state, item)]


def _mulligan_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    if side.mulliganed:
        return []
    hand = side.hand
    return [
        {"type": "mulligan", "cards": list(chosen)}
        for size in range(len(hand) + 1)
        for chosen in combinations(hand, size)
    ]


def _main_actions(state: State, seat: int) -> list[Action]:
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


def _combat_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    targets = state.sides[1 - seat].standing_forts()
    out: list[Action] = [
        {"type": "attack", "creature": c.id, "fort": f} for c in side.field if not c.rested for f in targets
    ]
    out.append({"type": "end_turn"})
    return out


# ---------------------------------------------------------------- decide


def play(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    """Every move, once the template has found it legal: its own step, then the queued
    steps it set off (``settle``)."""
    b = Builder(state)
    steps = _PENDING_HANDLERS if state.pending else _HANDLERS
    steps[action["type"]](b, seat, action, rng)
    settle(b, rng)
    return b.events


def why_illegal(state: State, seat: int, action: Any) -> str:
    """A sentence saying why ``action`` is refused."""
    if state.phase == "over":
        return "The game is over."
    if seat not in to_act(state):
        return "It is not your turn to act."
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return "An action must be an object with a 'type'."
    kinds = sorted({a["type"] for a in legal_actions(state, seat)})
    kind = action["type"]
    if kind not in kinds:
        return f"You cannot '{kind}' now; you may: {', '.join(kinds)}."
    side = state.sides[seat]
    card = action.get("card")
    if kind in ("summon", "cast", "discard") and card not in side.hand:
        return "That card is not in your hand."
    if kind in ("summon", "cast") and isinstance(card, str):
        return "You cannot pay that card's cost now, or it has nowhere to go or nothing to target."
    if kind in ("attack", "move", "activate", "cross", "block") and "creature" in action:
        return "That creature cannot do that now (it is resting, has moved, or is not yours)."
    if kind in ("shield", "cross"):
        return "That die is already used, or a Dragoshield needs a fort whose banner matches its colour."
    if kind == "target":
        return "That is not a legal target for this effect."
    return "That action is not one of the choices open to you now."


def _mulligan(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
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
    if not _draw(b, seat, 1):
        return
    skips = turn == 1 or not b.state.sides[seat].deck
    b.emit("PhaseChanged", {"phase": "main" if skips else "resource"})


def _draw(b: Builder, seat: int, count: int) -> bool:
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


def _resource(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("ResourcePlaced", {"seat": seat, "card": b.state.sides[seat].deck[0]}, seat)
    b.emit("PhaseChanged", {"phase": "main"})


def _skip_resource(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PhaseChanged", {"phase": "main"})


def _ability_items(seat: int, source: str, number: int, ability: Ability) -> list[Pending]:
    return [Pending("effect", seat, source, f"a{number}", j) for j in range(len(ability.effects))]


def _triggers(seat: int, source: str, trigger: str) -> list[Pending]:
    card = card_of(source)
    items: list[Pending] = []
    for number in card.triggers(trigger):
        items += _ability_items(seat, source, number, card.abilities[number])
    return items


def queue(b: Builder, items: list[Pending]) -> None:
    if items:
        b.emit("EffectsQueued", {"items": [item.as_json() for item in items]})


def _summon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id)
    paid = payment(b.state.sides[seat], card.colour, card.cost)
    b.emit("CreatureSummoned", {"seat": seat, "card": card_id, "fort": action["fort"], "paid": paid}, seat)
    queue(b, _triggers(seat, card_id, "summoned"))


def _cast(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = action["card"]
    card = card_of(card_id)
    paid = payment(b.state.sides[seat], card.colour, card.cost)
    b.emit("SpellCast", {"seat": seat, "card": card_id, "paid": paid}, seat)
    queue(b, [Pending("effect", seat, card_id, "spell", j) for j in range(len(card.effects))])


def _shield(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "fort": action["fort"]}, seat)


def _cross(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DieAssigned", {"seat": seat, "die": action["die"], "creature": action["creature"]}, seat)


def _activate(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
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
    queue(b, _ability_items(seat, action["creature"], number, ability))


def _move(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CreatureMoved", {"seat": seat, "creature": action["creature"], "fort": action["fort"]}, seat)


def _switch(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CreaturesSwitched", {"seat": seat, "creatures": list(action["creatures"])}, seat)


def _combat(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PhaseChanged", {"phase": "combat"})


def _attack(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    attacker = action["creature"]
    b.emit("AttackDeclared", {"seat": seat, "creature": attacker, "fort": action["fort"]}, seat)
    queue(b, [*_triggers(seat, attacker, "attacks"), Pending("block", 1 - seat)])


def _end_turn(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    if len(b.state.sides[seat].hand) > HAND_LIMIT:
        b.emit("PhaseChanged", {"phase": "discard"})
        return
    finish_turn(b, rng)


def _discard(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
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


# ---------------------------------------------------------------- pending choices


def _target(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    item = b.state.pending[0]
    b.emit("PendingResolved", {})
    apply_effect(b, item, action["target"], rng)


def _burst(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = b.state.pending[0].source
    b.emit("PendingResolved", {})
    b.emit("FortBurst", {"seat": seat, "card": card_id}, seat)
    queue(b, [Pending("effect", seat, card_id, "burst", j) for j in range(len(card_of(card_id).burst))])


def _take(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = b.state.pending[0].source
    b.emit("PendingResolved", {})
    b.emit("BarrierTaken", {"seat": seat, "card": card_id}, seat)


def _block(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PendingResolved", {})
    b.emit("AttackBlocked", {"seat": seat, "creature": action["creature"]}, seat)
    battle(b, blocker=action["creature"], die=None)


def _no_block(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PendingResolved", {})
    break_barrier(b)


_HANDLERS = {
    "mulligan": _mulligan,
    "resource": _resource,
    "skip_resource": _skip_resource,
    "summon": _summon,
    "cast": _cast,
    "shield": _shield,
    "cross": _cross,
    "activate": _activate,
    "move": _move,
    "switch": _switch,
    "combat": _combat,
    "attack": _attack,
    "end_turn": _end_turn,
    "discard": _discard,
}
_PENDING_HANDLERS = {
    "target": _target,
    "burst": _burst,
    "take": _take,
    "block": _block,
    "no_block": _no_block,
}


# ---------------------------------------------------------------- resolution


def settle(b: Builder, rng: random.Random) -> None:
    """Resolve queued steps until one needs a player's choice or none is left."""
    while b.state.phase != "over" and b.state.pending:
        item = b.state.pending[0]
        if item.kind == "burst":
            return
        if item.kind == "block":
            if not _block_step(b):
                return
            continue
        targets = item_choices(b.state, item)
        if item.effect.targeted and len(targets) > 1:
            return
        b.emit("PendingResolved", {})
        apply_effect(b, item, targets[0] if targets else None, rng)


def _block_step(b: Builder) -> bool:
    """The defender's side of an attack; False when the defender must choose a blocker."""
    state = b.state
    assert state.attack is not None
    attacker, fort = state.attack
    defender = 1 - state.active
    side = state.sides[defender]
    if state.sides[state.active].creature(attacker) is None:
        b.emit("PendingResolved", {})
        b.emit("AttackEnded", {})
        return True
    shield = side.shield_at(fort)
    if shield is not None:
        b.emit("PendingResolved", {})
        b.emit("AttackBlocked", {"seat": defender, "die": shield}, defender)
        battle(b, blocker=None, die=shield)
        return True
    if any(not c.rested for c in side.on_fort(fort)):
        return False
    b.emit("PendingResolved", {})
    break_barrier(b)
    return True


def battle(b: Builder, blocker: str | None, die: int | None) -> None:
    """ATK is subtracted from EDR both ways (as damage until the end of the turn)."""
    state = b.state
    assert state.attack is not None
    attacker_id = state.attack[0]
    active, defender = state.active, 1 - state.active
    attacker = state.sides[active].creature(attacker_id)
    assert attacker is not None
    attack_power = stats(state.sides[active], attacker)[0]
    if die is not None:
        b.emit("ShieldDamaged", {"seat": defender, "die": die, "amount": attack_power}, defender)
    else:
        assert blocker is not None
        blocking = state.sides[defender].creature(blocker)
        assert blocking is not None
        block_power = stats(state.sides[defender], blocking)[0]
        b.emit("CreatureDamaged", {"seat": defender, "creature": blocker, "amount": attack_power}, defender)
        b.emit("CreatureDamaged", {"seat": active, "creature": attacker_id, "amount": block_power}, active)
    b.emit("AttackEnded", {})
    sweep(b)


def break_barrier(b: Builder) -> None:
    """An unblocked attack: one damage to the fort, whatever the ATK. The top barrier is lifted for
    its owner alone, who is always asked (fire a Fort Burst it has, or take it), so the pause tells
    the opponent nothing about the card."""
    state = b.state
    assert state.attack is not None
    attacker, fort = state.attack
    defender = 1 - state.active
    card_id = state.sides[defender].forts[fort][-1]
    b.emit("BarrierBroken", {"seat": defender, "fort": fort, "card": card_id}, defender)
    if not b.state.sides[defender].forts[fort]:
        b.emit("FortDestroyed", {"seat": defender, "fort": fort}, defender)
    b.emit("AttackEnded", {})
    queue(b, [Pending("burst", defender, card_id), *_triggers(state.active, attacker, "barrier_broken")])


def destroy(b: Builder, seat: int, creature_id: str) -> None:
    b.emit("CreatureDestroyed", {"seat": seat, "creature": creature_id}, seat)
    queue(b, _triggers(seat, creature_id, "destroyed"))


def sweep(b: Builder) -> None:
    """Destroy every creature whose EDR dropped below zero and every broken Dragoshield."""
    while True:
        state = b.state
        found = False
        for seat in (state.active, 1 - state.active):
            side = state.sides[seat]
            for creature in side.field:
                if remaining_edr(side, creature) < 0:
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
    effect = item.effect
    seat, foe = item.seat, 1 - item.seat
    op = effect.op
    if op == "draw":
        _draw(b, seat, effect.amount)
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
        card = card_of(card_id)
        if (not card_type or card.type == card_type) and (not colour or card.colour == colour):
            b.emit("CardSearched", {"seat": seat, "card": card_id}, seat)
            break
    order = list(b.state.sides[seat].deck)
    rng.shuffle(order)
    b.emit("DeckShuffled", {"seat": seat, "deck": order}, seat)
