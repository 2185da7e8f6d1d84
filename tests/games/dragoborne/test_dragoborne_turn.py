"""The turn: Start Phase, Main Phase and End Phase (rulebook: 'Turn Flow')."""

from __future__ import annotations

from typing import Any

import pytest

from games.base import IllegalAction
from games.dragoborne import GAME
from games.dragoborne.state import stats
from tests.games.dragoborne.scenario import Scenario, first_seed, named, types

HOUNDS = ["emberhound"] * 5


def test_stand_step_stands_everything_of_the_active_player() -> None:
    """'Stand Step - Stand (put to vertical) all Resting (horizontal) cards on your side of the field.'"""
    game = Scenario(first=0, seat0={"hand": HOUNDS})
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    assert game.state.sides[0].rested
    game.end_turn()
    game.end_turn()
    assert not game.state.sides[0].rested
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    game.act(1, {"type": "take"})
    assert game.creature(0, "0-emberhound-1").rested
    game.end_turn()
    assert game.creature(0, "0-emberhound-1").rested
    events = game.end_turn()
    assert "TurnStarted" in types(events)
    assert not game.creature(0, "0-emberhound-1").rested


def test_dice_step_rolls_all_three_dice_as_an_event() -> None:
    """'Dice Step - Roll all of your dice.' The roll is an event, and undo never crosses it."""
    game = Scenario(first=0)
    (rolled,) = named(game.play.events, "DiceRolled")
    assert rolled.data["seat"] == 0 and len(rolled.data["values"]) == 3
    assert all(1 <= v <= 6 for v in rolled.data["values"])
    assert GAME.irreversible(rolled)
    assert [d.value for d in game.state.sides[0].dice] == rolled.data["values"]


def test_dice_step_takes_back_last_turns_dragoshields() -> None:
    """'At the beginning of a turn, all of a player's die are rolled': last turn's assignments end."""
    game = Scenario(first=0)
    game.act(0, {"type": "shield", "die": 0, "fort": 0})
    game.end_turn()
    assert game.state.sides[0].shield_at(0) == 0
    game.end_turn()
    assert game.state.sides[0].shield_at(0) is None
    assert all(d.use == "free" for d in game.state.sides[0].dice)


def test_draw_step_draws_the_top_card() -> None:
    """'Draw Step - Draw a card from the top of your deck and add it to your hand.'"""
    game = Scenario(first=0, seat0={"draws": ["magma-rupture"]})
    assert game.state.sides[0].hand[-1] == "0-magma-rupture-1"
    assert len(game.state.sides[0].hand) == 6


def test_a_player_who_must_draw_from_an_empty_deck_loses() -> None:
    """'When a player is required to draw a card, but cannot due to there being no more cards left in
    the deck' the player loses."""
    game = Scenario(first=0, seat1={"size": 11})
    assert not game.state.sides[1].deck
    events = game.end_turn()
    assert types(events)[-1] == "GameEnded"
    outcome = GAME.outcome(game.state)
    assert outcome is not None and outcome["winners"] == [0]
    assert GAME.to_act(game.state) == frozenset()


def test_resource_step_is_optional_and_skipped_by_the_first_player_on_turn_one() -> None:
    """'Resource Step - Place the top card of your deck into your resource area face up in reverse
    orientation. This step is optional and the player who starts first skips this step on their
    first turn.'"""
    game = Scenario(first=0, seat1={"draws": ["gravemoth", "undertow"]})
    assert game.state.phase == "main" and len(game.state.sides[0].resources) == 3
    game.act(0, {"type": "end_turn"})
    assert game.state.phase == "resource"
    assert game.legal(1) == [{"type": "resource"}, {"type": "skip_resource"}]
    events = game.act(1, {"type": "resource"})
    assert named(events, "ResourcePlaced")[0].data["card"] == "1-undertow-1"
    assert game.state.sides[1].resources[-1] == "1-undertow-1"
    assert GAME.redact(events[0], 0) == events[0]
    game.end_turn()
    game.act(0, {"type": "end_turn"})
    game.act(1, {"type": "skip_resource"})
    assert len(game.state.sides[1].resources) == 4


def test_summoning_rests_resources_one_of_them_of_the_cards_colour() -> None:
    """'Play cards from hand by paying their Call/Cast Costs' (costs are paid by resting that many
    resources, at least one of the card's colour). Revision 1: the engine chooses which."""
    game = Scenario(first=1, seat1={"hand": ["hollow-warden", "emberhound", "abyssal-leviathan"]}, rules=1)
    legal = game.legal(1)
    assert {"type": "summon", "card": "1-hollow-warden-1", "fort": 0} in legal
    assert not [a for a in legal if a.get("card") in ("1-emberhound-1", "1-abyssal-leviathan-1")]
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(game.state, 1, {"type": "summon", "card": "1-emberhound-1", "fort": 0}, game.rng)
    assert "cost" in refused.value.reason
    events = game.act(1, {"type": "summon", "card": "1-hollow-warden-1", "fort": 0})
    paid = events[0].data["paid"]
    assert len(paid) == 3 and any("dusk" in r for r in paid)
    assert game.state.sides[1].rested == frozenset(paid)


def test_casting_a_spell_puts_it_in_the_discard_pile() -> None:
    """'Spells - One-use effects ... After their use, they are placed into the discard pile.'"""
    game = Scenario(first=1, seat1={"hand": ["tidal-insight"]})
    events = game.act(1, {"type": "cast", "card": "1-tidal-insight-1"})
    assert types(events) == ["SpellCast", "EffectsQueued", "PendingResolved", "CardsDrawn", "CardsDrawn"]
    assert game.state.sides[1].discard == ("1-tidal-insight-1",)


@pytest.mark.parametrize("reading", [{"rules": 1}, {"rules": 2}, {"options": {"shields_match_banners": True}}])
def test_under_revision_2_a_dragoshield_goes_before_the_fort_whose_banner_matches_its_die(
    reading: dict[str, Any],
) -> None:
    """'Dragoshield - These can be used to defend forts from enemy attacks and are placed in front of
    forts.' Revisions 1 and 2, and revision 3 with option shields_match_banners, read it as the fort
    whose banner matches the die's colour (revision 3's own reading: test_dragoborne_revision3.py)."""
    game = Scenario(first=0, **reading)
    shields = [a for a in game.legal(0) if a["type"] == "shield"]
    assert shields == [
        {"type": "shield", "die": 0, "fort": 0},
        {"type": "shield", "die": 0, "fort": 1},
        {"type": "shield", "die": 1, "fort": 0},
        {"type": "shield", "die": 1, "fort": 1},
        {"type": "shield", "die": 2, "fort": 2},
    ]
    game.act(0, {"type": "shield", "die": 2, "fort": 2})
    assert game.state.sides[0].dice[2].use == "shield"
    assert {"type": "shield", "die": 0, "fort": 2} not in game.legal(0)


def _hound_on_red(low: bool):  # type: ignore[no-untyped-def]
    def rolled(game: Scenario) -> bool:
        value = game.state.sides[0].dice[0].value
        return value <= 3 if low else value >= 4

    return rolled


@pytest.mark.parametrize("low", [True, False])
def test_a_dragocross_gives_plus_one_and_the_printed_bonus(low: bool) -> None:
    """'All creatures, when Dragocrossed, gain a +1/+1 stat boost but can gain additional stats or
    skills depending on the value of the die' (Emberhound: Dragocross Red 4-6: +1/+0)."""
    game = first_seed(_hound_on_red(low), first=0, seat0={"hand": HOUNDS})
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    side = game.state.sides[0]
    assert stats(side, game.creature(0, "0-emberhound-1"), game.state.rules) == (2, 1)
    game.act(0, {"type": "cross", "die": 0, "creature": "0-emberhound-1"})
    side = game.state.sides[0]
    assert stats(side, game.creature(0, "0-emberhound-1"), game.state.rules) == ((3, 2) if low else (4, 2))
    assert not [a for a in game.legal(0) if a["type"] == "cross" and a["creature"] == "0-emberhound-1"]


@pytest.mark.parametrize("rules", [1, 2])
def test_at_most_two_creatures_on_a_fort_and_under_revision_2_moves_once_a_turn(rules: int) -> None:
    """'Switch the position of creatures or move creatures to different forts. Each fort may have up
    to two creatures on top of it.' (revisions 1 and 2: each creature moves or switches at most once
    a turn; revision 3 sets no limit: test_dragoborne_revision3.py)"""
    game = Scenario(first=0, seat0={"hand": ["emberhound", "emberhound", "dawnshield-acolyte"]}, rules=rules)
    for n in (1, 2):
        game.act(0, {"type": "summon", "card": f"0-emberhound-{n}", "fort": 0})
    assert not [a for a in game.legal(0) if a["type"] == "summon" and a["fort"] == 0]
    game.act(0, {"type": "summon", "card": "0-dawnshield-acolyte-1", "fort": 1})
    assert not [a for a in game.legal(0) if a["type"] == "move" and a["fort"] == 0]
    game.act(0, {"type": "switch", "creatures": ["0-emberhound-1", "0-dawnshield-acolyte-1"]})
    assert game.creature(0, "0-emberhound-1").fort == 1 and game.creature(0, "0-dawnshield-acolyte-1").fort == 0
    moves = [a for a in game.legal(0) if a["type"] in ("move", "switch")]
    assert moves and all("0-emberhound-2" in (a.get("creature"), *a.get("creatures", ())) for a in moves)
    game.act(0, {"type": "move", "creature": "0-emberhound-2", "fort": 2})
    assert not [a for a in game.legal(0) if a["type"] in ("move", "switch")]


def test_end_phase_discards_down_to_seven() -> None:
    """'If the active player has more than 7 cards in their hand, they must discard cards until they
    have 7 cards in hand.'"""
    game = Scenario(first=0, seat1={"hand": ["tidal-insight"], "draws": ["gravemoth", "undertow"]})
    game.end_turn(resource=True)
    game.act(1, {"type": "cast", "card": "1-tidal-insight-1"})
    game.act(1, {"type": "cast", "card": "1-tidal-insight-2"})
    assert len(game.state.sides[1].hand) == 8
    events = game.act(1, {"type": "end_turn"})
    assert types(events) == ["PhaseChanged"] and game.state.phase == "discard"
    assert game.legal(1) == [{"type": "discard", "card": c} for c in game.state.sides[1].hand]
    card = game.state.sides[1].hand[3]
    events = game.act(1, {"type": "discard", "card": card})
    assert types(events)[:3] == ["CardDiscarded", "DamageCleared", "TurnStarted"]
    assert len(game.state.sides[1].hand) == 7 and game.state.sides[1].discard[-1] == card
