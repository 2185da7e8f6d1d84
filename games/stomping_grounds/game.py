"""Stomping Grounds as the registry lists it: the game object, with its title, player
counts, options, rules revision and the events undo never crosses, and the contract's
functions, each handed over to the module that holds it: ``rules`` (the options and the
opening, who acts, what may be done and the move that does it, why anything else is refused,
the outcome), ``evolve`` (the fold), ``view`` (what a seat may see and believe), ``bot`` (the
greedy bot's evaluation) and ``faces`` (the cards as the web client shows them)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import JSON, Action, GameBase, GameEvent, Move, Option

from . import bot, faces, rules, view
from .cards import DECK_KEYS
from .evolve import EVOLVE
from .state import State


class StompingGrounds(GameBase):
    key = "stomping-grounds"
    title = "Stomping Grounds"
    summary = (
        "Two to four dragons fight for a land of realms laid edge to edge. Fly over the map, "
        "complete challenges and duel other dragons to burn your own 60-card deck away: the first "
        "dragon with no cards left in deck, stash and junk at the end of a turn wins."
    )
    min_players = 2
    max_players = 4
    rules_revision = 2
    options: tuple[Option, ...] = (
        Option(
            "decks",
            "array",
            None,
            "Deck key per seat (" + ", ".join(DECK_KEYS) + "); dealt at random when null.",
            nullable=True,
        ),
        Option(
            "deck",
            "array",
            None,
            "Explicit deck order per seat, top first (card ids 's<seat>-<card slug>-<copy>'), for "
            "scenarios and tutorials; needs 'decks'.",
            nullable=True,
        ),
        Option(
            "turn_limit",
            "integer",
            None,
            "Rounds after which the dragon with the fewest cards left wins (our rule, not the "
            f"rulebook's); null: no limit (rules revision 1 plays {rules.REVISION_1_TURN_LIMIT} when null).",
            minimum=1,
            maximum=200,
            nullable=True,
        ),
    )
    # events that draw, shuffle or reveal a face-down card (a deck's top, a searched card)
    irreversible_types = frozenset(
        {
            "GameStarted",
            "LuckDrawn",
            "DeckShuffled",
            "CardsDrawn",
            "CardsStashed",
            "DragonFlew",
            "CardsBurned",
            "RealmPlayed",
            "HoardPlayed",
        }
    )
    unfair_options = ("deck",)
    evolvers = EVOLVE
    lists_every_action = True
    strict_json = True

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
        return rules.refusal(state, seat, action)

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.move(state, seat, kind)

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
        """Every card of the four decks by slug (``faceKey`` in the client module strips a
        card id's seat and copy), as the current rules revision prints it."""
        return faces.card_faces(self.rules_revision)


GAME = StompingGrounds()
