"""Given/when/then helpers for Fortress scenarios: fixed decks and scripted moves."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.base import GameEvent
from games.cards import standard_deck
from games.fortress_siege import GAME
from games.fortress_siege.state import Character, State
from games.play import Playthrough, new_game, step


class Scene(Playthrough):
    """A playthrough whose state is known to be a Fortress state (for the type checker)."""

    state: State


def scene(play: Playthrough) -> Scene:
    return Scene(events=play.events, actions=play.actions, state=play.state)


JOKER_TOMBSTONE = "JK1"
LOW_TOMBSTONES = ("10S", "10C", "10D", "10H", "9H")


def deck(seat: int, top: Sequence[str], tombstone: str) -> list[str]:
    """Deck ``seat`` with the codes ``top`` on top (in order), ``tombstone`` at the bottom
    and the rest in the fixed order of ``games.cards`` in between."""
    chosen = [*top, tombstone]
    assert len(set(chosen)) == len(chosen), "a code is used twice"
    middle = [code for code in standard_deck(jokers=True) if code not in chosen]
    return [f"{code}.{seat}" for code in [*top, *middle, tombstone]]


def start(*tops: Sequence[str], tombstones: Sequence[str] | None = None) -> Scene:
    """A standard game whose seat ``i`` draws ``tops[i]`` first. By default seat 0's
    Tombstone is a Joker and every other seat's a Ten, so seat 0 starts."""
    if tombstones is None:
        tombstones = [JOKER_TOMBSTONE, *LOW_TOMBSTONES[: len(tops) - 1]]
    decks = [deck(seat, top, tomb) for seat, (top, tomb) in enumerate(zip(tops, tombstones, strict=True))]
    return scene(new_game(GAME, len(tops), {"decks": decks}, random.Random(0)))


def act(play: Scene, action: dict[str, Any], seat: int | None = None) -> list[GameEvent]:
    """The seat to act (or ``seat``) sends ``action``."""
    if seat is None:
        (seat,) = GAME.to_act(play.state)
    return step(GAME, play, seat, action, random.Random(0))


def script(play: Scene, *actions: dict[str, Any]) -> list[GameEvent]:
    events: list[GameEvent] = []
    for action in actions:
        events += act(play, action)
    return events


def draws(count: int) -> list[dict[str, Any]]:
    return [{"type": "draw"}] * count


def deploy(card: str) -> dict[str, Any]:
    return {"type": "deploy", "card": card}


def armor(card: str, character: str) -> dict[str, Any]:
    return {"type": "armor", "card": card, "character": character}


def equip(card: str, character: str) -> dict[str, Any]:
    return {"type": "equip", "card": card, "character": character}


def discard(card: str) -> dict[str, Any]:
    return {"type": "discard", "card": card}


def attack_fortress(attacker: str, seat: int) -> dict[str, Any]:
    return {"type": "attack", "attacker": attacker, "fortress": seat}


def attack_character(attacker: str, target: str) -> dict[str, Any]:
    return {"type": "attack", "attacker": attacker, "character": target}


def shield(*cards: str) -> dict[str, Any]:
    return {"type": "add_shield", "cards": list(cards)}


def defender(card: str) -> dict[str, Any]:
    return {"type": "assign_defender", "character": card}


DONE = {"type": "done_defending"}


def types(events: Sequence[GameEvent]) -> list[str]:
    return [event.type for event in events]


def of_type(events: Sequence[GameEvent], kind: str) -> list[GameEvent]:
    return [event for event in events if event.type == kind]


def character(state: State, seat: int, card: str) -> Character | None:
    return state.players[seat].character(card)


def given(fortresses: Sequence[Sequence[str]], first: int = 0, winds_of_fate: bool = False) -> Scene:
    """A game that starts from these Fortresses (top first, Tombstone last), seat ``first``
    to move: for end-game scenarios that would take dozens of moves to reach."""
    events = [
        GameEvent(
            "GameStarted",
            {
                "players": len(fortresses),
                "winds_of_fate": winds_of_fate,
                "fixed_deal": True,
                "fortresses": [list(cards) for cards in fortresses],
                "tombstones": [cards[-1] for cards in fortresses],
                "set_aside": [],
            },
        ),
        GameEvent("FirstPlayerChosen", {"seat": first, "tied": [first]}, first),
    ]
    state = None
    for one in events:
        state = GAME.evolve(state, one)
    return Scene(events=events, state=state)


def idle(play: Scene, turns: int = 1) -> None:
    """The player to move spends whole turns drawing, or discarding their last card at the limit."""
    for _ in range(turns):
        for _ in range(3):
            (seat,) = GAME.to_act(play.state)
            hand = play.state.players[seat].hand
            act(play, {"type": "draw"} if len(hand) < 5 else discard(hand[-1]))
