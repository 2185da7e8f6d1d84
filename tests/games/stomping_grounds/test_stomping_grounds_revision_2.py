"""Scenarios of rules revision 2: each reading a player
would dispute, as the rulebook's words say it, each card change, and the rulebook's worked
examples played again under revision 2. The revision 1 readings stay in the other scenario
files (``revision_1_table``), since games stored before still play by them."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.base import IllegalAction
from games.play import fold, new_game
from games.stomping_grounds import GAME
from games.stomping_grounds.cards import CARDS_BY_RULES, DECKS, Card, Effect, card

from .helpers import all_of, cid, ev, first, revision_1_table, table, types, when

ORCHARD = cid(0, "charred-orchard")
SHOALS = cid(1, "fogbank-shoals")


def _two_realms(**more):  # type: ignore[no-untyped-def]
    return table(realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))], **more)


def _pass_round(state, *seats):  # type: ignore[no-untyped-def]
    events = []
    for seat in seats:
        assert GAME.to_act(state) == {seat}
        more, state = when(state, seat, {"type": "pass"})
        events += more
    return events, state


# --- timing ---------------------------------------------------------------------------


def test_a_turn_that_only_flies_still_lets_the_others_play() -> None:
    """'Then each player may play cards and use effects in the same way, starting on the player
    to active player's left.' (in every phase: here after a flight, Whirlpool answers it)"""
    whirlpool = cid(1, "whirlpool")
    state = table(
        decks=("ember", "tide"),
        realms=[
            (0, ORCHARD, (0, 0)),
            (0, cid(0, "charred-orchard", 2), (1, 0)),
            (0, cid(0, "charred-orchard", 3), (2, 0)),
        ],
        dragons=[(0, 0), None],
        hands=[[], [whirlpool]],
        stashes=[[], [cid(1, "deep-study")]],
        phase="flight",
    )
    _, state = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert state.phase == "flight" and len(state.players[0].stash) == 1
    events, state = when(state, 0, {"type": "land"})
    assert "PhaseClosing" in types(events) and GAME.to_act(state) == {1}
    assert {"type": "play", "card": whirlpool} in GAME.legal_actions(state, 1)
    _, state = when(state, 1, {"type": "play", "card": whirlpool})
    assert GAME.to_act(state) == {1}, "after a play the round starts again on the active player's left"
    events, state = _pass_round(state, 1, 0)
    assert first(events, "StashJunked").data["seat"] == 0 and not state.players[0].stash
    assert state.phase == "reclaim", "then the flight phase ends (no roam, no dragon on the space)"


def test_revision_1_opens_no_window_after_a_flight() -> None:
    """Revision 1 kept our first reading: windows only after plays that go on the stack."""
    state = revision_1_table(
        decks=("ember", "tide"),
        realms=[
            (0, ORCHARD, (0, 0)),
            (0, cid(0, "charred-orchard", 2), (1, 0)),
            (0, cid(0, "charred-orchard", 3), (2, 0)),
        ],
        dragons=[(0, 0), None],
        hands=[[], [cid(1, "whirlpool")]],
        stashes=[[], [cid(1, "deep-study")]],
        phase="flight",
    )
    _, state = when(state, 0, {"type": "fly", "to": [1, 0]})
    events, state = when(state, 0, {"type": "land"})
    assert "PhaseClosing" not in types(events) and state.phase == "reclaim" and GAME.to_act(state) == {0}


@pytest.mark.parametrize(
    ("deck", "slug"), [("ember", "spiteful-sparks"), ("moss", "bramble-snare"), ("ivory", "change-of-heart")]
)
def test_opponents_cards_answer_the_end_of_a_challenge_phase(deck: str, slug: str) -> None:
    """'Then each player may play cards and use effects in the same way, starting on the player
    to active player's left.' (the active player ends its challenge phase without attempting)"""
    held = cid(1, slug)
    state = table(
        decks=("tide", deck),
        realms=[(0, cid(0, "fogbank-shoals"), (0, 0)), (1, cid(1, f"{_plain(deck)}"), (1, 0))],
        dragons=[(0, 0), (1, 0)],
        hands=[[], [held]],
        stashes=[[], [cid(1, _filler(deck)), cid(1, _filler(deck), 2)]],
    )
    state = fold(GAME, [ev("CardsBurned", 0, seat=0, pile="deck", cards=[state.players[0].deck[0]])], state)
    _, state = when(state, 0, {"type": "end_phase"})
    assert GAME.to_act(state) == {1} and state.phase == "challenge"
    _, state = when(state, 1, {"type": "play", "card": held})
    _, state = _pass_round(state, 1, 0)
    assert state.phase == "flight"
    if slug == "change-of-heart":
        assert not state.players[0].burned and len(state.players[0].junk) == 1
    else:
        assert state.players[0].luck_bonus == -2


def _plain(deck: str) -> str:
    return {"ember": "charred-orchard", "moss": "bramble-hill", "ivory": "pilgrim-road", "tide": "fogbank-shoals"}[deck]


def _filler(deck: str) -> str:
    return {"ember": "stoke-the-embers", "moss": "regrowth", "ivory": "gifts-of-the-gentry", "tide": "deep-study"}[deck]


def test_after_a_response_priority_starts_again_on_the_active_players_left() -> None:
    """'Then each player may play cards and use effects in the same way, starting on the player
    to active player's left.' (three players: seat 2 answers, seat 1 is next, not seat 0)"""
    sparks = cid(2, "spiteful-sparks")
    state = table(
        decks=("moss", "tide", "ember"),
        realms=[(0, cid(0, "bramble-hill"), (0, 0)), (1, SHOALS, (1, 0)), (2, cid(2, "charred-orchard"), (2, 0))],
        challenges=[(0, cid(0, "uproot-the-old-oak"), (0, 0))],
        dragons=[(0, 0), (1, 0), (2, 0)],
        hands=[[], [], [sparks]],
        stashes=[[], [], [cid(2, "stoke-the-embers")]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    assert GAME.to_act(state) == {1}
    _, state = when(state, 1, {"type": "pass"})
    _, state = when(state, 2, {"type": "play", "card": sparks})
    assert GAME.to_act(state) == {1}, "revision 1 gave it to seat 0, the responder's left"
    events, state = _pass_round(state, 1, 2)
    assert "ItemResolved" not in types(events), "every player must pass, the active one too"
    events, state = _pass_round(state, 0)
    assert [e.data["kind"] for e in all_of(events, "ItemResolved")] == ["action", "challenge"]


def test_challenge_cards_may_be_played_in_reclaim() -> None:
    """'During the Reclaim phase or if the card specifically says to play during a phase, you
    may play any card in your hand.'"""
    roar = cid(0, "furious-roar")
    hand = {"hands": [[roar]], "stashes": [[cid(0, "stoke-the-embers")]], "dragons": [(0, 0), (1, 0)]}
    state = _two_realms(phase="reclaim", **hand)
    assert {"type": "play", "card": roar} in GAME.legal_actions(state, 0)
    old = revision_1_table(realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))], phase="reclaim", **hand)
    assert {"type": "play", "card": roar} not in GAME.legal_actions(old, 0)


# --- turn limit -----------------------------------------------------------------------


def test_no_turn_limit_unless_asked_for() -> None:
    """'If you have no cards left in your deck, stash, and junk piles at this point, you win the
    game.' (the only end the rulebook has; our turn limit is an option, off by default)"""
    options = GAME.validate_options(None, 2)
    assert options["turn_limit"] is None and options["rules"] == 2
    play = new_game(GAME, 2, None, random.Random(3))
    assert play.state.turn_limit is None
    state = _two_realms(dragons=[(0, 0), (1, 0)], phase="reclaim", turn=2 * 500, active=1)
    events, state = when(state, 1, {"type": "end_phase"})
    events, state = _pass_round(state, 0)
    assert "GameEnded" not in types(events) and state.active == 0
    limited = _two_realms(dragons=[(0, 0), (1, 0)], phase="reclaim", turn=2 * 40, active=1, turn_limit=40)
    _, limited = when(limited, 1, {"type": "end_phase"})
    events, limited = _pass_round(limited, 0)
    assert first(events, "GameEnded").data["reason"].startswith("turn limit")
    assert new_game(GAME, 2, {"rules": 1}, random.Random(3)).state.turn_limit == 40


# --- dragon challenges ----------------------------------------------------------------


def _duel(tops, hoards=None, rules=2):  # type: ignore[no-untyped-def]
    return table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        dragons=[(0, 0), (0, 0)],
        hoards=hoards or [],
        tops=tops,
        phase="dragon",
        rules=rules,
    )


def test_the_loser_with_the_highest_luck_burns_the_difference() -> None:
    """'The player with the highest luck burns the difference.' (the active dragon wins on its
    Red Dragonscale and a Furious Roar, the defender drew more luck: the defender burns)"""
    state = _duel([[cid(0, "cinderfield-town")], [cid(1, "moonwell-grotto")]], hoards=[[cid(0, "red-dragonscale")]])
    state = fold(GAME, [ev("LuckGained", 0, seat=0, amount=2, draws=0)], state)
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "red"})
    events, state = _pass_round(state, 1, 0)
    resolved = first(events, "DuelResolved").data
    assert resolved["luck"] == [4, 6] and resolved["totals"] == [7, 6] and resolved["winner"] == 0
    assert resolved["burner"] == 1 and resolved["burn"] == 2
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(1, "burn", 2), (0, "push", 1)]


def test_the_winner_with_the_highest_luck_burns_the_difference() -> None:
    """'The player with the highest luck burns the difference.'"""
    state = _duel([[cid(0, "rampaging-fury")], [cid(1, "drowned-chapel")]])
    _, state = when(state, 0, {"type": "duel", "opponent": 1, "colour": "red"})
    events, state = _pass_round(state, 1, 0)
    resolved = first(events, "DuelResolved").data
    assert resolved["luck"] == [8, 2] and resolved["burner"] == 0 and resolved["burn"] == 6
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 6), (0, "push", 1)]


# --- razed realms and challenges ------------------------------------------------------

CRAG = cid(0, "ashfall-crag")
ROW = [(0, ORCHARD, (0, 0)), (0, CRAG, (1, 0)), (0, cid(0, "charred-orchard", 2), (2, 0))]
RAZE_CRAG = [ev("RealmRazed", None, at=[1, 0])]


@pytest.mark.parametrize(("slug", "stops"), [("rampaging-fury", False), ("burn-down-the-farm", True)])
def test_a_razed_challenge_keeps_its_own_border(slug: str, stops: bool) -> None:
    """'Challenges that count as razed still count as black bordered for movement.' (a black
    one stays black; a white one was never black and flies as white)"""
    state = table(
        realms=ROW, challenges=[(0, cid(0, slug), (1, 0))], dragons=[(0, 0), (2, 0)], phase="flight", extra=RAZE_CRAG
    )
    assert GAME.view(state, None)["realms"][1]["border"] == ("black" if stops else "white")
    events, _ = when(state, 0, {"type": "fly", "to": [1, 0]})
    assert ("DragonLanded" in types(events)) is stops


def test_a_challenge_plays_on_a_razed_realm_and_works() -> None:
    """'Challenge - Play stacked on any realm.' (face down or not; played after the razing, it is
    face up and can be attempted)"""
    farm = cid(0, "burn-down-the-farm")
    state = table(realms=ROW, dragons=[(1, 0), (2, 0)], hands=[[farm]], phase="reclaim", extra=RAZE_CRAG)
    assert {"type": "play", "card": farm, "at": [1, 0]} in GAME.legal_actions(state, 0)
    _, state = when(state, 0, {"type": "play", "card": farm, "at": [1, 0]})
    old = revision_1_table(realms=ROW, dragons=[(1, 0), (2, 0)], hands=[[farm]], phase="reclaim", extra=RAZE_CRAG)
    assert {"type": "play", "card": farm, "at": [1, 0]} not in GAME.legal_actions(old, 0)
    state = fold(GAME, [ev("TurnBegan", 0, seat=0, turn=3), ev("PhaseBegan", None, phase="challenge")], state)
    assert {"type": "attempt"} in GAME.legal_actions(state, 0)


def test_razing_a_realm_razes_the_challenge_on_it() -> None:
    """'Challenges that count as razed still count as black bordered for movement.' (razed with
    its realm, a challenge cannot be attempted, and a razed realm may be razed again to raze a
    challenge played on it since)"""
    farm = cid(0, "burn-down-the-farm")
    state = table(realms=ROW, challenges=[(0, farm, (1, 0))], dragons=[(1, 0), (2, 0)], extra=RAZE_CRAG)
    assert {"type": "attempt"} not in GAME.legal_actions(state, 0)
    fresh = table(realms=ROW, dragons=[(1, 0), (2, 0)], phase="reclaim", hands=[[farm]], extra=RAZE_CRAG)
    _, fresh = when(fresh, 0, {"type": "play", "card": farm, "at": [1, 0]})
    fresh = fold(GAME, [ev("ChoicesOwed", 0, choices=[[0, "raze", 1, None]])], fresh)
    assert {"type": "raze", "at": [1, 0]} in GAME.legal_actions(fresh, 0)
    _, fresh = when(fresh, 0, {"type": "raze", "at": [1, 0]})
    assert fresh.realms[1].challenge_razed


# --- card changes ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "slug"), [("ember", "sulfur-springs"), ("moss", "fernbrake-glade"), ("tide", "drowned-chapel")]
)
def test_the_landing_realms_stash_one(deck: str, slug: str) -> None:
    """'Landing' text works when the dragon lands after flying (ours: revision 2 gives these
    realms Stash 1; their luck +1 came after the challenge phase, too late to help)."""
    realm = cid(0, slug)
    state = table(
        decks=(deck, "ivory"),
        realms=[(0, cid(0, _plain(deck)), (0, 0)), (0, realm, (1, 0)), (0, cid(0, _plain(deck), 2), (2, 0))],
        dragons=[(0, 0), None],
        phase="flight",
    )
    _, state = when(state, 0, {"type": "fly", "to": [1, 0]})
    events, state = when(state, 0, {"type": "land"})
    assert len(all_of(events, "CardsStashed")) == 1 and len(state.players[0].stash) == 2
    assert card(realm, 1).landing[0].op == "luck", "revision 1 keeps the old card"


def test_hoardbreaker_charge_breaks_a_hoard_and_what_required_it_stays() -> None:
    """'Once you've played them, they stay in play even if the required card leaves play.'"""
    charge, sceptre, choir = cid(0, "hoardbreaker-charge"), cid(1, "ivory-sceptre"), cid(1, "choir-of-admirers")
    state = table(
        decks=("ember", "ivory"),
        realms=[(0, ORCHARD, (0, 0)), (1, cid(1, "pilgrim-road"), (1, 0))],
        hoards=[[], [sceptre, choir]],
        dragons=[(0, 0), (1, 0)],
        hands=[[charge]],
        stashes=[[cid(0, "stoke-the-embers"), cid(0, "stoke-the-embers", 2)]],
        phase="reclaim",
    )
    _, state = when(state, 0, {"type": "play", "card": charge})
    _, state = _pass_round(state, 1, 0)
    assert [(o.seat, o.kind) for o in state.owed] == [(0, "break"), (0, "burn")]
    assert GAME.legal_actions(state, 0) == [{"type": "break", "card": sceptre}, {"type": "break", "card": choir}]
    events, state = when(state, 0, {"type": "break", "card": sceptre})
    assert first(events, "HoardBroken").data == {"seat": 1, "card": sceptre, "by": 0, "settles": True}
    assert state.players[1].hoard == (choir,) and state.players[1].junk[-1] == sceptre


def test_hoardbreaker_charge_breaks_only_a_hoard_that_costs_2_or_less() -> None:
    """Ours (card data): "Put an opponent's hoard that costs 2 or less into its owner's junk.
    Burn 1." Tribute Chest (cost 3) stays; with only it in play, the break is skipped."""
    charge, sceptre, chest = cid(0, "hoardbreaker-charge"), cid(1, "ivory-sceptre"), cid(1, "tribute-chest")
    stash = [cid(0, "stoke-the-embers"), cid(0, "stoke-the-embers", 2)]
    setting = {
        "decks": ("ember", "ivory"),
        "realms": [(0, ORCHARD, (0, 0)), (1, cid(1, "pilgrim-road"), (1, 0))],
        "dragons": [(0, 0), (1, 0)],
        "hands": [[charge]],
        "stashes": [stash],
        "phase": "reclaim",
    }
    both = table(hoards=[[], [chest, sceptre]], **setting)
    _, both = when(both, 0, {"type": "play", "card": charge})
    _, both = _pass_round(both, 1, 0)
    assert GAME.legal_actions(both, 0) == [{"type": "break", "card": sceptre}]
    only_chest = table(hoards=[[], [chest]], **setting)
    _, only_chest = when(only_chest, 0, {"type": "play", "card": charge})
    events, only_chest = _pass_round(only_chest, 1, 0)
    assert "ChoiceSkipped" in types(events) and "HoardBroken" not in types(events)
    assert [(o.seat, o.kind) for o in only_chest.owed] == [(0, "burn")]
    assert only_chest.players[1].hoard == (chest,)
    assert card(charge, 1).effect[0].op == "move_dragon", "revision 1 keeps the old card"


def test_choir_of_admirers_requires_ivory_sceptre() -> None:
    """'Some cards need to have specific cards in your hoard to play.'"""
    choir, sceptre = cid(0, "choir-of-admirers"), cid(0, "ivory-sceptre")
    stash = [cid(0, "gifts-of-the-gentry", n) for n in (1, 2, 3)]
    bare = table(
        decks=("ivory", "ember"),
        realms=[(0, cid(0, "pilgrim-road"), (0, 0))],
        dragons=[(0, 0), None],
        hands=[[choir]],
        stashes=[stash],
        phase="reclaim",
    )
    assert {"type": "play", "card": choir} not in GAME.legal_actions(bare, 0)
    with pytest.raises(IllegalAction):
        GAME.decide(bare, 0, {"type": "play", "card": choir}, random.Random(0))
    held = table(
        decks=("ivory", "ember"),
        realms=[(0, cid(0, "pilgrim-road"), (0, 0))],
        hoards=[[sceptre]],
        dragons=[(0, 0), None],
        hands=[[choir]],
        stashes=[stash],
        phase="reclaim",
    )
    assert {"type": "play", "card": choir} in GAME.legal_actions(held, 0)


def test_card_changes_are_an_overlay_for_revision_2_only() -> None:
    """Revision 1 keeps the deck files; revision 2's changes keep each deck's spread of luck."""
    old, new = CARDS_BY_RULES[1], CARDS_BY_RULES[2]
    changed = [slug for slug, c in new.items() if c != old[slug]]
    assert {"sulfur-springs", "hoardbreaker-charge", "choir-of-admirers", "pilgrim-road"} <= set(changed)
    assert all((new[s].text, new[s].luck, new[s].cost) != (old[s].text, old[s].luck, old[s].cost) for s in changed)
    for order in DECKS.values():
        assert sorted(new[s].luck for s in order) == sorted(old[s].luck for s in order)


def _effects_cover(better: tuple[Effect, ...], worse: tuple[Effect, ...]) -> bool:
    def total(effects: tuple[Effect, ...]) -> Counter[tuple[str, str, str | None]]:
        out: Counter[tuple[str, str, str | None]] = Counter()
        for e in effects:
            out[(e.op, e.target, e.card_type)] += e.n
        return out

    have, need = total(better), total(worse)
    return all(key in have and have[key] >= n for key, n in need.items())


def _at_least_as_good(a: Card, b: Card) -> bool:
    """Everything printed on ``a`` is as good as on ``b`` for its owner: the same type,
    border, colour, timing, trigger and bonus colour; no higher cost, number or need; no
    lower luck, roam or bonus; every effect of ``b`` at least as strong on ``a``."""
    same = ("type", "border", "colour", "timing", "trigger_when", "bonus_colour")
    if any(getattr(a, f) != getattr(b, f) for f in same):
        return False
    if (a.requires is not None and b.requires is None) or (a.play_on_kind and not b.play_on_kind):
        return False
    if a.cost > b.cost or a.luck < b.luck or a.roam < b.roam or a.bonus_luck < b.bonus_luck:
        return False
    if a.type == "challenge" and (a.number or 0) > (b.number or 0):
        return False
    return all(_effects_cover(x, y) for x, y in ((a.effect, b.effect), (a.landing, b.landing), (a.trigger, b.trigger)))


def test_no_card_is_strictly_dominated_by_another_of_its_deck() -> None:
    """Ours: no card of a deck is at least as good as another in every printed
    respect; revision 1 had Chalk Downs over Pilgrim Road."""
    found = []
    for order in DECKS.values():
        slugs = sorted(set(order))
        for a in slugs:
            for b in slugs:
                if a != b and _at_least_as_good(CARDS_BY_RULES[2][a], CARDS_BY_RULES[2][b]):
                    found.append((a, b))
    assert found == []
    assert _at_least_as_good(CARDS_BY_RULES[1]["chalk-downs"], CARDS_BY_RULES[1]["pilgrim-road"]), "the check can fail"


# --- the rulebook's worked examples, under revision 2 ---------------------------------


def test_example_burn_down_the_farm() -> None:
    """'You win the challenge and burn two cards.' (Burn Down the Farm 5 - Burn 2, luck 6)"""
    luck_six = cid(0, "stoke-the-embers")
    state = table(
        realms=[(0, ORCHARD, (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "burn-down-the-farm"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        tops=[[luck_six]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    events, state = _pass_round(state, 1, 0)
    assert first(events, "LuckDrawn").data["luck"] == 6 and first(events, "ChallengeWon").data["total"] == 6
    assert [(o.seat, o.kind, o.count) for o in state.owed] == [(0, "burn", 2)]
    _, state = when(state, 0, {"type": "burn", "pile": "deck", "count": 2})
    assert len(state.players[0].burned) == 2 and state.phase == "flight"


def test_example_impress_the_idiots() -> None:
    """'You lose the challenge and nothing happens.' (Impress the Idiots 5 - Stash 2, luck 3)"""
    state = table(
        decks=("ivory", "tide"),
        realms=[(0, cid(0, "pilgrim-road"), (0, 0)), (1, SHOALS, (1, 0))],
        challenges=[(0, cid(0, "impress-the-idiots"), (0, 0))],
        dragons=[(0, 0), (1, 0)],
        tops=[[cid(0, "chalk-downs")]],
    )
    _, state = when(state, 0, {"type": "attempt"})
    events, state = _pass_round(state, 1, 0)
    assert first(events, "ChallengeLost").data["total"] == 3 and not state.players[0].stash and not state.owed


def test_example_three_spaces_onto_misty_scalespine_mountain() -> None:
    """'You would put the top 5 cards (3 spaces + 2 bonus) from the top of her deck into her
    stash pile.'"""
    realms = [(0, cid(0, "fogbank-shoals", n + 1), (n, 0)) for n in range(3)]
    realms += [(0, cid(0, "misty-scalespine-mountain"), (3, 0)), (1, cid(1, "charred-orchard"), (0, 1))]
    state = table(decks=("tide", "ember"), realms=realms, dragons=[(0, 0), (0, 1)], phase="flight")
    top_five = state.players[0].deck[:5]
    for x in (1, 2, 3):
        events, state = when(state, 0, {"type": "fly", "to": [x, 0]})
    assert "DragonLanded" in types(events) and state.players[0].stash == top_five
    _, state = _pass_round(state, 1)
    assert state.phase == "reclaim"


def test_example_red_dragonscale_costs_one_stash_card() -> None:
    """'For example, the Red Dragonscale card costs 1, so you will put one card from your stash
    into your junk.'"""
    scale, top = cid(0, "red-dragonscale"), cid(0, "stoke-the-embers")
    state = _two_realms(dragons=[(0, 0), (1, 0)], hands=[[scale]], stashes=[[top]], phase="reclaim")
    events, state = when(state, 0, {"type": "play", "card": scale})
    assert first(events, "CostPaid").data["cards"] == [top]
    assert state.players[0].junk == (top,) and state.players[0].hoard == (scale,)


def test_example_saint_george_only_on_an_unoccupied_town() -> None:
    """'For example, Saint George, Dragonslayer can only be played to an unoccupied Town.'"""
    george = cid(0, "saint-george-dragonslayer")
    state = table(
        decks=("ivory", "tide"),
        realms=[
            (0, cid(0, "bellwick-market-town"), (0, 0)),
            (0, cid(0, "bellwick-market-town", 2), (1, 0)),
            (0, cid(0, "pilgrim-road"), (2, 0)),
        ],
        dragons=[(0, 0), None],
        hands=[[george]],
        phase="reclaim",
    )
    spots = [a["at"] for a in GAME.legal_actions(state, 0) if a["type"] == "play" and a["card"] == george]
    assert spots == [[1, 0]]


# --- what bench.balance reads ---------------------------------------------------------


def test_card_names_and_the_cards_an_action_uses() -> None:
    """The per-card table's names: every card dealt, and the card an action plays or uses
    (a card played, a challenge attempted, a realm whose landing text the dragon uses)."""
    state = table(
        decks=("tide", "ember"),
        realms=[(0, cid(0, "fogbank-shoals"), (0, 0)), (0, cid(0, "misty-scalespine-mountain"), (1, 0))],
        challenges=[(0, cid(0, "scry-the-deep"), (0, 0))],
        dragons=[(0, 0), None],
        hands=[[cid(0, "twist-of-fate")]],
        stashes=[[cid(0, "deep-study")]],
    )
    names = GAME.card_names(state)
    assert "Misty Scalespine Mountain" in names and "Burn Down the Farm" in names and len(names) == len(set(names))
    assert GAME.action_cards(state, 0, {"type": "attempt"}) == ("Scry the Deep",)
    assert GAME.action_cards(state, 0, {"type": "play", "card": cid(0, "twist-of-fate")}) == ("Twist of Fate",)
    flight = fold(GAME, [ev("PhaseBegan", None, phase="flight")], state)
    assert GAME.action_cards(flight, 0, {"type": "fly", "to": [1, 0]}) == ("Misty Scalespine Mountain",)
    assert GAME.action_cards(flight, 0, {"type": "land"}) == ()
