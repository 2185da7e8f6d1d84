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
from collections.abc import Mapping, Sequence
from typing import Any

from games.base import (
    JSON,
    Action,
    GameBase,
    GameEvent,
    IllegalAction,
    Option,
    outcome_of,
)
from games.cards import check_deck
from games.fortress_royals import combat, tally
from games.fortress_royals.deck import (
    ACE,
    CAPTURED_POINTS,
    DEALT,
    DECK,
    DRAW_VALUE,
    FORTIFIED,
    PROTECTED_POINTS,
    ROYAL,
    TARGET_SCORES,
)
from games.fortress_royals.state import (
    ARRANGE,
    ATTACK,
    CHOOSE_FIRST,
    FORTIFY,
    OVER,
    REARRANGE,
    State,
    evolve,
)

PLACES = [{"type": "place", "end": combat.LEFT}, {"type": "place", "end": combat.RIGHT}]
ARRANGES = [{"type": "keep_dealt"}, {"type": "swap_dealt"}]


def _orders(deck_option: JSON) -> list[list[str]]:
    """The ``deck`` option as a list of card orders (one flat order means one order)."""
    if not deck_option:
        return []
    if all(isinstance(card, str) for card in deck_option):
        return [list(deck_option)]
    return [list(order) for order in deck_option]


def _fields(action: Mapping[str, JSON], *names: str) -> None:
    extra = sorted(set(action) - {"type", *names})
    missing = [name for name in names if name not in action]
    if extra:
        raise IllegalAction(f"'{action['type']}' takes no field {', '.join(repr(n) for n in extra)}.")
    if missing:
        raise IllegalAction(f"'{action['type']}' needs the field {', '.join(repr(n) for n in missing)}.")


def _seat_field(action: Mapping[str, JSON], name: str, players: int) -> int:
    value = action[name]
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < players:
        raise IllegalAction(f"'{name}' must be a seat number from 0 to {players - 1}.")
    return value


def _end_field(action: Mapping[str, JSON], name: str) -> str:
    value = action[name]
    if value not in combat.SIDES:
        raise IllegalAction(f'\'{name}\' must be "left" or "right".')
    return str(value)


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
    options: tuple[Option, ...] = (
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
        events = [
            GameEvent(
                "GameStarted",
                {"players": players, "target": target, "rounds": rounds, "orders": orders},
            )
        ]
        pile = list(orders[0]) if orders else self._shuffled(rng)
        drawing = list(range(players))
        while True:
            if len(pile) < len(drawing):
                pile = self._shuffled(rng)
            cards: list[str | None] = [None] * players
            for seat in drawing:
                cards[seat] = pile.pop(0)
            best = max(DRAW_VALUE[str(cards[seat])] for seat in drawing)
            high = [seat for seat in drawing if DRAW_VALUE[str(cards[seat])] == best]
            events.append(GameEvent("FirstCardsDrawn", {"cards": cards, "high": high}))
            if len(high) == 1:
                return events
            drawing = high

    @staticmethod
    def _shuffled(rng: random.Random) -> list[str]:
        cards = list(DECK)
        rng.shuffle(cards)
        return cards

    def evolve(self, state: State | None, event: GameEvent) -> State:
        return evolve(state, event)

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

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        phase = state.phase
        if phase == ATTACK and seat == state.turn:
            return self._attack_turn_actions(state, seat)
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

    def _attack_turn_actions(self, state: State, seat: int) -> list[Action]:
        if state.pending is not None:
            return [dict(place) for place in PLACES]
        hand = state.hands[seat]
        actions: list[Action] = []
        if _may_call_done(hand):
            actions.append({"type": "done"})
        actions.append({"type": "pass"})
        if state.deck:
            actions += [{"type": "discard_ace", "card": card} for card in hand if ACE[card]]
        for group in combat.attack_groups(hand):
            for side in combat.SIDES:
                actions.append({"type": "attack", "cards": list(group), "side": side})
        return actions

    # --- decide ------------------------------------------------------------------

    def decide(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        if state.phase == OVER:
            raise IllegalAction("The game is over.", code="game_over")
        if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
            raise IllegalAction('An action is an object with a "type".')
        if not isinstance(seat, int) or seat not in self.to_act(state):
            raise IllegalAction(self._not_your_turn(state), code="not_your_turn")
        verb = action["type"]
        handler = _HANDLERS.get(verb)
        if handler is None:
            raise IllegalAction(f"There is no action '{verb}' in this game.")
        return handler(self, state, seat, action, rng)

    def _not_your_turn(self, state: State) -> str:
        if state.phase in (ARRANGE, REARRANGE):
            return "You have already arranged your hand; the others are still arranging theirs."
        if state.phase == CHOOSE_FIRST:
            return f"Seat {state.chooser} chooses who goes first."
        return f"It is seat {state.turn}'s turn."

    def _choose_first(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        if state.phase != CHOOSE_FIRST:
            raise IllegalAction("The first player is chosen only before a round.")
        _fields(action, "seat")
        first = _seat_field(action, "seat", state.players)
        number = state.round + 1
        even = state.players == 2 and number % 2 == 0
        events = [
            GameEvent("FirstPlayerChosen", {"by": seat, "seat": first}, seat),
            GameEvent("RoundStarted", {"round": number, "direction": 1 if number % 2 else -1, "even": even}),
        ]
        if even:
            deck = list(state.deck)
        else:
            if state.orders:
                deck = list(state.orders[min(state.shuffles + 1, len(state.orders) - 1)])
            else:
                deck = self._shuffled(rng)
            events.append(GameEvent("DeckShuffled", {"deck": deck}))
        direction = 1 if number % 2 else -1
        order = [(first + index * direction) % state.players for index in range(state.players)]
        for place, dealt_to in enumerate(order):
            cards = [deck[place + index * state.players] for index in range(DEALT)]
            events.append(GameEvent("CardsDealt", {"seat": dealt_to, "cards": cards}))
        return events

    def _arrange(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        if state.phase != ARRANGE:
            raise IllegalAction("The two dealt cards are arranged only before the first draw.")
        _fields(action)
        swapped = action["type"] == "swap_dealt"
        events = [GameEvent("DealtCardsArranged", {"seat": seat, "swapped": swapped}, seat)]
        if state.waiting == {seat}:
            first = state.first if state.first is not None else 0
            events.append(GameEvent("CardDrawn", {"seat": first, "card": state.deck[0]}, first))
        return events

    def _place(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        if state.pending is None:
            raise IllegalAction("You have no drawn card to place.")
        _fields(action, "end")
        end = _end_field(action, "end")
        events = [GameEvent("CardPlaced", {"seat": seat, "end": end}, seat)]
        if state.phase == FORTIFY:
            following = state.next_seat(seat)
            if len(state.hands[following]) < FORTIFIED:
                events.append(GameEvent("CardDrawn", {"seat": following, "card": state.deck[0]}, following))
            else:
                events.append(GameEvent("DrawsCompleted", {}))
        return events

    def _finalize(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        if state.phase != REARRANGE:
            raise IllegalAction("You may move one card only once every hand has 10 cards.")
        if action["type"] == "keep":
            _fields(action)
            return [GameEvent("HandFinalized", {"seat": seat, "move": None}, seat)]
        _fields(action, "from", "to")
        size = len(state.hands[seat])
        positions = []
        for name in ("from", "to"):
            value = action[name]
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
                raise IllegalAction(f"'{name}' must be a position in your hand, from 0 to {size - 1}.")
            positions.append(value)
        if positions[0] == positions[1]:
            raise IllegalAction('Moving a card to where it already is keeps the hand: send {"type": "keep"}.')
        return [GameEvent("HandFinalized", {"seat": seat, "move": positions}, seat)]

    def _turn_start(self, state: State, seat: int, verb: str) -> None:
        if state.phase != ATTACK:
            raise IllegalAction(f"You may {verb} only in the attacking phase.")
        if state.pending is not None:
            raise IllegalAction("Place the card you drew at the left or right end of your hand first.")

    def _attack(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        self._turn_start(state, seat, "attack")
        _fields(action, "cards", "side")
        cards = action["cards"]
        hand = state.hands[seat]
        if not isinstance(cards, list):
            raise IllegalAction("'cards' must be a list of the cards you attack with.")
        problem = combat.attack_problem(hand, cards)
        if problem:
            raise IllegalAction(problem)
        side = _end_field(action, "side")
        target = state.next_seat(seat)
        clash = combat.resolve(cards, state.hands[target], side)
        royal_attackers = [card for card in cards if ROYAL[card]]
        events = [
            GameEvent(
                "AttackResolved",
                {
                    "seat": seat,
                    "target": target,
                    "cards": list(cards),
                    "side": side,
                    "result": "blocked" if clash.blocked else "broken",
                    "broken": list(clash.broken),
                    "revealed": list(clash.revealed),
                    "discarded": [card for card in cards if not ROYAL[card]]
                    + [card for card in clash.broken if not ROYAL[card]],
                    "captured_by_attacker": [card for card in clash.broken if ROYAL[card]],
                    "captured_by_defender": royal_attackers,
                },
                seat,
            )
        ]
        attacker_left = len(hand) - len(cards)
        if not attacker_left or len(state.hands[target]) == len(clash.broken):
            emptied = target if attacker_left else seat
            events += self._end_round(evolve(state, events[0]), f"seat {emptied} ran out of cards")
        return events

    def _discard_ace(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        self._turn_start(state, seat, "discard an Ace")
        _fields(action, "card")
        card = action["card"]
        if not isinstance(card, str) or card not in state.hands[seat]:
            raise IllegalAction(f"{card!r} is not a card in your hand.")
        if not ACE[card]:
            raise IllegalAction("Only an Ace may be discarded to draw a new card.")
        if not state.deck:
            raise IllegalAction("The deck is empty: there is no card to draw for your Ace.")
        return [
            GameEvent("AceDiscarded", {"seat": seat, "card": card}, seat),
            GameEvent("CardDrawn", {"seat": seat, "card": state.deck[0]}, seat),
        ]

    def _pass(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        self._turn_start(state, seat, "pass")
        _fields(action)
        events = [GameEvent("TurnPassed", {"seat": seat}, seat)]
        if state.passes + 1 >= state.players:
            events += self._end_round(evolve(state, events[0]), "every player passed")
        return events

    def _done(self, state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
        self._turn_start(state, seat, 'call "done"')
        _fields(action)
        if not _may_call_done(state.hands[seat]):
            raise IllegalAction('You may call "done" only with at most one card other than royals in hand.')
        called = GameEvent("DoneCalled", {"seat": seat}, seat)
        return [called, *self._end_round(evolve(state, called), f'seat {seat} called "done"')]

    def _end_round(self, state: State, reason: str) -> list[GameEvent]:
        points = tally.round_points(state)
        scores = [total + gained for total, gained in zip(state.scores, points, strict=True)]
        result = tally.game_result(state, scores)
        chooser = None if result else tally.next_chooser(state, points)
        events = [
            GameEvent(
                "RoundEnded",
                {
                    "round": state.round,
                    "reason": reason,
                    "hands": [list(hand) for hand in state.hands],
                    "points": points,
                    "scores": scores,
                    "chooser": chooser,
                },
            )
        ]
        if result:
            winners, why = result
            events.append(GameEvent("GameWon", {"winners": winners, "reason": why}))
        return events

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
        pool = sorted(hidden)  # sorted first: the sample may depend on the rng, never on where the cards really are
        rng.shuffle(pool)
        refill = iter(pool)
        hands = tuple(tuple(next(refill) if card in hidden else card for card in hand) for hand in state.hands)
        pending = next(refill) if state.pending in hidden else state.pending
        deck = tuple(next(refill) for _ in state.deck)
        return state.copy_with(hands=hands, pending=pending, deck=deck)

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


def _may_call_done(hand: Sequence[str]) -> bool:
    return sum(1 for card in hand if not ROYAL[card]) <= 1


def _round_prospect(state: State, seat: int) -> float:
    """Points the seat holds this round: captured royals in full, royals in hand
    discounted by how close they sit to an end, plus a little for cards in hand."""
    gained: float = sum(CAPTURED_POINTS[card] for card in state.captured[seat])
    hand = state.hands[seat]
    depth_scale = max(1.0, len(hand) / 2.0)
    for index, card in enumerate(hand):
        if ROYAL[card]:
            depth = min(index, len(hand) - 1 - index)
            gained += PROTECTED_POINTS[card] * (0.4 + 0.6 * min(1.0, depth / depth_scale))
    return gained + 0.1 * len(hand)


_HANDLERS: dict[str, Any] = {
    "choose_first": FortressRoyals._choose_first,
    "keep_dealt": FortressRoyals._arrange,
    "swap_dealt": FortressRoyals._arrange,
    "place": FortressRoyals._place,
    "keep": FortressRoyals._finalize,
    "move": FortressRoyals._finalize,
    "attack": FortressRoyals._attack,
    "discard_ace": FortressRoyals._discard_ace,
    "pass": FortressRoyals._pass,
    "done": FortressRoyals._done,
}
