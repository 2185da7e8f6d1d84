"""Given/when/then helpers for Dragoborne scenario tests: a game dealt from a fixed
deck order (option ``deck``) with a fixed first player, played through the decider."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from games.base import GameEvent
from games.dragoborne import GAME
from games.dragoborne.cards import BARRIERS_PER_FORT, FORTS, OPENING_HAND, SECOND_PLAYER_EXTRA_CARDS
from games.dragoborne.state import Creature, State
from games.play import Playthrough, new_game, step

HAND_FILL = "tidal-insight"  # a spell that targets nothing, so it never changes a choice
BARRIER_FILL = "mossback-boar"  # no Fort Burst
DECK_FILL = "mossback-boar"


def order(
    hand: Sequence[str] = (),
    barriers: Sequence[str] = (),
    draws: Sequence[str] = (),
    hand_size: int = OPENING_HAND,
    size: int = 30,
) -> list[str]:
    """A deck, top first: the opening hand, then the six barriers (fort 0's two first,
    the second of each pair ending on top), then the cards the draw steps take."""
    cards = list(hand) + [HAND_FILL] * (hand_size - len(hand))
    cards += list(barriers) + [BARRIER_FILL] * (FORTS * BARRIERS_PER_FORT - len(barriers))
    cards += list(draws)
    return cards + [DECK_FILL] * max(0, size - len(cards))


class Scenario:
    def __init__(
        self,
        first: int = 0,
        seat0: dict[str, Any] | None = None,
        seat1: dict[str, Any] | None = None,
        decks: Sequence[Any] = ("emberguard", "tidecrypt"),
        mulligan: bool = True,
        seed: int = 7,
        extra_card: bool = False,
        rules: int = GAME.rules_revision,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        orders = []
        for seat, spec in enumerate((seat0 or {}, seat1 or {})):
            spec = dict(spec)
            extra = SECOND_PLAYER_EXTRA_CARDS if extra_card and seat != first else 0
            spec.setdefault("hand_size", OPENING_HAND + extra)
            orders.append(order(**spec))
        options = {
            "decks": list(decks),
            "deck": orders,
            "first_player": first,
            "second_player_extra_card": extra_card,
            "rules": rules,
            **(options or {}),
        }
        self.play: Playthrough = new_game(GAME, 2, options, self.rng)
        if mulligan:
            self.act(0, {"type": "mulligan", "cards": []})
            self.act(1, {"type": "mulligan", "cards": []})

    @property
    def state(self) -> State:
        return self.play.state

    def legal(self, seat: int) -> list[dict[str, Any]]:
        return GAME.legal_actions(self.state, seat)

    def act(self, seat: int, action: dict[str, Any]) -> list[GameEvent]:
        """Play ``action``. From revision 2 a cost's payment is part of the action (``pay``,
        ``die``); an action given without them is paid the first way listed, which is the
        way revision 1's engine chose, for tests about something other than paying."""
        legal = self.legal(seat)
        if action not in legal and self.state.rules >= 2 and action.get("type") in ("summon", "cast", "activate"):
            paid = [a for a in legal if {k: v for k, v in a.items() if k not in ("pay", "die")} == action]
            action = paid[0] if paid else action
        assert action in legal, f"{action} is not legal for seat {seat}: {legal}"
        return step(GAME, self.play, seat, action, self.rng)

    def end_turn(self, resource: bool = False) -> list[GameEvent]:
        """The active player ends the turn; the next one takes or skips the resource step."""
        events = self.act(self.state.active, {"type": "end_turn"})
        while self.state.phase == "discard":
            seat = self.state.active
            events += self.act(seat, {"type": "discard", "card": self.state.sides[seat].hand[0]})
        if self.state.phase == "resource":
            events += self.act(self.state.active, {"type": "resource" if resource else "skip_resource"})
        return events

    def creature(self, seat: int, card_id: str) -> Creature:
        found = self.state.sides[seat].creature(card_id)
        assert found is not None, f"{card_id} is not on seat {seat}'s field"
        return found


def types(events: Sequence[GameEvent]) -> list[str]:
    return [e.type for e in events]


def named(events: Sequence[GameEvent], kind: str) -> list[GameEvent]:
    return [e for e in events if e.type == kind]


def first_seed(predicate: Any, **kwargs: Any) -> Scenario:
    """The first scenario (by seed) whose dice make ``predicate`` true: dice are random, so a
    test that needs a given roll looks for a seed that rolls it."""
    for seed in range(200):
        game = Scenario(seed=seed, **kwargs)
        if predicate(game):
            return game
    raise AssertionError("no seed rolls what the test needs")
