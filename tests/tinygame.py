"""A tiny two-seat game for testing the platform without any real game's rules.

Each seat holds one hidden card from a six-card deck. On your turn you add 1 or 2
to a shared counter, or draw a second hidden card (a draw is irreversible). The
seat that brings the counter to 10 or more wins; its score is the counter.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.base import GameBase, GameEvent, Move, Option, outcome_of
from games.viewschema import INTEGER, STRING, array, either, record

DECK = ("c1", "c2", "c3", "c4", "c5", "c6")
TARGET = 10


@dataclass(frozen=True)
class Counter:
    players: int
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    count: int = 0
    turn: int = 0
    winner: int | None = None


class TinyGame(GameBase):
    key = "tiny"
    title = "Tiny counter"
    summary = "Add to a counter; reach ten to win."
    min_players = 2
    max_players = 2
    options: tuple[Option, ...] = (
        Option("start", "integer", 0, "The counter's starting value.", minimum=0, maximum=9),
    )
    irreversible_types = frozenset({"CardDrawn", "Dealt"})

    def setup(self, options: Mapping[str, Any], players: int, rng: random.Random) -> list[GameEvent]:
        deck = list(DECK)
        rng.shuffle(deck)
        return [GameEvent("Dealt", {"players": players, "deck": deck, "start": options["start"]})]

    def evolve(self, state: Counter | None, event: GameEvent) -> Counter:
        data = event.data
        match event.type:
            case "Dealt":
                deck = tuple(data["deck"])
                return Counter(data["players"], deck[2:], ((deck[0],), (deck[1],)), data["start"])
            case "Added":
                assert state is not None
                count = state.count + data["amount"]
                winner = event.seat if count >= TARGET else None
                return replace(state, count=count, turn=1 - state.turn, winner=winner)
            case "CardDrawn":
                assert state is not None
                hands = list(state.hands)
                hands[event.seat] = hands[event.seat] + (state.deck[0],)  # type: ignore[index]
                return replace(state, deck=state.deck[1:], hands=tuple(hands), turn=1 - state.turn)
        raise ValueError(event.type)

    def to_act(self, state: Counter) -> frozenset[int]:
        return frozenset() if state.winner is not None else frozenset({state.turn})

    def legal_actions(self, state: Counter, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        actions: list[dict[str, Any]] = [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}]
        if state.deck:
            actions.append({"type": "draw"})
        return actions

    def refusal(self, state: Counter, seat: int, action: Any) -> str:
        return "Add 1 or 2, or draw while the deck lasts."

    def move(self, state: Counter, seat: int, kind: str) -> Move:
        return _draw if kind == "draw" else _add

    def view(self, state: Counter, seat: int | None) -> dict[str, Any]:
        return {
            "count": state.count,
            "turn": state.turn,
            "deck": len(state.deck),
            "hands": [list(h) if s == seat else len(h) for s, h in enumerate(state.hands)],
        }

    def view_schema(self) -> dict[str, Any]:
        cards_or_count = either(array(STRING), INTEGER)
        return record({"count": INTEGER, "turn": INTEGER, "deck": INTEGER, "hands": array(cards_or_count)})

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        if event.type == "Dealt":
            deck = event.data["deck"]
            mine = [] if seat is None else [deck[seat]]
            return GameEvent("Dealt", {"players": event.data["players"], "start": event.data["start"], "mine": mine})
        if event.type == "CardDrawn" and event.seat != seat:
            return GameEvent("CardDrawn", {}, event.seat)
        return event

    def outcome(self, state: Counter) -> dict[str, Any] | None:
        if state.winner is None:
            return None
        scores = [state.count if s == state.winner else 0 for s in range(2)]
        return outcome_of([state.winner], scores, f"seat {state.winner} reached {TARGET}")

    def evaluate(self, state: Counter, seat: int) -> float:
        return 1.0 if state.winner == seat else 0.0 if state.winner is not None else 0.5

    def determinize(self, state: Counter, seat: int, rng: random.Random) -> Counter:
        unseen = sorted(list(state.deck) + [c for s, h in enumerate(state.hands) if s != seat for c in h])
        rng.shuffle(unseen)
        hands = []
        for s, hand in enumerate(state.hands):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(tuple(unseen[: len(hand)]))
                unseen = unseen[len(hand) :]
        return replace(state, hands=tuple(hands), deck=tuple(unseen))

    def secrets(self, state: Counter, seat: int | None) -> frozenset[str]:
        hidden = set(state.deck)
        for s, hand in enumerate(state.hands):
            if s != seat:
                hidden |= set(hand)
        return frozenset(hidden)


GAME = TinyGame()


def _draw(state: Counter, seat: int, action: dict[str, Any], rng: random.Random) -> list[GameEvent]:
    return [GameEvent("CardDrawn", {"card": state.deck[0]}, seat)]


def _add(state: Counter, seat: int, action: dict[str, Any], rng: random.Random) -> list[GameEvent]:
    return [GameEvent("Added", {"amount": action["amount"]}, seat)]
