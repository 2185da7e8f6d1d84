"""Hidden information: hands and Fortress order are secret; battlefield, Graveyards,
Fortress sizes, Tombstones and revealed cards are public. Views, the redacted feed,
``secrets`` and ``determinize`` follow that."""

from __future__ import annotations

import json
import random
from collections import Counter

from games.fortress_siege import GAME
from games.fortress_siege.cards import deck_ids
from games.fortress_siege.state import State
from games.play import new_game, random_game

from .scenario import act, draws, scene, script, start


def public_places(state: State) -> Counter[str]:
    cards: Counter[str] = Counter()
    for player in state.players:
        cards.update(player.graveyard)
        cards[player.tombstone] += 1
        for character in player.battlefield:
            cards.update(character.cards())
    if state.attack:
        cards.update(card for shield in state.attack.shields for card in shield)
    return cards


def test_other_hands_are_counts_and_the_own_hand_is_listed() -> None:
    """ "Players do not look at the cards in their Fortress piles" and hands are private:
    a seat sees its own hand, the others' as counts only."""
    play = start(["7D", "AS", "QH"], ["8C"])
    script(play, *draws(3), {"type": "draw"})
    mine, theirs, spectator = GAME.view(play.state, 0), GAME.view(play.state, 1), GAME.view(play.state, None)
    assert mine["players"][0]["hand"] == ["7D.0", "AS.0", "QH.0"]
    assert "hand" not in theirs["players"][0] and theirs["players"][0]["hand_size"] == 3
    assert theirs["players"][1]["hand"] == ["8C.1"]
    assert all("hand" not in player for player in spectator["players"])
    assert mine["players"][1]["fortress"] == 53 and mine["players"][1]["tombstone"] == "10S.1"
    text = json.dumps(theirs)
    assert "7D.0" not in text and "AS.0" not in text and '"2C.0"' not in text


def test_the_feed_hides_draws_from_others_and_fortress_order_from_everyone() -> None:
    """Secrets (deck order, hands) only leave the server redacted (design.md)."""
    play = start(["7D"], [])
    drawn = act(play, {"type": "draw"})[0]
    assert GAME.redact(drawn, 0).data == {"seat": 0, "card": "7D.0"}
    assert GAME.redact(drawn, 1).data == {"seat": 0}
    assert GAME.redact(drawn, None).data == {"seat": 0}
    started = GAME.redact(play.events[0], 0).data
    assert "fortresses" not in started
    assert started["fortress_sizes"] == [54, 54] and started["tombstones"] == ["JK1.0", "10S.1"]


def test_secrets_are_fortress_cards_above_the_tombstone_and_other_hands() -> None:
    """ "Players do not look at the cards in their Fortress piles"; the Tombstones were
    shown to everyone ("showing everyone their Tombstone cards")."""
    play = start(["7D"], [])
    act(play, {"type": "draw"})
    for_zero, for_one = GAME.secrets(play.state, 0), GAME.secrets(play.state, 1)
    assert "7D.0" not in for_zero and "7D.0" in for_one and "7D.0" in GAME.secrets(play.state, None)
    assert "JK1.0" not in for_one and "10S.1" not in for_zero
    assert len(for_zero) == 52 + 53 and len(for_one) == 52 + 53 + 1


def test_no_card_hidden_from_a_seat_ever_reaches_it() -> None:
    """No-leak: replaying whole random games, every view and the whole redacted feed seen
    so far name no card that is still hidden from that seat (hands, Fortress order)."""
    for index in range(12):
        rng = random.Random(f"leak-{index}")
        players = 2 + index % 3
        options = {"winds_of_fate": index % 4 == 3}
        whole = scene(random_game(GAME, players, rng, options))
        state = None
        for position, event in enumerate(whole.events):
            state = GAME.evolve(state, event)
            if position % 25 and position != len(whole.events) - 1:
                continue
            for viewer in [None, *range(players)]:
                hidden = [json.dumps(card) for card in GAME.secrets(state, viewer)]
                feed = json.dumps([GAME.redact(e, viewer).data for e in whole.events[: position + 1]])
                view = json.dumps(GAME.view(state, viewer))
                assert not [card for card in hidden if card in feed or card in view], (index, position)


def test_determinize_re_deals_only_what_the_seat_cannot_see() -> None:
    """Determinize keeps the seat's hand, the Tombstones and everything public; in the
    standard game each deck's hidden cards stay with its owner."""
    play = scene(random_game(GAME, 3, random.Random(5), max_actions=90))
    state = play.state
    for seat in range(3):
        guess = GAME.determinize(state, seat, random.Random(seat))
        assert guess.players[seat].hand == state.players[seat].hand
        assert public_places(guess) == public_places(state)
        for index, (real, fake) in enumerate(zip(state.players, guess.players, strict=True)):
            assert len(fake.fortress) == len(real.fortress) and len(fake.hand) == len(real.hand)
            assert fake.tombstone == real.tombstone == fake.fortress[-1]
            hidden = Counter(real.fortress) + Counter(real.hand)
            assert Counter(fake.fortress) + Counter(fake.hand) == hidden
            assert set(hidden) <= set(deck_ids(index))
        assert guess != state


def test_determinize_mixes_all_hidden_cards_in_winds_of_fate() -> None:
    """Winds of Fate: "all decks are shuffled together as one and all cards are dealt":
    a seat cannot know whose Fortress holds a hidden card."""
    play = scene(new_game(GAME, 5, {"winds_of_fate": True}, random.Random(3)))
    guess = GAME.determinize(play.state, 0, random.Random(4))
    real = [set(p.fortress[:-1]) for p in play.state.players[1:]]
    fake = [set(p.fortress[:-1]) for p in guess.players[1:]]
    assert real != fake
    everything = [c for p in guess.players for c in p.fortress] + list(guess.set_aside)
    before = [c for p in play.state.players for c in p.fortress] + list(play.state.set_aside)
    assert sorted(everything) == sorted(before)
    assert [p.tombstone for p in guess.players] == [p.tombstone for p in play.state.players]
