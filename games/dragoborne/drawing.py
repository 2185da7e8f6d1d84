"""Dragoborne's board as text for the terminal (``tablestream replay``, ``games.drawing``):
the phase and turn, the dice, then each seat's forts with their barriers and creatures, its
banners and hand, each card with its colour, cost and ATK/EDR."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.dragoborne.cards import card_of
from games.drawing import RED, YELLOW, Sheet, closed_hand, header, listed, outcome_line, rest, seat_line, titled

DRAGOBORNE_KNOWN = (
    "you",
    "phase",
    "turn",
    "active",
    "first",
    "to_act",
    "decks",
    "attack",
    "pending",
    "players",
    "result",
)
DRAGOBORNE_PLAYER = (
    "seat",
    "deck",
    "hand",
    "known",
    "forts",
    "creatures",
    "resources",
    "dice",
    "discard",
    "lifted",
    "mulliganed",
)


def dragoborne_card(card_id: Any, sheet: Sheet) -> str:
    """``Cinder Lancer (red 2, 2/2)``: name, colour and cost, and ATK/EDR for a creature."""
    try:
        card = card_of(card_id, sheet.rules)
    except (KeyError, IndexError, AttributeError):
        return titled(card_id)
    numbers = f"{card.colour} {card.cost}" if card.type != "banner" else card.colour
    if card.type == "creature":
        numbers += f", ATK {card.atk}/EDR {card.edr}"
    elif card.type == "spell":
        numbers += ", spell"
    return f"{card.name} ({numbers})"


def _dragoborne_name(card_id: Any, sheet: Sheet) -> str:
    try:
        return card_of(card_id, sheet.rules).name
    except (KeyError, IndexError, AttributeError):
        return titled(card_id)


def _dragoborne_creature(creature: Mapping[str, Any], dice: Sequence[Any], sheet: Sheet) -> str:
    """``Scorchling (ATK 2/EDR 2, damage 1, rested, crossed red 2)``: its numbers now."""
    notes = [f"ATK {creature['atk']}/EDR {creature['edr']}"]
    if creature.get("damage"):
        notes.append(f"damage {creature['damage']}")
    if creature.get("rested"):
        notes.append("rested")
    cross = creature.get("cross")
    if isinstance(cross, int):
        die = dice[cross] if 0 <= cross < len(dice) else None
        notes.append(f"crossed {die['colour']} {die['value']}" if die else f"cross die {cross + 1}")
    return f"{_dragoborne_name(creature['id'], sheet)} ({', '.join(notes)})"


def draw(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    decks = view.get("decks") or []
    lines = [
        header(
            view,
            sheet,
            f"turn {view['turn']}",
            f"phase {view['phase']}",
            f"active {sheet.seat(view['active'])}" if view.get("active") is not None else None,
        )
    ]
    attack = view.get("attack")
    if attack:
        attacker = _dragoborne_name(attack["creature"], sheet)
        lines.append(sheet.paint(f"⚔ {attacker} attacks fort {attack['fort'] + 1}", YELLOW))
    for item in view.get("pending") or []:
        source = f" from {_dragoborne_name(item['source'], sheet)}" if item.get("source") else ""
        what = item.get("op") or item.get("kind")
        lines.append(f"waiting to resolve: {what}{source} ({sheet.seat(item.get('seat'))})")
    for player in view["players"]:
        index = player["seat"]
        resources = player.get("resources") or []
        ready = sum(1 for resource in resources if not resource.get("rested"))
        facts = [
            decks[index] if index < len(decks) else None,
            f"deck {player['deck']}",
            f"discard {len(player.get('discard') or [])}",
            f"resources {ready}/{len(resources)} ready",
        ]
        lines.append(seat_line(index, view, sheet, you, *facts))
        dice = player.get("dice") or []
        for number, fort in enumerate(player.get("forts") or []):
            shield = fort.get("shield")
            shield_die = dice[shield] if isinstance(shield, int) and shield < len(dice) else None
            if fort.get("destroyed"):
                state = "no barriers yet" if view.get("phase") == "mulligan" else sheet.paint("destroyed", RED)
            else:
                state = f"barriers {fort['barriers']}"
            guards = [
                _dragoborne_creature(creature, dice, sheet)
                for creature in player.get("creatures") or []
                if creature.get("fort") == number
            ]
            shield_text = f" · shield {shield_die['colour']} {shield_die['value']}" if shield_die else ""
            banner = f"{_dragoborne_name(fort['banner'], sheet)} ({fort['colour']})"
            guarded = ", ".join(guards) if guards else "unguarded"
            lines.append(f"  fort {number + 1} {banner} · {state}{shield_text} · {guarded}")
        rolled = [f"{die['colour']} {die['value']} ({die['use']})" for die in dice]
        lines.append("  dice: " + (" ".join(rolled) or "none"))
        hand = player.get("hand")
        if isinstance(hand, list):
            lines.append("  " + listed("hand", [dragoborne_card(card, sheet) for card in hand], "empty"))
        else:
            known = [dragoborne_card(card, sheet) for card in player.get("known") or []]
            lines.append(f"  hand: {closed_hand(hand, known, 'known')}")
        lines.extend(rest(player, DRAGOBORNE_PLAYER, sheet, 1))
    if view.get("result"):
        lines.append(outcome_line(view["result"], sheet))
    return lines + rest(view, DRAGOBORNE_KNOWN, sheet, 0)
