"""The flight and dragon phases: flying from realm to realm, landing (and the realm's
effects), and the duel one dragon may declare on another on the same realm."""

from __future__ import annotations

import random

from games.base import Action

from . import board
from .cards import card
from .effects import Builder, apply_effects, at, close_phase, draw_luck, luck_bonus
from .state import Item, Pos, State


def fly_targets(state: State) -> list[Pos]:
    dragon = state.players[state.active].dragon
    if dragon is None:
        return []
    visited = set(state.path)
    return [p for p in board.adjacent_realms(state, dragon) if p not in visited]


def fly(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    b.emit("DragonFlew", {"seat": seat, "to": action["to"], "stashed": list(player.deck[:1])}, seat)
    to = (action["to"][0], action["to"][1])
    realm = board.realm_at(b.state, to)
    assert realm is not None
    others = [s for s in board.dragons_at(b.state, to) if s != seat]
    if others or board.is_black(realm, b.state.rules) or not fly_targets(b.state):
        land(b, seat, action, rng)


def land(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    state = b.state
    spaces = len(state.path) - 1
    dragon = state.players[seat].dragon
    assert dragon is not None
    b.emit("DragonLanded", {"seat": seat, "at": at(dragon), "spaces": spaces}, seat)
    realm = board.realm_at(b.state, dragon)
    if spaces > 0 and realm is not None and board.realm_text_live(realm):
        apply_effects(b, card(realm.card, state.rules).landing, seat, realm.owner)
    close_phase(b)


def duel_targets(state: State) -> list[int]:
    me = state.players[state.active].dragon
    return (
        [s for s in board.dragons_at(state, me) if s != state.active and s not in state.dueled]
        if me is not None
        else []
    )


def duel(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DuelDeclared", {"seat": seat, "opponent": action["opponent"], "colour": action["colour"]}, seat)


def resolve_duel(b: Builder, item: Item) -> None:
    """Both draw luck; the higher total (luck plus bonuses) wins, ties to the active player.
    Who burns the difference in luck drawn: revision 1, the winner, nothing if its own luck
    was lower; revision 2, the player with the higher luck drawn, winner or loser ("The
    player with the highest luck burns the difference")."""
    assert item.opponent is not None
    lucks = [draw_luck(b, item.seat), draw_luck(b, item.opponent)]
    totals = [
        lucks[0] + luck_bonus(b.state, item.seat, item.colour),
        lucks[1] + luck_bonus(b.state, item.opponent, item.colour),
    ]
    won = 0 if totals[0] >= totals[1] else 1
    winner, loser = (item.seat, item.opponent) if won == 0 else (item.opponent, item.seat)
    burn = max(0, lucks[won] - lucks[1 - won])
    burner = winner
    if b.state.rules >= 2:
        burn = abs(lucks[0] - lucks[1])
        burner = item.seat if lucks[0] > lucks[1] else item.opponent
    b.emit(
        "DuelResolved",
        {
            "seat": item.seat,
            "opponent": item.opponent,
            "colour": item.colour,
            "luck": lucks,
            "totals": totals,
            "winner": winner,
            "loser": loser,
            "burn": burn,
            **({"burner": burner} if b.state.rules >= 2 else {}),
        },
        item.seat,
    )
    if burn:
        b.emit("ChoicesOwed", {"choices": [[burner, "burn", burn, None]]}, burner)
    loser_at = b.state.players[loser].dragon
    if loser_at is not None and board.adjacent_realms(b.state, loser_at):
        b.emit("ChoicesOwed", {"choices": [[winner, "push", 1, str(loser)]]}, winner)
