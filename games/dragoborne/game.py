"""Dragoborne -Rise To Supremacy- as the registry lists it: the game object, with its
title, player count, options, rules revision and the events undo never crosses, and the
contract's functions, each handed over to the module that holds it: ``rules`` (the deal,
who acts, what may be done and what it causes, the outcome), ``evolve`` (the fold),
``view`` (what a seat may see and believe), ``bot`` (the greedy bot's evaluation) and
``faces`` (the cards as the web client shows them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import JSON, Action, GameBase, GameEvent, Move, Option
from games.dragoborne import bot, faces, rules, view
from games.dragoborne.cards import DECKS
from games.dragoborne.evolve import EVOLVE
from games.dragoborne.rules import PLAYERS
from games.dragoborne.state import State


class Dragoborne(GameBase):
    key = "dragoborne"
    title = "Dragoborne"
    summary = (
        "A two-player duel of creatures holding three forts. Each turn your dice become "
        "Dragoshields that guard a fort or Dragocrosses that empower a creature; every unblocked "
        "attack breaks a face-down barrier, and the player who loses all three forts loses."
    )
    min_players = PLAYERS
    max_players = PLAYERS
    options: tuple[Option, ...] = (
        Option(
            "decks",
            "array",
            ["emberguard", "tidecrypt"],
            "The deck of each seat: a pre-built deck name ("
            + ", ".join(sorted(DECKS))
            + ") or a custom list {cards: {name: copies}, banners: [three banner names], "
            "dice: [three colours]}.",
        ),
        Option(
            "deck",
            "array",
            None,
            "Scenario and tutorial use: for each seat, the exact deck order as card names, top card first "
            "(no shuffle). Banners and dice still come from 'decks'.",
            nullable=True,
        ),
        Option(
            "first_player",
            "integer",
            None,
            "Scenario and tutorial use: the seat that goes first (otherwise chosen at random).",
            minimum=0,
            maximum=PLAYERS - 1,
            nullable=True,
        ),
        Option(
            "second_player_extra_card",
            "boolean",
            False,
            "Variant, not in the rulebook: the player going second opens with six cards instead of five. "
            "Off by default, so a game follows the rulebook ('draw 5 cards from the deck').",
        ),
    )
    rules_revision = 2
    """Revision 2: the player chooses the resources and the die that pay a cost,
    a switch only moves creatures between forts that stand, and the pool of
    ``revision2.json``. A game of revision 1 plays exactly as before."""
    irreversible_types = frozenset(
        {
            "GameStarted",
            "CardsDrawn",
            "HandMulliganed",
            "BarriersPlaced",
            "DiceRolled",
            "ResourcePlaced",
            "BarrierBroken",
            "FortBurst",
            "BarrierAdded",
            "DieRerolled",
            "CardSearched",
            "DeckShuffled",
        }
    )
    unfair_options = ("deck", "first_player")
    evolvers = EVOLVE
    lists_every_action = True

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
        return rules.check_options(options, players)

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
        return rules.setup(options, players, rng)

    def to_act(self, state: State) -> frozenset[int]:
        return rules.to_act(state)

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
        return rules.action_schemas()

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def is_over(self, state: State) -> bool:
        return rules.is_over(state)

    def not_your_turn(self, state: State, seat: int) -> str:
        return rules.not_your_turn(state, seat)

    def refusal(self, state: State, seat: int, action: Any) -> str:
        return rules.why_illegal(state, seat, action)

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.move(state, seat, kind)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return rules.outcome(state)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return view.view(state, seat)

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        return view.redact(event, seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return view.determinize(state, seat, rng)

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        return view.secrets(state, seat)

    def card_names(self, state: State) -> tuple[str, ...]:
        return view.card_names(state)

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        return view.action_cards(state, seat, action)

    def evaluate(self, state: State, seat: int) -> float:
        return bot.evaluate(state, seat)

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        return faces.card_faces()


GAME = Dragoborne()
