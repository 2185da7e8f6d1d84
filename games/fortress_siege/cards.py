"""Card facts for Fortress, read once from ``cards.json`` beside this module: the limits,
the ranks and what each does, the shields, and every physical card's ``CardFacts``. Card
ids are the standard code (``games.cards``) plus ``.<deck>``: ``QH.0``, ``10S.1``,
``JK2.0``. In the standard game deck ``i`` belongs to seat ``i``; in Winds of Fate the
decks are shuffled together and the suffix only tells the copies apart.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from games.base import TABLE_SIZE
from games.cards import is_red, rank, standard_deck

_DATA: dict[str, Any] = json.loads(resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8"))

MOVES_PER_TURN: int = _DATA["limits"]["moves_per_turn"]["value"]
HAND_LIMIT: int = _DATA["limits"]["hand_limit"]["value"]
DECK_SIZE: int = _DATA["deck"]["size"]
PLAYERS_PER_SHARED_DECK: int = _DATA["winds_of_fate"]["players_per_deck"]
MIN_PLAYERS: int = _DATA["players"]["min"]
BARRAGE_CARDS: int = _DATA["ranks"]["JK"]["fortress_cards"]
SHIELD_SIZES: dict[int, bool] = {int(size): spec["counterattack"] for size, spec in _DATA["shields"].items()}
SHIELD_NAMES: dict[int, str] = {int(size): spec["name"] for size, spec in _DATA["shields"].items()}
CHARACTER_NAMES: dict[str, str] = {name: spec["name"] for name, spec in _DATA["ranks"].items() if "name" in spec}
_DESTINY = {name: place for place, name in enumerate(_DATA["destiny_order"]["value"])}

CHARACTER = "character"
NUMBER = "number"
ANGEL = "angel"
BARRAGE = "barrage"
FORTRESS = "fortress"


@dataclass(frozen=True)
class CardFacts:
    """What one physical card is in Fortress."""

    id: str
    code: str
    deck: int
    rank: str
    kind: str
    value: int  # a numbered card's value, else 0
    destiny: int  # place in the Tombstone order, higher starts
    red: bool
    attacks: frozenset[str]  # for characters: "character" and/or "fortress"
    guards: frozenset[str]
    angel: str | None  # "life" or "death" for an Ace in the standard game


def _facts(code: str, deck: int) -> CardFacts:
    name = rank(code)
    spec = _DATA["ranks"][name]
    red = is_red(code)
    return CardFacts(
        id=f"{code}.{deck}",
        code=code,
        deck=deck,
        rank=name,
        kind=spec["kind"],
        value=spec.get("value", 0),
        destiny=_DESTINY[name],
        red=red,
        attacks=frozenset(spec.get("attacks", ())),
        guards=frozenset(spec.get("guards", ())),
        angel=(spec["red"] if red else spec["black"]) if spec["kind"] == ANGEL else None,
    )


def deck_ids(deck: int) -> list[str]:
    """The 54 ids of one deck, in the fixed unshuffled order of ``games.cards``."""
    return [f"{code}.{deck}" for code in standard_deck(jokers=True)]


@lru_cache(maxsize=64)
def _deck_facts(deck: int) -> dict[str, CardFacts]:
    return {facts.id: facts for facts in (_facts(code, deck) for code in standard_deck(jokers=True))}


class CardTable(dict[str, CardFacts]):
    """Every physical card's ``CardFacts`` by id, for any number of decks: the rulebook
    sets no largest table, so the decks of the usual tables are kept and a larger table's
    are made when asked for (kept a while, not for ever: an id in a refused action must
    not grow the table)."""

    def __missing__(self, card_id: str) -> CardFacts:
        _, dot, deck = card_id.rpartition(".")
        if not dot or not (deck.isascii() and deck.isdigit()) or len(deck) > 6 or deck != str(int(deck)):
            raise KeyError(card_id)
        return _deck_facts(int(deck))[card_id]

    def __contains__(self, card_id: object) -> bool:
        if not isinstance(card_id, str):
            return False
        try:
            self[card_id]
        except KeyError:
            return False
        return True


FACTS = CardTable({card_id: facts for deck in range(TABLE_SIZE) for card_id, facts in _deck_facts(deck).items()})
