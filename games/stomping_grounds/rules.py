"""Stomping Grounds, the rules: who acts, what each seat may do (``legal_actions``) and
what doing it causes (``MOVES``: one move per action type, its own step, then ``settle``
runs the automatic steps). The rules of each phase of play live beside it: ``effects``,
``choices``, ``challenge``, ``flight`` and ``turn``."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.base import Action, IllegalAction, Move, stepped

from .cards import COLOURS
from .challenge import attempt, can_attempt, pass_priority, play_actions, play_card
from .choices import (
    break_hoard,
    burn,
    discard,
    move_dragon,
    owed_actions,
    place_dragon,
    place_realm,
    push,
    raze,
    roam,
    roam_moves,
    search,
    skip,
)
from .effects import Builder, at, luck_bonus
from .flight import duel, duel_targets, fly, fly_targets, land
from .state import State
from .turn import HAND_LIMIT, draw_stash, end_phase, junk, junk_burned, settle

__all__ = ["HAND_LIMIT", "MOVES", "Builder", "explain", "legal_actions", "luck_bonus", "move", "settle", "to_act"]


def to_act(state: State) -> frozenset[int]:
    if state.winners is not None:
        return frozenset()
    if state.owed:
        return frozenset({state.owed[0].seat})
    if state.priority is not None:
        return frozenset({state.priority})
    return frozenset({state.active})


def legal_actions(state: State, seat: int) -> list[Action]:
    if seat not in to_act(state):
        return []
    if state.owed:
        return owed_actions(state, state.owed[0])
    if state.priority is not None:
        return [{"type": "pass"}, *play_actions(state, seat, in_window=True)]
    phase = state.phase
    player = state.players[seat]
    if phase == "challenge":
        out: list[Action] = [{"type": "attempt"}] if can_attempt(state) else []
        return out + play_actions(state, seat, in_window=False) + [{"type": "end_phase"}]
    if phase == "flight":
        return [{"type": "fly", "to": at(p)} for p in fly_targets(state)] + [{"type": "land"}]
    if phase == "roam":
        return roam_moves(state, seat, None) + [{"type": "end_phase"}]
    if phase == "dragon":
        duels: list[Action] = [
            {"type": "duel", "opponent": s, "colour": c} for s in duel_targets(state) for c in COLOURS
        ]
        return duels + play_actions(state, seat, in_window=False) if duels else []
    if phase == "reclaim":
        out = [{"type": "draw"}] if player.stash else []
        out += [{"type": "junk", "card": c} for c in sorted(set(player.hand))]
        if player.burned:
            out.append({"type": "junk_burned"})
        return out + play_actions(state, seat, in_window=False) + [{"type": "end_phase"}]
    return []


REASONS = {
    "place_realm": "Place a realm from your deck by name, on an open space edge to edge with a realm.",
    "place_dragon": "Place your dragon on a realm no dragon is on.",
    "burn": "Burn from your deck, stash or junk (a count up to what you owe) or a card from your hand.",
    "raze": "Choose a face-up realm to raze.",
    "break": "Choose an opponent's hoard to put into its owner's junk.",
    "move_dragon": "Move a dragon to a realm next to it.",
    "push": "Move the losing dragon to a realm next to it.",
    "roam": "That challenge cannot roam there.",
    "skip": "There is nothing to skip now.",
    "search": "Choose a card of the right type from your deck (and where it goes).",
    "discard": "Discard a card from your hand.",
    "pass": "You may only pass when it is your turn to respond.",
    "play": "You cannot play that card now: check the phase, its cost, what it requires and where it goes.",
    "attempt": "Your dragon is not on a challenge you may attempt now.",
    "end_phase": "You cannot end this phase now.",
    "fly": "Your dragon can only fly to a realm next to it that it has not visited this flight.",
    "land": "You can only land during your flight.",
    "duel": "Challenge a dragon on your space with a colour: red, white or blue.",
    "draw": "You can only draw from your stash during your reclaim phase, when it has cards.",
    "junk": "You can only junk a card from your hand during your reclaim phase.",
    "junk_burned": "You can only junk from your burn pile during your reclaim phase.",
}


def explain(state: State, seat: int, action: Any) -> str:
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        return "An action is an object with a 'type'."
    kind = action["type"]
    if state.owed and state.owed[0].seat == seat:
        return f"First you owe a choice ({state.owed[0].kind}): " + REASONS.get(state.owed[0].kind, "")
    if kind not in REASONS:
        return f"There is no action '{kind}' in Stomping Grounds."
    return REASONS[kind]


Step = Callable[[Builder, int, Action, random.Random], None]
"""One action type's own step on a builder (``choices``, ``challenge``, ``flight``, ``turn``)."""


def settled(step: Step) -> Move:
    """The kit's move for one step, then the automatic steps it sets off (``settle``)."""
    return stepped(Builder, step, settle)


MOVES: dict[str, Move] = {
    "place_realm": settled(place_realm),
    "place_dragon": settled(place_dragon),
    "search": settled(search),
    "burn": settled(burn),
    "raze": settled(raze),
    "break": settled(break_hoard),
    "move_dragon": settled(move_dragon),
    "push": settled(push),
    "roam": settled(roam),
    "skip": settled(skip),
    "discard": settled(discard),
    "pass": settled(pass_priority),
    "play": settled(play_card),
    "attempt": settled(attempt),
    "end_phase": settled(end_phase),
    "fly": settled(fly),
    "land": settled(land),
    "duel": settled(duel),
    "draw": settled(draw_stash),
    "junk": settled(junk),
    "junk_burned": settled(junk_burned),
}
"""One move per action type."""


def move(state: State, seat: int, kind: str) -> Move:
    """The move for an action of type ``kind`` (the template has found the action listed,
    so there is one; otherwise it is refused as ``decide`` would refuse it)."""
    found = MOVES.get(kind)
    if found is None:
        raise IllegalAction(explain(state, seat, {"type": kind}))
    return found
