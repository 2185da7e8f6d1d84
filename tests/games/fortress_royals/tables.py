"""Given-tables for the scenario tests: fixed decks that deal the hands a test names.

A test names each seat's hand as it should stand after the Fortifying Phase (left to
right). ``layout`` turns those hands into the order the deck must have so that,
with every player keeping the dealt pair and placing every draw at the right end,
exactly those hands come out; ``fortified`` plays that far and returns the game.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

from games.base import GameEvent
from games.fortress_royals import GAME
from games.fortress_royals.cards import ACE, DEALT, DECK, FORTIFIED, RANK, ROYAL
from games.fortress_royals.state import ATTACK, CHOOSE_FIRST, State
from games.play import Playthrough, new_game, step


def layout(hands: Sequence[Sequence[str]], first: int, direction: int = 1) -> list[str]:
    """The top ``10 * players`` cards of a deck that deal and draw ``hands``."""
    players = len(hands)
    order = [(first + place * direction) % players for place in range(players)]
    cards = []
    for index in range(FORTIFIED):
        cards += [hands[seat][index] for seat in order]
    assert DEALT == 2
    return cards


def full_deck(*tops: Sequence[str]) -> list[str]:
    """``tops`` one after the other, then every other card in the standard order."""
    head = [card for top in tops for card in top]
    assert len(head) == len(set(head)), "a card is named twice"
    return head + [card for card in DECK if card not in head]


def fortified(
    hands: Sequence[Sequence[str]],
    first: int = 0,
    rest: Sequence[str] = (),
    draw: Sequence[str] | None = None,
    **options: Any,
) -> Playthrough:
    """A game whose first round reached the Attacking Phase with ``hands``.

    ``draw`` fixes the first-player draw (a separate 52-card order); by default the
    same deck serves it, and whoever drew highest names ``first``."""
    deck = full_deck(layout(hands, first), rest)
    chosen = [list(draw), deck] if draw is not None else deck
    play = new_game(GAME, len(hands), {**options, "deck": chosen}, random.Random(0))
    return play_round_start(play, first)


def play_round_start(play: Playthrough, first: int) -> Playthrough:
    """From a chooser's turn: name ``first``, keep the dealt pairs, place every draw
    right, keep every hand."""
    state = now(play)
    assert state.phase == CHOOSE_FIRST and state.chooser is not None
    act(play, state.chooser, {"type": "choose_first", "seat": first})
    for seat in range(state.players):
        act(play, seat, {"type": "keep_dealt"})
    while now(play).phase != ATTACK:
        if now(play).waiting:
            act(play, min(now(play).waiting), {"type": "keep"})
        else:
            act(play, now(play).turn, {"type": "place", "end": "right"})
    return play


def now(play: Playthrough) -> State:
    """The game's current state (``Playthrough`` types it loosely)."""
    assert play.state is not None
    return cast(State, play.state)


def act(play: Playthrough, seat: int | None, action: dict[str, Any]) -> list[GameEvent]:
    assert seat is not None, "nobody is to act"
    return step(GAME, play, seat, action, random.Random(1))


def decide(play: Playthrough, seat: int, action: dict[str, Any]) -> list[GameEvent]:
    return GAME.decide(now(play), seat, action, random.Random(1))


def winners(play: Playthrough) -> list[int]:
    result = GAME.outcome(now(play))
    assert result is not None, "the game is not over"
    return list(result["winners"])


def pass_round(play: Playthrough) -> list[GameEvent]:
    """Every seat passes in turn until the round ends."""
    events: list[GameEvent] = []
    while now(play).phase == ATTACK:
        events += act(play, now(play).turn, {"type": "pass"})
    return events


def types(events: Sequence[GameEvent]) -> list[str]:
    return [event.type for event in events]


def only(events: Sequence[GameEvent], kind: str) -> GameEvent:
    found = [event for event in events if event.type == kind]
    assert len(found) == 1, f"expected one {kind} in {types(events)}"
    return found[0]


def complete(*heads: Sequence[str], reserve: Sequence[str] = ()) -> list[list[str]]:
    """Each head filled up to 10 cards with number cards (no royal, no Ace) that are
    named nowhere else and never of the same rank as the card before them."""
    used = {card for head in heads for card in head} | set(reserve)
    pool = [card for card in DECK if card not in used and not ROYAL[card] and not ACE[card]]
    hands = []
    for head in heads:
        hand = list(head)
        while len(hand) < FORTIFIED:
            card = next(c for c in pool if not hand or RANK[c] != RANK[hand[-1]])
            pool.remove(card)
            hand.append(card)
        hands.append(hand)
    return hands
