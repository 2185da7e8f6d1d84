"""Step 1 of a turn of Dragon Fortress: the Estate Move (made or forgone), then the dragon
in the line marches toward the flag, razing what it passes, fleeing or being defeated; a
dragon that passes its owner's Dragon Tower stops for the sacrifice decision. Also what the
later steps reuse: ``Run``, which folds the events of one decision as they are made, a
tower's shots defeating a dragon, and its flight. Each move returns its ``Run``, whose table
the kit's decide template keeps.
"""

from __future__ import annotations

import random
from functools import partial

from games.base import Action, EventBuilder, Move, evolve_by_type, next_seat
from games.dragon_fortress.cards import DRAGON_IDS, SACRIFICE_IDS, TYPE_OF
from games.dragon_fortress.evolve import EVOLVE
from games.dragon_fortress.reading import damage, dragons_in_lines, may_acquire, razes
from games.dragon_fortress.state import STEP_ACQUIRE, STEP_OVER, State, dragon_at

_FOLD = partial(evolve_by_type, EVOLVE)


class Run(EventBuilder):
    """The events of one decision, each folded at once so the next sees its effect."""

    def __init__(self, table: State) -> None:
        super().__init__(table, _FOLD)

    @property
    def over(self) -> bool:
        return bool(self.state.step == STEP_OVER)


def _move_card(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    run.emit("EstateCardMoved", {"card": action["card"]}, seat)
    _dragon_turn(run, seat)
    return run


def _stay(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    run.emit("EstateMoveForgone", {}, seat)
    _dragon_turn(run, seat)
    return run


def _sacrifice_tower(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    _sacrifice(run, seat)
    return run


def _spare_tower(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    _spare(run, seat)
    return run


def _dragon_turn(run: Run, seat: int) -> None:
    """After the Estate Move (made or forgone) the dragon in the line must move."""
    line = run.state.estates[seat].line
    at = dragon_at(line)
    if at is not None:
        dragon = line[at]
        if at == 0:
            flee(run, seat, dragon)  # it arrived at the flag on an earlier turn
        else:
            _march(run, seat, dragon, TYPE_OF[dragon].speed)
    _to_acquire(run, seat)


def _march(run: Run, seat: int, dragon: str, steps: int) -> None:
    while steps > 0:
        line = run.state.estates[seat].line
        at = line.index(dragon)
        if at == 0:
            return
        passed = line[at - 1]
        run.emit("DragonAdvanced", {"dragon": dragon, "passed": passed}, seat)
        steps -= 1
        if passed in SACRIFICE_IDS:
            run.emit("SacrificeOffered", {"dragon": dragon, "tower": passed, "steps_left": steps}, seat)
            return
        if _after_pass(run, seat, dragon, passed):
            return


def _after_pass(run: Run, seat: int, dragon: str, passed: str) -> bool:
    """Raze the card just passed over, then count damage; True when the dragon is gone."""
    dragon_type, passed_type = TYPE_OF[dragon], TYPE_OF[passed]
    if razes(dragon_type, passed_type):
        run.emit("CardRazed", {"card": passed, "dragon": dragon}, seat)
        if passed_type.kind == "gold":
            flee(run, seat, dragon)
            return True
    return check_damage(run, seat, dragon)


def check_damage(run: Run, seat: int, dragon: str) -> bool:
    line = run.state.estates[seat].line
    dealt = damage(line, line.index(dragon))
    if dealt < TYPE_OF[dragon].strength:
        return False
    run.emit("DragonDefeated", {"dragon": dragon, "damage": dealt}, seat)
    _maybe_final(run, seat, dragon)
    return True


def _maybe_final(run: Run, seat: int, dragon: str) -> None:
    if TYPE_OF[dragon].ends_game:
        run.emit("GameEnded", {"reason": "terror", "dispersed": dragons_in_lines(run.state)}, seat)


def flee(run: Run, seat: int, dragon: str) -> None:
    """Counter-clockwise to the first other player with no dragon in their line; out of the
    game when every other line holds one. With ``flee_home`` (revision 1's reading) the
    search ends with the fleeing player, so the dragon leaves the game only when that line
    holds another dragon too."""
    players = run.state.players
    target = None
    searched = players if run.state.rules.flee_home else players - 1
    for step in range(1, searched + 1):
        candidate = next_seat(seat, players, -step)
        if not any(card in DRAGON_IDS and card != dragon for card in run.state.estates[candidate].line):
            target = candidate
            break
    run.emit("DragonFled", {"dragon": dragon, "to": target}, seat)


def _to_acquire(run: Run, seat: int) -> None:
    if run.state.step == STEP_ACQUIRE and not may_acquire(run.state, seat):
        run.emit("AcquireForgone", {}, seat)


def _sacrifice(run: Run, seat: int) -> None:
    pending = run.state.pending
    assert pending is not None
    run.emit("TowerSacrificed", {"tower": pending.tower, "dragon": pending.dragon}, seat)
    run.emit("DragonDefeated", {"dragon": pending.dragon, "damage": None}, seat)
    _maybe_final(run, seat, pending.dragon)
    _to_acquire(run, seat)


def _spare(run: Run, seat: int) -> None:
    pending = run.state.pending
    assert pending is not None
    run.emit("SacrificeDeclined", {"tower": pending.tower, "dragon": pending.dragon}, seat)
    if not _after_pass(run, seat, pending.dragon, pending.tower):
        _march(run, seat, pending.dragon, pending.steps_left)
    _to_acquire(run, seat)


MARCH_MOVES: dict[str, Move] = {
    "move": _move_card,
    "stay": _stay,
    "sacrifice": _sacrifice_tower,
    "spare": _spare_tower,
}
