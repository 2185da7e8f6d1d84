"""A minimal two-seat draw/play card game, hosted only by the boardgame.io peer benchmark.

The same game as ``bench/bgio/game.js`` (boardgame.io's game object), so that both
servers host one game: a shuffled 52-card deck deals five hidden cards to each seat
and the first card of the deck face up onto a shared pile. On its turn a seat either
plays a card from its hand that matches the pile's top card in rank or in suit, or
draws the top card of the deck; then the turn passes. The game ends once ``moves``
moves have been made or the deck is empty; the seat with fewer cards in hand wins (a
tie: both). Each move is one event, whose public data carries the moves made and the
cards left in the deck, so that a client knows the end without another read.

It is no part of ``games/``: ``bench.bgio`` registers it in the server it starts
(``games.registry.register``), and nowhere else knows it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.base import Evolver, GameBase, GameEvent, Move, Option, outcome_of, replace

KEY = "bench-cardgame"
RANKS = "23456789TJQKA"
SUITS = "CDHS"
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)
HAND = 5
MOVES = 100


@dataclass(frozen=True)
class Table:
    deck: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]
    pile: tuple[str, ...]
    limit: int
    moves: int = 0
    turn: int = 0
    played: tuple[int, ...] = (0, 0)


def matches(card: str, top: str) -> bool:
    return card[0] == top[0] or card[1] == top[1]


def _dealt(state: None, event: GameEvent) -> Table:
    deck = tuple(event.data["deck"])
    hands = (deck[:HAND], deck[HAND : 2 * HAND])
    return Table(deck[2 * HAND + 1 :], hands, (deck[2 * HAND],), event.data["moves"])


def _played(state: Table, event: GameEvent) -> Table:
    seat, card = event.seat, event.data["card"]
    assert seat is not None
    hands = tuple(tuple(c for c in hand if c != card) if s == seat else hand for s, hand in enumerate(state.hands))
    played = tuple(n + (s == seat) for s, n in enumerate(state.played))
    return replace(state, hands=hands, pile=state.pile + (card,), moves=state.moves + 1, turn=1 - seat, played=played)


def _drawn(state: Table, event: GameEvent) -> Table:
    seat = event.seat
    assert seat is not None
    hands = tuple(hand + (state.deck[0],) if s == seat else hand for s, hand in enumerate(state.hands))
    return replace(state, hands=hands, deck=state.deck[1:], moves=state.moves + 1, turn=1 - seat)


EVOLVERS: Mapping[str, Evolver] = {"Dealt": _dealt, "CardPlayed": _played, "CardDrawn": _drawn}


class CardGame(GameBase):
    key = KEY
    title = "Bench card game"
    summary = "Match the pile's top card or draw; fewer cards in hand wins."
    min_players = 2
    max_players = 2
    options: tuple[Option, ...] = (
        Option("moves", "integer", MOVES, "The game ends after this many moves.", minimum=1, maximum=10_000),
    )
    irreversible_types = frozenset({"Dealt", "CardDrawn"})
    evolvers = EVOLVERS
    strict_json = True

    def setup(self, options: Mapping[str, Any], players: int, rng: random.Random) -> list[GameEvent]:
        deck = list(DECK)
        rng.shuffle(deck)
        return [GameEvent("Dealt", {"deck": deck, "moves": options["moves"]})]

    def to_act(self, state: Table) -> frozenset[int]:
        return frozenset() if self.is_over(state) else frozenset({state.turn})

    def legal_actions(self, state: Table, seat: int) -> list[dict[str, Any]]:
        if seat not in self.to_act(state):
            return []
        top = state.pile[-1]
        actions: list[dict[str, Any]] = [
            {"type": "play", "card": card} for card in state.hands[seat] if matches(card, top)
        ]
        actions.append({"type": "draw"})
        return actions

    def refusal(self, state: Table, seat: int, action: Any) -> str:
        return "Play a card from your hand that matches the top card's rank or suit, or draw."

    def move(self, state: Table, seat: int, kind: str) -> Move:
        return _draw if kind == "draw" else _play

    def action_schemas(self) -> dict[str, dict[str, Any]]:
        from games.base import CARD_ID, fields_of

        return {"play": fields_of({"card": CARD_ID}), "draw": fields_of()}

    def view(self, state: Table, seat: int | None) -> dict[str, Any]:
        return {
            "turn": state.turn,
            "moves": state.moves,
            "limit": state.limit,
            "deck": len(state.deck),
            "top": state.pile[-1],
            "pile": len(state.pile),
            "hands": [list(hand) if s == seat else len(hand) for s, hand in enumerate(state.hands)],
        }

    def final_view(self, state: Table, seat: int | None) -> dict[str, Any]:
        return {**self.view(state, seat), "hands": [list(hand) for hand in state.hands]}

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        if event.type == "Dealt":
            deck = event.data["deck"]
            mine = list(deck[seat * HAND : (seat + 1) * HAND]) if seat is not None else []
            return GameEvent("Dealt", {"moves": event.data["moves"], "top": deck[2 * HAND], "mine": mine})
        if event.type == "CardDrawn" and event.seat != seat:
            return GameEvent("CardDrawn", {k: v for k, v in event.data.items() if k != "card"}, event.seat)
        return event

    def outcome(self, state: Table) -> dict[str, Any] | None:
        if state.moves < state.limit and state.deck:
            return None
        left = [len(hand) for hand in state.hands]
        fewest = min(left)
        reason = "the deck ran out" if not state.deck else f"{state.limit} moves were made"
        return outcome_of([s for s, n in enumerate(left) if n == fewest], list(state.played), reason)

    def evaluate(self, state: Table, seat: int) -> float:
        left = [len(hand) for hand in state.hands]
        return 0.5 + (left[1 - seat] - left[seat]) / (2 * (sum(left) + 1))

    def determinize(self, state: Table, seat: int, rng: random.Random) -> Table:
        from games.base import redeal, shuffled_hidden

        other = state.hands[1 - seat]
        pool = iter(shuffled_hidden(state.deck + other, rng))
        hidden = set(state.deck) | set(other)
        hands = tuple(hand if s == seat else redeal(hand, hidden, pool) for s, hand in enumerate(state.hands))
        return replace(state, hands=hands, deck=redeal(state.deck, hidden, pool))

    def secrets(self, state: Table, seat: int | None) -> frozenset[str]:
        hidden = set(state.deck)
        for s, hand in enumerate(state.hands):
            if s != seat:
                hidden |= set(hand)
        return frozenset(hidden)

    def card_faces(self) -> dict[str, dict[str, Any]]:
        return {card: {"name": card} for card in DECK}


GAME = CardGame()


def _play(state: Table, seat: int, action: dict[str, Any], rng: random.Random) -> list[GameEvent]:
    card = action["card"]
    return [GameEvent("CardPlayed", {"card": card, "moves": state.moves + 1, "deck": len(state.deck)}, seat)]


def _draw(state: Table, seat: int, action: dict[str, Any], rng: random.Random) -> list[GameEvent]:
    card = state.deck[0]
    return [GameEvent("CardDrawn", {"card": card, "moves": state.moves + 1, "deck": len(state.deck) - 1}, seat)]
