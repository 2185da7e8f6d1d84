"""Steps 2 and 3 of a turn of Dragon Fortress: draw (the Dragon Call card brings the next
dragon), purchase or advance, then place a card at the Front Line, where a new tower
shoots the dragon at once; then the turn passes, or the game ends with the last card
from hand. Each move returns its ``Run`` (``march``), whose table the kit's decide template
keeps.
"""

from __future__ import annotations

import random

from games.base import Action, Move, next_seat
from games.dragon_fortress.cards import CALL_CARD, TOWER_IDS, TYPE_OF, UPGRADE_INDEX
from games.dragon_fortress.march import Run, check_damage, flee
from games.dragon_fortress.reading import dragons_in_lines, entry_index, gold_paid
from games.dragon_fortress.state import State, dragon_at


def _draw(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    if action["pile"] == "gold":
        run.emit("GoldDrawn", {"card": table.gold[0]}, seat)
    else:
        _draw_common(run, seat)
    return run


def _purchase(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    card = table.upgrade_piles[UPGRADE_INDEX[action["card"]]][0]
    line = table.estates[seat].line
    paid = gold_paid(line, TYPE_OF[card], table.rules)
    if not paid:
        return _to_front_line(table, seat, "StructurePurchased", card)
    run = Run(table)
    at = entry_index(tuple(c for c in line if c not in paid), card, table.rules)
    run.emit("StructurePurchased", {"card": card, "at": at, "paid": list(paid)}, seat)
    _after_front_line(run, seat, card)
    return run


def _advance(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    card = table.phase_piles[table.estates[seat].reached][0]
    return _to_front_line(table, seat, "PhaseAdvanced", card)


def _place(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    return _to_front_line(table, seat, "CardPlaced", action["card"])


def _to_front_line(table: State, seat: int, kind: str, card: str) -> Run:
    run = Run(table)
    run.emit(kind, {"card": card, "at": entry_index(table.estates[seat].line, card, table.rules)}, seat)
    _after_front_line(run, seat, card)
    return run


def _draw_common(run: Run, seat: int) -> None:
    table = run.state
    top = table.supply[0]
    if top != CALL_CARD:
        run.emit("CommonCardDrawn", {"card": top}, seat)
        return
    dragon, rest = table.dragons[0], table.dragons[1:]
    returned_at = min(TYPE_OF[rest[0]].placement, len(table.supply) - 1) if rest else None
    old_at = dragon_at(table.estates[seat].line)
    run.emit("DragonCalled", {"dragon": dragon, "call_returned_at": returned_at}, seat)
    if old_at is not None:
        flee(run, seat, table.estates[seat].line[old_at])
    _end_turn(run, seat)


def _after_front_line(run: Run, seat: int, card: str) -> None:
    """A new tower behind a dragon targets it at once; then the turn ends."""
    if card in TOWER_IDS:
        line = run.state.estates[seat].line
        at = dragon_at(line)
        if at is not None and check_damage(run, seat, line[at]) and run.over:
            return
    _end_turn(run, seat)


def _end_turn(run: Run, seat: int) -> None:
    if not run.state.estates[seat].hand:
        run.emit("GameEnded", {"reason": "hand", "dispersed": dragons_in_lines(run.state)}, seat)
    else:
        run.emit("TurnPassed", {"to": next_seat(seat, run.state.players)}, seat)


ACQUIRE_MOVES: dict[str, Move] = {
    "draw": _draw,
    "purchase": _purchase,
    "advance": _advance,
    "place": _place,
}
