"""The table of Dragon Fortress as immutable values: the ``State``, its parts (each seat's
``Estate``, the ``Pending`` sacrifice decision, the ``Rules`` a game is decided by), the
steps of a turn and ``dragon_at``. An Estate Line is a tuple of card ids from the card next
to the Estate Flag (index 0) to the Front Line (the last index); a dragon in the line is one
of its entries, so "in front of the dragon" is a lower index and "behind it" a higher one.
Piles and the supply are tuples with their top card first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import rules_of
from games.dragon_fortress.cards import DRAGON_IDS, UPGRADES

STEP_MOVE = "move"  # 1. Estate Move (then the dragon in the line moves)
STEP_SACRIFICE = "sacrifice"  # a dragon just passed over the Dragon Tower: sacrifice it or not
STEP_ACQUIRE = "acquire"  # 2. draw, purchase or advance
STEP_PLACE = "place"  # 3. Front Line placement from hand
STEP_OVER = "over"


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game is decided by: its rules revision (``games.base.rules_of``) and, under
    revision 2, the options that keep a reading of revision 1 (each on under revision 1)."""

    revision: int = 1
    flee_home: bool = True  # a dragon with nowhere else to go flees back to the player it left
    purchases_carry_over: bool = True  # a phase's unused purchase of a type may be made later
    gold_spent: bool = False  # a purchase pays its Gold Cost from the Estate Line

    @property
    def gates_stay_at_front(self) -> bool:
        """Revision 2: new cards enter behind every Gate Tower, even one a dragon stands
        beyond, so a Gate Tower is never buried."""
        return self.revision >= 2


def rules_from(options: Mapping[str, Any]) -> Rules:
    revision = rules_of(options)
    if revision < 2:
        return Rules()
    return Rules(
        revision=revision,
        flee_home=bool(options.get("flee_home")),
        purchases_carry_over=bool(options.get("purchases_carry_over")),
        gold_spent=not options.get("gold_kept"),
    )


@dataclass(frozen=True, slots=True)
class Estate:
    """One player's side of the table."""

    flag: str
    line: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    trophies: tuple[str, ...] = ()
    reached: int = 0  # the highest phase advanced to (0 none, 1 Fallow, 2 Meadow, 3 Pasture)
    bought: tuple[int, ...] = (0,) * len(UPGRADES)  # purchases per upgrade type
    bought_this_phase: tuple[int, ...] = (0,) * len(UPGRADES)  # since the last advance
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
class State:
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
    rules: Rules = Rules()


Table = State
"""The name ``State`` had in earlier versions: fork events written by them name
``games.dragon_fortress.state:Table`` in their encoded state, and must still decode."""


def dragon_at(line: tuple[str, ...]) -> int | None:
    """Index of the dragon in a line (a line never holds two), else None."""
    for index, card in enumerate(line):
        if card in DRAGON_IDS:
            return index
    return None
