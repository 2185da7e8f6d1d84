"""A bot never reads a secret it could not know.

Given: a position, and the same position with every card hidden from the bot's
seat re-dealt (``determinize`` with another rng: the seat cannot tell them apart).
When: the bot chooses in both with the same rng seed.
Then: it chooses the same action.

That check holds only when ``determinize`` itself depends on nothing but what the
seat knows and the rng (every game sorts the unseen cards before shuffling them);
a failure says whether it was ``determinize``. The second test closes the gap from
the bot's side: the true
state reaches the game only through ``determinize``, the seat's own
``legal_actions`` and other public reads.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from games import registry
from games.base import Game, State
from tests.bots.positions import TESTED_BOTS, game_kinds, positions

SEARCHING_BOTS = ("greedy", "ismcts")
POSITIONS = 6
PUBLIC_READS = frozenset({"determinize", "legal_actions", "to_act", "outcome", "view"})


def _determinize_is_canonical(game: Game, state: State, swapped: State, seat: int) -> bool:
    return all(
        game.determinize(state, seat, random.Random(seed)) == game.determinize(swapped, seat, random.Random(seed))
        for seed in range(3)
    )


@pytest.mark.parametrize("kind", game_kinds())
@pytest.mark.parametrize("level", SEARCHING_BOTS)
def test_bot_plays_the_same_when_hidden_cards_are_swapped(level: str, kind: str) -> None:
    game = registry.all_games()[kind]
    bot = TESTED_BOTS[level]
    differing = []
    for index, (state, seat) in enumerate(positions(game, POSITIONS, f"swap-{level}-{kind}")):
        swapped = game.determinize(state, seat, random.Random(f"swap-{index}"))
        assert game.view(swapped, seat) == game.view(state, seat), "determinize changed what the seat sees"
        assert game.legal_actions(swapped, seat) == game.legal_actions(state, seat)
        chosen = bot(game, state, seat, random.Random(index))
        chosen_when_swapped = bot(game, swapped, seat, random.Random(index))
        if chosen != chosen_when_swapped:
            canonical = _determinize_is_canonical(game, state, swapped, seat)
            differing.append((index, chosen, chosen_when_swapped, f"determinize canonical: {canonical}"))
    assert not differing, f"{level} chose differently with the hidden cards swapped: {differing}"


class Watched:
    """A game that records every call made with one particular state object."""

    def __init__(self, game: Game, secret: State) -> None:
        self._game = game
        self._secret = secret
        self.reads: list[tuple[str, tuple[Any, ...]]] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._game, name)
        if not callable(attribute):
            return attribute

        def call(*args: Any, **kwargs: Any) -> Any:
            if any(arg is self._secret for arg in (*args, *kwargs.values())):
                self.reads.append((name, tuple(arg for arg in args if arg is not self._secret)))
            return attribute(*args, **kwargs)

        return call


def _is_public(read: tuple[str, tuple[Any, ...]], seat: int) -> bool:
    """A read of the true state that tells ``seat`` nothing it may not know."""
    name, rest = read
    return name in PUBLIC_READS and (not rest or rest[0] == seat or name in {"to_act", "outcome"})


@pytest.mark.parametrize("kind", game_kinds())
@pytest.mark.parametrize("level", SEARCHING_BOTS)
def test_bot_reads_the_true_state_only_through_determinize(level: str, kind: str) -> None:
    game = registry.all_games()[kind]
    bot = TESTED_BOTS[level]
    for index, (state, seat) in enumerate(positions(game, POSITIONS, f"reads-{level}-{kind}")):
        watched = Watched(game, state)
        bot(watched, state, seat, random.Random(index))  # type: ignore[arg-type]
        if len(game.legal_actions(state, seat)) > 1:
            assert "determinize" in [name for name, _ in watched.reads], f"{level} never determinized"
        leaks = [read for read in watched.reads if not _is_public(read, seat)]
        assert not leaks, f"{level} read the true state through {leaks}"
