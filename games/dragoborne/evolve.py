"""Dragoborne's ``evolve``: the table ``EVOLVE`` with one case per event type, and those
cases. Each folds one event into the state (``state``) and nothing more: no checks, no
randomness, no rules; whatever an event's effect depends on, its ``data`` already says.
Events carry JSON only (lists, not tuples), so the cases turn their piles back into tuples.
"""

from __future__ import annotations

from games.base import Evolver, GameEvent, replace
from games.dragoborne.state import Creature, Die, Pending, Side, State


def with_side(state: State, seat: int, side: Side) -> State:
    sides = list(state.sides)
    sides[seat] = side
    return replace(state, sides=tuple(sides))


def _swap_creature(side: Side, creature: Creature) -> Side:
    return replace(side, field=tuple(creature if c.id == creature.id else c for c in side.field))


def _spend_cross(side: Side, creature_id: str) -> tuple[Die, ...]:
    return tuple(
        replace(d, use="spent", creature=None) if d.use == "cross" and d.creature == creature_id else d
        for d in side.dice
    )


def _remove(pile: tuple[str, ...], card: str) -> tuple[str, ...]:
    return tuple(c for c in pile if c != card)


# ---------------------------------------------------------------- setup and turn flow


def _game_started(state: State | None, event: GameEvent) -> State:
    data = event.data
    sides = tuple(
        Side(
            deck=tuple(deck),
            banners=tuple(banners),
            resources=tuple(banners),
            dice=tuple(Die(colour) for colour in dice),
        )
        for deck, banners, dice in zip(data["decks"], data["banners"], data["dice"], strict=True)
    )
    return State(
        sides=sides,
        decks=tuple(data["names"]),
        first=data["first"],
        active=data["first"],
        rules=data.get("rules", 1),
        shields_match_banners=bool(data.get("shields_match_banners", False)),
    )


def _cards_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    cards = tuple(data["cards"])
    return with_side(state, data["seat"], replace(side, deck=side.deck[len(cards) :], hand=side.hand + cards))


def _hand_mulliganed(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    returned = set(data["returned"])
    deck = tuple(data["deck"])
    drawn = tuple(data["drawn"])
    hand = tuple(c for c in side.hand if c not in returned) + drawn
    return with_side(state, data["seat"], replace(side, hand=hand, deck=deck[len(drawn) :], mulliganed=True))


def _barriers_placed(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    forts = tuple(tuple(f) for f in data["forts"])
    used = sum(len(f) for f in forts)
    return with_side(state, data["seat"], replace(side, forts=forts, deck=side.deck[used:]))


def _turn_started(state: State, event: GameEvent) -> State:
    data = event.data
    seat = data["seat"]
    side = state.sides[seat]
    field = tuple(replace(c, rested=False, moved=False) for c in side.field)
    state = with_side(state, seat, replace(side, field=field, rested=frozenset()))
    return replace(state, active=seat, turn=data["turn"])


def _dice_rolled(state: State, event: GameEvent) -> State:
    data = event.data
    seat = data["seat"]
    side = state.sides[seat]
    dice = tuple(Die(d.colour, value) for d, value in zip(side.dice, data["values"], strict=True))
    field = tuple(replace(c, cross=None) for c in side.field)
    return with_side(state, seat, replace(side, dice=dice, field=field))


def _phase_changed(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, phase=data["phase"])


def _resource_placed(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    return with_side(state, data["seat"], replace(side, deck=side.deck[1:], resources=side.resources + (data["card"],)))


def _card_discarded(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(
        state,
        data["seat"],
        replace(side, hand=_remove(side.hand, card), known=side.known - {card}, discard=side.discard + (card,)),
    )


def _damage_cleared(state: State, _: GameEvent) -> State:
    sides = tuple(
        replace(
            side,
            field=tuple(replace(c, damage=0) if c.damage else c for c in side.field),
            dice=tuple(replace(d, damage=0) if d.damage else d for d in side.dice),
        )
        for side in state.sides
    )
    return replace(state, sides=sides)


def _game_ended(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, phase="over", winners=tuple(data["winners"]), reason=data["reason"], pending=())


# ---------------------------------------------------------------- main phase


def _pay(side: Side, paid: list[str]) -> frozenset[str]:
    return side.rested | frozenset(paid)


def _creature_summoned(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(
        state,
        data["seat"],
        replace(
            side,
            hand=_remove(side.hand, card),
            known=side.known - {card},
            field=side.field + (Creature(card, data["fort"]),),
            rested=_pay(side, data["paid"]),
        ),
    )


def _spell_cast(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(
        state,
        data["seat"],
        replace(
            side,
            hand=_remove(side.hand, card),
            known=side.known - {card},
            discard=side.discard + (card,),
            rested=_pay(side, data["paid"]),
        ),
    )


def _die_assigned(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    index = data["die"]
    dice = list(side.dice)
    if "fort" in data:
        dice[index] = replace(dice[index], use="shield", fort=data["fort"])
        return with_side(state, data["seat"], replace(side, dice=tuple(dice)))
    creature = side.creature(data["creature"])
    assert creature is not None
    dice[index] = replace(dice[index], use="cross", creature=creature.id)
    side = replace(side, dice=tuple(dice))
    return with_side(state, data["seat"], _swap_creature(side, replace(creature, cross=index)))


def _ability_activated(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    side = replace(side, rested=_pay(side, data["paid"]))
    if data["die"] is not None:
        dice = list(side.dice)
        dice[data["die"]] = replace(dice[data["die"]], use="spent")
        side = replace(side, dice=tuple(dice))
    if data["rest"]:
        creature = side.creature(data["creature"])
        assert creature is not None
        side = _swap_creature(side, replace(creature, rested=True))
    return with_side(state, data["seat"], side)


def _creature_moved(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    creature = side.creature(data["creature"])
    assert creature is not None
    return with_side(state, data["seat"], _swap_creature(side, replace(creature, fort=data["fort"], moved=True)))


def _creatures_switched(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    first, second = (side.creature(card) for card in data["creatures"])
    assert first is not None and second is not None
    side = _swap_creature(side, replace(first, fort=second.fort, moved=True))
    return with_side(state, data["seat"], _swap_creature(side, replace(second, fort=first.fort, moved=True)))


# ---------------------------------------------------------------- the queue and combat


def _effects_queued(state: State, event: GameEvent) -> State:
    data = event.data
    items = tuple(Pending(kind, seat, source, where, index) for kind, seat, source, where, index in data["items"])
    return replace(state, pending=items + state.pending)


def _pending_resolved(state: State, _: GameEvent) -> State:
    return replace(state, pending=state.pending[1:])


def _attack_declared(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    creature = side.creature(data["creature"])
    assert creature is not None
    state = with_side(state, data["seat"], _swap_creature(side, replace(creature, rested=True)))
    return replace(state, attack=(creature.id, data["fort"]))


def _attack_blocked(state: State, event: GameEvent) -> State:
    data = event.data
    if "creature" not in data:
        return state
    return _creature_rested(state, event)


def _attack_ended(state: State, _: GameEvent) -> State:
    return replace(state, attack=None)


def _creature_damaged(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    creature = side.creature(data["creature"])
    assert creature is not None
    return with_side(
        state, data["seat"], _swap_creature(side, replace(creature, damage=creature.damage + data["amount"]))
    )


def _shield_damaged(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    dice = list(side.dice)
    dice[data["die"]] = replace(dice[data["die"]], damage=dice[data["die"]].damage + data["amount"])
    return with_side(state, data["seat"], replace(side, dice=tuple(dice)))


def _creature_destroyed(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["creature"]
    return with_side(
        state,
        data["seat"],
        replace(
            side,
            field=tuple(c for c in side.field if c.id != card),
            dice=_spend_cross(side, card),
            discard=side.discard + (card,),
        ),
    )


def _shield_destroyed(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    dice = list(side.dice)
    dice[data["die"]] = replace(dice[data["die"]], use="spent", fort=None, damage=0)
    return with_side(state, data["seat"], replace(side, dice=tuple(dice)))


def _barrier_broken(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    fort = data["fort"]
    card = side.forts[fort][-1]
    forts = tuple(pile[:-1] if f == fort else pile for f, pile in enumerate(side.forts))
    return with_side(state, data["seat"], replace(side, forts=forts, lifted=side.lifted + (card,)))


def _fort_destroyed(state: State, _: GameEvent) -> State:
    return state


def _fort_burst(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(
        state, data["seat"], replace(side, lifted=_remove(side.lifted, card), discard=side.discard + (card,))
    )


def _barrier_taken(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(state, data["seat"], replace(side, lifted=_remove(side.lifted, card), hand=side.hand + (card,)))


# ---------------------------------------------------------------- effect primitives


def _creature_rested(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    creature = side.creature(data["creature"])
    assert creature is not None
    return with_side(state, data["seat"], _swap_creature(side, replace(creature, rested=True)))


def _creature_stood(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    creature = side.creature(data["creature"])
    assert creature is not None
    return with_side(state, data["seat"], _swap_creature(side, replace(creature, rested=False)))


def _creature_returned(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["creature"]
    return with_side(
        state,
        data["seat"],
        replace(
            side,
            field=tuple(c for c in side.field if c.id != card),
            dice=_spend_cross(side, card),
            hand=side.hand + (card,),
            known=side.known | {card},
        ),
    )


def _barrier_added(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    fort = data["fort"]
    card = side.deck[0]
    forts = tuple(pile + (card,) if f == fort else pile for f, pile in enumerate(side.forts))
    return with_side(state, data["seat"], replace(side, deck=side.deck[1:], forts=forts))


def _die_rerolled(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    dice = list(side.dice)
    dice[data["die"]] = replace(dice[data["die"]], value=data["value"])
    return with_side(state, data["seat"], replace(side, dice=tuple(dice)))


def _card_searched(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    card = data["card"]
    return with_side(
        state,
        data["seat"],
        replace(side, deck=_remove(side.deck, card), hand=side.hand + (card,), known=side.known | {card}),
    )


def _deck_shuffled(state: State, event: GameEvent) -> State:
    data = event.data
    side = state.sides[data["seat"]]
    return with_side(state, data["seat"], replace(side, deck=tuple(data["deck"])))


EVOLVE: dict[str, Evolver] = {
    "GameStarted": _game_started,
    "CardsDrawn": _cards_drawn,
    "HandMulliganed": _hand_mulliganed,
    "BarriersPlaced": _barriers_placed,
    "TurnStarted": _turn_started,
    "DiceRolled": _dice_rolled,
    "PhaseChanged": _phase_changed,
    "ResourcePlaced": _resource_placed,
    "CardDiscarded": _card_discarded,
    "DamageCleared": _damage_cleared,
    "GameEnded": _game_ended,
    "CreatureSummoned": _creature_summoned,
    "SpellCast": _spell_cast,
    "DieAssigned": _die_assigned,
    "AbilityActivated": _ability_activated,
    "CreatureMoved": _creature_moved,
    "CreaturesSwitched": _creatures_switched,
    "EffectsQueued": _effects_queued,
    "PendingResolved": _pending_resolved,
    "AttackDeclared": _attack_declared,
    "AttackBlocked": _attack_blocked,
    "AttackEnded": _attack_ended,
    "CreatureDamaged": _creature_damaged,
    "ShieldDamaged": _shield_damaged,
    "CreatureDestroyed": _creature_destroyed,
    "ShieldDestroyed": _shield_destroyed,
    "BarrierBroken": _barrier_broken,
    "FortDestroyed": _fort_destroyed,
    "FortBurst": _fort_burst,
    "BarrierTaken": _barrier_taken,
    "CreatureRested": _creature_rested,
    "CreatureStood": _creature_stood,
    "CreatureReturned": _creature_returned,
    "BarrierAdded": _barrier_added,
    "DieRerolled": _die_rerolled,
    "CardSearched": _card_searched,
    "DeckShuffled": _deck_shuffled,
}
