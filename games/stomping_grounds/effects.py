"""What cards do (Stomping Grounds rulebook, "Card Effects"): the builder every decision
uses, luck draws, effects applied to their targets, start- and end-of-turn triggers, and
the deck shuffle a search ends with."""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from games.base import EventBuilder, evolve_by_type, seats_from

from .board import challenge_live
from .cards import Effect, card
from .evolve import EVOLVE
from .state import Pos, State


class Builder(EventBuilder):
    """The events of one decision, each folded as it is emitted."""

    def __init__(self, state: State) -> None:
        super().__init__(state, partial(evolve_by_type, EVOLVE))


def at(pos: Pos) -> list[int]:
    return [pos[0], pos[1]]


PILES = ("deck", "stash", "junk")


def luck_bonus(state: State, seat: int, colour: str | None) -> int:
    player = state.players[seat]
    bonus = player.luck_bonus
    for held in player.hoard:
        c = card(held, state.rules)
        if c.bonus_colour is not None and c.bonus_colour == colour:
            bonus += c.bonus_luck
    return bonus


def draw_luck(b: Builder, seat: int) -> int:
    """Reveal the top card of the deck into the junk, once plus once per extra draw, and
    add the luck numbers up; an empty deck gives no luck. Bonuses are not included."""
    total = 0
    for _ in range(1 + b.state.players[seat].extra_luck):
        deck = b.state.players[seat].deck
        if not deck:
            break
        top = deck[0]
        luck = card(top, b.state.rules).luck
        b.emit("LuckDrawn", {"seat": seat, "card": top, "luck": luck}, seat)
        total += luck
    return total


def _targets(state: State, effect: Effect, own: int, controller: int) -> list[int]:
    if effect.target == "self":
        return [own]
    if effect.target == "controller":
        return [controller]
    if effect.target == "active":
        return [state.active]
    return [s for s in seats_from(own, state.count) if s != own]


def apply_effects(b: Builder, effects: Sequence[Effect], own: int, controller: int) -> None:
    for effect in effects:
        for seat in _targets(b.state, effect, own, controller):
            _apply(b, effect, seat)


def _apply(b: Builder, effect: Effect, seat: int) -> None:
    op, n = effect.op, effect.n
    player = b.state.players[seat]
    if op in ("burn", "raze", "move_dragon", "roam", "search", "break"):
        detail = effect.card_type if op == "search" else None
        if op == "break" and effect.max_cost is not None:
            detail = str(effect.max_cost)
        b.emit("ChoicesOwed", {"choices": [[seat, op, n, detail]]}, seat)
    elif op == "stash":
        if player.deck:
            b.emit("CardsStashed", {"seat": seat, "cards": list(player.deck[:n])}, seat)
    elif op == "draw":
        if player.deck:
            b.emit("CardsDrawn", {"seat": seat, "cards": list(player.deck[:n])}, seat)
    elif op == "junk":
        if player.stash:
            b.emit("StashJunked", {"seat": seat, "cards": list(reversed(player.stash[-n:]))}, seat)
    elif op == "return":
        if player.burned:
            b.emit("BurnReturned", {"seat": seat, "cards": list(reversed(player.burned[-n:]))}, seat)
    elif op == "luck":
        b.emit("LuckGained", {"seat": seat, "amount": n, "draws": 0}, seat)
    elif op == "draw_luck":
        b.emit("LuckGained", {"seat": seat, "amount": 0, "draws": n}, seat)
    elif op == "cancel":
        for index in range(len(b.state.stack) - 1, -1, -1):
            item = b.state.stack[index]
            if item.kind in ("challenge", "duel") and not item.cancelled:
                b.emit("ChallengeCancelled", {"index": index, "seat": item.seat}, seat)
                break


def controlled_in_play(state: State, seat: int) -> list[str]:
    """Cards whose text works for ``seat``: its hoard, its face-up uncovered realms and
    its challenges on face-up realms."""
    out = list(state.players[seat].hoard)
    for realm in state.realms:
        if realm.challenge is None:
            if realm.owner == seat and not realm.razed:
                out.append(realm.card)
        elif realm.controller == seat and challenge_live(realm, state.rules):
            out.append(realm.challenge)
    return out


def run_triggers(b: Builder, moment: str) -> None:
    """Start or end of turn: from the current player going left, every card in play."""
    state = b.state
    each, yours = f"each_{moment}", f"your_{moment}"
    for seat in seats_from(state.active, state.count):
        for held in controlled_in_play(b.state, seat):
            c = card(held, state.rules)
            when = c.trigger_when
            if when == each or (when == yours and seat == state.active):
                apply_effects(b, c.trigger, seat, seat)


NEXT_PHASE = {"challenge": "flight", "flight": "roam", "roam": "dragon", "dragon": "reclaim", "reclaim": "end"}


def close_phase(b: Builder) -> None:
    """The active player is done with the phase. Revision 1 moves on; revision 2 first
    gives every other seat, from the active player's left, the chance to play ("During each
    phase, the active player plays the first card ... Then each player may play cards")."""
    state = b.state
    if state.rules >= 2:
        b.emit("PhaseClosing", {"phase": state.phase}, state.active)
    else:
        b.emit("PhaseBegan", {"phase": NEXT_PHASE[state.phase]}, None)


def shuffle_deck(b: Builder, seat: int, rng: random.Random) -> None:
    order = list(b.state.players[seat].deck)
    rng.shuffle(order)
    b.emit("DeckShuffled", {"seat": seat, "order": order}, seat)
