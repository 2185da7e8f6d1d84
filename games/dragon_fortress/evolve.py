"""How each event changes a game of Dragon Fortress: the table ``EVOLVE``, one case per
event type, and those cases with the small helpers they share. A case folds one event into
the table (``state``) and nothing more: it checks no rule and draws no randomness, since the
moves (``march``, ``acquire``) have already written every outcome into the events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.base import Evolver, GameEvent, replace
from games.dragon_fortress.cards import CALL_CARD, PHASES, TYPE_OF, UPGRADE_INDEX, UPGRADES
from games.dragon_fortress.state import (
    STEP_ACQUIRE,
    STEP_MOVE,
    STEP_OVER,
    STEP_PLACE,
    STEP_SACRIFICE,
    Estate,
    Pending,
    State,
    rules_from,
)


def _with_estate(table: State, seat: int, estate: Estate, **changes: Any) -> State:
    estates = table.estates[:seat] + (estate,) + table.estates[seat + 1 :]
    return replace(table, estates=estates, **changes)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _inserted(cards: tuple[str, ...], at: int, card: str) -> tuple[str, ...]:
    return cards[:at] + (card,) + cards[at:]


def _setup(data: Mapping[str, Any]) -> State:
    players = data["players"]
    lines = data.get("lines") or [[] for _ in range(players)]
    trophies = data.get("trophies") or [[] for _ in range(players)]
    reached = data.get("reached") or [0] * players
    estates = tuple(
        Estate(
            flag=data["flags"][seat],
            line=tuple(lines[seat]),
            hand=tuple(data["hands"][seat]),
            trophies=tuple(trophies[seat]),
            reached=reached[seat],
        )
        for seat in range(players)
    )
    return State(
        players=players,
        estates=estates,
        supply=tuple(data["supply"]),
        gold=tuple(data["gold"]),
        phase_piles=tuple(tuple(data["phase_piles"][t.key]) for t in PHASES),
        upgrade_piles=tuple(tuple(data["upgrade_piles"][t.key]) for t in UPGRADES),
        dragons=tuple(data["dragons"]),
        out=tuple(data["out"]),
        turn=data["first"],
        rules=rules_from(data.get("options") or {}),
    )


def _mover(table: State, event: GameEvent) -> tuple[int, Estate]:
    """The seat an event happened to, and its Estate."""
    assert event.seat is not None
    return event.seat, table.estates[event.seat]


def _set_up(_: State | None, event: GameEvent) -> State:
    return _setup(event.data)


def _moved_forward(line: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``line`` with ``card`` swapped with the card just before it."""
    at = line.index(card)
    return line[: at - 1] + (line[at], line[at - 1]) + line[at + 1 :]


def _estate_card_moved(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    line = _moved_forward(estate.line, event.data["card"])
    return _with_estate(table, seat, replace(estate, line=line), step=STEP_ACQUIRE)


def _estate_move_forgone(table: State, _: GameEvent) -> State:
    return replace(table, step=STEP_ACQUIRE)


def _dragon_advanced(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    return _with_estate(table, seat, replace(estate, line=_moved_forward(estate.line, event.data["dragon"])))


def _card_razed(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    line = _without(estate.line, data["card"])
    return _with_estate(table, seat, replace(estate, line=line), out=table.out + (data["card"],))


def _sacrifice_offered(table: State, event: GameEvent) -> State:
    data = event.data
    pending = Pending(data["dragon"], data["tower"], data["steps_left"])
    return replace(table, step=STEP_SACRIFICE, pending=pending)


def _tower_sacrificed(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    line = _without(estate.line, data["tower"])
    out = table.out + (data["tower"],)
    return _with_estate(table, seat, replace(estate, line=line), out=out, step=STEP_ACQUIRE, pending=None)


def _sacrifice_declined(table: State, _: GameEvent) -> State:
    return replace(table, step=STEP_ACQUIRE, pending=None)


def _dragon_defeated(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    dragon = data["dragon"]
    estate = replace(estate, line=_without(estate.line, dragon), trophies=estate.trophies + (dragon,))
    return _with_estate(table, seat, estate)


def _dragon_fled(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    dragon = data["dragon"]
    table = _with_estate(table, seat, replace(estate, line=_without(estate.line, dragon)))
    target = data["to"]
    if target is None:
        return replace(table, out=table.out + (dragon,))
    host = table.estates[target]
    return _with_estate(table, target, replace(host, line=host.line + (dragon,)))


def _acquire_forgone(table: State, _: GameEvent) -> State:
    return replace(table, step=STEP_PLACE)


def _common_card_drawn(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    card = data["card"]
    hand = estate.hand + (card,)
    return _with_estate(table, seat, replace(estate, hand=hand), supply=table.supply[1:], step=STEP_PLACE)


def _gold_drawn(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    card = data["card"]
    estate = replace(estate, hand=estate.hand + (card,), fresh_gold=card)
    return _with_estate(table, seat, estate, gold=_without(table.gold, card), step=STEP_PLACE)


def _dragon_called(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    dragon = data["dragon"]
    supply = table.supply[1:]
    out = table.out
    if data["call_returned_at"] is None:
        out = out + (CALL_CARD,)
    else:
        supply = _inserted(supply, data["call_returned_at"], CALL_CARD)
    dragons = _without(table.dragons, dragon)
    estate = replace(estate, line=estate.line + (dragon,))
    return _with_estate(table, seat, estate, supply=supply, out=out, dragons=dragons)


def _structure_purchased(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    card = data["card"]
    index = UPGRADE_INDEX[TYPE_OF[card].key]
    piles = list(table.upgrade_piles)
    piles[index] = _without(piles[index], card)
    bought = list(estate.bought)
    bought[index] += 1
    this_phase = list(estate.bought_this_phase)
    this_phase[index] += 1
    paid = tuple(data.get("paid", ()))  # revision 1 events pay nothing
    line = tuple(c for c in estate.line if c not in paid)
    estate = replace(
        estate,
        line=_inserted(line, data["at"], card),
        bought=tuple(bought),
        bought_this_phase=tuple(this_phase),
        bought_this_turn=True,
    )
    return _with_estate(table, seat, estate, upgrade_piles=tuple(piles), gold=table.gold + paid)


def _phase_advanced(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    card = data["card"]
    rank = TYPE_OF[card].rank
    piles = list(table.phase_piles)
    piles[rank - 1] = _without(piles[rank - 1], card)
    estate = replace(
        estate,
        line=_inserted(estate.line, data["at"], card),
        reached=rank,
        bought_this_phase=(0,) * len(UPGRADES),
    )
    return _with_estate(table, seat, estate, phase_piles=tuple(piles))


def _card_placed(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    card = data["card"]
    estate = replace(estate, hand=_without(estate.hand, card), line=_inserted(estate.line, data["at"], card))
    return _with_estate(table, seat, estate)


def _turn_passed(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    estate = replace(estate, bought_last_turn=estate.bought_this_turn, bought_this_turn=False, fresh_gold=None)
    return _with_estate(table, seat, estate, turn=data["to"], step=STEP_MOVE, turns=table.turns + 1)


def _game_ended(table: State, event: GameEvent) -> State:
    seat, estate = _mover(table, event)
    data = event.data
    dispersed = tuple(data["dispersed"])
    estates = tuple(replace(e, line=tuple(c for c in e.line if c not in dispersed)) for e in table.estates)
    return replace(
        table,
        estates=estates,
        out=table.out + dispersed,
        step=STEP_OVER,
        pending=None,
        result=data["reason"],
        ender=seat,
        turns=table.turns + 1,
    )


EVOLVE: dict[str, Evolver] = {
    "GameSetUp": _set_up,
    "EstateCardMoved": _estate_card_moved,
    "EstateMoveForgone": _estate_move_forgone,
    "DragonAdvanced": _dragon_advanced,
    "CardRazed": _card_razed,
    "SacrificeOffered": _sacrifice_offered,
    "TowerSacrificed": _tower_sacrificed,
    "SacrificeDeclined": _sacrifice_declined,
    "DragonDefeated": _dragon_defeated,
    "DragonFled": _dragon_fled,
    "AcquireForgone": _acquire_forgone,
    "CommonCardDrawn": _common_card_drawn,
    "GoldDrawn": _gold_drawn,
    "DragonCalled": _dragon_called,
    "StructurePurchased": _structure_purchased,
    "PhaseAdvanced": _phase_advanced,
    "CardPlaced": _card_placed,
    "TurnPassed": _turn_passed,
    "GameEnded": _game_ended,
}
