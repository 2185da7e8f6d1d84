"""What Dragon Fortress's bots play by: ``evaluate``, the greedy bot's yardstick of a position
for a seat (a projected score for every seat, bonuses included, compared pairwise), with the
heuristic weights and the look-ahead of the dragon's march it rests on. Only the bots read
it; no rule depends on it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from games.dragon_fortress import reading
from games.dragon_fortress.cards import DRAGON_IDS, ESTATE_BONUS, FORTRESS_BONUS, GOLD_IDS, TYPE_OF, UPGRADES, points_of
from games.dragon_fortress.rules import outcome
from games.dragon_fortress.state import STEP_OVER, State, dragon_at

ISMCTS_ITERATIONS = 477  # three players (its fewest)
"""ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): about
what a 300 ms move ran on the team's two-core box (2026-11-22)."""


def evaluate(state: State, seat: int) -> float:
    """A projected score for every seat (see ``_projection``), each with the two bonuses
    as a smooth share of their value by the margin of its power over the best other
    seat's, squashed to [0, 1] as the mean, over the other seats, of a logistic of the
    margin over that seat (the bench counts pairwise finishes). A finished game scores
    its outcome."""
    table: State = state
    if table.step == STEP_OVER:
        result = outcome(table)
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
