"""Dragoborne -Rise To Supremacy- for two players: creatures on three forts, dice
rolled each turn as Dragoshields or Dragocrosses, and face-down barriers that break
into their owner's hand (or fire a Fort Burst). Destroy every enemy fort to win.

This module holds the game object the registry lists: its options, the deal, and
the contract functions, which hand off to ``rules`` (what may be done and what it
causes), ``state`` (the fold) and ``table`` (who sees what).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.base import CARD_ID, JSON, Action, GameBase, GameEvent, Move, Option, fields_of, rules_of
from games.dragoborne import cards, faces, rules, table
from games.dragoborne.cards import (
    BARRIERS_PER_FORT,
    DECKS,
    FORTS,
    OPENING_HAND,
    cards_of,
    deck_keys,
    deck_problems,
    deck_spec,
    expand,
)
from games.dragoborne.state import EVOLVERS, State

PLAYERS = 2
SCENARIO_MINIMUM = OPENING_HAND + FORTS * BARRIERS_PER_FORT


def opening_hand(seat: int, first: int, extra_card: bool = False) -> int:
    """Five cards (rulebook); the variant ``second_player_extra_card`` gives the second player one more."""
    return OPENING_HAND + (cards.SECOND_PLAYER_EXTRA_CARDS if extra_card and seat != first else 0)


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
    evolvers = EVOLVERS
    lists_every_action = True

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
        problems: list[str] = []
        rules = rules_of(options)
        pool = cards_of(rules)
        decks = options["decks"]
        if len(decks) != PLAYERS:
            problems.append(f"Option 'decks' must name one deck for each of the {PLAYERS} seats.")
        else:
            for seat, deck in enumerate(decks):
                problems += deck_problems(deck, f"The deck of seat {seat}", rules)
        order = options["deck"]
        if order is not None:
            if len(order) != PLAYERS or not all(isinstance(listed, list) for listed in order):
                problems.append(f"Option 'deck' must be {PLAYERS} lists of card names, one per seat.")
            else:
                minimum = SCENARIO_MINIMUM + (
                    cards.SECOND_PLAYER_EXTRA_CARDS if options.get("second_player_extra_card") else 0
                )
                for seat, listed in enumerate(order):
                    unknown = sorted({c for c in listed if not isinstance(c, str) or c not in pool})
                    if unknown:
                        problems.append(f"The deck order of seat {seat} names unknown cards: {unknown}.")
                    elif any(pool[c].type == "banner" for c in listed):
                        problems.append(f"The deck order of seat {seat} lists a banner; banners are not in the deck.")
                    if len(listed) < minimum:
                        problems.append(
                            f"The deck order of seat {seat} has {len(listed)} cards; the deal needs at least {minimum}."
                        )
        return problems

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
        first = options.get("first_player")
        if first is None:
            first = rng.randrange(PLAYERS)
        order = options.get("deck")
        rules = rules_of(options)
        decks, banners, dice, names = [], [], [], []
        for seat, choice in enumerate(options["decks"]):
            spec = deck_spec(choice, rules)
            if order is not None:
                dealt = expand(seat, list(order[seat]))
            else:
                dealt = expand(seat, deck_keys(spec))
                rng.shuffle(dealt)
            decks.append(dealt)
            banners.append(expand(seat, list(spec["banners"])))
            dice.append(list(spec["dice"]))
            names.append(choice if isinstance(choice, str) else "custom")
        started: dict[str, Any] = {
            "players": players,
            "first": first,
            "names": names,
            "decks": decks,
            "banners": banners,
            "dice": dice,
        }
        if rules >= 2:
            started["rules"] = rules  # revision 1's GameStarted never said, and still does not
        events = [GameEvent("GameStarted", started)]
        extra = bool(options.get("second_player_extra_card", False))
        events += [
            GameEvent("CardsDrawn", {"seat": seat, "cards": decks[seat][: opening_hand(seat, first, extra)]}, seat)
            for seat in range(players)
        ]
        return events

    def to_act(self, state: State) -> frozenset[int]:
        return rules.to_act(state)

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
        fort = {"type": "integer", "minimum": 0, "description": "A fort, counted from 0."}
        die = {"type": "integer", "minimum": 0, "description": "A die of the seat's pool, by its index."}
        pay = {
            "type": "array",
            "items": {"type": "string"},
            "description": "The resources rested to pay (from revision 2).",
        }
        return {
            "mulligan": fields_of({"cards": {"type": "array", "items": CARD_ID}}),
            "summon": fields_of({"card": CARD_ID, "fort": fort}, {"pay": pay}),
            "cast": fields_of({"card": CARD_ID}, {"pay": pay}),
            "shield": fields_of({"die": die, "fort": fort}),
            "cross": fields_of({"die": die, "creature": CARD_ID}),
            "activate": fields_of(
                {"creature": CARD_ID, "ability": {"type": "integer", "minimum": 0}}, {"die": die, "pay": pay}
            ),
            "move": fields_of({"creature": CARD_ID, "fort": fort}),
            "switch": fields_of({"creatures": {"type": "array", "items": CARD_ID, "minItems": 2, "maxItems": 2}}),
            "combat": fields_of(),
            "end_turn": fields_of(),
            "attack": fields_of({"creature": CARD_ID, "fort": fort}),
            "resource": fields_of(),
            "skip_resource": fields_of(),
            "discard": fields_of({"card": CARD_ID}),
            "burst": fields_of(),
            "take": fields_of(),
            "block": fields_of({"creature": CARD_ID}),
            "no_block": fields_of(),
            "target": fields_of(
                {"target": {"type": ["integer", "string"], "description": "A fort (by number) or a card (by id)."}}
            ),
        }

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return rules.legal_actions(state, seat)

    def is_over(self, state: State) -> bool:
        return bool(state.phase == "over")

    def not_your_turn(self, state: State, seat: int) -> str:
        return "It is not your turn to act."

    def refusal(self, state: State, seat: int, action: Any) -> str:
        return rules.why_illegal(state, seat, action)

    def move(self, state: State, seat: int, kind: str) -> Move:
        return rules.move(state, seat, kind)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return table.view(state, seat, rules.to_act(state))

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        return table.redact(event, seat)

    def outcome(self, state: State) -> dict[str, Any] | None:
        return table.outcome(state)

    def evaluate(self, state: State, seat: int) -> float:
        return table.evaluate(state, seat)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        return table.determinize(state, seat, rng)

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        return table.secrets(state, seat)

    def card_names(self, state: State) -> tuple[str, ...]:
        return table.card_names(state)

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        return table.action_cards(state, seat, action)

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        return faces.card_faces()


GAME = Dragoborne()
