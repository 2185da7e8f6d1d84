"""The table of Dragon Fortress as immutable values, and ``evolve``: one case per event.

An Estate Line is a tuple of card ids from the card next to the Estate Flag
(index 0) to the Front Line (the last index); a dragon in the line is one of its
entries, so "in front of the dragon" is a lower index and "behind it" a higher one.
Piles and the supply are tuples with their top card first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import GameEvent, replace
from games.dragon_fortress.cards import CALL_CARD, DRAGON_IDS, PHASES, TYPE_OF, UPGRADE_INDEX, UPGRADES

STEP_MOVE = "move"  # 1. Estate Move (then the dragon in the line moves)
STEP_SACRIFICE = "sacrifice"  # a dragon just passed over the Dragon Tower: sacrifice it or not
STEP_ACQUIRE = "acquire"  # 2. draw, purchase or advance
STEP_PLACE = "place"  # 3. Front Line placement from hand
STEP_OVER = "over"


@dataclass(frozen=True, slots=True)
class Estate:
    """One player's side of the table."""

    flag: str
    line: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    trophies: tuple[str, ...] = ()
    reached: int = 0  # the highest phase advanced to (0 none, 1 Fallow, 2 Meadow, 3 Pasture)
    bought: tuple[int, ...] = (0,) * len(UPGRADES)  # purchases per upgrade type
    bought_this_turn: bool = False
    bought_last_turn: bool = False
    fresh_gold: str | None = None  # gold drawn this turn, which may not be placed this turn


@dataclass(frozen=True, slots=True)
class Pending:
    """A dragon has just passed over its owner's Dragon Tower."""

    dragon: str
    tower: str
    steps_left: int


@dataclass(frozen=True, slots=True)
class Table:
    players: int
    estates: tuple[Estate, ...]
    supply: tuple[str, ...]
    gold: tuple[str, ...]
    phase_piles: tuple[tuple[str, ...], ...]  # index rank - 1
    upgrade_piles: tuple[tuple[str, ...], ...]  # index as cards.UPGRADES
    dragons: tuple[str, ...]
    out: tuple[str, ...]  # out of the game: boxed, razed, sacrificed, fled the game, the retired call card
    turn: int = 0
    step: str = STEP_MOVE
    pending: Pending | None = None
    result: str | None = None  # "terror" or "hand" once the game is over
    ender: int | None = None
    turns: int = 0


def dragon_at(line: tuple[str, ...]) -> int | None:
    """Index of the dragon in a line (a line never holds two), else None."""
    for index, card in enumerate(line):
        if card in DRAGON_IDS:
            return index
    return None


def _with_estate(table: Table, seat: int, estate: Estate, **changes: Any) -> Table:
    estates = table.estates[:seat] + (estate,) + table.estates[seat + 1 :]
    return replace(table, estates=estates, **changes)


def _without(cards: tuple[str, ...], card: str) -> tuple[str, ...]:
    index = cards.index(card)
    return cards[:index] + cards[index + 1 :]


def _inserted(cards: tuple[str, ...], at: int, card: str) -> tuple[str, ...]:
    return cards[:at] + (card,) + cards[at:]


def _setup(data: Mapping[str, Any]) -> Table:
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
    return Table(
        players=players,
        estates=estates,
        supply=tuple(data["supply"]),
        gold=tuple(data["gold"]),
        phase_piles=tuple(tuple(data["phase_piles"][t.key]) for t in PHASES),
        upgrade_piles=tuple(tuple(data["upgrade_piles"][t.key]) for t in UPGRADES),
        dragons=tuple(data["dragons"]),
        out=tuple(data["out"]),
        turn=data["first"],
    )


def evolve(table: Table | None, event: GameEvent) -> Table:
    kind, data, seat = event.type, event.data, event.seat
    if kind == "GameSetUp":
        return _setup(data)
    assert table is not None and seat is not None
    estate = table.estates[seat]
    if kind == "EstateCardMoved":
        line = estate.line
        at = line.index(data["card"])
        line = line[: at - 1] + (line[at], line[at - 1]) + line[at + 1 :]
        return _with_estate(table, seat, replace(estate, line=line), step=STEP_ACQUIRE)
    if kind == "EstateMoveForgone":
        return replace(table, step=STEP_ACQUIRE)
    if kind == "DragonAdvanced":
        line = estate.line
        at = line.index(data["dragon"])
        line = line[: at - 1] + (line[at], line[at - 1]) + line[at + 1 :]
        return _with_estate(table, seat, replace(estate, line=line))
    if kind == "CardRazed":
        line = _without(estate.line, data["card"])
        return _with_estate(table, seat, replace(estate, line=line), out=table.out + (data["card"],))
    if kind == "SacrificeOffered":
        pending = Pending(data["dragon"], data["tower"], data["steps_left"])
        return replace(table, step=STEP_SACRIFICE, pending=pending)
    if kind == "TowerSacrificed":
        line = _without(estate.line, data["tower"])
        out = table.out + (data["tower"],)
        return _with_estate(table, seat, replace(estate, line=line), out=out, step=STEP_ACQUIRE, pending=None)
    if kind == "SacrificeDeclined":
        return replace(table, step=STEP_ACQUIRE, pending=None)
    if kind == "DragonDefeated":
        dragon = data["dragon"]
        estate = replace(estate, line=_without(estate.line, dragon), trophies=estate.trophies + (dragon,))
        return _with_estate(table, seat, estate)
    if kind == "DragonFled":
        dragon = data["dragon"]
        table = _with_estate(table, seat, replace(estate, line=_without(estate.line, dragon)))
        target = data["to"]
        if target is None:
            return replace(table, out=table.out + (dragon,))
        host = table.estates[target]
        return _with_estate(table, target, replace(host, line=host.line + (dragon,)))
    if kind == "AcquireForgone":
        return replace(table, step=STEP_PLACE)
    if kind == "CommonCardDrawn":
        card = data["card"]
        hand = estate.hand + (card,)
        return _with_estate(table, seat, replace(estate, hand=hand), supply=table.supply[1:], step=STEP_PLACE)
    if kind == "GoldDrawn":
        card = data["card"]
        estate = replace(estate, hand=estate.hand + (card,), fresh_gold=card)
        return _with_estate(table, seat, estate, gold=_without(table.gold, card), step=STEP_PLACE)
    if kind == "DragonCalled":
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
    if kind == "StructurePurchased":
        card = data["card"]
        index = UPGRADE_INDEX[TYPE_OF[card].key]
        piles = list(table.upgrade_piles)
        piles[index] = _without(piles[index], card)
        bought = list(estate.bought)
        bought[index] += 1
        estate = replace(
            estate, line=_inserted(estate.line, data["at"], card), bought=tuple(bought), bought_this_turn=True
        )
        return _with_estate(table, seat, estate, upgrade_piles=tuple(piles))
    if kind == "PhaseAdvanced":
        card = data["card"]
        rank = TYPE_OF[card].rank
        piles = list(table.phase_piles)
        piles[rank - 1] = _without(piles[rank - 1], card)
        estate = replace(estate, line=_inserted(estate.line, data["at"], card), reached=rank)
        return _with_estate(table, seat, estate, phase_piles=tuple(piles))
    if kind == "CardPlaced":
        card = data["card"]
        estate = replace(estate, hand=_without(estate.hand, card), line=_inserted(estate.line, data["at"], card))
        return _with_estate(table, seat, estate)
    if kind == "TurnPassed":
        estate = replace(estate, bought_last_turn=estate.bought_this_turn, bought_this_turn=False, fresh_gold=None)
        return _with_estate(table, seat, estate, turn=data["to"], step=STEP_MOVE, turns=table.turns + 1)
    if kind == "GameEnded":
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
    raise ValueError(f"unknown event type {kind!r}")
