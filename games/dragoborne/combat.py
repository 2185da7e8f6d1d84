"""The combat phase (rulebook, "Combat"): attacks, the defender's block, battle damage,
barriers broken and the Fort Burst choices they bring."""

from __future__ import annotations

import random

from games.base import Action
from games.dragoborne.cards import card_of
from games.dragoborne.effects import Builder, queue, sweep, triggers
from games.dragoborne.state import Pending, State, stats


def combat_actions(state: State, seat: int) -> list[Action]:
    side = state.sides[seat]
    targets = state.sides[1 - seat].standing_forts()
    out: list[Action] = [
        {"type": "attack", "creature": c.id, "fort": f} for c in side.field if not c.rested for f in targets
    ]
    out.append({"type": "end_turn"})
    return out


def enter_combat(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PhaseChanged", {"phase": "combat"})


def attack(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    attacker = action["creature"]
    b.emit("AttackDeclared", {"seat": seat, "creature": attacker, "fort": action["fort"]}, seat)
    queue(b, [*triggers(b.state.rules, seat, attacker, "attacks"), Pending("block", 1 - seat)])


def block(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PendingResolved", {})
    b.emit("AttackBlocked", {"seat": seat, "creature": action["creature"]}, seat)
    battle(b, blocker=action["creature"], die=None)


def no_block(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("PendingResolved", {})
    break_barrier(b)


def burst(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = b.state.pending[0].source
    b.emit("PendingResolved", {})
    b.emit("FortBurst", {"seat": seat, "card": card_id}, seat)
    queue(b, [Pending("effect", seat, card_id, "burst", j) for j in range(len(card_of(card_id, b.state.rules).burst))])


def take(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    card_id = b.state.pending[0].source
    b.emit("PendingResolved", {})
    b.emit("BarrierTaken", {"seat": seat, "card": card_id}, seat)


def block_step(b: Builder) -> bool:
    """The defender's side of an attack; False when the defender must choose a blocker."""
    state = b.state
    assert state.attack is not None
    attacker, fort = state.attack
    defender = 1 - state.active
    side = state.sides[defender]
    if state.sides[state.active].creature(attacker) is None:
        b.emit("PendingResolved", {})
        b.emit("AttackEnded", {})
        return True
    shield = side.shield_at(fort)
    if shield is not None:
        b.emit("PendingResolved", {})
        b.emit("AttackBlocked", {"seat": defender, "die": shield}, defender)
        battle(b, blocker=None, die=shield)
        return True
    if any(not c.rested for c in side.on_fort(fort)):
        return False
    b.emit("PendingResolved", {})
    break_barrier(b)
    return True


def battle(b: Builder, blocker: str | None, die: int | None) -> None:
    """ATK is subtracted from EDR both ways (as damage until the end of the turn)."""
    state = b.state
    assert state.attack is not None
    attacker_id = state.attack[0]
    active, defender = state.active, 1 - state.active
    attacker = state.sides[active].creature(attacker_id)
    assert attacker is not None
    attack_power = stats(state.sides[active], attacker, state.rules)[0]
    if die is not None:
        b.emit("ShieldDamaged", {"seat": defender, "die": die, "amount": attack_power}, defender)
    else:
        assert blocker is not None
        blocking = state.sides[defender].creature(blocker)
        assert blocking is not None
        block_power = stats(state.sides[defender], blocking, state.rules)[0]
        b.emit("CreatureDamaged", {"seat": defender, "creature": blocker, "amount": attack_power}, defender)
        b.emit("CreatureDamaged", {"seat": active, "creature": attacker_id, "amount": block_power}, active)
    b.emit("AttackEnded", {})
    sweep(b)


def break_barrier(b: Builder) -> None:
    """An unblocked attack: one damage to the fort, whatever the ATK. The top barrier is lifted for
    its owner alone, who is always asked (fire a Fort Burst it has, or take it), so the pause tells
    the opponent nothing about the card."""
    state = b.state
    assert state.attack is not None
    attacker, fort = state.attack
    defender = 1 - state.active
    card_id = state.sides[defender].forts[fort][-1]
    b.emit("BarrierBroken", {"seat": defender, "fort": fort, "card": card_id}, defender)
    if not b.state.sides[defender].forts[fort]:
        b.emit("FortDestroyed", {"seat": defender, "fort": fort}, defender)
    b.emit("AttackEnded", {})
    queue(b, [Pending("burst", defender, card_id), *triggers(state.rules, state.active, attacker, "barrier_broken")])
