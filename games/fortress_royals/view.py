"""What a seat may see and believe of a Fortress (royals in hand) table: its view
(``view``, and ``final_view`` once the game is over), the events of the feed as it may
read them (``redact``), the cards hidden from it (``secrets``), a re-deal of those cards
consistent with what it has seen (``determinize``, for bots and forks), and the cards a
game dealt or an action played, by rank (``card_names``, ``action_cards``, for the
per-card table of ``bench.balance``). Hidden: the deck, every hand but the seat's own
(save cards an attack revealed, and every hand after a round's tally) and a drawn card
not placed yet; a shuffle's order and a fixed deck's orders are never shown.
"""

from __future__ import annotations

import random
from itertools import filterfalse

from games.base import JSON, Action, GameEvent, redeal, shuffled_hidden
from games.fortress_royals.cards import ACE, DECK, RANK
from games.fortress_royals.rules import to_act
from games.fortress_royals.state import ARRANGE, ATTACK, CHOOSE_FIRST, FIRST_DRAW, FORTIFY, OVER, REARRANGE, State
from games.viewschema import BOOLEAN, INTEGER, SEAT, STRING, Schema, array, choice, described, nullable, record


def view(state: State, seat: int | None) -> dict[str, JSON]:
    hands = []
    revealed = state.revealed
    for owner, hand in enumerate(state.hands):
        if owner == seat or state.hands_shown:
            cards: list[str | None] = list(hand)
        elif revealed:
            cards = [card if card in revealed else None for card in hand]
        else:
            cards = [None] * len(hand)
        shown = [index for index, card in enumerate(hand) if card in revealed] if revealed else []
        hands.append({"seat": owner, "count": len(hand), "cards": cards, "revealed": shown})
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
        "to_act": sorted(to_act(state)),
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


def final_view(state: State, seat: int | None) -> dict[str, JSON]:
    """Once the game is over every hand is shown, and a card drawn and not placed yet
    (a game resigned or aborted mid-round) too. The view's ``players`` is a count, so
    the generic merge by seat does not apply."""
    shown = view(state.copy_with(hands_shown=True), seat)
    if state.pending is not None:
        shown["drawn"] = {"seat": state.turn, "card": state.pending}
    return shown


def redact(event: GameEvent, seat: int | None) -> GameEvent:
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


def secrets(state: State, seat: int | None) -> frozenset[str]:
    hidden = set(state.deck)
    if not state.hands_shown:
        for owner, hand in enumerate(state.hands):
            if owner != seat:
                hidden.update(filterfalse(state.revealed.__contains__, hand))
    if state.pending is not None and state.turn != seat:
        hidden.add(state.pending)
    return frozenset(hidden)


def determinize(state: State, seat: int, rng: random.Random) -> State:
    hidden = secrets(state, seat)
    refill = iter(shuffled_hidden(hidden, rng))
    hands = tuple(redeal(hand, hidden, refill) for hand in state.hands)
    pending = next(refill) if state.pending in hidden else state.pending
    deck = tuple(next(refill) for _ in state.deck)
    return state.copy_with(hands=hands, pending=pending, deck=deck)


# --- the cards, for the per-card table of bench.balance ------------------------------------

CARD_NAMES = {
    "A": "Ace",
    "J": "Jack",
    "Q": "Queen",
    "K": "King",
    **{str(number): str(number) for number in range(2, 11)},
}


def card_names(state: State) -> tuple[str, ...]:
    """Every rank of the one deck, each dealt into every game: a rank is what a card does."""
    return tuple(CARD_NAMES[rank] for rank in dict.fromkeys(RANK[card] for card in DECK))


def action_cards(state: State, seat: int, action: Action) -> tuple[str, ...]:
    """The ranks an attack plays, and the Ace an Ace's draw spends. Placing a drawn card
    and moving one are not counted: every card is placed, whatever it is."""
    kind = action.get("type")
    if kind == "attack":
        return tuple(dict.fromkeys(CARD_NAMES[RANK[card]] for card in action.get("cards", ()) if card in RANK))
    if kind == "discard_ace" and ACE.get(str(action.get("card"))):
        return (CARD_NAMES["A"],)
    return ()


def view_schema() -> Schema:
    """The shape of what ``view`` and ``final_view`` return (games.viewschema)."""
    seat = nullable(SEAT)
    return record(
        {
            "seat": described(seat, "The seat this view is for; null for a spectator."),
            "players": described(INTEGER, "How many seats the table has."),
            "phase": choice(FIRST_DRAW, CHOOSE_FIRST, ARRANGE, FORTIFY, REARRANGE, ATTACK, OVER),
            "round": INTEGER,
            "direction": choice("clockwise", "counter-clockwise"),
            "even_round": BOOLEAN,
            "first_player": described(seat, "The seat the first-player draw chose."),
            "first": described(seat, "The seat that opens this round."),
            "chooser": described(seat, "The seat naming the first player, while one is to."),
            "turn": seat,
            "attack_target": described(seat, "The seat whose hand the seat to act attacks."),
            "to_act": array(SEAT),
            "waiting": array(SEAT),
            "target_score": described(nullable(INTEGER), "Points that win; null when a number of rounds is played."),
            "rounds": described(nullable(INTEGER), "Rounds played in all, with the rounds option; else null."),
            "fixed_deck": BOOLEAN,
            "first_draws": array(array(nullable(STRING))),
            "hands": array(
                record(
                    {
                        "seat": SEAT,
                        "count": INTEGER,
                        "cards": described(array(nullable(STRING)), "End to end; null for a card hidden from you."),
                        "revealed": described(array(INTEGER), "Places in the hand of cards an attack showed."),
                    }
                )
            ),
            "drawn": nullable(record({"seat": SEAT, "card": described(nullable(STRING), "Null unless it is yours.")})),
            "deck": described(INTEGER, "Cards left in the deck."),
            "discard": array(STRING),
            "captured": described(array(array(STRING)), "Per seat: the cards it captured."),
            "set_aside": array(STRING),
            "set_aside_count": INTEGER,
            "passes": INTEGER,
            "scores": array(INTEGER),
            "round_points": array(array(INTEGER)),
            "round_end": nullable(STRING),
            "winners": array(SEAT),
            "result": nullable(STRING),
        }
    )
