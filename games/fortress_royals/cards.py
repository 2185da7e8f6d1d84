"""The card data of Fortress (royals in hand), read once from ``cards.json``, where each
entry gives the rulebook line it comes from (or says it is ours): everything the rules
need to know about a card is looked up here by its id (``"QH"``, ``"10S"``): its rank,
its strength in an attack, its value in the first-player draw, whether it is a royal or
an Ace, and what it scores; with the deck, the hand sizes and the target scores.
"""

from __future__ import annotations

import json
from importlib import resources

_DATA = json.loads(resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))

SUITS: tuple[str, ...] = tuple(_DATA["deck"]["suits"])
RANKS: tuple[str, ...] = tuple(entry["rank"] for entry in _DATA["ranks"])
DEALT: int = _DATA["hand"]["dealt"]
FORTIFIED: int = _DATA["hand"]["fortified"]
TARGET_SCORES: dict[int, int] = {entry["players"]: entry["score"] for entry in _DATA["target_scores"]}

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)

RANK: dict[str, str] = {}
STRENGTH: dict[str, int] = {}
DRAW_VALUE: dict[str, int] = {}
ROYAL: dict[str, bool] = {}
ACE: dict[str, bool] = {}
CAPTURED_POINTS: dict[str, int] = {}
PROTECTED_POINTS: dict[str, int] = {}
TAKEN_IN_DEFENCE_POINTS: dict[str, int] = {}

for _entry in _DATA["ranks"]:
    for _suit in SUITS:
        _card = _entry["rank"] + _suit
        RANK[_card] = _entry["rank"]
        STRENGTH[_card] = _entry["strength"]
        DRAW_VALUE[_card] = _entry["draw"]
        ROYAL[_card] = _entry["royal"]
        ACE[_card] = _entry["ace"]
        CAPTURED_POINTS[_card] = _entry.get("captured_points", 0)
        PROTECTED_POINTS[_card] = _entry.get("protected_points", 0)
        TAKEN_IN_DEFENCE_POINTS[_card] = _entry.get("taken_in_defence_points", 0)
