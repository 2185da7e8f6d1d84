"""What may be done on a turn of Dragon Fortress, and the events each action causes.

A turn is three steps: (1) the Estate Move or forgoing it, after which the dragon
in the line moves (and may stop at the Dragon Tower for its owner's sacrifice
decision); (2) draw, purchase or advance; (3) place a card at the Front Line.
Each move emits its events through a ``Run``, which folds each at once, so the automatic
consequences (razing, fleeing, defeat, the end of the turn) are computed on the table as
it stands after the previous event; the move returns the ``Run``, and the kit's decide
template keeps its table (each event is folded once).
"""

from __future__ import annotations

import random
from typing import Any

from games.base import Action, EventBuilder, Move, next_seat
from games.dragon_fortress.cards import (
    CALL_CARD,
    DRAGON_IDS,
    ESTATE_POWER_OF,
    GATE_IDS,
    GOLD_POWER_OF,
    MOVABLE_IDS,
    PHASES,
    POINTS_OF,
    SACRIFICE_IDS,
    SHOTS_OF,
    TOWER_IDS,
    TYPE_OF,
    UPGRADE_INDEX,
    UPGRADES,
    CardType,
)
from games.dragon_fortress.state import (
    STEP_ACQUIRE,
    STEP_MOVE,
    STEP_OVER,
    STEP_PLACE,
    STEP_SACRIFICE,
    Estate,
    State,
    dragon_at,
    evolve,
)

# --- what a line is worth -------------------------------------------------------------


def estate_power(line: tuple[str, ...]) -> int:
    return sum(map(ESTATE_POWER_OF.__getitem__, line))


def fortress_power(line: tuple[str, ...]) -> int:
    return sum(map(SHOTS_OF.__getitem__, line))


def gold_power(line: tuple[str, ...]) -> int:
    return sum(map(GOLD_POWER_OF.__getitem__, line))


def victory_points(estate: Estate) -> int:
    """Points printed on the cards in the line (a dragon still in it is not yours) and on the
    dragons defeated."""
    in_line = sum(POINTS_OF[card] for card in estate.line if card not in DRAGON_IDS)
    return in_line + sum(map(POINTS_OF.__getitem__, estate.trophies))


def phase_in_line(line: tuple[str, ...]) -> int:
    return max((TYPE_OF[card].rank for card in line), default=0)


def damage(line: tuple[str, ...], at: int) -> int:
    """Sustained targeted damage on the dragon at ``at``: the shots of every tower behind it
    (towers it has passed over and towers placed behind it), less those it is immune to."""
    immune = TYPE_OF[line[at]].immune_to_shots
    total = 0
    for card in line[at + 1 :]:
        shots = TYPE_OF[card].shots
        if shots and shots not in immune:
            total += shots
    return total


def razes(dragon: CardType, card: CardType) -> bool:
    if card.kind == "estate":
        return card.estate_power <= dragon.raze_estate
    if card.kind == "gold":
        return dragon.raze_gold
    if card.kind == "tower":
        return dragon.raze_towers
    return False


def entry_index(line: tuple[str, ...], card: str) -> int:
    """Where a new card enters: a Gate Tower at the very front, anything else behind the
    Gate Towers standing at the Front Line (and so always behind a dragon)."""
    if card in GATE_IDS:
        return len(line)
    at = len(line)
    while at > 0 and line[at - 1] in GATE_IDS:
        at -= 1
    return at


# --- legal actions --------------------------------------------------------------------


def to_act(table: State) -> frozenset[int]:
    if table.step == STEP_OVER:
        return frozenset()
    return frozenset((table.turn,))


def movable(line: tuple[str, ...]) -> list[str]:
    """Estate and Gold cards that may take the Estate Move: not next to the flag already,
    and not directly behind a dragon."""
    return [card for at, card in enumerate(line) if at > 0 and card in MOVABLE_IDS and line[at - 1] not in DRAGON_IDS]


def purchase_problem(table: State, seat: int, upgrade: CardType) -> str | None:
    """Why ``seat`` may not purchase ``upgrade`` now, or None when it may."""
    estate = table.estates[seat]
    index = UPGRADE_INDEX[upgrade.key]
    phase_name = PHASES[upgrade.phase - 1].name
    if estate.bought_last_turn:
        return "You purchased on your last turn; you may never purchase two turns in a row."
    if not table.upgrade_piles[index]:
        return f"No {upgrade.name} is left to purchase."
    if phase_in_line(estate.line) < upgrade.phase:
        return f"A {upgrade.name} needs a {phase_name} (or a later phase card) in your Estate Line."
    if gold_power(estate.line) < upgrade.gold_cost:
        return f"A {upgrade.name} needs {upgrade.gold_cost} gold in your Estate Line."
    if estate.bought[index] >= upgrade.limit:
        return f"No player may ever have more than {upgrade.limit} of {upgrade.name}."
    if estate.bought[index] >= estate.reached - upgrade.phase + 1:
        return f"You may purchase only one {upgrade.name} per phase reached; advance to buy another."
    return None


def advance_problem(table: State, seat: int) -> str | None:
    estate = table.estates[seat]
    if estate.reached >= len(PHASES):
        return "You have advanced to every phase."
    phase = PHASES[estate.reached]
    if not table.phase_piles[estate.reached]:
        return f"No {phase.name} card is left."
    if estate_power(estate.line) < phase.requires_estate or fortress_power(estate.line) < phase.requires_fortress:
        return (
            f"Advancing to {phase.name} needs {phase.requires_estate} Estate Power and "
            f"{phase.requires_fortress} Fortress Power in your Estate Line."
        )
    return None


def acquire_actions(table: State, seat: int) -> list[Action]:
    actions: list[Action] = []
    if table.supply:
        actions.append({"type": "draw", "pile": "common"})
    if table.gold:
        actions.append({"type": "draw", "pile": "gold"})
    for upgrade in UPGRADES:
        if purchase_problem(table, seat, upgrade) is None:
            actions.append({"type": "purchase", "card": upgrade.key})
    if advance_problem(table, seat) is None:
        actions.append({"type": "advance", "phase": PHASES[table.estates[seat].reached].key})
    return actions


def legal_actions(table: State, seat: int) -> list[Action]:
    if table.step == STEP_OVER or seat != table.turn:
        return []
    estate = table.estates[seat]
    if table.step == STEP_MOVE:
        return [{"type": "move", "card": card} for card in movable(estate.line)] + [{"type": "stay"}]
    if table.step == STEP_SACRIFICE:
        return [{"type": "sacrifice"}, {"type": "spare"}]
    if table.step == STEP_ACQUIRE:
        return acquire_actions(table, seat)
    return [{"type": "place", "card": card} for card in estate.hand if card != estate.fresh_gold]


# --- decide ---------------------------------------------------------------------------


class Run(EventBuilder):
    """The events of one decision, each folded at once so the next sees its effect."""

    def __init__(self, table: State) -> None:
        super().__init__(table, evolve)

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


def _draw(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    run = Run(table)
    if action["pile"] == "gold":
        run.emit("GoldDrawn", {"card": table.gold[0]}, seat)
    else:
        _draw_common(run, seat)
    return run


def _purchase(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    card = table.upgrade_piles[UPGRADE_INDEX[action["card"]]][0]
    return _to_front_line(table, seat, "StructurePurchased", card)


def _advance(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    card = table.phase_piles[table.estates[seat].reached][0]
    return _to_front_line(table, seat, "PhaseAdvanced", card)


def _place(table: State, seat: int, action: Action, rng: random.Random) -> Run:
    return _to_front_line(table, seat, "CardPlaced", action["card"])


def _to_front_line(table: State, seat: int, kind: str, card: str) -> Run:
    run = Run(table)
    run.emit(kind, {"card": card, "at": entry_index(table.estates[seat].line, card)}, seat)
    _after_front_line(run, seat, card)
    return run


MOVES: dict[str, Move] = {
    "move": _move_card,
    "stay": _stay,
    "sacrifice": _sacrifice_tower,
    "spare": _spare_tower,
    "draw": _draw,
    "purchase": _purchase,
    "advance": _advance,
    "place": _place,
}


def refusal(table: State, seat: int, action: Any) -> str:
    """A sentence saying why ``action`` is not one of the legal ones."""
    if not isinstance(action, dict):
        return "An action is a JSON object with a 'type'."
    kind = action.get("type")
    steps = {
        STEP_MOVE: "make or forgo your Estate Move ('move' or 'stay')",
        STEP_SACRIFICE: "decide whether to sacrifice your Dragon Tower ('sacrifice' or 'spare')",
        STEP_ACQUIRE: "draw, purchase or advance",
        STEP_PLACE: "place a card from your hand at the Front Line",
    }
    expected = {
        STEP_MOVE: ("move", "stay"),
        STEP_SACRIFICE: ("sacrifice", "spare"),
        STEP_ACQUIRE: ("draw", "purchase", "advance"),
        STEP_PLACE: ("place",),
    }[table.step]
    if kind not in expected:
        return f"Now you must {steps[table.step]}."
    estate = table.estates[seat]
    if kind == "move":
        card = action.get("card")
        if not isinstance(card, str) or card not in estate.line:
            return "Only a card in your own Estate Line may take the Estate Move."
        if card not in MOVABLE_IDS:
            return "Only an Estate or Gold card may move; Fortress cards and dragons never do."
        at = estate.line.index(card)
        if at == 0:
            return "That card is already next to your Estate Flag."
        if estate.line[at - 1] in DRAGON_IDS:
            return "A card directly behind a dragon may never move."
    if kind == "draw":
        pile = action.get("pile")
        if pile == "common" and not table.supply:
            return "The common supply is empty."
        if pile == "gold" and not table.gold:
            return "The gold supply is empty."
        return "Draw from the 'common' or the 'gold' supply."
    if kind == "purchase":
        card = action.get("card")
        upgrade = UPGRADES[UPGRADE_INDEX[card]] if isinstance(card, str) and card in UPGRADE_INDEX else None
        if upgrade is None:
            names = ", ".join(u.key for u in UPGRADES)
            return f"Only an upgrade structure may be purchased ({names})."
        return purchase_problem(table, seat, upgrade) or "That purchase is not possible now."
    if kind == "advance":
        return advance_problem(table, seat) or f"The next phase for you is {PHASES[estate.reached].key}."
    if kind == "place":
        card = action.get("card")
        if isinstance(card, str) and card == estate.fresh_gold:
            return "Gold can never be placed in your Estate Line the same turn it is drawn."
        return "Place a card that is in your hand."
    return "That action is not possible now."


def _dragon_turn(run: Run, seat: int) -> None:
    """After the Estate Move (made or forgone) the dragon in the line must move."""
    line = run.state.estates[seat].line
    at = dragon_at(line)
    if at is not None:
        dragon = line[at]
        if at == 0:
            _flee(run, seat, dragon)  # it arrived at the flag on an earlier turn
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
            _flee(run, seat, dragon)
            return True
    return _check_damage(run, seat, dragon)


def _check_damage(run: Run, seat: int, dragon: str) -> bool:
    line = run.state.estates[seat].line
    dealt = damage(line, line.index(dragon))
    if dealt < TYPE_OF[dragon].strength:
        return False
    run.emit("DragonDefeated", {"dragon": dragon, "damage": dealt}, seat)
    _maybe_final(run, seat, dragon)
    return True


def _maybe_final(run: Run, seat: int, dragon: str) -> None:
    if TYPE_OF[dragon].ends_game:
        run.emit("GameEnded", {"reason": "terror", "dispersed": _dragons_in_lines(run.state)}, seat)


def _dragons_in_lines(table: State) -> list[str]:
    return [card for estate in table.estates for card in estate.line if card in DRAGON_IDS]


def _flee(run: Run, seat: int, dragon: str) -> None:
    """Counter-clockwise to the first player with no (other) dragon in their line; back to
    the fleeing player last; out of the game when every line holds another dragon."""
    players = run.state.players
    target = None
    for step in range(1, players + 1):
        candidate = next_seat(seat, players, -step)
        if not any(card in DRAGON_IDS and card != dragon for card in run.state.estates[candidate].line):
            target = candidate
            break
    run.emit("DragonFled", {"dragon": dragon, "to": target}, seat)


def _to_acquire(run: Run, seat: int) -> None:
    if run.state.step == STEP_ACQUIRE and not acquire_actions(run.state, seat):
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
        _flee(run, seat, table.estates[seat].line[old_at])
    _end_turn(run, seat)


def _after_front_line(run: Run, seat: int, card: str) -> None:
    """A new tower behind a dragon targets it at once; then the turn ends."""
    if card in TOWER_IDS:
        line = run.state.estates[seat].line
        at = dragon_at(line)
        if at is not None and _check_damage(run, seat, line[at]) and run.over:
            return
    _end_turn(run, seat)


def _end_turn(run: Run, seat: int) -> None:
    if not run.state.estates[seat].hand:
        run.emit("GameEnded", {"reason": "hand", "dispersed": _dragons_in_lines(run.state)}, seat)
    else:
        run.emit("TurnPassed", {"to": next_seat(seat, run.state.players)}, seat)
