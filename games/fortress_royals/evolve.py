"""Fortress (royals in hand)'s ``evolve``: the table ``EVOLVE`` with one case per event
type, and the cases it lists. Each case changes the state as its event says and nothing
more: it checks nothing and draws nothing, for every choice and every card that came off
the deck is written in the event by ``setup``/``decide``; events carry JSON lists, so the
cases turn them back into tuples.
"""

from __future__ import annotations

from typing import cast

from games.base import Evolver, GameEvent, replace
from games.fortress_royals.state import ARRANGE, ATTACK, CHOOSE_FIRST, FORTIFY, OVER, REARRANGE, State


def _game_started(state: State | None, event: GameEvent) -> State:
    data = event.data
    players = data["players"]
    revised = data.get("rules", 1) >= 2
    return State(
        players=players,
        target=data["target"],
        rounds=data["rounds"],
        orders=tuple(tuple(order) for order in data["orders"]),
        royals_pair=revised and not data["royals_pair_by_face"],
        defence_kings_score_captured=not revised or data["kings_taken_in_defence_score_2"],
        hands=((),) * players,
        captured=((),) * players,
        taken_in_defence=((),) * players,
        scores=(0,) * players,
    )


def _first_cards_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    high = data["high"]
    draws = state.first_draws + (tuple(data["cards"]),)
    if len(high) == 1:
        return replace(state, first_draws=draws, chooser=high[0], phase=CHOOSE_FIRST)
    return replace(state, first_draws=draws)


def _first_player_chosen(state: State, event: GameEvent) -> State:
    data = event.data
    opener = data["seat"] if state.opener is None else state.opener
    return replace(state, first=data["seat"], opener=opener, chooser=None)


def _round_started(state: State, event: GameEvent) -> State:
    data = event.data
    left_over = [card for hand in state.hands for card in hand]
    left_over += state.discard
    left_over += [card for pile in state.captured for card in pile]
    return replace(
        state,
        round=data["round"],
        direction=data["direction"],
        even=data["even"],
        phase=ARRANGE,
        turn=state.first,
        waiting=frozenset(range(state.players)),
        hands=((),) * state.players,
        captured=((),) * state.players,
        taken_in_defence=((),) * state.players,
        discard=(),
        set_aside=state.set_aside + tuple(left_over),
        revealed=frozenset(),
        pending=None,
        passes=0,
        hands_shown=False,
        first_draws=(),
        round_end=None,
    )


def _deck_shuffled(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, deck=tuple(data["deck"]), set_aside=(), shuffles=state.shuffles + 1)


def _cards_dealt(state: State, event: GameEvent) -> State:
    data = event.data
    cards = tuple(data["cards"])
    return replace(
        state,
        hands=state.with_hand(data["seat"], cards),
        deck=tuple(card for card in state.deck if card not in cards),
    )


def _dealt_cards_arranged(state: State, event: GameEvent) -> State:
    data = event.data
    seat = data["seat"]
    hands = state.with_hand(seat, state.hands[seat][::-1]) if data["swapped"] else state.hands
    waiting = state.waiting - {seat}
    return replace(state, hands=hands, waiting=waiting, phase=state.phase if waiting else FORTIFY)


def _card_drawn(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, pending=data["card"], deck=state.deck[1:])


def _card_placed(state: State, event: GameEvent) -> State:
    data = event.data
    seat = data["seat"]
    drawn = (cast(str, state.pending),)
    hand = drawn + state.hands[seat] if data["end"] == "left" else state.hands[seat] + drawn
    return replace(state, hands=state.with_hand(seat, hand), pending=None, turn=state.next_seat(seat), passes=0)


def _draws_completed(state: State, _: GameEvent) -> State:
    return replace(state, phase=REARRANGE, turn=None, waiting=frozenset(range(state.players)))


def _hand_finalized(state: State, event: GameEvent) -> State:
    data = event.data
    seat = data["seat"]
    hands = state.hands
    if data["move"] is not None:
        source, destination = data["move"]
        hand = list(hands[seat])
        hand.insert(destination, hand.pop(source))
        hands = state.with_hand(seat, tuple(hand))
    waiting = state.waiting - {seat}
    if waiting:
        return replace(state, hands=hands, waiting=waiting)
    return replace(state, hands=hands, waiting=waiting, phase=ATTACK, turn=state.first, passes=0)


def _attack_resolved(state: State, event: GameEvent) -> State:
    data = event.data
    seat, target = data["seat"], data["target"]
    attack = set(data["cards"])
    broken = set(data["broken"])
    hands = list(state.hands)
    hands[seat] = tuple(card for card in hands[seat] if card not in attack)
    hands[target] = tuple(card for card in hands[target] if card not in broken)
    captured = list(state.captured)
    captured[seat] += tuple(data["captured_by_attacker"])
    captured[target] += tuple(data["captured_by_defender"])
    taken = list(state.taken_in_defence)
    taken[target] += tuple(data["captured_by_defender"])
    return replace(
        state,
        hands=tuple(hands),
        captured=tuple(captured),
        taken_in_defence=tuple(taken),
        discard=state.discard + tuple(data["discarded"]),
        revealed=(state.revealed - broken - attack) | set(data["revealed"]),
        turn=state.next_seat(seat),
        passes=0,
    )


def _ace_discarded(state: State, event: GameEvent) -> State:
    data = event.data
    seat, ace = data["seat"], data["card"]
    hand = tuple(card for card in state.hands[seat] if card != ace)
    return replace(
        state,
        hands=state.with_hand(seat, hand),
        discard=state.discard + (ace,),
        revealed=state.revealed - {ace},
    )


def _turn_passed(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, turn=state.next_seat(data["seat"]), passes=state.passes + 1)


def _done_called(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, round_end=f"seat {data['seat']} called done")


def _round_ended(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(
        state,
        phase=CHOOSE_FIRST,
        chooser=data["chooser"],
        turn=None,
        waiting=frozenset(),
        pending=None,
        hands_shown=True,
        scores=tuple(data["scores"]),
        round_points=state.round_points + (tuple(data["points"]),),
        round_end=data["reason"],
    )


def _game_won(state: State, event: GameEvent) -> State:
    data = event.data
    return replace(state, phase=OVER, chooser=None, winners=tuple(data["winners"]), result=data["reason"])


EVOLVE: dict[str, Evolver] = {
    "GameStarted": _game_started,
    "FirstCardsDrawn": _first_cards_drawn,
    "FirstPlayerChosen": _first_player_chosen,
    "RoundStarted": _round_started,
    "DeckShuffled": _deck_shuffled,
    "CardsDealt": _cards_dealt,
    "DealtCardsArranged": _dealt_cards_arranged,
    "CardDrawn": _card_drawn,
    "CardPlaced": _card_placed,
    "DrawsCompleted": _draws_completed,
    "HandFinalized": _hand_finalized,
    "AttackResolved": _attack_resolved,
    "AceDiscarded": _ace_discarded,
    "TurnPassed": _turn_passed,
    "DoneCalled": _done_called,
    "RoundEnded": _round_ended,
    "GameWon": _game_won,
}
