"""What may be done on a turn of Dragon Fortress: who acts, the legal actions, the move
for each action type, and why an action is refused.

A turn is three steps: (1) the Estate Move or forgoing it, after which the dragon
in the line moves (and may stop at the Dragon Tower for its owner's sacrifice
decision); (2) draw, purchase or advance; (3) place a card at the Front Line.
The moves of step 1 live in ``march``, those of steps 2 and 3 in ``acquire``; both
read the table through ``reading``. Each move emits its events through a ``Run``, which
folds each at once, so the automatic consequences (razing, fleeing, defeat, the end of
the turn) are computed on the table as it stands after the previous event; the move
returns the ``Run``, and the kit's decide template keeps its table (each event is
folded once).
"""

from __future__ import annotations

from typing import Any

from games.base import Action, Move
from games.dragon_fortress.acquire import ACQUIRE_MOVES
from games.dragon_fortress.cards import DRAGON_IDS, MOVABLE_IDS, PHASES, UPGRADE_INDEX, UPGRADES
from games.dragon_fortress.march import MARCH_MOVES
from games.dragon_fortress.reading import acquire_actions, advance_problem, movable, purchase_problem
from games.dragon_fortress.state import STEP_ACQUIRE, STEP_MOVE, STEP_OVER, STEP_PLACE, STEP_SACRIFICE, State


def to_act(table: State) -> frozenset[int]:
    if table.step == STEP_OVER:
        return frozenset()
    return frozenset((table.turn,))


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


MOVES: dict[str, Move] = {**MARCH_MOVES, **ACQUIRE_MOVES}
"""One move per action type: the Estate Move and the sacrifice decision (``march``), then
drawing, purchasing, advancing and placing (``acquire``)."""


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
