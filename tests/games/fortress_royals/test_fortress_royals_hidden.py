"""Hidden information: what each seat may see in views and in the event feed.

The no-leak test follows every random game with its own record of the cards each seat
has seen in the current round (its deal and draws, and whatever was shown to all:
first-player draws, attack cards, broken and revealed defenders, discarded Aces, hands
shown at a tally) and checks that nothing sent to a seat names any other card. A new
round reshuffles, so the record starts again empty; only an Even Round keeps the cards
the round before showed to all, since they are set aside in public.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from games.base import GameEvent, InvalidOptions
from games.fortress_royals import GAME
from games.fortress_royals.cards import DECK
from games.fortress_royals.state import State
from games.play import new_game, step
from tests.games.fortress_royals.tables import act, complete, fortified, full_deck, now

QUOTED = re.compile(r'"([^"]+)"')
CARDS = frozenset(DECK)


def named_cards(payload: object) -> set[str]:
    return CARDS.intersection(QUOTED.findall(json.dumps(payload)))


class Record:
    """What each seat (None: a spectator) has seen of the cards of the current round."""

    def __init__(self, players: int) -> None:
        self.seen: dict[int | None, set[str]] = {seat: set() for seat in [None, *range(players)]}
        self.public: set[str] = set()

    def witness(self, event: GameEvent) -> None:
        """Add what ``event`` showed, and to whom."""
        data = event.data
        shown: set[str] = set()
        if event.type == "RoundStarted":
            self.public = self.public if data["even"] else set()
            for seat in self.seen:
                self.seen[seat] = set(self.public)
        elif event.type == "FirstCardsDrawn":
            shown = {card for card in data["cards"] if card}
        elif event.type == "CardsDealt":
            self.seen[data["seat"]].update(data["cards"])
        elif event.type == "CardDrawn":
            self.seen[data["seat"]].add(data["card"])
        elif event.type == "AttackResolved":
            shown = {*data["cards"], *data["broken"], *data["revealed"]}
        elif event.type == "AceDiscarded":
            shown = {data["card"]}
        elif event.type == "RoundEnded":
            shown = {card for hand in data["hands"] for card in hand}
        self.public |= shown
        for cards in self.seen.values():
            cards.update(shown)

    def check(self, state: State, events: list[GameEvent]) -> None:
        # An event most seats see unredacted is the same payload for each: read once. Each
        # payload read is held here, so no other takes its id while the check runs.
        named: dict[int, tuple[object, set[str]]] = {}
        for viewer, cards in self.seen.items():
            for event in events:
                payload = GAME.redact(event, viewer).data
                if id(payload) not in named:
                    named[id(payload)] = (payload, named_cards(payload))
                leaked = named[id(payload)][1] - cards
                assert not leaked, f"{event.type} names {leaked} to seat {viewer}"
            leaked = named_cards(GAME.view(state, viewer)) - cards
            assert not leaked, f"the view of seat {viewer} names {leaked} in phase {state.phase}"


def test_no_view_or_redacted_event_names_a_card_its_seat_has_not_seen() -> None:
    for index in range(120):
        players = 2 + index % 4
        rng = random.Random(f"leak-{index}")
        play = new_game(GAME, players, None, rng)
        record = Record(players)
        for event in play.events:
            record.witness(event)
        record.check(now(play), play.events)
        while GAME.outcome(now(play)) is None:
            seat = rng.choice(sorted(GAME.to_act(now(play))))
            events = step(GAME, play, seat, rng.choice(GAME.legal_actions(now(play), seat)), rng)
            for event in events:
                record.witness(event)
            record.check(now(play), events)


def test_other_hands_show_as_counts_and_revealed_cards_at_their_positions() -> None:
    """Hidden information (issue): "a hand's order and cards are secret except cards revealed by
    a block; view and redact show other hands as counts plus the revealed cards at their
    positions". Given 4C hits seat 1's pair 5D 5H, 5D blocks it alone and is the one card shown."""
    play = fortified(complete(["4C"], ["5D", "5H"]), first=0)
    act(play, 0, {"type": "attack", "cards": ["4C"], "side": "left"})
    for viewer in (0, None):
        theirs = GAME.view(now(play), viewer)["hands"][1]
        assert theirs["count"] == 10
        assert theirs["cards"] == ["5D"] + [None] * 9
        assert theirs["revealed"] == [0]
    own = GAME.view(now(play), 1)["hands"][1]
    assert own["cards"] == list(now(play).hands[1]) and own["revealed"] == [0]
    assert GAME.secrets(now(play), 0) >= set(now(play).hands[1][1:])
    assert "5D" not in GAME.secrets(now(play), 0)


def test_the_deck_order_is_never_shown() -> None:
    """Hidden information (issue): "the deck order is never shown" - not even to the players
    who were dealt from it: the shuffle reaches every seat as a count, the view as a count."""
    play = new_game(GAME, 2, None, random.Random(3))
    events = act(play, now(play).chooser, {"type": "choose_first", "seat": 0})
    shuffle = next(event for event in events if event.type == "DeckShuffled")
    for viewer in (0, 1, None):
        assert GAME.redact(shuffle, viewer).data == {"count": 52}
        assert GAME.view(now(play), viewer)["deck"] == 52 - 4


def test_a_drawn_card_is_seen_by_its_drawer_only() -> None:
    """Fortifying Phase: "cards should be kept secret": a drawn card too, until placed and after."""
    play = fortified(complete(["AC"], [], reserve=["9D"]), first=0, rest=["9D"])
    events = act(play, 0, {"type": "discard_ace", "card": "AC"})
    assert GAME.view(now(play), 0)["drawn"] == {"seat": 0, "card": "9D"}
    assert GAME.view(now(play), 1)["drawn"] == {"seat": 0, "card": None}
    assert GAME.redact(events[1], None).data == {"seat": 0}
    assert "9D" in GAME.secrets(now(play), 1) and "9D" not in GAME.secrets(now(play), 0)


def test_moves_and_swaps_of_hidden_cards_are_not_shown() -> None:
    """Fortifying Phase: "cards should be kept secret"; "After the 10th card is drawn, the
    players may move one card to any position in his hand": others do not learn whether or
    where a player moved a card (RULINGS)."""
    play = new_game(GAME, 2, None, random.Random(5))
    act(play, now(play).chooser, {"type": "choose_first", "seat": 0})
    events = act(play, 0, {"type": "swap_dealt"})
    assert GAME.redact(events[0], 1).data == {"seat": 0}
    assert GAME.redact(events[0], 0).data == {"seat": 0, "swapped": True}
    act(play, 1, {"type": "keep_dealt"})
    while now(play).pending is not None:
        act(play, now(play).turn, {"type": "place", "end": "left"})
    theirs = GAME.view(now(play), 0)["hands"][1]
    moved = act(play, 1, {"type": "move", "from": 0, "to": 9})[0]
    kept = act(play, 0, {"type": "keep"})[0]
    assert GAME.redact(moved, 1).data == {"seat": 1, "move": [0, 9]}
    for viewer in (0, None):
        assert GAME.redact(moved, viewer).data == {"seat": 1}
    assert GAME.redact(kept, 1).data == {"seat": 0}
    assert GAME.view(now(play), 0)["hands"][1] == theirs


def test_determinize_keeps_what_the_seat_knows() -> None:
    """determinize re-deals only cards hidden from the seat: its own hand, revealed cards and
    every public pile stay, the rest is a shuffle of the same cards."""
    play = fortified(complete(["4C"], ["5D", "5H"]), first=0)
    act(play, 0, {"type": "attack", "cards": ["4C"], "side": "left"})
    guess = GAME.determinize(now(play), 0, random.Random(9))
    assert guess.hands[0] == now(play).hands[0]
    assert guess.hands[1][0] == "5D"
    assert sorted(guess.hands[1][1:] + guess.deck) == sorted(now(play).hands[1][1:] + now(play).deck)
    assert GAME.view(guess, 0) == GAME.view(now(play), 0)


def test_a_fixed_deck_is_not_a_fair_deal_and_says_so() -> None:
    """Issue: "A deck option (an explicit card order) for tutorials and scenario tests; a game
    created with it says so in its public summary, since it is not a fair deal." """
    deck = full_deck([])
    assert GAME.fair_deal({"deck": deck}) is False
    assert GAME.fair_deal(GAME.validate_options({}, 2)) is True
    play = new_game(GAME, 2, {"deck": deck}, random.Random(0))
    assert GAME.view(now(play), None)["fixed_deck"] is True
    started = play.events[0]
    assert GAME.redact(started, None).data["orders"] == 1


def test_a_wrong_deck_option_is_refused_with_every_problem() -> None:
    """Options: an explicit deck must hold each of the 52 cards once."""
    with pytest.raises(InvalidOptions) as refused:
        GAME.validate_options({"deck": ["QH", "QH", "XX"], "rounds": 2, "target": 9}, 6)
    problems = " | ".join(refused.value.problems)
    assert "2 to 5 players" in problems
    assert "unknown cards: XX" in problems and "missing cards" in problems
    assert "more than once" in problems
    assert "not both" in problems
