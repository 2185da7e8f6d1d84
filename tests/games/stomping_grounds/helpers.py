"""Given / when / then helpers for Stomping Grounds scenarios: a table is built from
events (the evolve cases), an action is decided, the events are checked."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from games.base import GameEvent
from games.play import fold
from games.stomping_grounds import GAME
from games.stomping_grounds.cards import deck_ids
from games.stomping_grounds.state import State

Pos = tuple[int, int]


def cid(seat: int, slug: str, copy: int = 1) -> str:
    return f"s{seat}-{slug}-{copy}"


def ev(type_: str, by: int | None = None, /, **data: Any) -> GameEvent:
    return GameEvent(type_, data, by)


def table(
    decks: Sequence[str] = ("ember", "tide"),
    realms: Iterable[tuple[int, str, Pos]] = (),
    challenges: Iterable[tuple[int, str, Pos]] = (),
    hoards: Sequence[Sequence[str]] = (),
    dragons: Sequence[Pos | None] = (),
    hands: Sequence[Sequence[str]] = (),
    stashes: Sequence[Sequence[str]] = (),
    tops: Sequence[Sequence[str]] = (),
    phase: str = "challenge",
    active: int = 0,
    turn: int = 1,
    turn_limit: int | None = None,
    rules: int = GAME.rules_revision,
    extra: Iterable[GameEvent] = (),
) -> State:
    """A game in progress: ``realms`` (owner, card id, position) taken from the owners'
    decks, the ``hoards`` in play, ``challenges`` (controller, card id, position) played from hand onto them,
    then each seat's ``hands``, ``stashes`` and the ``tops`` of the decks in that order; under
    the current rules revision unless ``rules`` says otherwise."""
    realms, challenges = list(realms), list(challenges)
    per_seat = range(len(decks))

    def of(rows: Sequence[Sequence[str]], seat: int) -> list[str]:
        return list(rows[seat]) if seat < len(rows) else []

    orders = []
    for seat, key in enumerate(decks):
        first = of(hoards, seat) + [c for owner, c, _ in challenges if owner == seat]
        first += of(hands, seat) + of(stashes, seat) + of(tops, seat)
        orders.append(first + [c for c in deck_ids(seat, key) if c not in first])
    started = {"players": len(decks), "decks": list(decks), "orders": orders, "turn_limit": turn_limit}
    if rules >= 2:
        started["rules"] = rules
    elif turn_limit is None:
        started["turn_limit"] = 40
    events = [GameEvent("GameStarted", started, None)]
    for owner, realm, at in realms:
        events.append(ev("RealmPlayed", owner, seat=owner, card=realm, at=list(at), source="deck"))
    for seat in per_seat:
        if of(hoards, seat):
            events.append(ev("CardsDrawn", seat, seat=seat, cards=of(hoards, seat)))
            for c in of(hoards, seat):
                events.append(ev("HoardPlayed", seat, seat=seat, card=c))
        mine = [(c, at) for owner, c, at in challenges if owner == seat]
        if mine:
            events.append(ev("CardsDrawn", seat, seat=seat, cards=[c for c, _ in mine]))
            for c, at in mine:
                events.append(ev("ChallengePlaced", seat, seat=seat, card=c, at=list(at)))
        if of(hands, seat):
            events.append(ev("CardsDrawn", seat, seat=seat, cards=of(hands, seat)))
        if of(stashes, seat):
            events.append(ev("CardsStashed", seat, seat=seat, cards=of(stashes, seat)))
    for seat, spot in enumerate(dragons):
        if spot is not None:
            events.append(ev("DragonPlaced", seat, seat=seat, at=list(spot)))
    events.append(ev("FirstPlayerChosen", active, seat=active))
    events.append(ev("TurnBegan", active, seat=active, turn=turn))
    events.append(ev("PhaseBegan", None, phase=phase))
    events += list(extra)
    return fold(GAME, events)


def when(state: State, seat: int, action: dict[str, Any], seed: int = 0) -> tuple[list[GameEvent], State]:
    events = GAME.decide(state, seat, action, random.Random(seed))
    return events, fold(GAME, events, state)


def types(events: Iterable[GameEvent]) -> list[str]:
    return [e.type for e in events]


def first(events: Iterable[GameEvent], type_: str) -> GameEvent:
    return next(e for e in events if e.type == type_)


def all_of(events: Iterable[GameEvent], type_: str) -> list[GameEvent]:
    return [e for e in events if e.type == type_]


def row(length: int, y: int = 0) -> list[Pos]:
    return [(x, y) for x in range(length)]


def revision_1_table(*args: Any, **kwargs: Any) -> State:
    """``table`` under rules revision 1, which games stored before revision 2 still play by."""
    return table(*args, rules=1, **kwargs)
