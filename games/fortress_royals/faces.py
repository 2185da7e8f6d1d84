"""The face of every card for the web client (``card_faces``, as ``GameBase.card_faces``
describes it): what a card's rank means in this game, read from the card data of
``cards.py`` (``cards.json``). Cards are keyed by their id (``"QH"``, ``"10S"``), as views
and actions name them. A number card's face gives its strength; a royal's its strength
(0) and the points it scores kept in hand or captured by an attack.
"""

from __future__ import annotations

from games.base import JSON
from games.fortress_royals.cards import (
    ACE,
    CAPTURED_POINTS,
    DECK,
    PROTECTED_POINTS,
    RANK,
    ROYAL,
    STRENGTH,
    TAKEN_IN_DEFENCE_POINTS,
)

RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
RED_SUITS = frozenset({"D", "H"})


def _points(number: int) -> str:
    return f"{number} point" if number == 1 else f"{number} points"


def _text(card: str) -> str:
    strength = STRENGTH[card]
    if ROYAL[card]:
        kept, captured = PROTECTED_POINTS[card], CAPTURED_POINTS[card]
        taken = TAKEN_IN_DEFENCE_POINTS[card]
        if kept == captured == taken:
            scoring = f"Scores {_points(kept)} kept in your hand at the round's end or captured."
        elif captured == taken:
            scoring = f"Scores {_points(kept)} kept in your hand at the round's end, {_points(captured)} captured."
        else:
            scoring = (
                f"Scores {_points(kept)} kept in your hand at the round's end, {_points(captured)} "
                f"captured by your attack, {_points(taken)} taken from an attacker."
            )
        return f"A royal, strength {strength}: one attack card breaks it when it stands alone at an end. {scoring}"
    if ACE[card]:
        return (
            f"Attacks and blocks with strength {strength}. On your turn you may discard it "
            "instead of attacking, then draw a card and put it at an end of your hand."
        )
    return f"Attacks and blocks with strength {strength}: alone it breaks a lone card of strength {strength} or less."


def face(card: str) -> dict[str, JSON]:
    rank, suit = RANK[card], card[len(RANK[card]) :]
    stats: list[dict[str, JSON]] = [{"label": "strength", "value": STRENGTH[card]}]
    if ROYAL[card]:
        stats.append({"label": "kept", "value": PROTECTED_POINTS[card]})
        stats.append({"label": "captured", "value": CAPTURED_POINTS[card]})
    kind = "Royal" if ROYAL[card] else "Ace" if ACE[card] else "Number card"
    return {
        "name": f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}",
        "type": kind,
        "colour": "red" if suit in RED_SUITS else "black",
        "stats": stats,
        "text": _text(card),
    }


def card_faces(rules: int) -> dict[str, dict[str, JSON]]:
    """Every card of the deck by its id, the same under every rules revision (``rules``;
    no revision changed a card)."""
    return {card: face(card) for card in DECK}
