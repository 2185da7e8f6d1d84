"""Scenarios: the phases of a turn (rulebook 'Phases in Detail', 'Glossary')."""

from __future__ import annotations

import pytest

from games.base import IllegalAction
from games.play import fold
from games.stomping_grounds import GAME

from .helpers import all_of, cid, ev, first, types, when
from .helpers import revision_1_table as table

ORCHARD = cid(0, "charred-orchard")
SHOALS = cid(1, "fogbank-shoals")


def _duel_table(tops: list[list[str]], hoards: list[list[str]] | None = None):  # type: ignore[no-untyped-def]
    return table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        dragons=[(0, 0), (0, 0)],
        hoards=hoards or [],
        tops=tops,
        phase="dragon",
    )


# --- challenge --------------------------------------------------------------------


def test_rulebook_example_burn_down_the_farm() -> None:
    """'Example – Your dragon attempts Burn Down the Farm 5 - Burn 2. You draw a luck card and
    it has luck of 6. You win the challenge and burn two cards.'"""
    luck_six = cid(0, "stoke-the-embers")
    state = table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "burn-down-the-farm"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        tops=[[luck_six]],
    )
    events, state = when(state, 0, {"type": "attempt"})
    assert types(events) == ["ChallengeAttempted"] and GAME.to_act(state) == {1}
    events, state = when(state, 1, {"type": "pass"})
    luck = first(events, "LuckDrawn")
    assert luck.data["card"] == luck_six and luck.data["luck"] == 6
    assert state.players[0].junk[-1] == luck_six, "the luck card goes to the junk"
    assert first(events, "ChallengeWon").data["total"] == 6
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 2)]
    events, state = when(state, 0, {"type": "burn", "pile": "deck", "count": 2})
    assert len(state.players[0].burned) == 2 and state.phase == "flight"


def test_rulebook_example_impress_the_idiots_lost() -> None:
    """'Example – Your dragon attempts Impress the Idiots 5 - Stash 2. You draw a luck card and
    it has luck of 3. You lose the challenge and nothing happens.'"""
    state = table(
        decks=("ivory", "tide"),
        realms=[(0, cid(0, "pilgrim-road"), (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "impress-the-idiots"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        tops=[[cid(0, "pilgrim-road", 2)]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    events, state = when(state, 1, {"type": "pass"})
    assert first(events, "ChallengeLost").data["total"] == 3
    assert not state.players[0].stash and not state.owed
    assert state.phase == "flight"


def test_equal_to_the_challenge_number_wins() -> None:
    """'If you are equal to or over the challenge number with your luck card, you win the
    challenge and do what the challenge [says].'"""
    state = table(
        decks=("ivory", "tide"),
        realms=[(0, cid(0, "pilgrim-road"), (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "impress-the-idiots"), (0, 0))],
        dragons=[(1, 0), (1, 0)],
        tops=[[], []],
        active=1,
        extra=[ev("DragonMoved", None, seat=1, at=[0, 0])],
    )
    # seat 1 attempts seat 0's challenge: 'any opponent may attempt any of your challenges'
    state = fold(
        GAME,
        [
            ev(
                "DeckShuffled",
                None,
                seat=1,
                order=[cid(1, "drowned-chapel"), *[c for c in state.players[1].deck if c != cid(1, "drowned-chapel")]],
            )
        ],
        state,
    )
    _, state = when(state, 1, {"type": "attempt"})
    events, state = when(state, 0, {"type": "pass"})
    assert first(events, "ChallengeWon").data["total"] == 5
    assert len(state.players[1].stash) == 2, "the one who completes it stashes 2"


# --- luck -------------------------------------------------------------------------


def test_no_luck_from_an_empty_deck() -> None:
    """'If you have no cards in your deck but cards in your junk or stash, you cannot draw luck.'"""
    state = table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "rampaging-fury"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
    )
    deck = state.players[0].deck
    state = fold(
        GAME,
        [
            ev("LuckDrawn", 0, seat=0, card=deck[0], luck=0),
            ev("CardsBurned", 0, seat=0, pile="deck", cards=list(deck[1:])),
        ],
        state,
    )
    assert not state.players[0].deck and state.players[0].junk
    _, state = when(state, 0, {"type": "attempt"})
    events, state = when(state, 1, {"type": "pass"})
    assert "LuckDrawn" not in types(events)
    assert first(events, "ChallengeLost").data["total"] == 0


def test_several_luck_draws_add_up() -> None:
    """'If you draw multiple luck cards in a challenge due to certain circumstances, add all the
    luck draws together unless specified otherwise.'"""
    state = table(
        decks=("tide", "ember"),
        realms=[(0, SHOALS.replace("s1", "s0"), (0, 0)), (1, ORCHARD.replace("s0", "s1"), (1, 0))],
        challenges=[(0, cid(0, "unravel-the-ward"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        hands=[[cid(0, "twist-of-fate")]],
        stashes=[[cid(0, "deep-study")]],
        tops=[[cid(0, "fogbank-shoals", 2), cid(0, "misty-scalespine-mountain")]],
    )
    _, state = when(state, 0, {"type": "play", "card": cid(0, "twist-of-fate")})
    _, state = when(state, 1, {"type": "pass"})
    assert state.players[0].extra_luck == 1 and state.phase == "challenge"
    _, state = when(state, 0, {"type": "attempt"})
    events, state = when(state, 1, {"type": "pass"})
    assert [e.data["luck"] for e in all_of(events, "LuckDrawn")] == [2, 3]
    assert first(events, "ChallengeWon").data["total"] == 5


# --- flight -----------------------------------------------------------------------


def _flight_table(**more):  # type: ignore[no-untyped-def]
    realms = [(0, cid(0, "fogbank-shoals", n + 1), (n, 0)) for n in range(3)]
    realms += [(0, cid(0, "misty-scalespine-mountain"), (3, 0)), (1, cid(1, "charred-orchard"), (0, 1))]
    return table(decks=("tide", "ember"), realms=realms, phase="flight", **more)


def test_rulebook_flight_example_three_spaces_onto_misty_scalespine_mountain() -> None:
    """'Example – Your dragon has moved three spaces and landed on Misty Scalespine Mountain, a
    lair that lets her stash 2 when landing there. You would put the top 5 cards (3 spaces + 2
    bonus) from the top of her deck into her stash pile.'"""
    state = _flight_table(dragons=[(0, 0), (0, 1)])
    top_five = state.players[0].deck[:5]
    for x in (1, 2):
        events, state = when(state, 0, {"type": "fly", "to": [x, 0]})
        assert "DragonLanded" not in types(events)
    events, state = when(state, 0, {"type": "fly", "to": [3, 0]})
    assert "DragonLanded" in types(events), "the black-bordered lair ends the flight"
    assert state.players[0].stash == top_five
    assert state.phase == "reclaim"


def test_flight_stops_on_dragons_and_never_revisits() -> None:
    """'Move your dragon any number of spaces, but you must stop on dragons or black-bordered
    spaces and cannot travel into the same space twice.'"""
    state = _flight_table(dragons=[(0, 0), (2, 0)])
    _, state = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert {"type": "fly", "to": [0, 0]} not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalAction):
        GAME.decide(state, 0, {"type": "fly", "to": [0, 0]}, __import__("random").Random(0))
    events, state = when(state, 0, {"type": "fly", "to": [2, 0]})
    assert "DragonLanded" in types(events), "another dragon's space ends the flight"
    assert state.phase == "dragon" and len(state.players[0].stash) == 2


def test_staying_put_stashes_nothing() -> None:
    """'For each space traveled, put one card from the top of your deck into your stash pile.'"""
    state = _flight_table(dragons=[(3, 0), (0, 1)])
    events, state = when(state, 0, {"type": "land"})
    assert not state.players[0].stash, "no space travelled and no landing bonus for staying"


# --- roam -------------------------------------------------------------------------


def _roam_table(dragon: tuple[int, int]):  # type: ignore[no-untyped-def]
    realms = [(0, cid(0, "charred-orchard", n + 1), (n, 0)) for n in range(3)]
    realms += [(0, cid(0, "sulfur-springs"), (3, 0)), (1, SHOALS, (0, 1))]
    return table(
        realms=realms,
        challenges=[(0, cid(0, "rampaging-fury"), (0, 0)), (0, cid(0, "burn-down-the-farm"), (1, 0))],
        dragons=[dragon, (0, 1)],
        phase="roam",
    )


def test_roam_moves_a_challenge_to_a_realm_without_another_challenge() -> None:
    """'If you control any Challenge cards in play with "Roam X", you may move the card that
    many spaces to a realm without another challenge card.'"""
    state = _roam_table((3, 0))
    fury = cid(0, "rampaging-fury")
    moves = [a for a in GAME.legal_actions(state, 0) if a["type"] == "roam"]
    assert {tuple(a["to"]) for a in moves} == {(2, 0), (0, 1)}, "within two spaces; (1,0) holds a challenge"
    events, state = when(state, 0, {"type": "roam", "card": fury, "to": [2, 0]})
    assert state.realms[state.where[(2, 0)]].challenge == fury and state.phase == "reclaim"


def test_no_roam_from_under_a_dragon() -> None:
    """'You cannot move a challenge if a dragon is on top of it.'"""
    state = _roam_table((0, 0))
    assert GAME.legal_actions(state, 0) == [{"type": "end_phase"}]


# --- dragon challenges ------------------------------------------------------------


def test_dragon_challenge_higher_luck_burns_the_difference_and_moves_the_loser() -> None:
    """'You choose a challenge type, then each player draws luck. The player with the highest
    luck burns the difference. The winning dragon then moves the losing dragon to an adjacent
    space if possible.'"""
    state = _duel_table([[cid(0, "rampaging-fury")], [cid(1, "fogbank-shoals", 2)]])
    assert GAME.legal_actions(state, 0) == [
        {"type": "duel", "opponent": 1, "colour": c} for c in ("red", "white", "blue")
    ]
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "red"})
    assert GAME.to_act(state) == {1}
    events, state = when(state, 1, {"type": "pass"})
    resolved = first(events, "DuelResolved").data
    assert resolved["totals"] == [8, 2] and resolved["winner"] == 0 and resolved["burn"] == 6
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 6), (0, "push", 1)]
    _, state = when(state, 0, {"type": "burn", "pile": "deck", "count": 6})
    assert GAME.legal_actions(state, 0) == [{"type": "push", "to": [1, 0]}]
    events, state = when(state, 0, {"type": "push", "to": [1, 0]})
    assert state.players[1].dragon == (1, 0) and "DragonLanded" not in types(events)
    assert state.phase == "reclaim"


def test_dragon_challenge_ties_go_to_the_active_player() -> None:
    """'Ties – Ties are won by the player whose turn it is.'"""
    state = _duel_table([[cid(0, "charred-orchard", 2)], [cid(1, "drowned-chapel")]])
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "white"})
    events, state = when(state, 1, {"type": "pass"})
    resolved = first(events, "DuelResolved").data
    assert resolved["totals"] == [5, 5] and resolved["winner"] == 0 and resolved["burn"] == 0
    assert [(o.seat, o.kind) for o in state.owed] == [(0, "push")]


def test_dragon_challenge_type_counts_colour_bonuses() -> None:
    """'You choose a challenge type' (a Red Dragonscale's luck +1 counts in a red one only)."""
    tops = [[cid(0, "charred-orchard", 2)], [cid(1, "drowned-chapel")]]
    state = _duel_table(tops, hoards=[[cid(0, "red-dragonscale")]])
    _, red = when(state, 0, {"type": "duel", "opponent": 1, "colour": "red"})
    events, _ = when(red, 1, {"type": "pass"})
    assert first(events, "DuelResolved").data["totals"] == [6, 5]
    _, blue = when(state, 0, {"type": "duel", "opponent": 1, "colour": "blue"})
    events, _ = when(blue, 1, {"type": "pass"})
    assert first(events, "DuelResolved").data["totals"] == [5, 5]


def test_the_defender_can_win_a_dragon_challenge() -> None:
    """'The player with the highest luck burns the difference.' (the one challenged, too)"""
    state = _duel_table([[cid(0, "sack-the-granary")], [cid(1, "twist-of-fate")]])
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "blue"})
    events, state = when(state, 1, {"type": "pass"})
    assert first(events, "DuelResolved").data["winner"] == 1
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(1, "burn", 7), (1, "push", 1)]
    assert GAME.to_act(state) == {1}


def test_winning_a_dragon_challenge_with_lower_luck_burns_nothing() -> None:
    """'The player with the highest luck burns the difference. (It is possible to win and have
    a lower luck. If so, you do not burn any cards.)' (ours: bonuses count to win, RULINGS.md)"""
    state = _duel_table(
        [[cid(0, "cinderfield-town")], [cid(1, "drowned-chapel")]],
        hoards=[[cid(0, "red-dragonscale")]],
    )
    state = fold(GAME, [ev("LuckGained", 0, seat=0, amount=1, draws=0)], state)
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "red"})
    events, state = when(state, 1, {"type": "pass"})
    resolved = first(events, "DuelResolved").data
    assert resolved["luck"] == [4, 5] and resolved["totals"] == [6, 5]
    assert resolved["winner"] == 0 and resolved["burn"] == 0
    assert [(o.seat, o.kind) for o in state.owed] == [(0, "push")], "nobody burns; the winner still moves the loser"


def test_challenge_cards_can_be_played_in_the_dragon_challenge_phase() -> None:
    """'Cards that affect normal challenges can also be played to affect dragon challenges.'"""
    roar = cid(0, "furious-roar")
    state = table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        dragons=[(0, 0), (0, 0)],
        hands=[[roar]],
        stashes=[[cid(0, "stoke-the-embers")]],
        tops=[[cid(0, "charred-orchard", 2)], [cid(1, "drowned-chapel")]],
        phase="dragon",
    )
    assert {"type": "play", "card": roar} in GAME.legal_actions(state, 0), "before the dragon challenge"
    _, state = when(state, 0, {"type": "play", "card": roar})
    _, state = when(state, 1, {"type": "pass"})
    assert state.phase == "dragon" and state.players[0].luck_bonus == 2
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "blue"})
    events, state = when(state, 1, {"type": "pass"})
    assert first(events, "DuelResolved").data["totals"] == [7, 5]


def test_a_challenge_says_you_for_its_controller_whoever_completes_it() -> None:
    """'If a challenge's text refers to "you", it only affects the controller, usually the
    player who played the card. However, any opponent may attempt any of your challenges.'
    (Drown the Ferry 6 - Burn 2; its controller junks 1 from the stash)"""
    ferry, kept = cid(1, "drown-the-ferry"), cid(1, "deep-study")
    state = table(
        decks=("ember", "tide"),
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(1, ferry, (0, 0))],
        dragons=[(0, 0), (1, 0)],
        stashes=[[], [kept]],
        tops=[[cid(0, "ashfall-crag")]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    events, state = when(state, 1, {"type": "pass"})
    assert first(events, "ChallengeWon").data["total"] == 7
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 2)], "the one who completes it burns"
    assert state.players[1].junk == (kept,) and not state.players[1].stash, "the controller junks 1"


def _phases(events):  # type: ignore[no-untyped-def]
    """The phases begun, in order ('start' for a new turn)."""
    kinds = ("PhaseBegan", "TurnBegan")
    return [e.data["phase"] if e.type == "PhaseBegan" else "start" for e in events if e.type in kinds]


def test_the_phases_come_in_order() -> None:
    """'Phases in Detail: 1. Start of Turn 2. Challenge 3. Flight 4. Roam 5. Dragon Challenges
    6. Reclaim 7. End of Turn' (each phase waits for the active player when it has a choice)"""
    state = table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0)), (0, cid(0, "charred-orchard", 2), (2, 0))],
        challenges=[(0, cid(0, "rampaging-fury"), (2, 0))],
        dragons=[(0, 0), (1, 0)],
        hoards=[[cid(0, "charred-idol")]],
        phase="reclaim",
        active=1,
    )
    seen = []
    for seat, action in (
        (1, {"type": "end_phase"}),  # seat 1 ends its turn
        (0, {"type": "end_phase"}),  # challenge: no attempt
        (0, {"type": "fly", "to": [1, 0]}),  # flight: onto the other dragon
        (0, {"type": "end_phase"}),  # roam: Rampaging Fury stays
        (0, {"type": "duel", "opponent": 1, "colour": "red"}),
        (1, {"type": "pass"}),
        (0, {"type": "end_phase"}),  # reclaim
    ):
        events, state = when(state, seat, action)
        seen += _phases(events)
        while state.owed:  # the duel's burn and push: the first choice listed
            events, state = when(state, state.owed[0].seat, GAME.legal_actions(state, state.owed[0].seat)[0])
            seen += _phases(events)
    assert seen[seen.index("start") :] == [
        "start",
        "challenge",
        "flight",
        "roam",
        "dragon",
        "reclaim",
        "end",
        "end_effects",
        "end_check",
        "start",
        "challenge",
    ]
