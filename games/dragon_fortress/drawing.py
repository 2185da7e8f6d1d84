"""Dragon Fortress's board as text for the terminal (``tablestream replay``,
``games.drawing``): the step and turn, the supply and the dragons to come, then each seat's
line, hand, gold and trophies, each card with the numbers printed on it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.dragon_fortress.cards import TYPE_OF, points_of
from games.drawing import BOLD, YELLOW, Sheet, closed_hand, header, listed, rest, seat_line, titled

DRAGON_FORTRESS_KNOWN = (
    "you",
    "step",
    "turn",
    "turns_played",
    "players",
    "supply",
    "gold_supply",
    "piles",
    "dragons",
    "out_of_game",
    "pending",
    "scores",
    "legal_actions",
)
DRAGON_FORTRESS_PLAYER = (
    "seat",
    "flag",
    "line",
    "hand",
    "hand_count",
    "hand_gold",
    "fresh_gold",
    "trophies",
    "phase",
    "estate_power",
    "fortress_power",
    "gold_power",
    "victory_points",
    "purchases",
    "purchases_this_phase",
    "purchased_last_turn",
    "dragon",
)


def dragon_fortress_card(card_id: Any, sheet: Sheet) -> str:
    """``Guard Tower (2 shots, 1VP)``: the name and the numbers printed on the card."""
    kind = TYPE_OF.get(card_id) if isinstance(card_id, str) else None
    if kind is None:
        return titled(card_id)
    numbers = []
    if kind.estate_power:
        numbers.append(f"E{kind.estate_power}")
    if kind.shots:
        numbers.append(f"{kind.shots} shot{'s' if kind.shots > 1 else ''}")
    if kind.gold_power:
        numbers.append(f"gold {kind.gold_power}")
    if kind.strength:
        numbers.append(f"strength {kind.strength}")
    points = points_of(sheet.rules).get(card_id, 0)
    if points:
        numbers.append(f"{points}VP")
    return f"{kind.name} ({', '.join(numbers)})" if numbers else kind.name


def draw(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("you")
    supply = view.get("supply") or {}
    turn = view.get("turn")
    if "to_act" not in view and turn is not None and view.get("step") != "over":
        sheet = Sheet(sheet.seats, sheet.colour, sheet.rules, sheet.to_act or (turn,))
    lines = [
        header(
            view,
            sheet,
            f"step {view['step']}",
            f"turn of {sheet.seat(turn)}" if turn is not None else None,
            f"turns played {view.get('turns_played')}",
        )
    ]
    call = supply.get("call_depth")
    lines.append(
        "piles: "
        + " · ".join(
            [
                f"supply {supply.get('count')}" + (f" (dragon call in {call})" if call is not None else ""),
                f"gold {view.get('gold_supply')}",
                *(f"{titled(key)} {count}" for key, count in (view.get("piles") or {}).items()),
            ]
        )
    )
    lines.append(listed("dragons to come", [dragon_fortress_card(card, sheet) for card in view.get("dragons") or []]))
    pending = view.get("pending")
    if pending:
        lines.append(sheet.paint(f"{titled(pending['dragon'])} marching, {pending['steps_left']} steps left", YELLOW))
    for player in view["players"]:
        index = player["seat"]
        facts = [
            f"{player['victory_points']}VP",
            f"estate {player['estate_power']}",
            f"fortress {player['fortress_power']}",
            f"gold {player['gold_power']}",
            f"phase {titled(player['phase'])}" if player.get("phase") else None,
        ]
        lines.append(seat_line(index, view, sheet, you, *facts))
        dragon = player.get("dragon")
        if dragon:
            lines.append(
                sheet.paint(
                    f"  {titled(dragon['card'])} (strength {dragon['strength']}) at card {dragon['position'] + 1},"
                    f" damage {dragon['damage']}",
                    YELLOW,
                )
            )
        line = [f"{at + 1}.{dragon_fortress_card(card, sheet)}" for at, card in enumerate(player.get("line") or [])]
        lines.append("  " + listed("estate line", line, "empty"))
        if isinstance(player.get("hand"), list):
            lines.append("  " + listed("hand", [dragon_fortress_card(card, sheet) for card in player["hand"]], "empty"))
        else:
            gold = [dragon_fortress_card(card, sheet) for card in player.get("hand_gold") or []]
            lines.append(f"  hand: {closed_hand(player.get('hand_count', 0), gold)}")
        if player.get("trophies"):
            lines.append("  " + listed("trophies", [dragon_fortress_card(card, sheet) for card in player["trophies"]]))
        bought = {key: count for key, count in (player.get("purchases") or {}).items() if count}
        if bought:
            lines.append("  bought: " + ", ".join(f"{titled(key)} {count}" for key, count in bought.items()))
        lines.extend(rest(player, DRAGON_FORTRESS_PLAYER, sheet, 1))
    if view.get("scores"):
        lines.append(sheet.paint("final scores:", BOLD))
        for index, score in enumerate(view["scores"]):
            lines.append(
                f"  {sheet.seat(index)}: {score['victory_points']}VP + estate {score['estate_bonus']}"
                f" + fortress {score['fortress_bonus']} = {score['total']}"
            )
    return lines + rest(view, DRAGON_FORTRESS_KNOWN, sheet, 0)
