"""Stomping Grounds' board as text for the terminal (``tablestream replay``,
``games.drawing``): the phase, round and turn, the realms as a map, then each seat's dragon,
hand and hoard, each card with the numbers its rules revision prints on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.drawing import YELLOW, Sheet, closed_hand, header, listed, outcome_line, rest, seat_line, titled
from games.stomping_grounds.cards import card

STOMPING_KNOWN = (
    "phase",
    "active",
    "first",
    "turn",
    "round",
    "turn_limit",
    "rules",
    "closing",
    "to_act",
    "realms",
    "realm_limit",
    "players",
    "stack",
    "priority",
    "owed",
    "flight_path",
    "attempted",
    "outcome",
)
STOMPING_PLAYER = (
    "seat",
    "deck_key",
    "dragon_name",
    "deck",
    "hand",
    "revealed_hand",
    "stash",
    "junk",
    "burned",
    "hoard",
    "dragon",
    "luck_bonus",
    "extra_luck",
    "remaining",
)


def stomping_card(card_id: Any, rules: int) -> str:
    """``<name> (challenge red 4, cost 0, luck 1)``: the card's name and the numbers printed on it."""
    try:
        printed = card(card_id, rules)
    except (KeyError, IndexError):
        return titled(card_id)
    numbers = [printed.type]
    if printed.kind:
        numbers[0] += f" {printed.kind}"
    if printed.number is not None:
        numbers.append(f"{printed.colour or ''} {printed.number}".strip())
    if printed.cost:
        numbers.append(f"cost {printed.cost}")
    if printed.luck:
        numbers.append(f"luck {printed.luck}")
    return f"{printed.name} ({', '.join(numbers)})"


def _stomping_name(card_id: Any, rules: int) -> str:
    try:
        return card(card_id, rules).name
    except (KeyError, IndexError):
        return titled(card_id)


def draw(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    shown_rules = view.get("rules")
    rules = shown_rules if isinstance(shown_rules, int) else sheet.rules
    you = next((p["seat"] for p in view["players"] if isinstance(p.get("hand"), list)), None)
    lines = [
        header(
            view,
            sheet,
            f"round {view['round']}" + (f"/{view['turn_limit']}" if view.get("turn_limit") else ""),
            f"phase {view['phase']}",
            f"active {sheet.seat(view['active'])}" if view.get("active") is not None else None,
            f"priority {sheet.seat(view['priority'])}" if view.get("priority") is not None else None,
            f"realms {len(view['realms'])}/{view.get('realm_limit')}",
            "closing" if view.get("closing") else None,
        )
    ]
    for item in view.get("stack") or []:
        lines.append(
            sheet.paint(
                f"on the stack: {item['kind']}"
                + (f" {_stomping_name(item['card'], rules)}" if item.get("card") else "")
                + (f" vs {sheet.seat(item['opponent'])}" if item.get("opponent") is not None else "")
                + (f" ({item['colour']})" if item.get("colour") else "")
                + (" — cancelled" if item.get("cancelled") else ""),
                YELLOW,
            )
        )
    for owed in view.get("owed") or []:
        lines.append(f"owed: {sheet.seat(owed['seat'])} {owed['kind']} {owed['count']}")
    lines.extend(_realm_map(view, sheet))
    for realm in view["realms"]:
        challenge = realm.get("challenge")
        text = (
            f"  ({realm['at'][0]},{realm['at'][1]}) {realm['name']} [{realm['kind']}, {realm['border']}]"
            f" of {sheet.seat(realm['owner'])}"
            + (" · razed" if realm.get("razed") else "")
            + (" · dragons " + ", ".join(sheet.seat(seat) for seat in realm["dragons"]) if realm.get("dragons") else "")
        )
        if challenge:
            text += (
                f" · challenge {challenge['name']} {challenge['colour']} {challenge['number']}"
                + (f" roam {challenge['roam']}" if challenge.get("roam") else "")
                + f" ({sheet.seat(challenge.get('controller'))})"
            )
        lines.append(text)
    for player in view["players"]:
        index = player["seat"]
        facts = [
            player.get("dragon_name"),
            _dragon_at(player.get("dragon")),
            f"cards left {player['remaining']}",
            f"deck {player['deck']}",
            f"stash {len(player.get('stash') or [])}",
            f"junk {len(player.get('junk') or [])}",
            f"burned {len(player.get('burned') or [])}",
            f"luck +{player['luck_bonus']}" if player.get("luck_bonus") else None,
        ]
        lines.append(seat_line(index, view, sheet, you, *facts))
        hand = player.get("hand")
        if isinstance(hand, list):
            lines.append("  " + listed("hand", [stomping_card(c, rules) for c in hand], "empty"))
        else:
            seen = [stomping_card(c, rules) for c in player.get("revealed_hand") or []]
            lines.append(f"  hand: {closed_hand(hand, seen, 'seen')}")
        if player.get("hoard"):
            lines.append("  " + listed("hoard", [stomping_card(c, rules) for c in player["hoard"]]))
        lines.extend(rest(player, STOMPING_PLAYER, sheet, 1))
    if view.get("outcome"):
        lines.append(outcome_line(view["outcome"], sheet))
    return lines + rest(view, STOMPING_KNOWN, sheet, 0)


def _dragon_at(at: Any) -> str:
    return f"dragon at ({at[0]},{at[1]})" if at else "dragon not placed"


def _realm_map(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    """The realms as a grid, north up: the owner's seat number, ``x`` razed, ``*`` a dragon."""
    realms = {tuple(realm["at"]): realm for realm in view["realms"]}
    if not realms:
        return ["realms: none yet"]
    xs = [x for x, _ in realms]
    ys = [y for _, y in realms]
    path = {tuple(step) for step in view.get("flight_path") or []}
    lines = ["realms (owner seat; x razed; * dragon; ~ flight path):"]
    for y in range(max(ys), min(ys) - 1, -1):
        row = []
        for x in range(min(xs), max(xs) + 1):
            realm = realms.get((x, y))
            if realm is None:
                row.append("  .   ")
                continue
            cell = f"{realm['owner']}" if isinstance(realm.get("owner"), int) else "?"
            cell += "x" if realm.get("razed") else ""
            cell += "*" if realm.get("dragons") else ""
            cell += "~" if (x, y) in path else ""
            row.append(f"[{cell:<4}]")
        lines.append("  " + "".join(row).rstrip())
    return lines
