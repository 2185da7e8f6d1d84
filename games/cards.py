"""Standard playing cards with short codes: ``QH``, ``10S``, ``AC``, ``JK1``.

Ranks carry no value here: each game maps ranks to values itself (Ace high or low,
royals worth 0, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

SUITS = ("C", "D", "H", "S")
RED_SUITS = frozenset({"D", "H"})
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKERS = ("JK1", "JK2")


def standard_deck(jokers: bool = False) -> list[str]:
    """The 52 cards (54 with two Jokers) in a fixed, unshuffled order."""
    cards = [rank + suit for suit in SUITS for rank in RANKS]
    return cards + list(JOKERS) if jokers else cards


def is_joker(card: str) -> bool:
    return card.startswith("JK")


def rank(card: str) -> str:
    """``"10"`` for ``"10S"``; ``"JK"`` for a Joker."""
    return "JK" if is_joker(card) else card[:-1]


def suit(card: str) -> str | None:
    return None if is_joker(card) else card[-1]


def is_red(card: str) -> bool:
    return suit(card) in RED_SUITS


def check_deck(cards: Sequence[str], expected: Sequence[str]) -> list[str]:
    """Problems with an explicit deck order: every expected card exactly once."""
    problems = []
    unknown = sorted(set(cards) - set(expected))
    missing = sorted(set(expected) - set(cards))
    if unknown:
        problems.append("unknown cards: " + ", ".join(unknown))
    if missing:
        problems.append("missing cards: " + ", ".join(missing))
    if len(cards) != len(set(cards)):
        problems.append("a card appears more than once")
    return problems
