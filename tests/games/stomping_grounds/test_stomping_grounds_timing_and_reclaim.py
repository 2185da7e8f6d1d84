"""Scenarios: the response window, reclaim, end of turn, winning and hidden information
(rulebook 'Timing', 'How to Play Cards', 'Reclaim', 'End of Turn', 'Burn', 'Requires X')."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.base import GameEvent, IllegalAction
from games.play import fold
from games.stomping_grounds import GAME

from .helpers import all_of, cid, ev, first, types, when
from .helpers import revision_1_table as table

ORCHARD = cid(0, "charred-orchard")
HILL = cid(1, "bramble-hill")


def _attempt_table(**more):  # type: ignore[no-untyped-def]
    return table(
        decks=("ember", "moss"),
        realms=[(0, ORCHARD, (0, 0)), (1, HILL, (1, 0))],
        challenges=[(0, cid(0, "burn-down-the-farm"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        **more,
    )


def test_response_window_resolves_last_in_first_out() -> None:
    """'During each phase, the active player plays the first card or uses powers without it
    resolving. Then each player may play cards and use effects in the same way, starting on the
    player to active player's left. Once all players have passed, effects resolve in the opposite
    order they were played.'"""
    state = _attempt_table(
        hands=[[cid(0, "furious-roar")], [cid(1, "bramble-snare")]],
        stashes=[[cid(0, "stoke-the-embers")], [cid(1, "regrowth")]],
        tops=[[cid(0, "charred-orchard", 2)]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    assert GAME.to_act(state) == {1}
    assert {"type": "play", "card": cid(1, "bramble-snare")} in GAME.legal_actions(state, 1)
    _, state = when(state, 1, {"type": "play", "card": cid(1, "bramble-snare")})
    assert GAME.to_act(state) == {0}, "after a response the window goes round again"
    _, state = when(state, 0, {"type": "play", "card": cid(0, "furious-roar")})
    events, state = when(state, 1, {"type": "pass"})
    resolved = [(e.data["kind"], e.data["seat"]) for e in all_of(events, "ItemResolved")]
    assert resolved == [("action", 0), ("action", 1), ("challenge", 0)]
    gains = [(e.data["seat"], e.data["amount"]) for e in all_of(events, "LuckGained")]
    assert gains == [(0, 2), (0, -2)]
    assert first(events, "ChallengeWon").data["total"] == 5


def test_every_seat_may_pass_and_the_window_closes() -> None:
    """'Once all players have passed, effects resolve.' (three players: both others pass)"""
    state = table(
        decks=("ember", "moss", "tide"),
        realms=[(0, ORCHARD, (0, 0)), (1, HILL, (1, 0)), (2, cid(2, "fogbank-shoals"), (2, 0))],
        challenges=[(0, cid(0, "burn-down-the-farm"), (0, 0))],
        dragons=[(0, 0), (1, 0), (2, 0)],
    )
    _, state = when(state, 0, {"type": "attempt"})
    assert GAME.to_act(state) == {1}
    events, state = when(state, 1, {"type": "pass"})
    assert types(events) == ["Passed"] and GAME.to_act(state) == {2}
    events, state = when(state, 2, {"type": "pass"})
    assert "WindowClosed" in types(events) and "ItemResolved" in types(events)


def test_a_response_can_cancel_the_challenge() -> None:
    """'If multiple actions are played at the same time, resolve the last action first.'"""
    state = table(
        decks=("ember", "tide"),
        realms=[(0, ORCHARD, (0, 0)), (1, cid(1, "fogbank-shoals"), (1, 0))],
        challenges=[(0, cid(0, "burn-down-the-farm"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        hands=[[], [cid(1, "counterspell-of-tides")]],
        stashes=[[], [cid(1, "deep-study"), cid(1, "deep-study", 2)]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    _, state = when(state, 1, {"type": "play", "card": cid(1, "counterspell-of-tides")})
    events, state = when(state, 0, {"type": "pass"})
    assert "ChallengeCancelled" in types(events) and "LuckDrawn" not in types(events)
    assert cid(1, "counterspell-of-tides") in state.players[1].junk, "an action goes to the junk"


def test_out_of_turn_cards_need_an_opponents_turn() -> None:
    """'Sometimes, the card will say to play it on an opponent's turn or during a particular phase.'"""
    state = _attempt_table(
        hands=[[cid(0, "spiteful-sparks")]],
        stashes=[[cid(0, "stoke-the-embers")]],
        phase="reclaim",
    )
    assert {"type": "play", "card": cid(0, "spiteful-sparks")} not in GAME.legal_actions(state, 0)


def test_reclaim_junk_draw_and_play_paying_cost_from_the_stash() -> None:
    """'You may do any of following in any order as many times as you wish: a. Put any cards
    from your hand and burn pile into the junk pile. b. Draw any number of cards from the top
    your stash. c. Play any cards from your hand.' and 'If there is a cost, you must pay it
    before you play the card by putting that many cards from the top of your stash into your
    junk, one at a time.'"""
    bottom, middle, top = cid(0, "stoke-the-embers"), cid(0, "stoke-the-embers", 2), cid(0, "ember-tithe")
    breath = cid(0, "breath-of-cinders")
    state = _attempt_table(
        hands=[[breath, cid(0, "sack-the-granary")]],
        stashes=[[bottom, middle, top]],
        phase="reclaim",
        extra=[ev("CardsBurned", 0, seat=0, pile="deck", cards=[cid(0, "molten-crown")])],
    )
    legal = GAME.legal_actions(state, 0)
    for wanted in (
        {"type": "draw"},
        {"type": "junk", "card": breath},
        {"type": "junk_burned"},
        {"type": "play", "card": breath},
        {"type": "end_phase"},
    ):
        assert wanted in legal
    _, drew = when(state, 0, {"type": "draw"})
    assert drew.players[0].hand[-1] == top and drew.players[0].stash == (bottom, middle)
    _, junked = when(state, 0, {"type": "junk_burned"})
    assert junked.players[0].junk[-1] == cid(0, "molten-crown") and not junked.players[0].burned
    events, played = when(state, 0, {"type": "play", "card": breath})
    assert first(events, "CostPaid").data["cards"] == [top, middle]
    assert played.players[0].junk == (top, middle) and played.players[0].stash == (bottom,)
    assert GAME.to_act(played) == {1}
    _, played = when(played, 1, {"type": "pass"})
    assert [(o.kind, o.count) for o in played.owed] == [("burn", 2)]


def test_burn_takes_from_deck_junk_stash_or_hand() -> None:
    """'Burn – When you burn cards, take cards from your deck, junk, stash, or hand and put them
    into your discard pile.'"""
    hand = [cid(0, "sack-the-granary")]
    state = _attempt_table(
        hands=[hand],
        stashes=[[cid(0, "stoke-the-embers")]],
        phase="reclaim",
        extra=[ev("ChoicesOwed", None, choices=[[0, "burn", 2, None]])],
    )
    state = fold(
        GAME,
        [
            ev("CostPaid", 0, seat=0, cards=[cid(0, "stoke-the-embers")]),
            ev("CardsStashed", 0, seat=0, cards=[state.players[0].deck[0]]),
        ],
        state,
    )
    legal = GAME.legal_actions(state, 0)
    assert {"type": "burn", "pile": "deck", "count": 2} in legal
    assert {"type": "burn", "pile": "stash", "count": 1} in legal
    assert {"type": "burn", "pile": "junk", "count": 1} in legal
    assert {"type": "burn", "card": hand[0]} in legal
    assert {"type": "burn", "pile": "stash", "count": 2} not in legal, "only one card in the stash"
    _, state = when(state, 0, {"type": "burn", "card": hand[0]})
    _, state = when(state, 0, {"type": "burn", "pile": "junk", "count": 1})
    assert state.players[0].burned == (hand[0], cid(0, "stoke-the-embers")) and not state.owed


def test_playing_from_the_deck_shuffles_it() -> None:
    """'IF YOU PLAY SOMETHING FROM YOUR DECK AS PER CARD TEXT, SHUFFLE THE DECK AFTER PLAYING IT.'"""
    call = cid(1, "call-of-the-wild")
    state = table(
        decks=("ember", "moss"),
        realms=[(0, ORCHARD, (0, 0)), (1, HILL, (1, 0))],
        dragons=[(0, 0), (1, 0)],
        hands=[[], [call]],
        stashes=[[], [cid(1, "forage")]],
        phase="reclaim",
        active=1,
    )
    _, state = when(state, 1, {"type": "play", "card": call})
    _, state = when(state, 0, {"type": "pass"})
    choices = GAME.legal_actions(state, 1)
    assert {"type": "search", "card": "thornwood-lair", "at": [2, 0]} in choices
    events, state = when(state, 1, {"type": "search", "card": "thornwood-lair", "at": [2, 0]})
    assert types(events)[:2] == ["RealmPlayed", "DeckShuffled"]
    assert first(events, "RealmPlayed").data["source"] == "deck"
    assert GAME.redact(first(events, "DeckShuffled"), 1).data["order"] == len(state.players[1].deck)


def test_requires_checks_your_own_hoard_when_played() -> None:
    """'Requires X – Some cards need to have specific cards in your hoard to play. [...] you cannot
    play a card if an opponent has the required card listed.' and 'Hoard – These cards are played
    in front of you and stay in play.'"""
    torrent = cid(0, "dragonfire-torrent")
    stash = [[cid(0, "stoke-the-embers", n) for n in (1, 2, 3, 4)], [cid(1, "stoke-the-embers", n) for n in (1, 2)]]
    common: dict[str, Any] = dict(
        decks=("ember", "ember"),
        realms=[(0, ORCHARD, (0, 0)), (1, cid(1, "charred-orchard"), (1, 0))],
        dragons=[(0, 0), (1, 0)],
        stashes=stash,
        phase="reclaim",
    )
    theirs = table(hands=[[torrent]], hoards=[[], [cid(1, "red-dragonscale")]], **common)
    assert {"type": "play", "card": torrent} not in GAME.legal_actions(theirs, 0)
    with pytest.raises(IllegalAction):
        GAME.decide(theirs, 0, {"type": "play", "card": torrent}, random.Random(0))
    scale = cid(0, "red-dragonscale")
    mine = table(hands=[[torrent, scale]], **common)
    assert {"type": "play", "card": torrent} not in GAME.legal_actions(mine, 0)
    _, mine = when(mine, 0, {"type": "play", "card": scale})
    assert {"type": "play", "card": torrent} in GAME.legal_actions(mine, 0)
    _, later = when(mine, 0, {"type": "end_phase"})
    assert scale in later.players[0].hoard, "the hoard stays in play"


# --- end of turn ------------------------------------------------------------------


def test_end_of_turn_discards_to_seven_then_junk_goes_under_the_deck() -> None:
    """'End of Turn – Discard down to 7 cards to your junk pile. Then put the junk pile on bottom
    of your deck.'"""
    hand = [cid(0, "stoke-the-embers", n) for n in (1, 2, 3, 4)] + [cid(0, "ember-tithe", n) for n in (1, 2, 3, 4)]
    hand.append(cid(0, "sack-the-granary"))
    state = _attempt_table(hands=[hand], phase="reclaim")
    _, state = when(state, 0, {"type": "end_phase"})
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "discard", 2)]
    _, state = when(state, 0, {"type": "discard", "card": hand[0]})
    events, state = when(state, 0, {"type": "discard", "card": hand[1]})
    assert types(events)[:3] == ["CardJunked", "JunkReturned", "PhaseBegan"]
    assert state.players[0].deck[-2:] == (hand[0], hand[1]) and not state.players[0].junk
    assert len(state.players[0].hand) == 7 and state.active == 1


def test_end_of_turn_effects_after_the_junk_then_the_next_player() -> None:
    """'Starting with the current players turn and going to the left, all players must use their
    end of turn effects that exist on any card in play.'"""
    state = _attempt_table(hoards=[[cid(0, "molten-crown")]], phase="reclaim")
    events, state = when(state, 0, {"type": "end_phase"})
    assert types(events).index("JunkReturned") < types(events).index("ChoicesOwed")
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 1)]
    events, state = when(state, 0, {"type": "burn", "pile": "deck", "count": 1})
    assert state.active == 1 and first(events, "TurnBegan").data["seat"] == 1


def test_start_of_turn_effects_from_the_current_player_going_left() -> None:
    """'Start of Turn – Starting with the current player's turn and going to the left, all
    players uses their start of turn effects that exist on any card in play.'"""
    state = table(
        decks=("moss", "moss", "moss"),
        realms=[(0, cid(0, "bramble-hill"), (0, 0)), (1, HILL, (1, 0)), (2, cid(2, "bramble-hill"), (2, 0))],
        dragons=[(0, 0), (1, 0), (2, 0)],
        hoards=[[cid(0, "seedling-cache")], [cid(1, "seedling-cache")], [cid(2, "seedling-cache")]],
        phase="reclaim",
    )
    events, state = when(state, 0, {"type": "end_phase"})
    after_turn = types(events).index("TurnBegan")
    stashers = [e.data["seat"] for e in events[after_turn:] if e.type == "CardsStashed"]
    assert stashers == [1, 2, 0]


def test_no_cards_in_deck_stash_and_junk_at_the_end_of_your_turn_wins() -> None:
    """'If you have no cards left in your deck, stash, and junk piles at this point, you win
    the game.'"""
    state = _attempt_table(hands=[[cid(0, "sack-the-granary")]], phase="reclaim")
    state = fold(GAME, [ev("CardsBurned", 0, seat=0, pile="deck", cards=list(state.players[0].deck))], state)
    events, state = when(state, 0, {"type": "end_phase"})
    assert types(events)[-1] == "GameEnded"
    assert GAME.outcome(state)["winners"] == [0]  # type: ignore[index]
    assert not GAME.to_act(state)
    with pytest.raises(IllegalAction):
        GAME.decide(state, 1, {"type": "pass"}, random.Random(0))


def test_turn_limit_ends_the_game_with_the_fewest_cards_left() -> None:
    """Ours (RULINGS.md): the win condition can fail to arrive, so after the turn limit the
    dragon with the fewest cards left in deck, stash and junk wins."""
    state = _attempt_table(phase="reclaim", turn=2, turn_limit=1, active=1)
    state = fold(GAME, [ev("CardsBurned", 0, seat=0, pile="deck", cards=list(state.players[0].deck[:3]))], state)
    events, state = when(state, 1, {"type": "end_phase"})
    assert GAME.outcome(state)["winners"] == [0]  # type: ignore[index]


# --- hidden information -----------------------------------------------------------


def test_hands_and_decks_are_secret_the_rest_is_public() -> None:
    """Hands and decks are face down; the map, stash, junk, burn piles and hoards are face up
    (RULINGS.md)."""
    state = _attempt_table(
        hands=[[cid(0, "sack-the-granary")]],
        stashes=[[cid(0, "stoke-the-embers")]],
        hoards=[[cid(0, "red-dragonscale")]],
        phase="reclaim",
    )
    theirs = GAME.view(state, 1)["players"][0]
    assert theirs["hand"] == 1 and theirs["deck"] == len(state.players[0].deck)
    assert theirs["stash"] == [cid(0, "stoke-the-embers")] and theirs["hoard"] == [cid(0, "red-dragonscale")]
    assert GAME.view(state, 0)["players"][0]["hand"] == [cid(0, "sack-the-granary")]
    drawn = GameEvent("CardsDrawn", {"seat": 0, "cards": ["s0-ember-tithe-1"]}, 0)
    assert GAME.redact(drawn, 1).data == {"seat": 0, "cards": 1}
    assert GAME.redact(drawn, 0) == drawn
    assert cid(0, "sack-the-granary") in GAME.secrets(state, 1)
    assert cid(0, "sack-the-granary") not in GAME.secrets(state, 0)
    _, drew = when(state, 0, {"type": "draw"})
    assert cid(0, "stoke-the-embers") not in GAME.secrets(drew, 1), "a card drawn from the stash was seen"
