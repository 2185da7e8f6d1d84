"""The rules of play of Dragon Fortress: the options a game may start with and its deal
(``check_options``, ``setup``), who acts (``to_act``), the legal actions, the move for each
action type and why an action is refused (``legal_actions``, ``move``, ``refusal``), and the
end (``is_over``, ``final_scores``, ``outcome``). A turn is three steps: (1) the Estate Move
or forgoing it, after which the dragon in the line moves (and may stop at the Dragon Tower
for its owner's sacrifice decision); (2) draw, purchase or advance; (3) place a card at the
Front Line. The moves of step 1 live in ``march``, those of steps 2 and 3 in ``acquire``;
all read the table through ``reading``. Each move emits its events through a ``Run``
(``march``), which folds each at once, so the automatic consequences (razing, fleeing,
defeat, the end of the turn) are computed on the table as it stands after the previous
event; the move returns the ``Run``, and the kit's decide template keeps its table (each
event is folded once).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import CARD_ID, JSON, Action, GameEvent, Move, fields_of, outcome_of, rules_of
from games.dragon_fortress import reading
from games.dragon_fortress.acquire import ACQUIRE_MOVES
from games.dragon_fortress.cards import (
    CALL_CARD,
    COMMON_TYPES,
    DRAGON_IDS,
    DRAGON_TYPES,
    ESTATE_BONUS,
    ESTATE_BONUS_SHARED,
    FIRST_CALL_DEPTH,
    FLAG_TYPE,
    FORTRESS_BONUS,
    GOLD_TYPE,
    HAND_SIZE,
    MOVABLE_IDS,
    PHASES,
    TYPE_OF,
    TYPES,
    UPGRADE_INDEX,
    UPGRADES,
    in_play,
    instance_ids,
)
from games.dragon_fortress.march import MARCH_MOVES
from games.dragon_fortress.reading import acquire_actions, advance_problem, movable, purchase_problem
from games.dragon_fortress.state import STEP_ACQUIRE, STEP_MOVE, STEP_OVER, STEP_PLACE, STEP_SACRIFICE, State

REVISION_2_OPTIONS = ("flee_home", "purchases_carry_over", "gold_kept")

# --- the start -------------------------------------------------------------------------


def common_cards(players: int) -> list[str]:
    return [card for t in COMMON_TYPES for card in in_play(t, players)]


def check_options(options: Mapping[str, JSON], players: int) -> list[str]:
    problems = [
        f"option '{name}' is a reading of rules revision 2; revision 1 always plays it its own way"
        for name in REVISION_2_OPTIONS
        if options.get(name) and rules_of(options) < 2
    ]
    deck = options.get("deck")
    if deck is None:
        return problems
    allowed = set(common_cards(players))
    problems += [
        f"deck entry {card!r} is not a common supply card in a {players}-player game"
        for card in deck
        if not isinstance(card, str) or card not in allowed
    ]
    seen: set[str] = set()
    for card in deck:
        if not isinstance(card, str):
            continue
        if card in seen:
            problems.append(f"deck lists {card!r} twice")
        seen.add(card)
    return problems


def setup(options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
    common = common_cards(players)
    deck = options.get("deck")
    if deck:
        common = list(deck) + [card for card in common if card not in set(deck)]
    else:
        rng.shuffle(common)
    dealt = HAND_SIZE * players
    hands = [common[seat:dealt:players] for seat in range(players)]
    supply = common[dealt:]
    supply.insert(min(FIRST_CALL_DEPTH, len(supply)), CALL_CARD)
    flags = instance_ids(FLAG_TYPE)
    used = set(flags[:players]) | set(common) | {CALL_CARD}
    used |= {card for t in TYPES if t.group in ("gold", "phase", "upgrade", "dragon") for card in in_play(t, players)}
    data: dict[str, JSON] = {
        "players": players,
        "options": dict(options),
        "first": 0,
        "flags": flags[:players],
        "hands": hands,
        "supply": supply,
        "gold": in_play(GOLD_TYPE, players),
        "phase_piles": {t.key: in_play(t, players) for t in PHASES},
        "upgrade_piles": {t.key: in_play(t, players) for t in UPGRADES},
        "dragons": [card for t in DRAGON_TYPES for card in in_play(t, players)],
        "out": [card for card in TYPE_OF if card not in used],
    }
    return [GameEvent("GameSetUp", data, None)]


# --- the turn --------------------------------------------------------------------------


def action_schemas() -> dict[str, dict[str, JSON]]:
    return {
        "draw": fields_of({"pile": {"type": "string", "enum": ["common", "gold"]}}),
        "purchase": fields_of({"card": CARD_ID}),
        "advance": fields_of({"phase": {"type": "string", "description": "The phase reached."}}),
        "place": fields_of({"card": CARD_ID}),
        "move": fields_of({"card": CARD_ID}),
        "stay": fields_of(),
        "sacrifice": fields_of(),
        "spare": fields_of(),
    }


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


def move(table: State, seat: int, kind: str) -> Move:
    return MOVES[kind]


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


# --- the end ---------------------------------------------------------------------------


def final_scores(table: State) -> list[dict[str, int]]:
    """Victory points plus the Estate bonus (shared on a two-way tie, none on a wider tie)
    and the Fortress bonus (none on a tie), per seat."""
    estate = [reading.estate_power(e.line) for e in table.estates]
    fortress = [reading.fortress_power(e.line) for e in table.estates]
    estate_leaders = [s for s, p in enumerate(estate) if p == max(estate)]
    fortress_leaders = [s for s, p in enumerate(fortress) if p == max(fortress)]
    out = []
    for seat, e in enumerate(table.estates):
        bonus_estate = 0
        if seat in estate_leaders:
            bonus_estate = {1: ESTATE_BONUS, 2: ESTATE_BONUS_SHARED}.get(len(estate_leaders), 0)
        bonus_fortress = FORTRESS_BONUS if fortress_leaders == [seat] else 0
        points = reading.victory_points(e, table.rules.revision)
        out.append(
            {
                "victory_points": points,
                "estate_bonus": bonus_estate,
                "fortress_bonus": bonus_fortress,
                "total": points + bonus_estate + bonus_fortress,
            }
        )
    return out


def is_over(table: State) -> bool:
    return table.step == STEP_OVER


def outcome(table: State) -> dict[str, JSON] | None:
    if table.step != STEP_OVER:
        return None
    totals = [s["total"] for s in final_scores(table)]
    best = max(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    if table.result == "terror":
        reason = f"Seat {table.ender} defeated the Shadow Terror"
    else:
        reason = f"Seat {table.ender} played the last card from hand"
    return outcome_of(winners, totals, reason)
