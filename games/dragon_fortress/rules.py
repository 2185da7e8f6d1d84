"""What may be done on a turn of Dragon Fortress, and the events each action causes.

A turn is three steps: (1) the Estate Move or forgoing it, after which the dragon
in the line moves (and may stop at the Dragon Tower for its owner's sacrifice
decision); (2) draw, purchase or advance; (3) place a card at the Front Line.
``decide`` folds each event it emits into a scratch table, so the automatic
consequences (razing, fleeing, defeat, the end of the turn) are computed on the
table as it stands after the previous event.
"""

from __future__ import annotations

from games.base import Action, GameEvent, IllegalAction
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
    Table,
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


def to_act(table: Table) -> frozenset[int]:
    if table.step == STEP_OVER:
        return frozenset()
    return frozenset((table.turn,))


def movable(line: tuple[str, ...]) -> list[str]:
    """Estate and Gold cards that may take the Estate Move: not next to the flag already,
    and not directly behind a dragon."""
    return [card for at, card in enumerate(line) if at > 0 and card in MOVABLE_IDS and line[at - 1] not in DRAGON_IDS]


def purchase_problem(table: Table, seat: int, upgrade: CardType) -> str | None:
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


def advance_problem(table: Table, seat: int) -> str | None:
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


def acquire_actions(table: Table, seat: int) -> list[Action]:
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


def legal_actions(table: Table, seat: int) -> list[Action]:
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


class _Run:
    """The events of one decision, each folded at once so the next sees its effect."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.events: list[GameEvent] = []

    def emit(self, kind: str, seat: int, **data: object) -> None:
        event = GameEvent(kind, data, seat)
        self.events.append(event)
        self.table = evolve(self.table, event)

    @property
    def over(self) -> bool:
        return self.table.step == STEP_OVER


def decide(table: Table, seat: int, action: Action, rng: object) -> list[GameEvent]:
    if table.step == STEP_OVER:
        raise IllegalAction("The game is over.", code="game_over")
    if seat != table.turn:
        raise IllegalAction("It is not your turn.", code="not_your_turn")
    if not isinstance(action, dict) or action not in legal_actions(table, seat):
        raise IllegalAction(_refusal(table, seat, action))
    run = _Run(table)
    kind = action["type"]
    if kind == "move":
        run.emit("EstateCardMoved", seat, card=action["card"])
        _dragon_turn(run, seat)
    elif kind == "stay":
        run.emit("EstateMoveForgone", seat)
        _dragon_turn(run, seat)
    elif kind == "sacrifice":
        _sacrifice(run, seat)
    elif kind == "spare":
        _spare(run, seat)
    elif kind == "draw" and action["pile"] == "gold":
        run.emit("GoldDrawn", seat, card=table.gold[0])
    elif kind == "draw":
        _draw_common(run, seat)
    elif kind == "purchase":
        pile = table.upgrade_piles[UPGRADE_INDEX[action["card"]]]
        card = pile[0]
        run.emit("StructurePurchased", seat, card=card, at=entry_index(table.estates[seat].line, card))
        _after_front_line(run, seat, card)
    elif kind == "advance":
        card = table.phase_piles[table.estates[seat].reached][0]
        run.emit("PhaseAdvanced", seat, card=card, at=entry_index(table.estates[seat].line, card))
        _after_front_line(run, seat, card)
    else:
        card = action["card"]
        run.emit("CardPlaced", seat, card=card, at=entry_index(table.estates[seat].line, card))
        _after_front_line(run, seat, card)
    return run.events


def _refusal(table: Table, seat: int, action: Action) -> str:
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


def _dragon_turn(run: _Run, seat: int) -> None:
    """After the Estate Move (made or forgone) the dragon in the line must move."""
    line = run.table.estates[seat].line
    at = dragon_at(line)
    if at is not None:
        dragon = line[at]
        if at == 0:
            _flee(run, seat, dragon)  # it arrived at the flag on an earlier turn
        else:
            _march(run, seat, dragon, TYPE_OF[dragon].speed)
    _to_acquire(run, seat)


def _march(run: _Run, seat: int, dragon: str, steps: int) -> None:
    while steps > 0:
        line = run.table.estates[seat].line
        at = line.index(dragon)
        if at == 0:
            return
        passed = line[at - 1]
        run.emit("DragonAdvanced", seat, dragon=dragon, passed=passed)
        steps -= 1
        if passed in SACRIFICE_IDS:
            run.emit("SacrificeOffered", seat, dragon=dragon, tower=passed, steps_left=steps)
            return
        if _after_pass(run, seat, dragon, passed):
            return


def _after_pass(run: _Run, seat: int, dragon: str, passed: str) -> bool:
    """Raze the card just passed over, then count damage; True when the dragon is gone."""
    dragon_type, passed_type = TYPE_OF[dragon], TYPE_OF[passed]
    if razes(dragon_type, passed_type):
        run.emit("CardRazed", seat, card=passed, dragon=dragon)
        if passed_type.kind == "gold":
            _flee(run, seat, dragon)
            return True
    return _check_damage(run, seat, dragon)


def _check_damage(run: _Run, seat: int, dragon: str) -> bool:
    line = run.table.estates[seat].line
    dealt = damage(line, line.index(dragon))
    if dealt < TYPE_OF[dragon].strength:
        return False
    run.emit("DragonDefeated", seat, dragon=dragon, damage=dealt)
    _maybe_final(run, seat, dragon)
    return True


def _maybe_final(run: _Run, seat: int, dragon: str) -> None:
    if TYPE_OF[dragon].ends_game:
        run.emit("GameEnded", seat, reason="terror", dispersed=_dragons_in_lines(run.table))


def _dragons_in_lines(table: Table) -> list[str]:
    return [card for estate in table.estates for card in estate.line if card in DRAGON_IDS]


def _flee(run: _Run, seat: int, dragon: str) -> None:
    """Counter-clockwise to the first player with no (other) dragon in their line; back to
    the fleeing player last; out of the game when every line holds another dragon."""
    players = run.table.players
    target = None
    for step in range(1, players + 1):
        candidate = (seat - step) % players
        if not any(card in DRAGON_IDS and card != dragon for card in run.table.estates[candidate].line):
            target = candidate
            break
    run.emit("DragonFled", seat, dragon=dragon, to=target)


def _to_acquire(run: _Run, seat: int) -> None:
    if run.table.step == STEP_ACQUIRE and not acquire_actions(run.table, seat):
        run.emit("AcquireForgone", seat)


def _sacrifice(run: _Run, seat: int) -> None:
    pending = run.table.pending
    assert pending is not None
    run.emit("TowerSacrificed", seat, tower=pending.tower, dragon=pending.dragon)
    run.emit("DragonDefeated", seat, dragon=pending.dragon, damage=None)
    _maybe_final(run, seat, pending.dragon)
    _to_acquire(run, seat)


def _spare(run: _Run, seat: int) -> None:
    pending = run.table.pending
    assert pending is not None
    run.emit("SacrificeDeclined", seat, tower=pending.tower, dragon=pending.dragon)
    if not _after_pass(run, seat, pending.dragon, pending.tower):
        _march(run, seat, pending.dragon, pending.steps_left)
    _to_acquire(run, seat)


def _draw_common(run: _Run, seat: int) -> None:
    table = run.table
    top = table.supply[0]
    if top != CALL_CARD:
        run.emit("CommonCardDrawn", seat, card=top)
        return
    dragon, rest = table.dragons[0], table.dragons[1:]
    returned_at = min(TYPE_OF[rest[0]].placement, len(table.supply) - 1) if rest else None
    old_at = dragon_at(table.estates[seat].line)
    run.emit("DragonCalled", seat, dragon=dragon, call_returned_at=returned_at)
    if old_at is not None:
        _flee(run, seat, table.estates[seat].line[old_at])
    _end_turn(run, seat)


def _after_front_line(run: _Run, seat: int, card: str) -> None:
    """A new tower behind a dragon targets it at once; then the turn ends."""
    if card in TOWER_IDS:
        line = run.table.estates[seat].line
        at = dragon_at(line)
        if at is not None and _check_damage(run, seat, line[at]) and run.over:
            return
    _end_turn(run, seat)


def _end_turn(run: _Run, seat: int) -> None:
    if not run.table.estates[seat].hand:
        run.emit("GameEnded", seat, reason="hand", dispersed=_dragons_in_lines(run.table))
    else:
        run.emit("TurnPassed", seat, to=(seat + 1) % run.table.players)
