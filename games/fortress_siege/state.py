"""The state of a game of Fortress, as immutable values: the ``State`` of the table, each
seat's ``Player`` piles, the ``Character``s on a battlefield with what they carry, and an
``Attack`` waiting for its answer, with the small pure accessors the rules, the views and
the bots read them through (a character's armor left and power, who owns a character).
How each event changes these values lives in ``evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.fortress_siege.cards import FACTS


@dataclass(frozen=True)
class Character:
    """A character card on a battlefield with what it carries."""

    card: str
    armor: str | None = None
    weapon: str | None = None
    wounds: int = 0

    @property
    def armor_left(self) -> int:
        return FACTS[self.armor].value - self.wounds if self.armor else 0

    @property
    def power(self) -> int:
        return FACTS[self.weapon].value if self.weapon else 0

    def cards(self) -> list[str]:
        return [card for card in (self.card, self.armor, self.weapon) if card]


@dataclass(frozen=True)
class Player:
    """One seat's piles. ``fortress`` is top first; its last card is the Tombstone."""

    fortress: tuple[str, ...]
    tombstone: str
    hand: tuple[str, ...] = ()
    battlefield: tuple[Character, ...] = ()
    graveyard: tuple[str, ...] = ()
    in_game: bool = True

    def character(self, card: str) -> Character | None:
        for character in self.battlefield:
            if character.card == card:
                return character
        return None


@dataclass(frozen=True)
class Attack:
    """An attack waiting for the defender's answer."""

    seat: int
    attacker: str
    target_seat: int
    target: str | None  # a character id, or None for the Fortress
    power: int
    defenders: tuple[str, ...] = ()
    shields: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True)
class State:
    players: tuple[Player, ...]
    winds_of_fate: bool
    fixed_deal: bool
    set_aside: tuple[str, ...] = ()
    active: int = -1
    moves_left: int = 0
    attack: Attack | None = None  # the attack being answered
    several_attackers: bool = False  # rules 2: one attack move may send several characters
    charge: tuple[Attack, ...] = ()  # rules 2: declared in the same move, waiting for an answer
    answered: tuple[Attack, ...] = ()  # rules 2: answered, waiting for the others to be
    first: int = -1  # the starting player

    @property
    def declaring(self) -> bool:
        """The attacking player is still declaring attackers (rules 2)."""
        return self.attack is None and bool(self.charge)

    @property
    def in_game(self) -> list[int]:
        return [seat for seat, player in enumerate(self.players) if player.in_game]

    @property
    def over(self) -> bool:
        """At most one player is still in the game. Asked several times a move (who acts,
        is it over, does the turn pass), so it stops at the second player standing."""
        standing = 0
        for player in self.players:
            if player.in_game:
                if standing:
                    return False
                standing = 1
        return True


def owner_of_character(state: State, card: str) -> int | None:
    """The seat whose battlefield holds ``card``, if any."""
    for seat, player in enumerate(state.players):
        if player.character(card) is not None:
            return seat
    return None
