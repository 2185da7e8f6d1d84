"""The rules of play of Fortress (royals in hand): the options a game may start with and
the first-player draw (``check_options``, ``setup``), who may act now (``to_act``), what
each seat may do (``legal_actions``) and what an action from the wrong seat is told
(``not_your_turn``), the move for each action type (``move``, from the table ``MOVES``),
the actions' schemas (``action_schemas``), and when the game is over and who won
(``is_over``, ``outcome``). Each phase of play has its module of moves: ``opening`` (the
first player, the deal, the two dealt cards), ``fortify`` (placing drawn cards, the
one-card rearrangement) and ``attack`` (attack, Ace, pass, "done", the round's end).
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    Action,
    GameEvent,
    IllegalAction,
    Move,
    fields_of,
    outcome_of,
    rules_of,
)
from games.cards import check_deck
from games.fortress_royals import attack, fortify, opening
from games.fortress_royals.attack import legal_attack_turn
from games.fortress_royals.cards import DECK, DRAW_VALUE, TARGET_SCORES
from games.fortress_royals.fortify import PLACES
from games.fortress_royals.opening import ARRANGES, shuffled_deck
from games.fortress_royals.state import ARRANGE, ATTACK, CHOOSE_FIRST, FORTIFY, OVER, REARRANGE, State

# --- options and setup --------------------------------------------------------------------


def _orders(deck_option: JSON) -> list[list[str]]:
    """The ``deck`` option as a list of card orders (one flat order means one order)."""
    if not deck_option:
        return []
    if all(isinstance(card, str) for card in deck_option):
        return [list(deck_option)]
    return [list(order) for order in deck_option]


def check_options(options: Mapping[str, JSON], players: int) -> list[str]:
    problems = []
    if options.get("target") is not None and options.get("rounds") is not None:
        problems.append("choose a target score or a number of rounds, not both")
    deck = options.get("deck")
    if deck:
        flat = all(isinstance(card, str) for card in deck)
        nested = all(isinstance(order, list) for order in deck)
        if not (flat or nested):
            problems.append("option 'deck' must be one list of card codes or a list of such lists")
        else:
            for number, order in enumerate(_orders(deck), start=1):
                if not all(isinstance(card, str) for card in order):
                    problems.append(f"deck order {number} must list card codes")
                    continue
                problems += [f"deck order {number}: {p}" for p in check_deck(order, DECK)]
    return problems


def setup(options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
    orders = _orders(options.get("deck"))
    rounds = options.get("rounds")
    target = None if rounds is not None else options.get("target") or TARGET_SCORES[players]
    started: dict[str, JSON] = {"players": players, "target": target, "rounds": rounds, "orders": orders}
    revision = rules_of(options)
    if revision >= 2:
        started["rules"] = revision
        started["royals_pair_by_face"] = bool(options.get("royals_pair_by_face"))
        started["kings_taken_in_defence_score_2"] = bool(options.get("kings_taken_in_defence_score_2"))
    events = [GameEvent("GameStarted", started)]
    pile = list(orders[0]) if orders else shuffled_deck(rng)
    drawing = list(range(players))
    while True:
        if len(pile) < len(drawing):
            pile = shuffled_deck(rng)
        cards: list[str | None] = [None] * players
        for seat in drawing:
            cards[seat] = pile.pop(0)
        best = max(DRAW_VALUE[str(cards[seat])] for seat in drawing)
        high = [seat for seat in drawing if DRAW_VALUE[str(cards[seat])] == best]
        events.append(GameEvent("FirstCardsDrawn", {"cards": cards, "high": high}))
        if len(high) == 1:
            return events
        drawing = high


# --- who acts and what they may do --------------------------------------------------------


def to_act(state: State) -> frozenset[int]:
    phase = state.phase
    if phase in (FORTIFY, ATTACK) and state.turn is not None:
        return frozenset((state.turn,))
    if phase in (ARRANGE, REARRANGE):
        return state.waiting
    if phase == CHOOSE_FIRST and state.chooser is not None:
        return frozenset((state.chooser,))
    return frozenset()


def legal_actions(state: State, seat: int) -> list[Action]:
    phase = state.phase
    if phase == ATTACK and seat == state.turn:
        return legal_attack_turn(state, seat)
    if phase == FORTIFY and seat == state.turn:
        return [dict(place) for place in PLACES]
    if phase == ARRANGE and seat in state.waiting:
        return [dict(arrange) for arrange in ARRANGES]
    if phase == REARRANGE and seat in state.waiting:
        size = len(state.hands[seat])
        moves: list[Action] = [{"type": "keep"}]
        moves += [
            {"type": "move", "from": source, "to": destination}
            for source in range(size)
            for destination in range(size)
            if source != destination
        ]
        return moves
    if phase == CHOOSE_FIRST and seat == state.chooser:
        return [{"type": "choose_first", "seat": first} for first in range(state.players)]
    return []


def not_your_turn(state: State, seat: int) -> str:
    if state.phase in (ARRANGE, REARRANGE):
        return "You have already arranged your hand; the others are still arranging theirs."
    if state.phase == CHOOSE_FIRST:
        return f"Seat {state.chooser} chooses who goes first."
    return f"It is seat {state.turn}'s turn."


def action_schemas() -> dict[str, dict[str, JSON]]:
    place = {"type": "integer", "minimum": 0, "description": "A place in the hand, counted from 0."}
    return {
        "choose_first": fields_of({"seat": SEAT_NUMBER}),
        "keep_dealt": fields_of(),
        "swap_dealt": fields_of(),
        "place": fields_of({"end": {"type": "string", "description": "The end of the row the card goes to."}}),
        "keep": fields_of(),
        "move": fields_of({"from": place, "to": place}),
        "attack": fields_of({"cards": {"type": "array", "items": CARD_ID, "minItems": 1}, "side": {"type": "string"}}),
        "discard_ace": fields_of({"card": CARD_ID}),
        "done": fields_of(),
        "pass": fields_of(),
    }


# --- the moves, by action type ------------------------------------------------------------

MOVES: dict[str, Move] = {
    "choose_first": opening.choose_first,
    "keep_dealt": opening.arrange,
    "swap_dealt": opening.arrange,
    "place": fortify.place,
    "keep": fortify.finalize,
    "move": fortify.finalize,
    "attack": attack.attack,
    "discard_ace": attack.discard_ace,
    "pass": attack.pass_turn,
    "done": attack.done,
}


def move(state: State, seat: int, kind: str) -> Move:
    found = MOVES.get(kind)
    if found is None:
        raise IllegalAction(f"There is no action '{kind}' in this game.")
    return found


# --- results ------------------------------------------------------------------------------


def is_over(state: State) -> bool:
    return bool(state.phase == OVER)


def outcome(state: State) -> dict[str, JSON] | None:
    if state.phase != OVER:
        return None
    return outcome_of(state.winners, list(state.scores), state.result or "")
