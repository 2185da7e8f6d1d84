"""The card manifest of Dragon Fortress, read once from ``cards.json``: every card type
(``CardType``), the copies of each in play at a player count, the rules' numbers (hand size,
bonuses) and each rules revision's victory points. Nothing about a card lives in code: the
engine asks this module what a card id is (its type) and the type says what it does. A
different printed set can replace ``cards.json`` without touching the rules.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

ESTATE_LEVELS = {"moon": 1, "sun": 2, "full_sun": 3}


@dataclass(frozen=True)
class CardType:
    """One printed card, as many times as ``count`` says."""

    key: str
    name: str
    group: str  # flag | call | phase | gold | upgrade | common | dragon
    kind: str  # flag | call | estate | gold | tower | dragon
    count: int
    remove_with_3_players: int
    estate_power: int = 0
    shots: int = 0
    victory_points: int = 0
    gold_power: int = 0
    gold_cost: int = 0
    rank: int = 0  # phase cards: 1 Fallow, 2 Meadow, 3 Pasture
    requires_estate: int = 0
    requires_fortress: int = 0
    phase: int = 0  # upgrades: the phase needed to purchase
    limit: int = 0  # upgrades: most one player may ever purchase
    ability: str | None = None  # front_line | sacrifice
    strength: int = 0
    raze_estate: int = 0  # razes estate cards of at most this power (3: all)
    raze_gold: bool = False
    raze_towers: bool = False
    placement: int = 0
    speed: int = 1
    immune_to_shots: frozenset[int] = frozenset()
    ends_game: bool = False

    @property
    def is_dragon(self) -> bool:
        return self.kind == "dragon"


def _card_type(raw: dict[str, Any]) -> CardType:
    raze = raw.get("raze", [])
    requires = raw.get("requires", {})
    return CardType(
        key=raw["key"],
        name=raw["name"],
        group=raw["group"],
        kind=raw["kind"],
        count=raw["count"],
        remove_with_3_players=raw["remove_with_3_players"],
        estate_power=raw.get("estate_power", 0),
        shots=raw.get("shots", 0),
        victory_points=raw.get("victory_points", 0),
        gold_power=raw.get("gold_power", 0),
        gold_cost=raw.get("gold_cost", 0),
        rank=raw.get("rank", 0),
        requires_estate=requires.get("estate_power", 0),
        requires_fortress=requires.get("fortress_power", 0),
        phase=raw.get("phase", 0),
        limit=raw.get("limit", 0),
        ability=raw.get("ability"),
        strength=raw.get("strength", 0),
        raze_estate=max((ESTATE_LEVELS[r] for r in raze if r in ESTATE_LEVELS), default=0),
        raze_gold="gold" in raze,
        raze_towers="towers" in raze,
        placement=raw.get("placement", 0),
        speed=raw.get("speed", 1),
        immune_to_shots=frozenset(raw.get("immune_to_shots", [])),
        ends_game=raw.get("ends_game", False),
    )


def _load() -> tuple[dict[str, Any], dict[str, Any], list[CardType]]:
    text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    raw = json.loads(text)
    rules = {name: entry["value"] for name, entry in raw["rules"].items()}
    return raw, rules, [_card_type(card) for card in raw["cards"]]


RAW, RULES, TYPES = _load()

REVISED_FIELDS = frozenset({"victory_points"})
"""The card numbers a rules revision may change: the ones the rules read by revision."""


def _revisions(raw: dict[str, Any]) -> dict[int, dict[str, dict[str, Any]]]:
    """Each rules revision's changes to the card data, by card type key (an overlay on the
    data of the revision before: revision 1 is the ``cards`` list as it stands)."""
    out: dict[int, dict[str, dict[str, Any]]] = {}
    keys = {t.key for t in TYPES}
    for number, revision in raw.get("revisions", {}).items():
        changes: dict[str, dict[str, Any]] = {}
        for key, entry in revision["cards"].items():
            fields = {name: value for name, value in entry.items() if name != "source"}
            if key not in keys or not set(fields) <= REVISED_FIELDS:
                raise ValueError(f"cards.json revision {number}: {key} may change only {sorted(REVISED_FIELDS)}")
            changes[key] = fields
        out[int(number)] = changes
    return out


REVISIONS = _revisions(RAW)

HAND_SIZE: int = RULES["hand_size"]
FIRST_CALL_DEPTH: int = RULES["first_call_depth"]
ESTATE_BONUS: int = RULES["estate_bonus"]
ESTATE_BONUS_SHARED: int = RULES["estate_bonus_shared"]
FORTRESS_BONUS: int = RULES["fortress_bonus"]

PHASES: tuple[CardType, ...] = tuple(sorted((t for t in TYPES if t.group == "phase"), key=lambda t: t.rank))
UPGRADES: tuple[CardType, ...] = tuple(t for t in TYPES if t.group == "upgrade")
UPGRADE_INDEX: dict[str, int] = {t.key: i for i, t in enumerate(UPGRADES)}
DRAGON_TYPES: tuple[CardType, ...] = tuple(t for t in TYPES if t.group == "dragon")
COMMON_TYPES: tuple[CardType, ...] = tuple(t for t in TYPES if t.group == "common")
(CALL_TYPE,) = (t for t in TYPES if t.group == "call")
(GOLD_TYPE,) = (t for t in TYPES if t.group == "gold")
(FLAG_TYPE,) = (t for t in TYPES if t.group == "flag")


def instance_ids(card_type: CardType) -> list[str]:
    return [f"{card_type.key}-{n:02d}" for n in range(1, card_type.count + 1)]


def in_play(card_type: CardType, players: int) -> list[str]:
    """The copies used at this player count (the 3-player game boxes the last ones)."""
    ids = instance_ids(card_type)
    if players == 3 and card_type.remove_with_3_players:
        return ids[: len(ids) - card_type.remove_with_3_players]
    return ids


TYPE_OF: dict[str, CardType] = {card: t for t in TYPES for card in instance_ids(t)}
(CALL_CARD,) = instance_ids(CALL_TYPE)
DRAGON_IDS: frozenset[str] = frozenset(c for c, t in TYPE_OF.items() if t.is_dragon)
TOWER_IDS: frozenset[str] = frozenset(c for c, t in TYPE_OF.items() if t.kind == "tower")
GOLD_IDS: frozenset[str] = frozenset(instance_ids(GOLD_TYPE))
MOVABLE_IDS: frozenset[str] = frozenset(c for c, t in TYPE_OF.items() if t.kind in ("estate", "gold"))
GATE_IDS: frozenset[str] = frozenset(c for c, t in TYPE_OF.items() if t.ability == "front_line")
SACRIFICE_IDS: frozenset[str] = frozenset(c for c, t in TYPE_OF.items() if t.ability == "sacrifice")

# per-card numbers as flat lookups: summed over lines on every bot evaluation
ESTATE_POWER_OF: dict[str, int] = {card: t.estate_power for card, t in TYPE_OF.items()}
SHOTS_OF: dict[str, int] = {card: t.shots for card, t in TYPE_OF.items()}
GOLD_POWER_OF: dict[str, int] = {card: t.gold_power for card, t in TYPE_OF.items()}
RANK_OF: dict[str, int] = {card: t.rank for card, t in TYPE_OF.items()}  # phase cards: 1 to 3, else 0
POINTS_OF: dict[str, int] = {card: t.victory_points for card, t in TYPE_OF.items()}  # revision 1


def _points_by_revision() -> dict[int, dict[str, int]]:
    tables = {1: POINTS_OF}
    points = dict(POINTS_OF)
    for number in sorted(REVISIONS):
        for key, fields in REVISIONS[number].items():
            for card in instance_ids(next(t for t in TYPES if t.key == key)):
                points[card] = fields.get("victory_points", points[card])
        tables[number] = dict(points)
    return tables


_POINTS_BY_REVISION = _points_by_revision()


def points_of(revision: int) -> dict[str, int]:
    """Victory points per card id under the card data of rules ``revision``."""
    return _POINTS_BY_REVISION[max(n for n in _POINTS_BY_REVISION if n <= revision)]
