"""The Dragoborne card pool and pre-built decks, read once from the JSON files beside
this module, and the deck-building rules that check a deck list.

Abilities are data: each is a timing ([ACT], [AUTO], [CONT]) and a list of effects
built from a few primitives the engine interprets (``draw``, ``damage``, ``destroy``,
``barrier``, ``stand``, ``rest``, ``bounce``, ``reroll``, ``search``). Replacing
``cards.json`` with another set changes the game without touching the rules code.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

COLOURS = ("red", "blue", "yellow", "green", "black")
WHITE = "white"  # a cost that any coloured die pays (rulebook: "When a card asks for a white die")
DECK_MINIMUM = 50  # rulebook: "A deck consisting of 50 or more cards, not including banners."
COPIES_MAXIMUM = 4  # rulebook: "A maximum of four cards of the same name may be included in a deck."
DICE_PER_PLAYER = 3  # rulebook: "3 Dice", "3 Banners, each banner matching the color of a dice"
FORTS = 3  # rulebook: "Three banners are placed behind each of a player's forts"
OPENING_HAND = 5  # rulebook: "draw 5 cards from the deck"
BARRIERS_PER_FORT = 2  # rulebook: "Place 2 cards from the top of the deck face down onto each fort"
HAND_LIMIT = 7  # rulebook: "more than 7 cards in their hand, they must discard"
CREATURES_PER_FORT = 2  # rulebook: "Each fort may have up to two creatures on top of it."
SECOND_PLAYER_EXTRA_CARDS = 1  # variant, not in the rulebook: option second_player_extra_card (RULINGS.md)

TARGETED = {
    "damage": "enemy creature",
    "destroy": "enemy creature",
    "rest": "standing enemy creature",
    "bounce": "enemy creature",
    "stand": "resting creature of yours",
    "barrier": "fort of yours",
    "reroll": "unassigned die of yours",
}
UNTARGETED = ("draw", "search")


@dataclass(frozen=True)
class Effect:
    op: str
    amount: int = 0
    max_edr: int = 0
    card_type: str = ""
    colour: str = ""

    @property
    def targeted(self) -> bool:
        return self.op in TARGETED


@dataclass(frozen=True)
class Bonus:
    """A printed Dragocross bonus: a die of ``colour`` showing min..max adds atk/edr."""

    colour: str
    low: int
    high: int
    atk: int
    edr: int


@dataclass(frozen=True)
class Ability:
    timing: str  # "ACT" | "AUTO" | "CONT"
    effects: tuple[Effect, ...] = ()
    trigger: str = ""  # AUTO: "summoned" | "attacks" | "destroyed" | "barrier_broken"
    rest_cost: bool = False  # ACT: rest this creature
    resource_cost: int = 0  # ACT: rest that many resources of any colour
    die_cost: str = ""  # ACT: spend an unassigned die of this colour ("white": any)
    scope: str = ""  # CONT: "fort" (your other creatures on this fort) | "crossed" (itself, while crossed)
    atk: int = 0
    edr: int = 0


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    type: str  # "creature" | "spell" | "banner"
    colour: str
    cost: int
    atk: int
    edr: int
    cross: tuple[Bonus, ...]
    abilities: tuple[Ability, ...]
    effects: tuple[Effect, ...]  # a spell's effects
    burst: tuple[Effect, ...]  # Fort Burst effects (empty: none)
    text: str

    def triggers(self, trigger: str) -> list[int]:
        return [i for i, a in enumerate(self.abilities) if a.timing == "AUTO" and a.trigger == trigger]

    def effect_list(self, where: str) -> tuple[Effect, ...]:
        """``where`` is ``"spell"``, ``"burst"`` or ``"a<index>"`` (an ability)."""
        if where == "spell":
            return self.effects
        if where == "burst":
            return self.burst
        return self.abilities[int(where[1:])].effects


def _effect(raw: Mapping[str, Any]) -> Effect:
    return Effect(
        op=raw["op"],
        amount=raw.get("amount", 0),
        max_edr=raw.get("max_edr", 0),
        card_type=raw.get("card_type", ""),
        colour=raw.get("colour", ""),
    )


def _ability(raw: Mapping[str, Any]) -> Ability:
    cost = raw.get("cost", {})
    return Ability(
        timing=raw["timing"],
        effects=tuple(_effect(e) for e in raw.get("effects", ())),
        trigger=raw.get("trigger", ""),
        rest_cost=bool(cost.get("rest", False)),
        resource_cost=cost.get("resources", 0),
        die_cost=cost.get("die", ""),
        scope=raw.get("scope", ""),
        atk=raw.get("atk", 0),
        edr=raw.get("edr", 0),
    )


def _card(raw: Mapping[str, Any]) -> Card:
    return Card(
        key=raw["key"],
        name=raw["name"],
        type=raw["type"],
        colour=raw["colour"],
        cost=raw.get("cost", 0),
        atk=raw.get("atk", 0),
        edr=raw.get("edr", 0),
        cross=tuple(Bonus(b["colour"], b["min"], b["max"], b["atk"], b["edr"]) for b in raw.get("cross", ())),
        abilities=tuple(_ability(a) for a in raw.get("abilities", ())),
        effects=tuple(_effect(e) for e in raw.get("effects", ())),
        burst=tuple(_effect(e) for e in raw.get("burst", ())),
        text=raw["text"],
    )


def _load(name: str) -> Any:
    return json.loads(resources.files(__package__).joinpath(name).read_text(encoding="utf-8"))


CARDS: dict[str, Card] = {raw["key"]: _card(raw) for raw in _load("cards.json")["cards"]}
DECKS: dict[str, dict[str, Any]] = {raw["key"]: raw for raw in _load("decks.json")["decks"]}
"""The pool and decks of rules revision 1, as stored games were played with them."""

REVISION_2 = _load("revision2.json")
"""Rules revision 2's changes to the pool and the decks: whole entries that replace
revision 1's of the same key, so ``cards.json`` and ``decks.json`` stay what revision 1 plays."""
CARDS_2: dict[str, Card] = CARDS | {raw["key"]: _card(raw) for raw in REVISION_2["cards"]}
DECKS_2: dict[str, dict[str, Any]] = DECKS | {raw["key"]: raw for raw in REVISION_2["decks"]}

REVISION_4 = _load("revision4.json")
"""Rules revision 4's changes to the pool (stronger Fort Bursts, for the first player's lead):
whole entries that replace revision 2's of the same key, so revisions 1 to 3 play as before."""
CARDS_4: dict[str, Card] = CARDS_2 | {raw["key"]: _card(raw) for raw in REVISION_4["cards"]}
DECKS_4: dict[str, dict[str, Any]] = DECKS_2 | {raw["key"]: raw for raw in REVISION_4["decks"]}


def cards_of(rules: int) -> dict[str, Card]:
    """The card pool of a rules revision (revision 3 plays revision 2's)."""
    return CARDS if rules < 2 else CARDS_2 if rules < 4 else CARDS_4


def decks_of(rules: int) -> dict[str, dict[str, Any]]:
    """The pre-built decks of a rules revision (revision 3 plays revision 2's)."""
    return DECKS if rules < 2 else DECKS_2 if rules < 4 else DECKS_4


def instance_id(seat: int, key: str, copy: int) -> str:
    """``0-emberhound-2``: seat, card, copy (copies count from 1)."""
    return f"{seat}-{key}-{copy}"


def key_of(card_id: str) -> str:
    """``0-emberhound-2`` -> ``emberhound``."""
    return card_id.split("-", 1)[1].rsplit("-", 1)[0]


@cache
def card_of(card_id: str, rules: int) -> Card:
    """The card an instance id names, as the rules revision ``rules`` prints it."""
    return cards_of(rules)[key_of(card_id)]


def owner_of(card_id: str) -> int:
    return int(card_id.split("-", 1)[0])


def expand(seat: int, keys: list[str]) -> list[str]:
    """Instance ids for a list of card keys, numbering the copies of each name."""
    seen: Counter[str] = Counter()
    out = []
    for key in keys:
        seen[key] += 1
        out.append(instance_id(seat, key, seen[key]))
    return out


def deck_problems(deck: Any, who: str, rules: int = 1) -> list[str]:
    """Every way ``deck`` (a pre-built deck key or a custom list) breaks deck building."""
    pool, decks = cards_of(rules), decks_of(rules)
    if isinstance(deck, str):
        return [] if deck in decks else [f"{who} names an unknown pre-built deck '{deck}'."]
    if not isinstance(deck, dict):
        return [f"{who} must be a pre-built deck name or an object with cards, banners and dice."]
    problems = [f"{who} has an unknown field '{name}'." for name in deck if name not in ("cards", "banners", "dice")]
    cards, banners, dice = deck.get("cards"), deck.get("banners"), deck.get("dice")
    if not isinstance(cards, dict) or not all(isinstance(n, int) and not isinstance(n, bool) for n in cards.values()):
        problems.append(f"{who} must list its cards as an object of card name to number of copies.")
        cards = {}
    for key, count in cards.items():
        card = pool.get(key)
        if card is None:
            problems.append(f"{who} lists '{key}', which is not a card of the pool.")
        elif card.type == "banner":
            problems.append(f"{who} lists the banner '{key}' among its cards; banners go under 'banners'.")
        if count < 1:
            problems.append(f"{who} lists {count} copies of '{key}'; list a card at least once or leave it out.")
        elif count > COPIES_MAXIMUM:
            problems.append(f"{who} has {count} copies of '{key}'; at most {COPIES_MAXIMUM} of a name are allowed.")
    total = sum(n for n in cards.values() if n > 0)
    if total < DECK_MINIMUM:
        problems.append(f"{who} has {total} cards; a deck needs {DECK_MINIMUM} or more, not counting banners.")
    banner_colours: list[str] = []
    if not isinstance(banners, list) or len(banners) != FORTS:
        problems.append(f"{who} needs exactly {FORTS} banners.")
    else:
        for key in banners:
            card = pool.get(key) if isinstance(key, str) else None
            if card is None or card.type != "banner":
                problems.append(f"{who} lists '{key}' as a banner, but it is not one.")
            else:
                banner_colours.append(card.colour)
    if not isinstance(dice, list) or len(dice) != DICE_PER_PLAYER:
        problems.append(f"{who} needs exactly {DICE_PER_PLAYER} dice.")
    elif any(colour not in COLOURS for colour in dice):
        problems.append(f"{who} has a die of an unknown colour; dice are {', '.join(COLOURS)}.")
    elif len(banner_colours) == FORTS and sorted(banner_colours) != sorted(dice):
        problems.append(
            f"{who} has banners of colours {', '.join(sorted(banner_colours))} but dice of colours "
            f"{', '.join(sorted(dice))}; each banner must match the colour of a die."
        )
    return problems


def deck_spec(deck: Any, rules: int = 1) -> dict[str, Any]:
    """A checked deck (pre-built key or custom list) as ``{cards, banners, dice}``."""
    return decks_of(rules)[deck] if isinstance(deck, str) else deck


def deck_keys(spec: Mapping[str, Any]) -> list[str]:
    return [key for key, count in sorted(spec["cards"].items()) for _ in range(count)]
