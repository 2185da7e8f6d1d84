"""The challenge phase and the stack: playing action and hoard cards (in a window or
on your turn), placing challenges, attempting a challenge, and resolving the stack last
in, first out."""

from __future__ import annotations

import random

from games.base import Action

from . import board
from .cards import Card, card
from .effects import Builder, apply_effects, at, draw_luck, luck_bonus
from .flight import resolve_duel
from .state import Item, Player, Pos, Realm, State


def challenge_spots(state: State, c: Card) -> list[Realm]:
    dragons = {p.dragon for p in state.players}
    out = []
    for realm in state.realms:
        if not board.can_take_challenge(realm, state.rules):
            continue
        if c.play_on_kind is not None and card(realm.card, state.rules).kind != c.play_on_kind:
            continue
        if c.play_on_unoccupied and realm.at in dragons:
            continue
        out.append(realm)
    return out


def _requirement_met(player: Player, c: Card, rules: int) -> bool:
    return c.requires is None or any(card(h, rules).name == c.requires for h in player.hoard)


def _action_timing_ok(state: State, seat: int, c: Card, in_window: bool) -> bool:
    if seat != state.active:
        return in_window and c.timing == "opponent"
    if c.timing == "challenge":
        # revision 2: "During the Reclaim phase ... you may play any card in your hand"
        return state.phase in ("challenge", "dragon") or (state.rules >= 2 and state.phase == "reclaim")
    if c.timing == "reclaim":
        return state.phase == "reclaim"
    return False


def play_actions(state: State, seat: int, in_window: bool) -> list[Action]:
    player = state.players[seat]
    rules = state.rules
    stash = len(player.stash)
    out: list[Action] = []
    spaces: list[Pos] | None = None
    has_challenge_on_stack = any(i.kind != "action" and not i.cancelled for i in state.stack)
    reclaim = state.phase == "reclaim" and seat == state.active and not in_window
    for held in sorted(set(player.hand)):
        c = card(held, rules)
        if c.cost > stash or (c.requires is not None and not _requirement_met(player, c, rules)):
            continue
        if c.type == "action":
            if not _action_timing_ok(state, seat, c, in_window):
                continue
            if not has_challenge_on_stack and any(e.op == "cancel" for e in c.effect):
                continue
            out.append({"type": "play", "card": held})
        elif not reclaim:
            continue
        elif c.type == "hoard":
            out.append({"type": "play", "card": held})
        elif c.type == "realm":
            if spaces is None:
                spaces = board.open_spaces(state)
            out += [{"type": "play", "card": held, "at": at(p)} for p in spaces]
        elif c.type == "challenge":
            out += [{"type": "play", "card": held, "at": at(r.at)} for r in challenge_spots(state, c)]
    return out


def can_attempt(state: State) -> bool:
    if state.attempted:
        return False
    dragon = state.players[state.active].dragon
    return dragon is not None and board.live_challenge(board.realm_at(state, dragon), state.rules) is not None


def pass_priority(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("Passed", {"seat": seat}, seat)
    if b.state.passes >= b.state.count:
        b.emit("WindowClosed", {}, None)


def play_card(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    held = action["card"]
    c = card(held, b.state.rules)
    player = b.state.players[seat]
    if c.cost:
        b.emit("CostPaid", {"seat": seat, "cards": list(reversed(player.stash[-c.cost :]))}, seat)
    if c.type == "action":
        b.emit("ActionPlayed", {"seat": seat, "card": held}, seat)
    elif c.type == "hoard":
        b.emit("HoardPlayed", {"seat": seat, "card": held}, seat)
    elif c.type == "realm":
        b.emit("RealmPlayed", {"seat": seat, "card": held, "at": action["at"], "source": "hand"}, seat)
    else:
        b.emit("ChallengePlaced", {"seat": seat, "card": held, "at": action["at"]}, seat)


def attempt(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    dragon = b.state.players[seat].dragon
    assert dragon is not None
    b.emit("ChallengeAttempted", {"seat": seat, "at": at(dragon)}, seat)


def resolve_top(b: Builder) -> None:
    state = b.state
    item: Item = state.stack[-1]
    b.emit("ItemResolved", {"kind": item.kind, "seat": item.seat}, item.seat)
    if item.cancelled:
        return
    if item.kind == "action":
        assert item.card is not None
        apply_effects(b, card(item.card, state.rules).effect, item.seat, item.seat)
    elif item.kind == "challenge":
        _resolve_challenge(b, item)
    else:
        resolve_duel(b, item)


def _resolve_challenge(b: Builder, item: Item) -> None:
    assert item.at is not None
    realm = board.realm_at(b.state, item.at)
    held = board.live_challenge(realm, b.state.rules)
    if realm is None or held is None:
        b.emit("ChallengeFizzled", {"seat": item.seat, "at": at(item.at)}, item.seat)
        return
    c = card(held, b.state.rules)
    total = draw_luck(b, item.seat) + luck_bonus(b.state, item.seat, c.colour)
    number = c.number or 0
    result = {"seat": item.seat, "at": at(item.at), "card": held, "total": total, "number": number}
    if total >= number:
        b.emit("ChallengeWon", result, item.seat)
        apply_effects(b, c.effect, item.seat, realm.controller if realm.controller is not None else item.seat)
    else:
        b.emit("ChallengeLost", result, item.seat)
