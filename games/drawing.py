"""The kit every game's terminal drawing is made with (``tablestream replay``).

Each game package draws its own board in its ``drawing.py`` (``draw(view, sheet)``), made
from the view a seat (or a spectator) is sent and nothing else, so a drawing shows no card
the view hides. Each reads like the web client's board (``service/client/kinds``): whose
turn and the phase, then each seat (numbered from 0 as in the API, and named as at the
table) with its public cards, its hand (names for the viewing seat, a count for the
others), its piles, and the numbers a player reads a card by. A field a drawing does not
know is shown as a tree beneath it; a view a drawing cannot read at all, or a game
without a drawing, is shown whole as a tree (``draw_board``). Pure like the rest of
``games/``: the lines are returned, never printed (ANSI colour codes only when the sheet
asks for colour).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

BOLD, DIM, CYAN, GREEN, YELLOW, RED, RESET = (
    "\033[1m",
    "\033[2m",
    "\033[36m",
    "\033[32m",
    "\033[33m",
    "\033[31m",
    "\033[0m",
)
SUIT_SIGNS = {"H": "♥", "D": "♦", "S": "♠", "C": "♣"}
HIDDEN = "▒"  # one face-down card


@dataclass(frozen=True)
class Sheet:
    """What a drawing needs beside the view: the seats' names, whether to colour, the
    rules revision the game was created under (card numbers differ between revisions)
    and, for a view that does not say, the seats to act."""

    seats: tuple[str, ...]
    colour: bool = False
    rules: int = 1
    to_act: tuple[int, ...] = ()

    def paint(self, text: str, code: str) -> str:
        return f"{code}{text}{RESET}" if self.colour else text

    def seat(self, index: Any) -> str:
        """``#1 bob``: the seat numbered from 0, as the API numbers it, with its name at the table."""
        if not isinstance(index, int) or isinstance(index, bool):
            return "nobody"
        name = self.seats[index] if 0 <= index < len(self.seats) else None
        return f"#{index} {name}" if name else f"#{index}"

    def acting(self, view: Mapping[str, Any]) -> list[int]:
        shown = view.get("to_act")
        return list(shown) if isinstance(shown, list) else list(self.to_act)


Drawing = Callable[[Mapping[str, Any], Sheet], list[str]]


def tree(value: Any, colour: bool, indent: int = 0) -> list[str]:
    """A view as an indented tree: keys in colour, short lists on one line."""
    pad = "  " * indent

    def key(name: Any) -> str:
        return f"{CYAN}{name}{RESET}" if colour else str(name)

    lines: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v and len(json.dumps(v)) > 70:
                lines.append(f"{pad}{key(k)}:")
                lines.extend(tree(v, colour, indent + 1))
            else:
                lines.append(f"{pad}{key(k)}: {json.dumps(v)}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)) and len(json.dumps(item)) > 70:
                lines.append(f"{pad}- [{index}]")
                lines.extend(tree(item, colour, indent + 1))
            else:
                lines.append(f"{pad}- {json.dumps(item)}")
    else:
        lines.append(f"{pad}{json.dumps(value)}")
    return lines


def draw_board(kind: str, drawing: Drawing | None, view: Mapping[str, Any], sheet: Sheet) -> list[str]:
    """The board of a ``kind`` game as ``drawing`` draws it; the tree for a kind with no
    drawing, or a view its drawing cannot read."""
    if drawing is None or not isinstance(view, Mapping):
        return tree(view, sheet.colour)
    try:
        return drawing(view, sheet)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        note = f"(this view does not read as a {kind} board: {type(error).__name__} {error}; the view as a tree)"
        return [sheet.paint(note, DIM), *tree(dict(view), sheet.colour)]


# -- the pieces every drawing uses ------------------------------------------------------


def header(view: Mapping[str, Any], sheet: Sheet, *facts: str | None) -> str:
    acting = sheet.acting(view)
    who = ", ".join(sheet.seat(seat) for seat in acting) if acting else "nobody"
    parts = [sheet.paint(f"to act: {who}", BOLD + GREEN if acting else BOLD), *(fact for fact in facts if fact)]
    return " · ".join(parts)


def seat_line(index: int, view: Mapping[str, Any], sheet: Sheet, you: Any, *facts: str | None) -> str:
    marks = []
    if index == you:
        marks.append("(you)")
    if index in sheet.acting(view):
        marks.append("◀ to act")
    title = sheet.paint(" ".join([sheet.seat(index), *marks]), BOLD + (GREEN if index in sheet.acting(view) else ""))
    return " · ".join([title, *(fact for fact in facts if fact)])


def listed(label: str, names: Sequence[str], empty: str = "none") -> str:
    return f"{label}: {', '.join(names) if names else empty}"


def closed_hand(size: Any, shown: Sequence[str] = (), shown_as: str = "showing") -> str:
    """A hand the viewer does not hold: its size, the cards of it the view shows, and a
    back for each other card."""
    count = count_of(size)
    parts = [f"{count} card{'' if count == 1 else 's'}"]
    if shown:
        parts.append(f"{shown_as} {', '.join(shown)}")
    hidden = count - len(shown)
    if hidden > 0:
        parts.append(f"{hidden} hidden {HIDDEN * min(hidden, 12)}")
    return ", ".join(parts)


def rest(value: Mapping[str, Any], known: Iterable[str], sheet: Sheet, indent: int) -> list[str]:
    """The fields of ``value`` a drawing does not know, as a tree under ``other``."""
    unknown = {k: v for k, v in value.items() if k not in set(known)}
    if not unknown:
        return []
    return ["  " * indent + sheet.paint("other:", DIM), *tree(unknown, sheet.colour, indent + 1)]


def titled(card_id: Any) -> str:
    """``1-abyssal-leviathan-2`` / ``s0-regrowth-1`` / ``crop-field-06`` -> ``Abyssal Leviathan``
    (how the client names a card it has no data for)."""
    if not isinstance(card_id, str):
        return str(card_id)
    body = re.sub(r"-\d+$", "", re.sub(r"^s?\d+-", "", card_id))
    return " ".join(word.capitalize() for word in body.split("-"))


def standard(card_id: Any) -> str:
    """``QH``, ``10S.1``, ``JK2.0`` -> ``Q♥``, ``10♠``, ``Joker``; hidden (None) -> ``▒``."""
    if card_id is None:
        return HIDDEN
    if not isinstance(card_id, str):
        return str(card_id)
    code = card_id.split(".", 1)[0]
    if code.startswith("JK"):
        return "Joker"
    rank, suit = code[:-1], code[-1:]
    return f"{rank}{SUIT_SIGNS[suit]}" if suit in SUIT_SIGNS and rank else card_id


def count_of(value: Any) -> int:
    return len(value) if isinstance(value, list) else value if isinstance(value, int) else 0


def outcome_line(outcome: Any, sheet: Sheet) -> str:
    """``over: #0 ann won`` from an outcome's winners (the whole outcome when it has none)."""
    winners = outcome.get("winners") if isinstance(outcome, Mapping) else None
    if isinstance(winners, list):
        text = "over: " + (", ".join(sheet.seat(seat) for seat in winners) + " won" if winners else "no winner")
    else:
        text = f"over: {json.dumps(outcome)}"
    return sheet.paint(text, BOLD)
