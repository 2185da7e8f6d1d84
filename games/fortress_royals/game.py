"""Fortress (royals in hand), Rulebook v2.0: the decider.

Two to five players each build a hidden ten-card hand one card at a time, each
card going to the left or right end, then attack the next player's hand from
either end. Royals score when captured or kept; rounds are played to a target
score, the direction of play alternating, and with two players every other
round (the Even Round) is played on the cards left in the deck.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from games.base import (
    CARD_ID,
    JSON,
    SEAT_NUMBER,
    Action,
    GameBase,
    GameEvent,
    IllegalAction,
    Move,
    Option,
    fields_of,
    outcome_of,
    redeal,
    rules_of,
    shuffled_hidden,
)
from games.cards import check_deck
from games.fortress_royals import attack, faces, fortify, opening, tally
from games.fortress_royals.attack import legal_attack_turn
from games.fortress_royals.deck import (
    ACE,
    DECK,
    DRAW_VALUE,
    PROTECTED_POINTS,
    RANK,
    ROYAL,
    TARGET_SCORES,
)
from games.fortress_royals.fortify import PLACES
from games.fortress_royals.opening import ARRANGES, shuffled_deck
from games.fortress_royals.state import (
    ARRANGE,
    ATTACK,
    CHOOSE_FIRST,
    EVOLVERS,
    FORTIFY,
    OVER,
    REARRANGE,
    State,
)


def _orders(deck_option: JSON) -> list[list[str]]:
    """The ``deck`` option as a list of card orders (one flat order means one order)."""
    if not deck_option:
        return []
    if all(isinstance(card, str) for card in deck_option):
        return [list(deck_option)]
    return [list(order) for order in deck_option]


class FortressRoyals(GameBase):
    key = "fortress-royals"
    title = "Fortress (royals in hand)"
    summary = (
        "Build a secret ten-card hand one card at a time, each at the left or right end, "
        "to keep your Jacks, Queens and Kings deep inside it. Then attack your neighbour's "
        "hand from either end to break its defenses and capture its royals; rounds are "
        "played to a target score."
    )
    min_players = 2
    max_players = 5
    rules_revision = 2
    """Revision 2: every royal has "a rank of 0", so royals of any face are equal
    ranks; a King taken from an attacker scores as one of the "other royals" (1 point)."""
    options: tuple[Option, ...] = (
        Option(
            "royals_pair_by_face",
            "boolean",
            False,
            "Our first reading: only royals of the same face (two Kings, two Jacks) are equal "
            "ranks, so a Jack beside a Queen neither attacks nor defends with it. By default every "
            "royal has the rulebook's rank of 0 and any royals side by side are equal ranks.",
        ),
        Option(
            "kings_taken_in_defence_score_2",
            "boolean",
            False,
            "Our first reading: every King in a captured pile scores 2, also one taken from an "
            "attacker. By default only a King your own attack beat scores 2, and one taken in "
            "defence scores 1 like the other royals.",
        ),
        Option(
            "target",
            "integer",
            None,
            "Points that win the game; by default 21 for two players, 17 for three, 14 for four, 12 for five.",
            minimum=1,
            maximum=200,
            nullable=True,
        ),
        Option(
            "rounds",
            "integer",
            None,
            "Play exactly this many rounds instead of playing to a target score "
            "(the rulebook's shorter game); the highest total wins.",
            minimum=1,
            maximum=50,
            nullable=True,
        ),
        Option(
            "deck",
            "array",
            None,
            "Fixed card order(s) for tutorials and tests: one order of the 52 cards used for "
            "the first-player draw and every shuffle, or a list of orders: the first for the "
            "first-player draw, then one per shuffle (the last repeats). Not a fair deal.",
            nullable=True,
        ),
    )
    irreversible_types = frozenset(
        {
            "FirstCardsDrawn",
            "DeckShuffled",
            "CardsDealt",
            "CardDrawn",
            "AttackResolved",
            "AceDiscarded",
            "RoundEnded",
        }
    )
    unfair_options = ("deck",)
    evolvers = EVOLVERS
    malformed_reason = 'An action is an object with a "type".'

    # --- options and setup -------------------------------------------------------

    def check_options(self, options: Mapping[str, JSON], players: int) -> list[str]:
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

    def setup(self, options: Mapping[str, JSON], players: int, rng: random.Random) -> list[GameEvent]:
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

    # --- who acts and what they may do --------------------------------------------

    def to_act(self, state: State) -> frozenset[int]:
        phase = state.phase
        if phase in (FORTIFY, ATTACK) and state.turn is not None:
            return frozenset((state.turn,))
        if phase in (ARRANGE, REARRANGE):
            return state.waiting
        if phase == CHOOSE_FIRST and state.chooser is not None:
            return frozenset((state.chooser,))
        return frozenset()

    def action_schemas(self) -> dict[str, dict[str, JSON]]:
        place = {"type": "integer", "minimum": 0, "description": "A place in the hand, counted from 0."}
        return {
            "choose_first": fields_of({"seat": SEAT_NUMBER}),
            "keep_dealt": fields_of(),
            "swap_dealt": fields_of(),
            "place": fields_of({"end": {"type": "string", "description": "The end of the row the card goes to."}}),
            "keep": fields_of(),
            "move": fields_of({"from": place, "to": place}),
            "attack": fields_of(
                {"cards": {"type": "array", "items": CARD_ID, "minItems": 1}, "side": {"type": "string"}}
            ),
            "discard_ace": fields_of({"card": CARD_ID}),
            "done": fields_of(),
            "pass": fields_of(),
        }

    def legal_actions(self, state: State, seat: int) -> list[Action]:
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

    # --- decide ------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return bool(state.phase == OVER)

    def not_your_turn(self, state: State, seat: int) -> str:
        if state.phase in (ARRANGE, REARRANGE):
            return "You have already arranged your hand; the others are still arranging theirs."
        if state.phase == CHOOSE_FIRST:
            return f"Seat {state.chooser} chooses who goes first."
        return f"It is seat {state.turn}'s turn."

    def move(self, state: State, seat: int, kind: str) -> Move:
        found = MOVES.get(kind)
        if found is None:
            raise IllegalAction(f"There is no action '{kind}' in this game.")
        return found

    # --- what each seat sees ---------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, JSON]:
        hands = []
        for owner, hand in enumerate(state.hands):
            open_hand = owner == seat or state.hands_shown
            hands.append(
                {
                    "seat": owner,
                    "count": len(hand),
                    "cards": [card if open_hand or card in state.revealed else None for card in hand],
                    "revealed": [index for index, card in enumerate(hand) if card in state.revealed],
                }
            )
        drawn: dict[str, JSON] | None = None
        if state.pending is not None:
            drawn = {"seat": state.turn, "card": state.pending if state.turn == seat else None}
        target = state.next_seat(state.turn) if state.phase == ATTACK and state.turn is not None else None
        return {
            "seat": seat,
            "players": state.players,
            "phase": state.phase,
            "round": state.round,
            "direction": "clockwise" if state.direction == 1 else "counter-clockwise",
            "even_round": state.even,
            "first_player": state.first,
            "first": state.opener,
            "chooser": state.chooser,
            "turn": state.turn,
            "attack_target": target,
            "to_act": sorted(self.to_act(state)),
            "waiting": sorted(state.waiting),
            "target_score": state.target,
            "rounds": state.rounds,
            "fixed_deck": bool(state.orders),
            "first_draws": [list(draw) for draw in state.first_draws],
            "hands": hands,
            "drawn": drawn,
            "deck": len(state.deck),
            "discard": list(state.discard),
            "captured": [list(pile) for pile in state.captured],
            "set_aside": list(state.set_aside) if state.even else [],
            "set_aside_count": len(state.set_aside),
            "passes": state.passes,
            "scores": list(state.scores),
            "round_points": [list(points) for points in state.round_points],
            "round_end": state.round_end,
            "winners": list(state.winners),
            "result": state.result,
        }

    def final_view(self, state: State, seat: int | None) -> dict[str, JSON]:
        """Once the game is over every hand is shown, and a card drawn and not placed yet
        (a game resigned or aborted mid-round) too. The view's ``players`` is a count, so
        the generic merge by seat does not apply."""
        shown = self.view(state.copy_with(hands_shown=True), seat)
        if state.pending is not None:
            shown["drawn"] = {"seat": state.turn, "card": state.pending}
        return shown

    def card_faces(self) -> dict[str, dict[str, JSON]]:
        """Every card by its id: strength, and a royal's points (``faces.py``, from ``cards.json``)."""
        return faces.card_faces()

    def redact(self, event: GameEvent, seat: int | None) -> GameEvent:
        data = event.data
        kind = event.type
        if kind == "DeckShuffled":
            return GameEvent(kind, {"count": len(data["deck"])}, event.seat)
        if kind == "GameStarted" and data["orders"]:
            return GameEvent(kind, {**data, "orders": len(data["orders"])}, event.seat)
        if seat is not None and data.get("seat") == seat:
            return event
        if kind == "CardsDealt":
            return GameEvent(kind, {"seat": data["seat"], "count": len(data["cards"])}, event.seat)
        if kind in ("CardDrawn", "DealtCardsArranged", "HandFinalized"):
            return GameEvent(kind, {"seat": data["seat"]}, event.seat)
        return event

    def secrets(self, state: State, seat: int | None) -> frozenset[str]:
        hidden = set(state.deck)
        if not state.hands_shown:
            for owner, hand in enumerate(state.hands):
                if owner != seat:
                    hidden.update(card for card in hand if card not in state.revealed)
        if state.pending is not None and state.turn != seat:
            hidden.add(state.pending)
        return frozenset(hidden)

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        hidden = self.secrets(state, seat)
        refill = iter(shuffled_hidden(hidden, rng))
        hands = tuple(redeal(hand, hidden, refill) for hand in state.hands)
        pending = next(refill) if state.pending in hidden else state.pending
        deck = tuple(next(refill) for _ in state.deck)
        return state.copy_with(hands=hands, pending=pending, deck=deck)

    # --- the cards, for the per-card table of bench.balance ---------------------------

    def card_names(self, state: State) -> tuple[str, ...]:
        """Every rank of the one deck, each dealt into every game: a rank is what a card does."""
        return tuple(CARD_NAMES[rank] for rank in dict.fromkeys(RANK[card] for card in DECK))

    def action_cards(self, state: State, seat: int, action: Action) -> tuple[str, ...]:
        """The ranks an attack plays, and the Ace an Ace's draw spends. Placing a drawn card
        and moving one are not counted: every card is placed, whatever it is."""
        kind = action.get("type")
        if kind == "attack":
            return tuple(dict.fromkeys(CARD_NAMES[RANK[card]] for card in action.get("cards", ()) if card in RANK))
        if kind == "discard_ace" and ACE.get(str(action.get("card"))):
            return (CARD_NAMES["A"],)
        return ()

    # --- results -------------------------------------------------------------------

    def outcome(self, state: State) -> dict[str, JSON] | None:
        if state.phase != OVER:
            return None
        return outcome_of(state.winners, list(state.scores), state.result or "")

    def evaluate(self, state: State, seat: int) -> float:
        if state.phase == OVER:
            return 1.0 / len(state.winners) if seat in state.winners else 0.0
        projected = [state.scores[owner] + _round_prospect(state, owner) for owner in range(state.players)]
        best_other = max(projected[owner] for owner in range(state.players) if owner != seat)
        return 0.5 + 0.5 * math.tanh((projected[seat] - best_other) / 8.0)


def _round_prospect(state: State, seat: int) -> float:
    """Points the seat holds this round: captured royals in full, royals in hand
    discounted by how close they sit to an end, plus a little for cards in hand."""
    gained: float = tally.captured_points(state, seat)
    hand = state.hands[seat]
    depth_scale = max(1.0, len(hand) / 2.0)
    for index, card in enumerate(hand):
        if ROYAL[card]:
            depth = min(index, len(hand) - 1 - index)
            gained += PROTECTED_POINTS[card] * (0.4 + 0.6 * min(1.0, depth / depth_scale))
    return gained + 0.1 * len(hand)


CARD_NAMES = {
    "A": "Ace",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    **{str(number): str(number) for number in range(2, 11)},
}

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
