"""Fortress as the registry lists it: the game object, with its title, player counts,
options, rules revision and the events undo never crosses, and the contract's functions,
each handed over to the module that holds it: ``rules`` (the deal, who acts, what may be
done and the move that does it, the turn passing, the outcome), ``evolve`` (the fold),
``view`` (what a seat may see and believe), ``bot`` (the greedy bot's evaluation) and
``faces`` (the cards as the web client shows them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.base import JSON, Action, GameBase, GameEvent, Move, Option
from games.fortress_siege import bot, faces, rules, view
from games.fortress_siege.cards import MAX_PLAYERS, MIN_PLAYERS
from games.fortress_siege.evolve import EVOLVE
from games.fortress_siege.state import State


class FortressSiege(GameBase):
    key = "fortress-siege"
    title = "Fortress"
    summary = (
        "Each player's own 54-card deck is both their draw pile and their Fortress. Deploy Jacks, "
        "Queens and Kings, armor and arm them with number cards, block with pairs and trios, and "
        "batter the other Fortresses down to their Tombstones: the last Fortress standing wins."
    )
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    rules_revision = 2
    """Revision 2: "The attacking player must declare a target for each attacking
    character": one attack move sends every armed character its player declares."""
    options: tuple[Option, ...] = (
        Option(
            "one_attacker_per_move",
            "boolean",
            False,
            "Our first reading: each attacking character is an attack move of its own, answered "
            "and resolved before the next. By default one attack move sends any number of armed "
            "characters, each with its own target, answered together and resolved in order.",
        ),
        Option(
            "winds_of_fate",
            "boolean",
            False,
            "Winds of Fate: one deck per two players, shuffled together and dealt equally; "
            "any Ace may be played as either Angel.",
        ),
        Option(
            "decks",
            "array",
            None,
            "Explicit Fortress orders for tutorials and tests: one list of card ids per seat, "
            "top card first, Tombstone last.",
            nullable=True,
        ),
    )
    irreversible_types = frozenset(
        {
            "GameStarted",
            "FirstPlayerChosen",
            "CardDrawn",
            "TombstoneDrawn",
            "BarrageFired",
            "FortressBreached",
            # A card played from hand is seen by everyone: taking it back would not unsee it.
            "CharacterDeployed",
            "ArmorFitted",
            "WeaponFitted",
            "CardDiscarded",
            "AngelOfLifePlayed",
            "AngelOfDeathPlayed",
            "ShieldRaised",
            "PlayerDefeated",
        }
    )
    unfair_options = ("decks",)
    evolvers = EVOLVE

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

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.move(state, seat, kind)

    def after_move(self, state: State, events: list[GameEvent]) -> list[GameEvent]:
        return rules.after_move(state, events)

    def outcome(self, state: State) -> dict[str, JSON] | None:
        return rules.outcome(state)

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        return view.view(state, seat)

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        return view.redact(event, seat)

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        return view.secrets(state, seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return view.determinize(state, seat, rng)

    def card_names(self, state: State) -> tuple[str, ...]:
        return view.card_names(state)

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        return view.action_cards(state, seat, action)

    def evaluate(self, state: State, seat: int) -> float:
        return bot.evaluate(state, seat)

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        return faces.card_faces()


GAME = FortressSiege()
