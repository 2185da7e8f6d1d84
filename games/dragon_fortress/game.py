"""Dragon Fortress on the decider contract: setup, views, hidden information, scoring."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from games.base import (
    CARD_ID,
    JSON,
    Action,
    GameBase,
    GameEvent,
    Move,
    Option,
    fields_of,
    outcome_of,
    redeal,
    replace,
    rules_of,
    shuffled_hidden,
)
from games.dragon_fortress import faces, reading, rules
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
    GOLD_IDS,
    GOLD_TYPE,
    HAND_SIZE,
    PHASES,
    TYPE_OF,
    TYPES,
    UPGRADE_INDEX,
    UPGRADES,
    in_play,
    instance_ids,
    points_of,
)
from games.dragon_fortress.state import EVOLVERS, STEP_OVER, State, dragon_at

REVISION_2_OPTIONS = ("flee_home", "purchases_carry_over", "gold_kept")


def common_cards(players: int) -> list[str]:
    return [card for t in COMMON_TYPES for card in in_play(t, players)]


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


class DragonFortress(GameBase):
    key = "dragon-fortress"
    title = "Dragon Fortress"
    summary = (
        "Plant crops, build towers and defeat dragons: each player grows an Estate Line of "
        "estate, gold and tower cards while dragons called from the common supply march "
        "through it razing what they pass. The strongest Estate in victory and bonus points "
        "wins when the Shadow Terror falls or a player plays the last card from hand."
    )
    min_players = 3
    max_players = 4
    options: tuple[Option, ...] = (
        Option(
            "deck",
            "array",
            None,
            "Scenario and tutorial deals only: common supply card ids in the order to stack "
            "them (top first, dealt round-robin before the supply); unlisted cards follow "
            "in manifest order. A game started with it is not a fair deal.",
            nullable=True,
        ),
        Option(
            "flee_home",
            "boolean",
            False,
            "Rules revision 2 only: a fleeing dragon that finds every other Estate Line "
            "holding a dragon goes back to the Front Line of the player it left, instead of "
            "leaving the game (revision 1's reading).",
        ),
        Option(
            "purchases_carry_over",
            "boolean",
            False,
            "Rules revision 2 only: a purchase of a type not made in one phase may be made "
            "in a later one (two Barns in Meadow if none was bought in Fallow), within the "
            "caps (revision 1's reading).",
        ),
        Option(
            "gold_kept",
            "boolean",
            False,
            "Rules revision 2 only: gold in the Estate Line is a requirement for a purchase "
            "and is never spent (revision 1's reading).",
        ),
    )
    rules_revision = 2
    irreversible_types = frozenset({"GameSetUp", "CommonCardDrawn", "DragonCalled"})
    evolvers = EVOLVERS
    lists_every_action = True
    unfair_options = ("deck",)

    # --- setup -------------------------------------------------------------------------

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
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

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
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
        used |= {
            card for t in TYPES if t.group in ("gold", "phase", "upgrade", "dragon") for card in in_play(t, players)
        }
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

    # --- the decider -------------------------------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        return rules.to_act(state)

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
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

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def is_over(self, state: State) -> bool:
        return state.step == STEP_OVER

    def refusal(self, state: State, seat: int, action: Any) -> str:
        return rules.refusal(state, seat, action)

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.MOVES[kind]

    # --- cards, for the per-card balance table and the client's card faces ------------

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card type's face keyed by its type key (a card id without its copy number,
        and a pile's key in the view), with the victory points of the current revision."""
        return faces.card_faces(self.rules_revision)

    def card_names(self, state: State) -> tuple[str, ...]:
        """Every card a player can bring into play, draw or use: the common cards, gold,
        phases, upgrades, the Dragon Call card and the dragons it calls, as they stand in
        the piles, hands, lines and supply (the Estate Flags, never played, are not)."""
        table: State = state
        cards = set(table.supply) | set(table.gold) | set(table.dragons)
        for pile in table.phase_piles + table.upgrade_piles:
            cards.update(pile)
        for estate in table.estates:
            cards.update(estate.hand, estate.line, estate.trophies)
        return tuple(t.name for t in TYPES if t.group != "flag" and any(TYPE_OF[c] is t for c in cards))

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        """The card placed, moved, bought, advanced to or drawn from the gold pile; drawing
        the Dragon Call card (its depth is public) uses it and the dragon it calls; a
        sacrifice uses the Dragon Tower."""
        table: State = state
        kind = action.get("type")
        if kind in ("place", "move"):
            return (TYPE_OF[action["card"]].name,)
        if kind == "purchase":
            return (UPGRADES[UPGRADE_INDEX[action["card"]]].name,)
        if kind == "advance":
            return (PHASES[table.estates[seat].reached].name,)
        if kind == "sacrifice" and table.pending is not None:
            return (TYPE_OF[table.pending.tower].name,)
        if kind == "draw" and action.get("pile") == "gold":
            return (GOLD_TYPE.name,)
        if kind == "draw" and table.supply[:1] == (CALL_CARD,) and table.dragons:
            return (TYPE_OF[CALL_CARD].name, TYPE_OF[table.dragons[0]].name)
        return ()

    # --- hidden information ------------------------------------------------------------

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        table: State = state
        hidden = {card for card in table.supply if card != CALL_CARD}
        for other, estate in enumerate(table.estates):
            if other != seat:
                hidden.update(card for card in estate.hand if card not in GOLD_IDS)
        return frozenset(hidden)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """Re-deal the common cards ``seat`` cannot see (the supply, except the Call card whose
        depth everyone saw, and the other hands, except their gold, drawn face up)."""
        table: State = state
        hidden = self.secrets(table, seat)
        cards = iter(shuffled_hidden(hidden, rng))
        supply = redeal(table.supply, hidden, cards)
        estates = tuple(
            estate if other == seat else replace(estate, hand=redeal(estate.hand, hidden, cards))
            for other, estate in enumerate(table.estates)
        )
        return replace(table, supply=supply, estates=estates)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        table: State = state
        players = []
        for other, estate in enumerate(table.estates):
            line = estate.line
            at = dragon_at(line)
            dragon = None
            if at is not None:
                kind = TYPE_OF[line[at]]
                dragon = {
                    "card": line[at],
                    "position": at,
                    "damage": reading.damage(line, at),
                    "strength": kind.strength,
                }
            players.append(
                {
                    "seat": other,
                    "flag": estate.flag,
                    "line": list(line),
                    "hand": list(estate.hand) if other == seat else None,
                    "hand_count": len(estate.hand),
                    "hand_gold": [card for card in estate.hand if card in GOLD_IDS],
                    "fresh_gold": estate.fresh_gold,
                    "trophies": list(estate.trophies),
                    "phase": PHASES[estate.reached - 1].key if estate.reached else None,
                    "estate_power": reading.estate_power(line),
                    "fortress_power": reading.fortress_power(line),
                    "gold_power": reading.gold_power(line),
                    "victory_points": reading.victory_points(estate, table.rules.revision),
                    "purchases": {u.key: n for u, n in zip(UPGRADES, estate.bought, strict=True)},
                    "purchases_this_phase": {u.key: n for u, n in zip(UPGRADES, estate.bought_this_phase, strict=True)},
                    "purchased_last_turn": estate.bought_last_turn,
                    "dragon": dragon,
                }
            )
        pending = table.pending
        return {
            "you": seat,
            "step": table.step,
            "turn": table.turn,
            "turns_played": table.turns,
            "players": players,
            "supply": {
                "count": len(table.supply),
                "call_depth": table.supply.index(CALL_CARD) if CALL_CARD in table.supply else None,
            },
            "gold_supply": len(table.gold),
            "piles": {
                **{t.key: len(p) for t, p in zip(PHASES, table.phase_piles, strict=True)},
                **{t.key: len(p) for t, p in zip(UPGRADES, table.upgrade_piles, strict=True)},
            },
            "dragons": list(table.dragons),
            "out_of_game": list(table.out),
            "pending": None
            if pending is None
            else {"dragon": pending.dragon, "tower": pending.tower, "steps_left": pending.steps_left},
            "scores": final_scores(table) if table.step == STEP_OVER else None,
            "legal_actions": rules.legal_actions(table, seat) if seat is not None else [],
        }

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        if event.type == "CommonCardDrawn" and event.seat != seat:
            return GameEvent(event.type, {"card": None}, event.seat)
        if event.type == "GameSetUp":
            data = dict(event.data)
            supply = list(data["supply"])
            data["hands"] = [list(hand) if index == seat else len(hand) for index, hand in enumerate(data["hands"])]
            data["supply"] = {
                "count": len(supply),
                "call_depth": supply.index(CALL_CARD) if CALL_CARD in supply else None,
            }
            data["options"] = {
                name: (len(value) if name == "deck" and value else value)
                for name, value in dict(data["options"]).items()
            }
            return GameEvent(event.type, data, event.seat)
        return event

    # --- the end -----------------------------------------------------------------------

    def outcome(self, state: State) -> dict[str, JSON] | None:
        table: State = state
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

    def evaluate(self, state: State, seat: int) -> float:
        """A projected score for every seat (see ``_projection``), each with the two bonuses
        as a smooth share of their value by the margin of its power over the best other
        seat's, squashed to [0, 1] as the mean, over the other seats, of a logistic of the
        margin over that seat (the bench counts pairwise finishes). A finished game scores
        its outcome."""
        table: State = state
        if table.step == STEP_OVER:
            result = self.outcome(table)
            assert result is not None
            return 1.0 / len(result["winners"]) if seat in result["winners"] else 0.0
        projected = [_projection(table, other) for other in range(table.players)]
        estate = [reading.estate_power(e.line) for e in table.estates]
        fortress = [reading.fortress_power(e.line) for e in table.estates]
        for other in range(table.players):
            rest = [index for index in range(table.players) if index != other]
            projected[other] += ESTATE_BONUS * _logistic((estate[other] - max(estate[i] for i in rest)) / BONUS_MARGIN)
            projected[other] += FORTRESS_BONUS * _logistic(
                (fortress[other] - max(fortress[i] for i in rest)) / BONUS_MARGIN
            )
        others = [other for other in range(table.players) if other != seat]
        return sum(_logistic((projected[seat] - projected[other]) / 6.0) for other in others) / len(others)


# Heuristic weights of the evaluation (ours, measured with ``bench.bots`` greedy against
# random; see the commit that set them). A card in the line is worth its points plus
# ESTATE_WEIGHT per Estate Power (the phases ask for it, the Estate bonus is the biggest)
# and FORTRESS_WEIGHT per shot (phases ask for it, towers defeat dragons); halving the
# shot's weight cost greedy about six points against random, so towers are not filler.
ESTATE_WEIGHT = 0.7
FORTRESS_WEIGHT = 0.4
GOLD_WEIGHT = 1.0  # each gold card in the line up to the dearest purchase's cost ...
SURPLUS_GOLD_WEIGHT = 0.1  # ... and beyond it (it can still turn a dragon away)
PHASE_WEIGHT = 1.0  # per phase reached, on top of its card: it opens purchases
HAND_WEIGHT = 0.5  # a card in hand is a placement to come, discarded at the end
# Gold in hand counts a quarter of its worth in the line (other cards half): the earlier
# evaluation rated a gold in hand above a Crop Field in hand, so greedy drew gold turn
# after turn and ended with a hand of it, no Fortress Power and no phase. Tried and not
# kept: a penalty for what the next dragon of the pile would raze marching through the
# line as it stands (greedy lost 2 to 6 points against random with it).
HAND_GOLD_WEIGHT = 0.25
DRAGON_WEIGHT = 0.6  # a dragon the march says will fall, short of a trophy in hand
BONUS_MARGIN = 2.5  # the power margin (in points of power) that makes a bonus about 3:1
MOST_GOLD_NEEDED = max(upgrade.gold_cost for upgrade in UPGRADES)  # gold beyond this buys nothing more


def _logistic(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _card_value(card: str, points: Mapping[str, int]) -> float:
    kind = TYPE_OF[card]
    return points[card] + ESTATE_WEIGHT * kind.estate_power + FORTRESS_WEIGHT * kind.shots


def _march(line: tuple[str, ...], at: int, hand_shots: list[int]) -> tuple[list[str], bool]:
    """Walk the dragon at ``at`` to the flag on the line as it stands: the cards it would
    raze, and whether it falls (its damage reaching its strength, or a Dragon Tower
    sacrificed) before it reaches the flag or flees on gold. After each of its moves its
    owner is assumed to place the strongest tower left in hand behind it."""
    dragon = TYPE_OF[line[at]]
    dealt = reading.damage(line, at)
    extra = sorted((shots for shots in hand_shots if shots not in dragon.immune_to_shots), reverse=True)
    lost: list[str] = []
    position = at - 1
    turn = 0
    while dealt < dragon.strength and position >= 0:
        for _ in range(dragon.speed):
            if position < 0 or dealt >= dragon.strength:
                break
            card = line[position]
            kind = TYPE_OF[card]
            position -= 1
            if kind.ability == "sacrifice":
                return lost, True
            if reading.razes(dragon, kind):
                lost.append(card)
                if kind.kind == "gold":
                    return lost, False
            elif kind.shots and kind.shots not in dragon.immune_to_shots:
                dealt += kind.shots
        if dealt < dragon.strength and turn < len(extra):
            dealt += extra[turn]
            turn += 1
    return lost, dealt >= dragon.strength


def _projection(table: State, seat: int) -> float:
    """``seat``'s score as it may end, without the bonuses: the points on the table (a
    dragon's trophies, the cards in the line at their worth for power), gold up to what a
    purchase can spend, the phases reached, a discounted hand, and the dragon in the line
    marched to its end (what it would raze is lost, its points won if it falls)."""
    estate = table.estates[seat]
    line = estate.line
    points = points_of(table.rules.revision)
    value = float(sum(points[card] for card in estate.trophies))
    gold = 0
    for card in line:
        if card in DRAGON_IDS:
            continue
        if card in GOLD_IDS:
            gold += 1
            value += GOLD_WEIGHT if gold <= MOST_GOLD_NEEDED else SURPLUS_GOLD_WEIGHT
        else:
            value += _card_value(card, points)
    value += PHASE_WEIGHT * estate.reached
    for card in estate.hand:
        if card in GOLD_IDS:
            gold += 1
            value += HAND_GOLD_WEIGHT * (GOLD_WEIGHT if gold <= MOST_GOLD_NEEDED else SURPLUS_GOLD_WEIGHT)
        else:
            value += HAND_WEIGHT * _card_value(card, points)
    at = dragon_at(line)
    if at is not None:
        lost, falls = _march(line, at, [TYPE_OF[card].shots for card in estate.hand if TYPE_OF[card].shots])
        for card in lost:
            value -= GOLD_WEIGHT if card in GOLD_IDS else _card_value(card, points)
        if falls:
            value += DRAGON_WEIGHT * TYPE_OF[line[at]].victory_points
    return value


GAME = DragonFortress()
