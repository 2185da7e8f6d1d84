"""Choices a card owes a player (placing a realm or a dragon, burning, razing, moving a
dragon, roaming a challenge, searching, discarding): what may be chosen and what each
choice causes. The setup's realm and dragon placements are owed choices too."""

from __future__ import annotations

import random

from games.base import Action

from . import board
from .cards import card, slug_of, slugs_of_type
from .effects import PILES, Builder, at, shuffle_deck
from .state import Owed, State


def owed_actions(state: State, owed: Owed) -> list[Action]:
    seat = owed.seat
    player = state.players[seat]
    kind = owed.kind
    if kind == "place_realm":
        spaces = board.open_spaces(state)
        names = slugs_of_type(player.deck, "realm", state.rules)
        return [{"type": "place_realm", "card": n, "at": at(p)} for n in names for p in spaces]
    if kind == "place_dragon":
        taken = {p.dragon for p in state.players}
        return [{"type": "place_dragon", "at": at(r.at)} for r in state.realms if r.at not in taken]
    if kind == "burn":
        out: list[Action] = []
        for pile in PILES:
            size = len(getattr(player, pile))
            out += [{"type": "burn", "pile": pile, "count": k} for k in range(1, min(size, owed.count) + 1)]
        out += [{"type": "burn", "card": c} for c in player.hand]
        return out
    if kind == "raze":
        return [{"type": "raze", "at": at(r.at)} for r in state.realms if board.can_raze(r, state.rules)]
    if kind == "break":
        max_cost = int(owed.detail) if owed.detail is not None else None
        return [
            {"type": "break", "card": h}
            for s, other in enumerate(state.players)
            if s != seat
            for h in other.hoard
            if max_cost is None or card(h, state.rules).cost <= max_cost
        ]
    if kind == "move_dragon":
        return [
            {"type": "move_dragon", "seat": s, "to": at(p)}
            for s, other in enumerate(state.players)
            if other.dragon is not None
            for p in board.adjacent_realms(state, other.dragon)
        ]
    if kind == "push":
        loser = state.players[int(owed.detail or 0)]
        if loser.dragon is None:
            return []
        return [{"type": "push", "to": at(p)} for p in board.adjacent_realms(state, loser.dragon)]
    if kind == "roam":
        moves = roam_moves(state, seat, owed.count, ignore_roamed=True)
        return [*moves, {"type": "skip"}] if moves else []
    if kind == "search":
        return search_actions(state, seat, owed.detail or "")
    if kind == "discard":
        return [{"type": "discard", "card": c} for c in player.hand]
    return []


def search_actions(state: State, seat: int, card_type: str) -> list[Action]:
    player = state.players[seat]
    names = slugs_of_type(player.deck, card_type, state.rules)
    if not names:
        return []
    if card_type == "realm":
        spaces = board.open_spaces(state)
        return [{"type": "search", "card": n, "at": at(p)} for n in names for p in spaces]
    return [{"type": "search", "card": n} for n in names]


def roam_moves(state: State, seat: int, steps: int | None, ignore_roamed: bool = False) -> list[Action]:
    """Moves of ``seat``'s live challenges not under a dragon to a face-up realm
    without a challenge, within the card's Roam X (or ``steps`` from an effect)."""
    dragons = {p.dragon for p in state.players}
    out: list[Action] = []
    for realm in state.realms:
        if realm.controller != seat or board.live_challenge(realm, state.rules) is None or realm.at in dragons:
            continue
        assert realm.challenge is not None
        reach = steps if steps is not None else card(realm.challenge, state.rules).roam
        if reach <= 0 or (not ignore_roamed and realm.challenge in state.roamed):
            continue
        for p in board.within(state, realm.at, reach):
            if board.can_take_challenge(state.realms[state.where[p]], state.rules):
                out.append({"type": "roam", "card": realm.challenge, "to": at(p)})
    return out


def place_realm(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    chosen = next(c for c in player.deck if slug_of(c) == action["card"])
    b.emit(
        "RealmPlayed",
        {"seat": seat, "card": chosen, "at": action["at"], "source": "deck", "settles": True},
        seat,
    )
    keep_a_stated_order_or_shuffle(b, seat, rng)


def keep_a_stated_order_or_shuffle(b: Builder, seat: int, rng: random.Random) -> None:
    """Setup shuffles the deck after its realm is taken out, unless the creator stated the
    order (a tutorial or puzzle): then the rest of the deck stays exactly as given, so the
    hands dealt are the ones the creator wrote down."""
    if not b.state.stated:
        shuffle_deck(b, seat, rng)


def search(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    chosen = next(c for c in player.deck if slug_of(c) == action["card"])
    kind = card(chosen, b.state.rules).type
    if kind == "realm":
        b.emit(
            "RealmPlayed",
            {"seat": seat, "card": chosen, "at": action["at"], "source": "deck", "settles": True},
            seat,
        )
    else:
        b.emit("HoardPlayed", {"seat": seat, "card": chosen, "source": "deck", "settles": True}, seat)
    shuffle_deck(b, seat, rng)


def place_dragon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DragonPlaced", {"seat": seat, "at": action["at"], "settles": True}, seat)


def burn(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    player = b.state.players[seat]
    if "card" in action:
        b.emit("CardsBurned", {"seat": seat, "pile": "hand", "cards": [action["card"]], "settles": True}, seat)
        return
    pile, count = action["pile"], action["count"]
    cards = list(player.deck[:count]) if pile == "deck" else list(reversed(getattr(player, pile)[-count:]))
    b.emit("CardsBurned", {"seat": seat, "pile": pile, "cards": cards, "settles": True}, seat)


def raze(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("RealmRazed", {"seat": seat, "at": action["at"], "settles": True}, seat)


def break_hoard(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    owner = next(s for s, p in enumerate(b.state.players) if action["card"] in p.hoard)
    b.emit("HoardBroken", {"seat": owner, "card": action["card"], "by": seat, "settles": True}, seat)


def move_dragon(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("DragonMoved", {"seat": action["seat"], "at": action["to"], "by": seat, "settles": True}, seat)


def push(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    loser = int(b.state.owed[0].detail or 0)
    b.emit("DragonMoved", {"seat": loser, "at": action["to"], "by": seat, "settles": True}, seat)


def roam(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    realm = next(r for r in b.state.realms if r.challenge == action["card"])
    settles = bool(b.state.owed)
    b.emit("ChallengeRoamed", {"seat": seat, "from": at(realm.at), "to": action["to"], "settles": settles}, seat)


def skip(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("ChoiceSkipped", {"seat": seat}, seat)


def discard(b: Builder, seat: int, action: Action, rng: random.Random) -> None:
    b.emit("CardJunked", {"seat": seat, "card": action["card"], "source": "hand", "settles": True}, seat)
