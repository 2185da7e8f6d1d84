"""Dragoborne state: the immutable values a game is folded into (``State``, each seat's
``Side``, its ``Creature``s and ``Die``s, and the ``Pending`` steps of the queue), with the
small pure accessors the rules, the views and the bots read them through, such as a
creature's current ATK and EDR (``stats``). Piles are tuples of card ids: a deck lists its
top card first; a fort lists its barriers bottom first, so the top barrier is the last.
How each event changes these values lives in ``evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.dragoborne.cards import FORTS, Card, Effect, card_of


@dataclass(frozen=True)
class Creature:
    id: str
    fort: int
    rested: bool = False
    damage: int = 0
    cross: int | None = None  # index of the die Dragocrossed on it
    moved: bool = False  # moved or switched this turn


@dataclass(frozen=True)
class Die:
    colour: str
    value: int = 0
    use: str = "free"  # "free" | "shield" | "cross" | "spent"
    fort: int | None = None  # a Dragoshield's fort
    creature: str | None = None  # a Dragocross's creature
    damage: int = 0  # damage on a Dragoshield this turn


@dataclass(frozen=True)
class Side:
    deck: tuple[str, ...]
    hand: tuple[str, ...] = ()
    known: frozenset[str] = frozenset()  # cards in hand the opponent has seen
    forts: tuple[tuple[str, ...], ...] = ((),) * FORTS
    banners: tuple[str, ...] = ()  # fort i's banner, lying in the resource area
    resources: tuple[str, ...] = ()
    rested: frozenset[str] = frozenset()  # rested resources
    field: tuple[Creature, ...] = ()
    dice: tuple[Die, ...] = ()
    discard: tuple[str, ...] = ()
    lifted: tuple[str, ...] = ()  # broken barriers its owner is looking at (Fort Burst or take)
    mulliganed: bool = False

    def creature(self, card_id: str) -> Creature | None:
        for creature in self.field:
            if creature.id == card_id:
                return creature
        return None

    def standing_forts(self) -> list[int]:
        return [f for f in range(FORTS) if self.forts[f]]

    def on_fort(self, fort: int) -> list[Creature]:
        return [c for c in self.field if c.fort == fort]

    def shield_at(self, fort: int) -> int | None:
        for index, die in enumerate(self.dice):
            if die.use == "shield" and die.fort == fort:
                return index
        return None


@dataclass(frozen=True)
class Pending:
    """A step waiting in the queue: an effect to resolve, a Fort Burst choice, or the
    block step of the attack under way."""

    kind: str  # "effect" | "burst" | "block"
    seat: int  # who controls it (chooses targets, decides the burst or the block)
    source: str = ""  # the card it comes from
    where: str = ""  # "spell" | "burst" | "a<ability index>"
    index: int = 0  # which effect of that list

    def effect(self, rules: int) -> Effect:
        return card_of(self.source, rules).effect_list(self.where)[self.index]

    def as_json(self) -> list[Any]:
        return [self.kind, self.seat, self.source, self.where, self.index]


@dataclass(frozen=True)
class State:
    sides: tuple[Side, ...]
    decks: tuple[str, ...]  # deck names, for the table
    first: int
    active: int
    turn: int = 0
    phase: str = "mulligan"  # "mulligan" | "resource" | "main" | "combat" | "discard" | "over"
    pending: tuple[Pending, ...] = ()
    attack: tuple[str, int] | None = None  # attacker id and the fort it attacks
    winners: tuple[int, ...] = ()
    reason: str = ""
    rules: int = 1  # the rules revision the game was created under (games.base.rules_of)
    shields_match_banners: bool = False  # option of revision 3: revision 2's reading of where a Dragoshield goes

    def side(self, seat: int) -> Side:
        return self.sides[seat]

    @property
    def moves_once_a_turn(self) -> bool:
        """A creature moves or switches at most once a turn: revisions 1 and 2. From
        revision 3 the Main Phase sets no limit, as the rulebook lists it."""
        return self.rules < 3

    @property
    def shields_follow_banners(self) -> bool:
        """A Dragoshield goes only before a fort whose banner has its die's colour:
        revisions 1 and 2, and revision 3 with the option ``shields_match_banners``; else
        before any standing fort of its owner."""
        return self.rules < 3 or self.shields_match_banners


def stats(side: Side, creature: Creature, rules: int) -> tuple[int, int]:
    """Current ATK and EDR (damage not subtracted): printed stats, the Dragocross
    (+1/+1 and the printed bonus for its die) and [CONT] boosts."""
    card: Card = card_of(creature.id, rules)
    atk, edr = card.atk, card.edr
    if creature.cross is not None:
        die = side.dice[creature.cross]
        atk += 1
        edr += 1
        for bonus in card.cross:
            if bonus.colour == die.colour and bonus.low <= die.value <= bonus.high:
                atk += bonus.atk
                edr += bonus.edr
        boost = _boost(creature.id, rules, "crossed")
        atk += boost[0]
        edr += boost[1]
    for other in side.field:
        if other.fort == creature.fort and other.id != creature.id:
            boost = _boost(other.id, rules, "fort")
            atk += boost[0]
            edr += boost[1]
    return atk, edr


@cache
def _boost(card_id: str, rules: int, scope: str) -> tuple[int, int]:
    """The ATK and EDR the [CONT] abilities of a card give in ``scope`` ("fort": to its
    owner's other creatures on its fort; "crossed": to itself while Dragocrossed)."""
    abilities = [a for a in card_of(card_id, rules).abilities if a.timing == "CONT" and a.scope == scope]
    return sum(a.atk for a in abilities), sum(a.edr for a in abilities)


def remaining_edr(side: Side, creature: Creature, rules: int) -> int:
    return stats(side, creature, rules)[1] - creature.damage
