"""Dragon Fortress as the registry lists it: the game object, with its title, player
counts, options, rules revision and the events undo never crosses, and the contract's
functions, each handed over to the module that holds it: ``rules`` (the options and the
deal, who acts, what may be done and the move that does it, refusals, the outcome),
``evolve`` (the fold), ``view`` (what a seat may see and believe), ``bot`` (the greedy
bot's evaluation) and ``faces`` (the cards as the web client shows them).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import JSON, Action, GameBase, GameEvent, Move, Option
from games.dragon_fortress import bot, faces, rules, view
from games.dragon_fortress.evolve import EVOLVE
from games.dragon_fortress.state import State


class DragonFortress(GameBase):
    key = "dragon-fortress"
    title = "Dragon Fortress"
    summary = (
        "Plant crops, build towers and defeat dragons: each player grows an Estate Line of "
        "estate, gold and tower cards while dragons called from the common supply march "
        "through it razing what they pass. The strongest Estate in victory and bonus points "
        "wins when the Shadow Terror falls or a player plays the last card from hand."
    )
    min_players = 3
    max_players = 4
    options: tuple[Option, ...] = (
        Option(
            "deck",
            "array",
            None,
            "Scenario and tutorial deals only: common supply card ids in the order to stack "
            "them (top first, dealt round-robin before the supply); unlisted cards follow "
            "in manifest order. A game started with it is not a fair deal.",
            nullable=True,
        ),
        Option(
            "flee_home",
            "boolean",
            False,
            "Rules revision 2 only: a fleeing dragon that finds every other Estate Line "
            "holding a dragon goes back to the Front Line of the player it left, instead of "
            "leaving the game (revision 1's reading).",
        ),
        Option(
            "purchases_carry_over",
            "boolean",
            False,
            "Rules revision 2 only: a purchase of a type not made in one phase may be made "
            "in a later one (two Barns in Meadow if none was bought in Fallow), within the "
            "caps (revision 1's reading).",
        ),
        Option(
            "gold_kept",
            "boolean",
            False,
            "Rules revision 2 only: gold in the Estate Line is a requirement for a purchase "
            "and is never spent (revision 1's reading).",
        ),
    )
    rules_revision = 2
    irreversible_types = frozenset({"GameSetUp", "CommonCardDrawn", "DragonCalled"})
    evolvers = EVOLVE
    lists_every_action = True
    unfair_options = ("deck",)

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
        """Every card type's face keyed by its type key (a card id without its copy number,
        and a pile's key in the view), with the victory points of the current revision."""
        return faces.card_faces(self.rules_revision)


GAME = DragonFortress()
