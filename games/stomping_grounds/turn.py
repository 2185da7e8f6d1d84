"""The turn's automatic steps (``settle``) from start to end check, and the reclaim
phase's choices: draw from the stash, junk from hand, junk the burned card, end the phase."""

from __future__ import annotations

import random

from games.base import Action, next_seat, seats_from

from .challenge import resolve_top
from .choices import owed_actions, roam_moves
from .effects import NEXT_PHASE, Builder, close_phase, run_triggers, shuffle_deck
from .flight import duel_targets

HAND_LIMIT = 7


def end_phase(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    close_phase(b)


def draw_stash(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("StashDrawn", {"seat": seat, "card": b.state.players[seat].stash[-1]}, seat)


def junk(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": action["card"], "source": "hand"}, seat)


def junk_burned(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": b.state.players[seat].burned[-1], "source": "burn"}, seat)


def settle(b: Builder, rng: random.Random) -> None:
    """Run every automatic step until a seat has a decision to make or the game ends."""
    while True:
        state = b.state
        if state.winners is not None:
            return
        if state.owed:
            if owed_actions(state, state.owed[0]):
                return
            head = state.owed[0]
            if head.kind == "search":
                b.emit("ChoiceSkipped", {"seat": head.seat}, head.seat)
                shuffle_deck(b, head.seat, rng)
            else:
                b.emit("ChoiceSkipped", {"seat": head.seat}, head.seat)
            continue
        if state.priority is not None:
            return
        if state.stack:
            resolve_top(b)
            continue
        if state.closing:
            b.emit("PhaseBegan", {"phase": NEXT_PHASE[state.phase]}, None)
            continue
        if not _advance(b):
            return


def _advance(b: Builder) -> bool:
    """One automatic phase step; False when the active seat must decide."""
    state = b.state
    phase = state.phase
    if phase == "setup":
        for seat in range(state.count):
            b.emit("CardsDrawn", {"seat": seat, "cards": list(state.players[seat].deck[:HAND_LIMIT])}, seat)
        order = seats_from(state.first, state.count)
        b.emit("ChoicesOwed", {"choices": [[s, "place_dragon", 1, None] for s in order]}, None)
        b.emit("PhaseBegan", {"phase": "setup_dragons"}, None)
    elif phase == "setup_dragons":
        b.emit("TurnBegan", {"seat": state.first, "turn": 1}, state.first)
    elif phase == "start":
        run_triggers(b, "start")
        b.emit("PhaseBegan", {"phase": "challenge"}, None)
    elif phase == "challenge":
        if not state.attempted:
            return False
        b.emit("PhaseBegan", {"phase": "flight"}, None)
    elif phase == "roam":
        if roam_moves(state, state.active, None):
            return False
        b.emit("PhaseBegan", {"phase": "dragon"}, None)
    elif phase == "dragon":
        if duel_targets(state):
            return False
        b.emit("PhaseBegan", {"phase": "reclaim"}, None)
    elif phase == "end":
        extra = len(state.players[state.active].hand) - HAND_LIMIT
        if extra > 0:
            b.emit("ChoicesOwed", {"choices": [[state.active, "discard", extra, None]]}, state.active)
        b.emit("PhaseBegan", {"phase": "end_effects"}, None)
    elif phase == "end_effects":
        b.emit("JunkReturned", {"seat": state.active}, state.active)
        run_triggers(b, "end")
        b.emit("PhaseBegan", {"phase": "end_check"}, None)
    elif phase == "end_check":
        _end_check(b)
    else:
        return False
    return True


def _end_check(b: Builder) -> None:
    state = b.state
    active = state.players[state.active]
    scores = [60 - p.remaining for p in state.players]
    if active.remaining == 0:
        b.emit(
            "GameEnded",
            {"winners": [state.active], "scores": scores, "reason": "no cards left in deck, stash and junk"},
            state.active,
        )
        return
    if state.turn_limit is not None and state.turn >= state.turn_limit * state.count:
        fewest = min(p.remaining for p in state.players)
        winners = [s for s, p in enumerate(state.players) if p.remaining == fewest]
        b.emit(
            "GameEnded",
            {
                "winners": winners,
                "scores": scores,
                "reason": f"turn limit: fewest cards left after {state.turn_limit} rounds",
            },
            None,
        )
        return
    nxt = next_seat(state.active, state.count)
    b.emit("TurnBegan", {"seat": nxt, "turn": state.turn + 1}, nxt)
