"""What Stomping Grounds' bots play by: ``evaluate``, the greedy bot's yardstick of a
position for a seat (its cards burned so far against the best other seat's, with what its
stack items, owed burns, hoard and challenge underfoot are likely still to bring), and the
rough worth of each effect primitive it weighs them by. Only the bots read it; no rule
depends on it."""

from __future__ import annotations

from . import board
from .cards import Effect, card
from .effects import luck_bonus
from .state import Player, State
from .turn import HAND_LIMIT

ISMCTS_ITERATIONS = 194
"""ISMCTS's iterations per move for a caller without a clock (``games.ismcts``): about
what a 300 ms move ran on the team's two-core box (2026-11-22)."""

HOARD_TURNS = 4.0
EFFECT_VALUE = {
    "burn": 1.0,
    "draw": 0.7,
    "stash": 0.1,
    "luck": 0.15,
    "draw_luck": 0.5,
    "raze": 0.3,
    "move_dragon": 0.2,
    "roam": 0.1,
    "cancel": 0.8,
    "search": 0.8,
    "junk": 0.2,
    "return": 0.6,
    "break": 0.8,
}


def evaluate(state: State, seat: int) -> float:
    if state.winners is not None:
        return 1.0 / len(state.winners) if seat in state.winners else 0.0
    scores = [_score(state, s) for s in range(state.count)]
    best_other = max(v for s, v in enumerate(scores) if s != seat)
    return min(0.99, max(0.01, 0.5 + (scores[seat] - best_other) / 80.0))


def _effects_value(effects: tuple[Effect, ...], for_self: bool = True) -> float:
    total = 0.0
    for e in effects:
        worth = EFFECT_VALUE.get(e.op, 0.0) * max(1, abs(e.n))
        total += worth if (e.target == "self") == for_self or e.op in ("junk", "return", "luck") else 0.0
    return total


def _chance(state: State, seat: int, colour: str | None, number: int) -> float:
    """Rough chance that one luck draw (0..8) plus bonuses reaches ``number``."""
    need = number - luck_bonus(state, seat, colour)
    draws = 1 + state.players[seat].extra_luck
    single = min(1.0, max(0.0, (9 - need / draws) / 9))
    return single


def _score(state: State, seat: int) -> float:
    p: Player = state.players[seat]
    score = 60 - p.remaining - max(0, len(p.hand) - HAND_LIMIT) + 0.08 * min(len(p.stash), 8)
    for o in state.owed:
        if o.seat == seat and o.kind == "burn":
            score += min(o.count, p.remaining)
    for item in state.stack:
        if item.cancelled or item.seat != seat:
            continue
        if item.kind == "action" and item.card is not None:
            score += _effects_value(card(item.card, state.rules).effect)
        elif item.kind == "challenge" and item.at is not None:
            held = board.live_challenge(board.realm_at(state, item.at), state.rules)
            if held is not None:
                c = card(held, state.rules)
                score += _chance(state, seat, c.colour, c.number or 0) * _effects_value(c.effect)
    # a hoard keeps working: its triggers for some turns yet (fewer as the deck runs out)
    turns_left = HOARD_TURNS * min(1.0, p.remaining / 30)
    for held in p.hoard:
        c = card(held, state.rules)
        score += turns_left * _effects_value(c.trigger) + 0.5 * c.bonus_luck
    if p.dragon is not None and not (state.active == seat and state.attempted):
        held = board.live_challenge(board.realm_at(state, p.dragon), state.rules)
        if held is not None:
            c = card(held, state.rules)
            score += 0.6 * _chance(state, seat, c.colour, c.number or 0) * _effects_value(c.effect)
    return score
