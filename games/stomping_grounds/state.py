"""The immutable state of a game of Stomping Grounds: players' piles, the realm map,
the turn and phase, the stack of plays awaiting resolution and the choices owed."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

Pos = tuple[int, int]

PHASES = (
    "setup",
    "setup_dragons",
    "start",
    "challenge",
    "flight",
    "roam",
    "dragon",
    "reclaim",
    "end",
    "end_effects",
    "end_check",
    "over",
)


@dataclass(frozen=True)
class Player:
    deck_key: str
    deck: tuple[str, ...]  # index 0 is the top
    hand: tuple[str, ...] = ()
    stash: tuple[str, ...] = ()  # the last card is the top
    junk: tuple[str, ...] = ()  # the last card is the top
    burned: tuple[str, ...] = ()  # the last card is the top
    hoard: tuple[str, ...] = ()
    dragon: Pos | None = None
    seen_in_hand: frozenset[str] = frozenset()  # hand cards every seat saw arrive
    known_bottom: int = 0  # cards at the deck bottom whose order every seat saw (junk put under)
    luck_bonus: int = 0  # this turn
    extra_luck: int = 0  # extra luck draws this turn

    @property
    def remaining(self) -> int:
        """Cards that still keep this dragon from winning: deck, stash and junk."""
        return len(self.deck) + len(self.stash) + len(self.junk)


@dataclass(frozen=True)
class Realm:
    card: str
    owner: int
    at: Pos
    razed: bool = False
    challenge: str | None = None
    controller: int | None = None  # who controls the challenge card on it
    challenge_razed: bool = False  # the challenge was on the realm when it was razed


@dataclass(frozen=True)
class Item:
    """A play on the stack, resolved last-in-first-out once every seat has passed."""

    kind: str  # "action" | "challenge" | "duel"
    seat: int
    card: str | None = None
    at: Pos | None = None
    opponent: int | None = None
    colour: str | None = None
    cancelled: bool = False


@dataclass(frozen=True)
class Owed:
    """A choice a seat owes before play goes on (burn 2, raze a realm, place a realm ...)."""

    seat: int
    kind: str
    count: int = 1
    detail: str | None = None  # card type searched for; the seat pushed; a break's highest cost; as text


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    realms: tuple[Realm, ...]
    turn_limit: int | None  # rounds; None: no limit
    rules: int = 1  # the rules revision the game is played under (games.base.rules_of)
    stated: bool = False  # the creator stated the deck order: setup keeps it as given, unshuffled
    phase: str = "setup"
    active: int = 0
    first: int = 0
    turn: int = 0
    stack: tuple[Item, ...] = ()
    priority: int | None = None
    passes: int = 0
    closing: bool = False  # revision 2: the active player ended the phase; its window is open
    owed: tuple[Owed, ...] = ()
    path: tuple[Pos, ...] = ()
    roamed: tuple[str, ...] = ()
    dueled: tuple[int, ...] = ()
    attempted: bool = False
    winners: tuple[int, ...] | None = None
    reason: str = ""

    @cached_property
    def where(self) -> dict[Pos, int]:
        """Realm index by position."""
        return {realm.at: index for index, realm in enumerate(self.realms)}

    @property
    def count(self) -> int:
        return len(self.players)
