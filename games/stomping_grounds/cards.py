"""The card data: four pre-made 60-card decks, one JSON file per dragon in ``decks/``.

Cards are data. Every card states every field of the printed card (name, cost, deck icon,
luck, type, border, challenge colour, number and effect, Roam X, Requires X, timing, text;
null where a field does not apply) and its ``source``: the rulebook's or ours. An effect is
a list of primitives (``{"op", "n", "target"}``) that ``rules.py`` interprets; no card name
appears in the rules code. A printed set could replace the files without touching the rules.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import Any

CARD_TYPES = ("realm", "challenge", "hoard", "action")
COLOURS = ("red", "white", "blue")
OPS = frozenset(
    {
        "burn",
        "stash",
        "draw",
        "junk",
        "return",
        "raze",
        "move_dragon",
        "luck",
        "draw_luck",
        "roam",
        "cancel",
        "search",
        "break",
    }
)
TARGETS = frozenset({"self", "controller", "active", "opponents"})
TRIGGERS = frozenset({"your_start", "each_start", "your_end", "each_end"})
TIMINGS = frozenset({"reclaim", "challenge", "opponent"})


@dataclass(frozen=True)
class Effect:
    op: str
    n: int
    target: str
    card_type: str | None = None
    max_cost: int | None = None  # a break: only a hoard that costs this much or less


@dataclass(frozen=True)
class Card:
    slug: str
    name: str
    type: str
    deck: str
    cost: int
    luck: int
    text: str
    kind: str | None = None
    border: str | None = None
    colour: str | None = None
    number: int | None = None
    effect: tuple[Effect, ...] = ()
    landing: tuple[Effect, ...] = ()
    trigger_when: str | None = None
    trigger: tuple[Effect, ...] = ()
    bonus_colour: str | None = None
    bonus_luck: int = 0
    roam: int = 0
    requires: str | None = None
    timing: str = "reclaim"
    play_on_kind: str | None = None
    play_on_unoccupied: bool = False


def _effects(raw: list[dict[str, Any]]) -> tuple[Effect, ...]:
    out = []
    for item in raw:
        if item["op"] not in OPS or item["target"] not in TARGETS:
            raise ValueError(f"unknown effect {item}")
        if item["op"] == "search" and item.get("card_type") not in ("realm", "hoard"):
            raise ValueError(f"a search finds a realm or a hoard, not {item.get('card_type')!r}")
        max_cost = item.get("max_cost")
        if max_cost is not None and (item["op"] != "break" or not isinstance(max_cost, int)):
            raise ValueError(f"only a break has a whole-number max_cost: {item}")
        out.append(Effect(item["op"], int(item["n"]), item["target"], item.get("card_type"), max_cost))
    return tuple(out)


FIELDS = (
    "slug",
    "name",
    "count",
    "deck",
    "type",
    "cost",
    "luck",
    "kind",
    "border",
    "colour",
    "number",
    "effect",
    "roam",
    "requires",
    "timing",
    "play_on",
    "landing",
    "trigger",
    "bonus",
    "text",
    "source",
)
BORDERED = ("realm", "challenge")


def _check(raw: dict[str, Any], deck: str) -> None:
    """Every card states every field (null where it does not apply), with sane values."""
    name = raw.get("name", raw.get("slug"))
    if set(raw) != set(FIELDS):
        raise ValueError(f"card {name!r}: fields {sorted(set(raw) ^ set(FIELDS))} missing or unknown")
    kind = raw["type"]
    if kind not in CARD_TYPES:
        raise ValueError(f"card {name!r}: unknown card type {kind!r}")
    if raw["deck"] != deck:
        raise ValueError(f"card {name!r}: deck icon {raw['deck']!r} in the {deck!r} deck")
    if not isinstance(raw["luck"], int) or not isinstance(raw["cost"], int) or raw["cost"] < 0:
        raise ValueError(f"card {name!r}: luck and cost are whole numbers")
    bordered = raw["border"] in ("white", "black") if kind in BORDERED else raw["border"] is None
    if not bordered:
        raise ValueError(f"card {name!r}: realms and challenges have a white or black border, others none")
    if kind == "challenge":
        coloured = raw["colour"] in COLOURS and isinstance(raw["number"], int)
    else:
        coloured = raw["colour"] is None and raw["number"] is None
    if not coloured:
        raise ValueError(f"card {name!r}: a challenge (and only a challenge) has a colour and a number")
    if raw["roam"] and kind != "challenge":
        raise ValueError(f"card {name!r}: only challenges roam")
    if raw["timing"] not in TIMINGS or (kind != "action" and raw["timing"] != "reclaim"):
        raise ValueError(f"card {name!r}: timing {raw['timing']!r}; only actions play outside the reclaim phase")
    if raw["trigger"] is not None and raw["trigger"]["when"] not in TRIGGERS:
        raise ValueError(f"card {name!r}: unknown trigger {raw['trigger']['when']!r}")
    if not raw["source"].startswith(("ours:", "rulebook:")):
        raise ValueError(f"card {name!r}: the source says whether it is ours or the rulebook's")


def parse_card(raw: dict[str, Any], deck: str) -> Card:
    _check(raw, deck)
    trigger = raw["trigger"] or {}
    bonus = raw["bonus"] or {}
    play_on = raw["play_on"] or {}
    return Card(
        slug=raw["slug"],
        name=raw["name"],
        type=raw["type"],
        deck=deck,
        cost=int(raw["cost"]),
        luck=int(raw["luck"]),
        text=raw["text"],
        kind=raw["kind"],
        border=raw["border"],
        colour=raw["colour"],
        number=raw["number"],
        effect=_effects(raw["effect"]),
        landing=_effects(raw["landing"]),
        trigger_when=trigger.get("when"),
        trigger=_effects(trigger.get("effect", [])),
        bonus_colour=bonus.get("colour"),
        bonus_luck=int(bonus.get("luck", 0)),
        roam=int(raw["roam"]),
        requires=raw["requires"],
        timing=raw["timing"],
        play_on_kind=play_on.get("kind"),
        play_on_unoccupied=bool(play_on.get("unoccupied", False)),
    )


def _load() -> tuple[dict[str, Card], dict[str, tuple[str, ...]], dict[str, dict[str, str]]]:
    cards: dict[str, Card] = {}
    decks: dict[str, tuple[str, ...]] = {}
    about: dict[str, dict[str, str]] = {}
    folder = resources.files(__package__).joinpath("decks")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        raw = json.loads(entry.read_text(encoding="utf-8"))
        key = raw["key"]
        order: list[str] = []
        for item in raw["cards"]:
            card = parse_card(item, key)
            if card.slug in cards:
                raise ValueError(f"card {card.slug!r} appears in two decks")
            cards[card.slug] = card
            order += [card.slug] * int(item["count"])
        hoards = {c.name for c in cards.values() if c.deck == key and c.type == "hoard"}
        needing = [c.name for c in cards.values() if c.deck == key and c.requires not in (None, *hoards)]
        if needing:
            raise ValueError(f"deck {key!r}: {needing} require a hoard the deck does not hold")
        if len(order) != 60:
            raise ValueError(f"deck {key!r} has {len(order)} cards, not 60")
        decks[key] = tuple(order)
        about[key] = {"dragon": raw["dragon"], "description": raw["description"]}
    return cards, decks, about


OVERLAID = ("effect", "landing", "trigger", "bonus", "requires", "cost", "luck", "text")


def _overlay(cards: dict[str, Card], revision: int) -> dict[str, Card]:
    """The cards of a later rules revision: the deck files with ``revision<N>.json``'s
    changes laid over them (each entry replaces the fields it names)."""
    raw = json.loads(resources.files(__package__).joinpath(f"revision{revision}.json").read_text(encoding="utf-8"))
    out = dict(cards)
    decks = {key: json.loads(entry.read_text(encoding="utf-8")) for key, entry in _deck_files().items()}
    originals = {item["slug"]: (key, item) for key, deck in decks.items() for item in deck["cards"]}
    for slug, change in raw["cards"].items():
        key, item = originals[slug]
        unknown = set(change) - {*OVERLAID, "why"}
        if unknown:
            raise ValueError(f"revision {revision} changes {slug!r} fields it may not: {sorted(unknown)}")
        fields = {name: value for name, value in change.items() if name != "why"}
        changed = parse_card({**item, **fields, "source": "ours: " + change["why"]}, key)
        if changed.requires is not None and not any(
            c.name == changed.requires and c.deck == key and c.type == "hoard" for c in cards.values()
        ):
            raise ValueError(f"{slug!r} requires a hoard its deck does not hold")
        out[slug] = changed
    return out


def _deck_files() -> dict[str, Any]:
    folder = resources.files(__package__).joinpath("decks")
    return {
        e.name.removesuffix(".json"): e
        for e in sorted(folder.iterdir(), key=lambda e: e.name)
        if e.name.endswith(".json")
    }


CARDS, DECKS, DECK_INFO = _load()
DECK_KEYS: tuple[str, ...] = tuple(DECKS)
CARDS_BY_RULES: dict[int, dict[str, Card]] = {1: CARDS, 2: _overlay(CARDS, 2)}


def deck_ids(seat: int, key: str) -> list[str]:
    """The instance ids of one seat's deck, in list order: ``s<seat>-<card slug>-<copy>``."""
    return list(_deck_ids(seat, key))


@functools.cache
def _deck_ids(seat: int, key: str) -> tuple[str, ...]:
    seen: dict[str, int] = {}
    out = []
    for slug in DECKS[key]:
        seen[slug] = seen.get(slug, 0) + 1
        out.append(f"s{seat}-{slug}-{seen[slug]}")
    return tuple(out)


_BY_ID: dict[int, dict[str, Card]] = {
    rules: {
        card_id: cards[card_id.split("-", 1)[1].rsplit("-", 1)[0]]
        for seat in range(4)
        for key in DECKS
        for card_id in deck_ids(seat, key)
    }
    for rules, cards in CARDS_BY_RULES.items()
}


def card(card_id: str, rules: int) -> Card:
    """A card as the given rules revision prints it."""
    return _BY_ID[rules][card_id]


def slug_of(card_id: str) -> str:
    return _BY_ID[1][card_id].slug


_TYPE_AND_SLUG: dict[int, dict[str, tuple[str, str]]] = {
    rules: {card_id: (c.type, c.slug) for card_id, c in by_id.items()} for rules, by_id in _BY_ID.items()
}


def slugs_of_type(card_ids: Iterable[str], card_type: str, rules: int) -> list[str]:
    """The names (slugs) of the cards of ``card_type`` among ``card_ids``, sorted, each once:
    what a search or the setup's realm may choose from a deck (read once per card here)."""
    typed = _TYPE_AND_SLUG[rules]
    return sorted({slug for kind, slug in map(typed.__getitem__, card_ids) if kind == card_type})
