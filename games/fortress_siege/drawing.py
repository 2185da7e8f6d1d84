"""Fortress's board as text for the terminal (``tablestream replay``, ``games.drawing``):
the phase and whose turn, the attack under way and any charge declared, then each seat's
Fortress, Tombstone, graveyard, characters with their armor and weapons, and hand."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.drawing import (
    HIDDEN,
    RED,
    YELLOW,
    Sheet,
    closed_hand,
    header,
    listed,
    outcome_line,
    rest,
    seat_line,
    standard,
)

SIEGE_KNOWN = (
    "phase",
    "active",
    "first",
    "moves_left",
    "to_act",
    "you",
    "winds_of_fate",
    "fixed_deal",
    "set_aside",
    "players",
    "attack",
    "charge",
    "outcome",
)
SIEGE_PLAYER = ("seat", "in_game", "fortress", "tombstone", "hand_size", "battlefield", "graveyard", "hand")


def _siege_attack(attack: Mapping[str, Any], sheet: Sheet) -> str:
    target = (
        f"{standard(attack['target'])} of {sheet.seat(attack['target_seat'])}"
        if attack.get("target")
        else f"{sheet.seat(attack['target_seat'])}'s Fortress"
    )
    attacker = f"{standard(attack['attacker'])} (power {attack['power']})"
    text = f"{sheet.seat(attack['seat'])} attacks {target} with {attacker}"
    if attack.get("defenders"):
        text += " · defenders: " + ", ".join(standard(card) for card in attack["defenders"])
    if attack.get("shields"):
        text += " · shields: " + ", ".join("+".join(standard(card) for card in shield) for shield in attack["shields"])
    return text


def draw(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    lines = [
        header(
            view,
            sheet,
            f"phase {view['phase']}",
            f"turn of {sheet.seat(view['active'])}" if view.get("active") is not None else None,
            f"moves left {view['moves_left']}",
            "Winds of Fate" if view.get("winds_of_fate") else None,
            f"set aside {view['set_aside']}" if view.get("set_aside") else None,
        )
    ]
    if view.get("attack"):
        lines.append(sheet.paint("⚔ " + _siege_attack(view["attack"], sheet), YELLOW))
    for declared in view.get("charge") or []:
        lines.append("  charge: " + _siege_attack(declared, sheet))
    for player in view["players"]:
        index = player["seat"]
        graveyard = player.get("graveyard") or []
        facts = [
            None if player.get("in_game", True) else sheet.paint("defeated", RED),
            f"Fortress {player['fortress']}",
            f"Tombstone {standard(player['tombstone']) if player.get('tombstone') else HIDDEN}",
            f"graveyard {len(graveyard)}" + (f" (top {standard(graveyard[-1])})" if graveyard else ""),
        ]
        lines.append(seat_line(index, view, sheet, you, *facts))
        characters = []
        for character in player.get("battlefield") or []:
            gear = [f"power {character['power']}"]
            if character.get("armor"):
                gear.append(f"armor {standard(character['armor'])} {character['armor_left']} left")
            if character.get("weapon"):
                gear.append(f"weapon {standard(character['weapon'])}")
            characters.append(f"{standard(character['card'])} ({', '.join(gear)})")
        lines.append("  " + listed("battlefield", characters, "no characters"))
        if isinstance(player.get("hand"), list):
            lines.append("  " + listed("hand", [standard(card) for card in player["hand"]], "empty"))
        else:
            lines.append(f"  hand: {closed_hand(player.get('hand_size', 0))}")
        lines.extend(rest(player, SIEGE_PLAYER, sheet, 1))
    if view.get("outcome"):
        lines.append(outcome_line(view["outcome"], sheet))
    return lines + rest(view, SIEGE_KNOWN, sheet, 0)
