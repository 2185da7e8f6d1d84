"""Dragoborne rules: what each seat may do now, and the events each action causes.

Each action type has its move (``MOVES``, or ``PENDING_MOVES`` while a step waits for a
choice): its own step, run once the kit's decide template has checked the action is
listed, then ``settle``, which works through the queue of pending steps (effects, the
block step of an attack, Fort Burst choices) until it reaches one that needs a player's
choice, or empties it.
Effects are interpreted from the card data; no card is named here. Each phase of play
has its module: ``turn`` (the mulligan and the main phase), ``combat``, ``effects``, and
``costs`` (what pays for what, and what an effect may target).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from games.base import Action, IllegalAction, Move, stepped
from games.dragoborne.cards import card_of
from games.dragoborne.combat import attack, block, block_step, burst, combat_actions, enter_combat, no_block, take
from games.dragoborne.costs import item_choices
from games.dragoborne.effects import Builder, apply_effect
from games.dragoborne.state import State
from games.dragoborne.turn import (
    activate,
    cast,
    cross,
    discard,
    end_turn,
    main_actions,
    move_creature,
    mulligan,
    mulligan_actions,
    resource,
    shield,
    skip_resource,
    summon,
    switch,
)


def legal_actions(state: State, seat: int) -> list[Action]:
    if state.phase == "over":
        return []
    if state.pending:
        return _pending_actions(state, seat)
    if state.phase == "mulligan":
        return mulligan_actions(state, seat)
    if seat != state.active:
        return []
    if state.phase == "resource":
        return [{"type": "resource"}, {"type": "skip_resource"}]
    if state.phase == "main":
        return main_actions(state, seat)
    if state.phase == "combat":
        return combat_actions(state, seat)
    if state.phase == "discard":
        return [{"type": "discard", "card": card} for card in state.sides[seat].hand]
    return []


def to_act(state: State) -> frozenset[int]:
    if state.phase == "over":
        return frozenset()
    if state.pending:
        return frozenset({state.pending[0].seat})
    if state.phase == "mulligan":
        return frozenset(s for s, side in enumerate(state.sides) if not side.mulliganed)
    return frozenset({state.active})


def _pending_actions(state: State, seat: int) -> list[Action]:
    item = state.pending[0]
    if item.seat != seat:
        return []
    if item.kind == "burst":
        take = {"type": "take"}
        return [{"type": "burst"}, take] if card_of(item.source, state.rules).burst else [take]
    if item.kind == "block":
        assert state.attack is not None
        fort = state.attack[1]
        blockers = [c.id for c in state.sides[seat].on_fort(fort) if not c.rested]
        return [{"type": "block", "creature": c} for c in blockers] + [{"type": "no_block"}]
    return [{"type": "target", "target": t} for t in item_choices(state, item)]


def why_illegal(state: State, seat: int, action: Any) -> str:
    """A sentence saying why ``action`` is refused."""
    if state.phase == "over":
        return "The game is over."
    if seat not in to_act(state):
        return "It is not your turn to act."
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        return "An action must be an object with a 'type'."
    kinds = sorted({a["type"] for a in legal_actions(state, seat)})
    kind = action["type"]
    if kind not in kinds:
        return f"You cannot '{kind}' now; you may: {', '.join(kinds)}."
    side = state.sides[seat]
    card = action.get("card")
    if kind in ("summon", "cast", "discard") and card not in side.hand:
        return "That card is not in your hand."
    if kind in ("summon", "cast") and isinstance(card, str):
        return "You cannot pay that card's cost now, or it has nowhere to go or nothing to target."
    if kind in ("attack", "move", "activate", "cross", "block") and "creature" in action:
        return "That creature cannot do that now (it is resting, has moved, or is not yours)."
    if kind in ("shield", "cross"):
        return "That die is already used, or a Dragoshield needs a fort whose banner matches its colour."
    if kind == "target":
        return "That is not a legal target for this effect."
    return "That action is not one of the choices open to you now."


def _target(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    item = b.state.pending[0]
    b.emit("PendingResolved", {})
    apply_effect(b, item, action["target"], rng)


def settle(b: Builder, rng: random.Random) -> None:
    """Resolve queued steps until one needs a player's choice or none is left."""
    while b.state.phase != "over" and b.state.pending:
        item = b.state.pending[0]
        if item.kind == "burst":
            return
        if item.kind == "block":
            if not block_step(b):
                return
            continue
        targets = item_choices(b.state, item)
        if item.effect(b.state.rules).targeted and len(targets) > 1:
            return
        b.emit("PendingResolved", {})
        apply_effect(b, item, targets[0] if targets else None, rng)


Step = Callable[[Builder, int, Action, random.Random], None]
"""One action type's own step on a builder (``turn``, ``combat``), before the queue settles."""


def settled(step: Step) -> Move:
    """The kit's move for one step, then the queued steps it set off (``settle``)."""
    return stepped(Builder, step, settle)


MOVES: dict[str, Move] = {
    "mulligan": settled(mulligan),
    "resource": settled(resource),
    "skip_resource": settled(skip_resource),
    "summon": settled(summon),
    "cast": settled(cast),
    "shield": settled(shield),
    "cross": settled(cross),
    "activate": settled(activate),
    "move": settled(move_creature),
    "switch": settled(switch),
    "combat": settled(enter_combat),
    "attack": settled(attack),
    "end_turn": settled(end_turn),
    "discard": settled(discard),
}
"""The moves while nothing is pending, by action type."""


PENDING_MOVES: dict[str, Move] = {
    "target": settled(_target),
    "burst": settled(burst),
    "take": settled(take),
    "block": settled(block),
    "no_block": settled(no_block),
}
"""The moves that answer the pending step at the head of the queue, by action type."""


def move(state: State, seat: int, kind: str) -> Move:
    """The move for an action of type ``kind`` (the template has found the action listed,
    so there is one; otherwise it is refused as ``decide`` would refuse it)."""
    found = (PENDING_MOVES if state.pending else MOVES).get(kind)
    if found is None:
        raise IllegalAction(why_illegal(state, seat, {"type": kind}))
    return found
