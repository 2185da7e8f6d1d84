"""The face of every card for the web client (``card_faces``): what each card of the
standard deck does in Fortress, built from the card facts of ``cards.py`` (``cards.json``),
never from numbers written here. Faces are keyed by the card's standard code without its
deck number (``"QH"``, ``"10S"``, ``"JK1"``): the client's ``faceKey`` drops the ``.<deck>``
of an id.
"""

from __future__ import annotations

from games.base import JSON
from games.cards import standard_deck
from games.fortress_siege.cards import (
    ANGEL,
    BARRAGE,
    BARRAGE_CARDS,
    CHARACTER,
    CHARACTER_NAMES,
    FACTS,
    FORTRESS,
    SHIELD_NAMES,
    SHIELD_SIZES,
    CardFacts,
)

SUIT_NAMES = {"C": "Clubs", "D": "Diamonds", "H": "Hearts", "S": "Spades"}
NUMBER_NAMES = {"A": "Ace"}
SHIELD_GROUPS = {2: "a pair", 3: "three of a kind"}
REACH_WORDS = {CHARACTER: "characters", FORTRESS: "Fortresses"}
ANGEL_TEXT = {
    "life": "brings a character back from any Graveyard to its owner's battlefield, bare",
    "death": "sends any character on a battlefield to its Graveyard, whatever its armor",
}


def face_key(card: str) -> str:
    """The key of a card id in the faces: its code without the deck number."""
    return card.rsplit(".", 1)[0]


def _reach(targets: frozenset[str]) -> str:
    return " and ".join(REACH_WORDS[target] for target in (CHARACTER, FORTRESS) if target in targets)


def _name(facts: CardFacts) -> str:
    if facts.kind == BARRAGE:
        return "Joker"
    rank = CHARACTER_NAMES.get(facts.rank) or NUMBER_NAMES.get(facts.rank) or facts.rank
    return f"{rank} of {SUIT_NAMES[facts.code[-1]]}"


def _shields_text(value: int) -> str:
    parts = []
    for size in sorted(SHIELD_SIZES):
        group = SHIELD_GROUPS.get(size, f"{size} of a kind")
        strike = f" and strikes back {value}" if SHIELD_SIZES[size] else ""
        parts.append(f"{group} blocks {value}{strike} ({SHIELD_NAMES[size]})")
    return ", ".join(parts)


def face(facts: CardFacts) -> dict[str, JSON]:
    """One card's face: name, type, colour, the numbers that matter and what it does."""
    colour = "red" if facts.red else "black"
    stats: list[dict[str, JSON]] = []
    if facts.kind == CHARACTER:
        kind = "Character"
        stats = [
            {"label": "attacks", "value": _reach(facts.attacks)},
            {"label": "blocks", "value": _reach(facts.guards)},
        ]
        text = (
            f"Deploy it, then armor and arm it with number cards. It attacks {_reach(facts.attacks)} "
            f"and may block attacks on your {_reach(facts.guards)}."
        )
    elif facts.kind == ANGEL:
        kind = f"Angel of {str(facts.angel).capitalize()}"
        other = "death" if facts.angel == "life" else "life"
        text = (
            f"Direct action, cannot be blocked: {ANGEL_TEXT[str(facts.angel)]}. "
            f"With Winds of Fate any Ace may instead be an Angel of {other.capitalize()}."
        )
    elif facts.kind == BARRAGE:
        kind = "Barrage"
        colour = "gold"
        stats = [{"label": "Fortress cards", "value": BARRAGE_CARDS}]
        text = f"Direct action, cannot be blocked: the top {BARRAGE_CARDS} cards of any Fortress go to its Graveyard."
    else:
        kind = "Number"
        stats = [{"label": "value", "value": facts.value}]
        text = f"Armor or a weapon worth {facts.value}; when attacked, {_shields_text(facts.value)}."
    return {"name": _name(facts), "type": kind, "colour": colour, "stats": stats, "text": text}


def card_faces(rules: int) -> dict[str, dict[str, JSON]]:
    """Every card of a deck by its code: the same for every deck number, and under every
    rules revision (``rules``; no revision changed a card)."""
    return {code: face(FACTS[f"{code}.0"]) for code in standard_deck(jokers=True)}
