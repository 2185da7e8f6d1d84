"""Fortress (royals in hand)'s board as text for the terminal (``tablestream replay``,
``games.drawing``): the round and phase, each seat's fortress and the cards it holds, the
hands (the viewing seat's by card and strength), and the tally once the game is over."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.drawing import Sheet, header, listed, outcome_line, rest, seat_line, standard
from games.fortress_royals.cards import STRENGTH

ROYALS_KNOWN = (
    "seat",
    "players",
    "phase",
    "round",
    "direction",
    "even_round",
    "first_player",
    "first",
    "chooser",
    "turn",
    "attack_target",
    "to_act",
    "waiting",
    "target_score",
    "rounds",
    "fixed_deck",
    "first_draws",
    "hands",
    "drawn",
    "deck",
    "discard",
    "captured",
    "set_aside",
    "set_aside_count",
    "passes",
    "scores",
    "round_points",
    "round_end",
    "winners",
    "result",
)
ROYALS_HAND = ("seat", "count", "cards", "revealed")


def _royals_strength(card: Any) -> str:
    name = standard(card)
    code = card.split(".", 1)[0] if isinstance(card, str) else None
    return f"{name}({STRENGTH[code]})" if code in STRENGTH else name


def draw(view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    you = view.get("seat")
    goal = f"{view['rounds']} rounds" if view.get("rounds") else f"target {view.get('target_score')}"
    lines = [
        header(
            view,
            sheet,
            f"round {view['round']}",
            f"phase {view['phase']}",
            f"turn of {sheet.seat(view['turn'])}" if view.get("turn") is not None else None,
            view.get("direction"),
            "Even Round" if view.get("even_round") else None,
            goal,
            f"attacking {sheet.seat(view['attack_target'])}" if view.get("attack_target") is not None else None,
        )
    ]
    discard = view.get("discard") or []
    piles = [
        f"deck {view['deck']}",
        f"discard {len(discard)}" + (f" (top {standard(discard[-1])})" if discard else ""),
        f"set aside {view.get('set_aside_count', len(view.get('set_aside') or []))}",
    ]
    if view.get("set_aside"):
        piles.append(listed("set aside", [standard(card) for card in view["set_aside"]]))
    lines.append("piles: " + " · ".join(piles))
    drawn = view.get("drawn")
    if drawn:
        lines.append(f"drawn: {sheet.seat(drawn['seat'])} places {standard(drawn.get('card'))}")
    for draws in view.get("first_draws") or []:
        lines.append("  " + listed("first-player draw", [standard(card) for card in draws]))
    scores = view.get("scores") or []
    captured = view.get("captured") or []
    for hand in view["hands"]:
        index = hand["seat"]
        facts = [
            f"score {scores[index] if index < len(scores) else 0}",
            f"{hand['count']} cards",
        ]
        lines.append(seat_line(index, view, sheet, you, *facts))
        revealed = set(hand.get("revealed") or [])
        cards = [
            _royals_strength(card) + ("*" if position in revealed else "")
            for position, card in enumerate(hand.get("cards") or [])
        ]
        lines.append("  hand: left ◀ " + (" ".join(cards) if cards else "empty") + " ▶ right")
        if index < len(captured) and captured[index]:
            lines.append("  " + listed("captured royals", [standard(card) for card in captured[index]]))
        lines.extend(rest(hand, ROYALS_HAND, sheet, 1))
    if view.get("round_end"):
        lines.append(f"round over: {view['round_end']}")
    if view.get("round_points"):
        rounds = [" ".join(str(points) for points in row) for row in view["round_points"]]
        lines.append("points by round (seat by seat): " + " | ".join(rounds))
    if view.get("result"):
        lines.append(outcome_line({"winners": view.get("winners") or []}, sheet) + f" ({view['result']})")
    return lines + rest(view, ROYALS_KNOWN, sheet, 0)
