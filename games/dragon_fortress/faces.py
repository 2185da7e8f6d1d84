"""The card faces of Dragon Fortress for the web client: every card type with the numbers a
player judges it by and what it does, all read from the card data (``cards.json`` through
``cards``), nothing copied by hand. A face is keyed by the card type's key (``crop-field``),
which is a card id without its copy number (``crop-field-03``) and also the key of a pile in
the view (``barn``).
"""

from __future__ import annotations

from games.base import JSON
from games.dragon_fortress.cards import PHASES, TYPES, CardType, points_of

ESTATE_SYMBOLS = {1: "moon", 2: "sun", 3: "full sun"}
KIND_NAMES = {"flag": "Estate Flag", "call": "Dragon Call", "gold": "Gold", "tower": "Tower", "dragon": "Dragon"}
COLOURS = {"flag": "white", "call": "red", "phase": "yellow", "gold": "gold", "dragon": "red"}


def _razed(card: CardType) -> list[str]:
    """What a dragon destroys as it passes over: a sun razes moons too, a full sun every
    estate card; gold and towers are marks of their own."""
    parts = []
    if card.raze_estate >= 3:
        parts.append("all estate")
    elif card.raze_estate:
        parts += [f"{ESTATE_SYMBOLS[level]}s" for level in range(1, card.raze_estate + 1)]
    if card.raze_gold:
        parts.append("gold")
    if card.raze_towers:
        parts.append("towers")
    return parts


def raze_line(card: CardType) -> str:
    """The raze line as a short value: "moons, suns, gold"."""
    return ", ".join(_razed(card)) or "nothing"


def _in_words(parts: list[str]) -> str:
    words = ["every estate card" if part == "all estate" else part for part in parts]
    if len(words) < 2:
        return "".join(words) or "nothing"
    return ", ".join(words[:-1]) + " and " + words[-1]


def _stat(label: str, value: JSON) -> dict[str, JSON]:
    return {"label": label, "value": value}


def _type_name(card: CardType) -> str:
    if card.group == "upgrade":
        return "Upgrade tower" if card.kind == "tower" else f"Upgrade estate ({ESTATE_SYMBOLS[card.estate_power]})"
    if card.group == "phase":
        return f"Phase ({ESTATE_SYMBOLS[card.estate_power]})"
    if card.kind == "estate":
        return f"Estate ({ESTATE_SYMBOLS[card.estate_power]})"
    return KIND_NAMES[card.kind]


def _colour(card: CardType) -> str:
    if card.group in COLOURS:
        return COLOURS[card.group]
    if card.group == "upgrade":
        return "blue"
    return "black" if card.kind == "tower" else "green"


def _power(card: CardType) -> list[dict[str, JSON]]:
    """Estate Power for estate cards, shots for towers, gold power for gold."""
    if card.kind == "tower":
        return [_stat("Shots", card.shots)]
    if card.kind == "gold":
        return [_stat("Gold", card.gold_power)]
    return [_stat("Estate", card.estate_power)]


def _stats(card: CardType, points: int) -> list[dict[str, JSON]]:
    if card.group in ("flag", "call"):
        return []
    if card.group == "dragon":
        return [
            _stat("Strength", card.strength),
            _stat("VP", points),
            _stat("Razes", raze_line(card)),
            _stat("Speed", card.speed),
            _stat("Call depth", card.placement),
        ]
    stats = [_stat("Cost", card.gold_cost)] if card.group == "upgrade" else []
    stats += _power(card) + [_stat("VP", points)]
    if card.group == "phase":
        stats += [_stat("Needs estate", card.requires_estate), _stat("Needs fortress", card.requires_fortress)]
    if card.group == "upgrade":
        stats += [_stat("Phase", PHASES[card.phase - 1].name), _stat("Max", card.limit)]
    return stats


def _text(card: CardType) -> str | None:
    if card.group == "flag":
        return "Your Estate Line starts here; the card next to it can move no closer."
    if card.group == "call":
        return (
            "Drawing it sends the next dragon to your Front Line and ends your turn; it goes back "
            "into the supply as deep as the next dragon's call depth."
        )
    if card.group == "dragon":
        steps = f"{card.speed} space{'s' if card.speed > 1 else ''}"
        said = [f"Marches {steps} a turn toward the flag. Burns {_in_words(_razed(card))} as it passes over them."]
        if card.immune_to_shots:
            shots = " or ".join(str(n) for n in sorted(card.immune_to_shots))
            said.append(f"Towers with {shots} shot{'s' if max(card.immune_to_shots) > 1 else ''} do not harm it.")
        if card.ends_game:
            said.append("Defeating it ends the game at once.")
        return " ".join(said)
    if card.group == "upgrade":
        phase = PHASES[card.phase - 1].name
        said = [f"Bought, not drawn: {card.gold_cost} gold and a {phase} in your line; at most {card.limit} each."]
        if card.ability == "front_line":
            said.append("Always stays at the Front Line: new cards enter behind it.")
        if card.ability == "sacrifice":
            said.append("When a dragon passes over it you may remove it to defeat that dragon.")
        return " ".join(said)
    if card.group == "phase":
        return (
            f"Advance to it with {card.requires_estate} Estate and {card.requires_fortress} Fortress Power "
            "in your line; it opens that phase's purchases."
        )
    if card.kind == "gold":
        return (
            "Pays for upgrades from your line. A dragon that razes gold burns it and flees. "
            "Never placed the turn it is drawn."
        )
    if card.kind == "tower":
        return f"Deals {card.shots} damage to a dragon in front of it. Towers never move."
    return None


def card_faces(revision: int) -> dict[str, dict[str, JSON]]:
    """Every card type's face, its victory points as the card data of rules ``revision``
    prints them."""
    points = points_of(revision)
    faces: dict[str, dict[str, JSON]] = {}
    for card in TYPES:
        first = f"{card.key}-01"
        faces[card.key] = {
            "name": card.name,
            "type": _type_name(card),
            "colour": _colour(card),
            "stats": list(_stats(card, points.get(first, card.victory_points))),
            "text": _text(card),
        }
    return faces
