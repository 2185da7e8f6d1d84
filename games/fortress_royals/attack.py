"""The attacking phase (rulebook, "Attacking"): on a turn a player attacks the next
player's hand from either end, discards an Ace to draw, passes, or calls "done"; the
round ends when a hand is emptied, everyone passes in a row, or "done" is called."""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.base import Action, GameEvent, IllegalAction, evolve_by_type
from games.fortress_royals import combat, tally
from games.fortress_royals.cards import ACE, ROYAL
from games.fortress_royals.evolve import EVOLVE
from games.fortress_royals.fields import end_field, need_fields
from games.fortress_royals.fortify import PLACES
from games.fortress_royals.state import ATTACK, State


def may_call_done(hand: Sequence[str]) -> bool:
    return sum(1 for card in hand if not ROYAL[card]) <= 1


def legal_attack_turn(state: State, seat: int) -> list[Action]:
    if state.pending is not None:
        return [dict(place) for place in PLACES]
    hand = state.hands[seat]
    actions: list[Action] = []
    if may_call_done(hand):
        actions.append({"type": "done"})
    actions.append({"type": "pass"})
    if state.deck:
        actions += [{"type": "discard_ace", "card": card} for card in hand if ACE[card]]
    actions += [
        {"type": "attack", "cards": list(group), "side": side}
        for group in combat.attack_groups(hand, state.royals_pair)
        for side in combat.SIDES
    ]
    return actions


def turn_start(state: State, seat: int, verb: str) -> None:
    if state.phase != ATTACK:
        raise IllegalAction(f"You may {verb} only in the attacking phase.")
    if state.pending is not None:
        raise IllegalAction("Place the card you drew at the left or right end of your hand first.")


def attack(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    turn_start(state, seat, "attack")
    need_fields(action, "cards", "side")
    cards = action["cards"]
    hand = state.hands[seat]
    if not isinstance(cards, list):
        raise IllegalAction("'cards' must be a list of the cards you attack with.")
    problem = combat.attack_problem(hand, cards, state.royals_pair)
    if problem:
        raise IllegalAction(problem)
    side = end_field(action, "side")
    target = state.next_seat(seat)
    clash = combat.resolve(cards, state.hands[target], side, state.royals_pair)
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
        events += end_round(evolve_by_type(EVOLVE, state, events[0]), f"seat {emptied} ran out of cards")
    return events


def discard_ace(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    turn_start(state, seat, "discard an Ace")
    need_fields(action, "card")
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


def pass_turn(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    turn_start(state, seat, "pass")
    need_fields(action)
    events = [GameEvent("TurnPassed", {"seat": seat}, seat)]
    if state.passes + 1 >= state.players:
        events += end_round(evolve_by_type(EVOLVE, state, events[0]), "every player passed")
    return events


def done(state: State, seat: int, action: Action, rng: random.Random) -> list[GameEvent]:
    turn_start(state, seat, 'call "done"')
    need_fields(action)
    if not may_call_done(state.hands[seat]):
        raise IllegalAction('You may call "done" only with at most one card other than royals in hand.')
    called = GameEvent("DoneCalled", {"seat": seat}, seat)
    return [called, *end_round(evolve_by_type(EVOLVE, state, called), f'seat {seat} called "done"')]


def end_round(state: State, reason: str) -> list[GameEvent]:
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
