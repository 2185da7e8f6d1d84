"""The Combat Phase and forts (rulebook: 'Combat Phase', 'End Phase', winning conditions)."""

from __future__ import annotations

from games.dragoborne import GAME
from tests.games.dragoborne.scenario import Scenario, first_seed, named, types


def _hound_ready(**kwargs) -> Scenario:  # type: ignore[no-untyped-def]
    """Seat 0 summons an Emberhound on turn 1; seat 1 plays its turn; seat 0 enters combat on turn 3."""
    seat0 = kwargs.pop("seat0", {"hand": ["emberhound"] * 3})
    game = Scenario(first=0, seat0=seat0, **kwargs)
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.end_turn()
    return game


def test_the_first_player_may_attack_on_turn_one() -> None:
    """'Turn Flow': '1. Start Phase', '2. Main Phase', '3. Combat Phase', '4. End Phase' for every
    turn, the first player's first one included (only its Resource Step is skipped)."""
    game = Scenario(first=0, seat0={"hand": ["emberhound"]})
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 1})
    assert events[0].type == "AttackDeclared" and events[0].data["fort"] == 1


def test_an_attack_rests_the_attacker_and_names_a_fort() -> None:
    """'The active player selects one of his/her creatures, Rests it, and declares which fort he
    wishes to attack.'"""
    game = _hound_ready()
    game.end_turn()
    game.act(0, {"type": "combat"})
    assert game.legal(0) == [{"type": "attack", "creature": "0-emberhound-1", "fort": f} for f in range(3)] + [
        {"type": "end_turn"}
    ]
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 2})
    assert events[0].type == "AttackDeclared" and events[0].data["fort"] == 2
    assert game.creature(0, "0-emberhound-1").rested
    game.act(1, {"type": "take"})
    assert game.legal(0) == [{"type": "end_turn"}]


def test_an_unblocked_attack_breaks_one_barrier_into_its_owners_hand() -> None:
    """'If there were no defenders chosen, the attacker deals one damage to the targeted fort,
    regardless of ATK value. When a fort takes damage, take the topmost card on the fort and look at
    it (your opponent does not get to see the destroyed shield).'"""
    # revision 3: Nightmaw Revenant has no Fort Burst (revision 4 gives every card one)
    game = _hound_ready(rules=3, seat1={"barriers": ["gravemoth", "nightmaw-revenant"]})
    game.end_turn()
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    (broken,) = named(events, "BarrierBroken")
    assert broken.data == {"seat": 1, "fort": 0, "card": "1-nightmaw-revenant-1"}
    assert game.state.sides[1].forts[0] == ("1-gravemoth-1",)
    assert game.state.sides[1].lifted == ("1-nightmaw-revenant-1",)
    assert "card" not in GAME.redact(broken, 0).data and "card" not in GAME.redact(broken, None).data
    assert GAME.redact(broken, 1).data["card"] == "1-nightmaw-revenant-1"
    assert game.legal(1) == [{"type": "take"}] and game.legal(0) == []
    events = game.act(1, {"type": "take"})
    assert types(events) == ["PendingResolved", "BarrierTaken"]
    assert "1-nightmaw-revenant-1" in game.state.sides[1].hand and not game.state.sides[1].lifted
    assert "card" not in GAME.redact(events[1], 0).data


def test_the_opponent_cannot_tell_a_barrier_with_a_fort_burst_from_one_without() -> None:
    """'take the topmost card on the fort and look at it (your opponent does not get to see the
    destroyed shield)': its owner is asked in both cases, and what the attacker sees of the break
    (events and view) is the same whether the card has a Fort Burst or not."""
    seen = []
    for barrier in ("nightmaw-revenant", "undertow"):
        game = _hound_ready(seat1={"barriers": ["gravemoth", barrier]})
        game.end_turn()
        game.act(0, {"type": "combat"})
        events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
        view = GAME.view(game.state, 0)
        seen.append(([(e.type, GAME.redact(e, 0).data) for e in events], view["pending"], view["players"][1]["lifted"]))
        assert GAME.to_act(game.state) == frozenset({1})
    assert seen[0] == seen[1]


def test_a_fort_burst_may_be_triggered_by_the_forts_owner() -> None:
    """'If it has a Fort Burst, you may choose to activate the Fort Burst ability.' (an out-of-turn
    choice; the card goes to the discard pile)"""
    game = _hound_ready(seat1={"barriers": ["gravemoth", "soul-rend"]})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    assert GAME.to_act(game.state) == frozenset({1})
    assert game.legal(1) == [{"type": "burst"}, {"type": "take"}] and game.legal(0) == []
    assert "source" not in GAME.view(game.state, 0)["pending"][0]
    events = game.act(1, {"type": "burst"})
    assert types(events) == ["PendingResolved", "FortBurst", "EffectsQueued", "PendingResolved", "CreatureDestroyed"]
    assert game.state.sides[1].discard == ("1-soul-rend-1",)
    assert game.state.sides[0].discard == ("0-emberhound-1",) and not game.state.sides[0].field


def test_a_declined_fort_burst_goes_to_hand() -> None:
    """'If it does not have a Fort Burst ability, or you choose not to activate the Fort Burst
    ability, place it into your hand.'"""
    game = _hound_ready(seat1={"barriers": ["gravemoth", "undertow"]})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    events = game.act(1, {"type": "take"})
    assert types(events) == ["PendingResolved", "BarrierTaken"]
    assert "1-undertow-1" in game.state.sides[1].hand and not game.state.sides[1].lifted
    assert "card" not in GAME.redact(events[1], 0).data


def test_the_defender_may_block_with_a_standing_creature_on_that_fort() -> None:
    """'If there is no Dragoshield, the defending player proceeds to select a Standing creature on top
    of the defending fort and Rest it if they wish to defend.'"""
    game = _hound_ready(seat1={"hand": ["hollow-warden"]})
    game.act(1, {"type": "summon", "card": "1-hollow-warden-1", "fort": 1})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 1})
    assert GAME.to_act(game.state) == frozenset({1})
    assert game.legal(1) == [{"type": "block", "creature": "1-hollow-warden-1"}, {"type": "no_block"}]
    events = game.act(1, {"type": "block", "creature": "1-hollow-warden-1"})
    assert types(events)[:2] == ["PendingResolved", "AttackBlocked"]
    assert game.creature(1, "1-hollow-warden-1").rested


def test_a_defender_may_decline_to_block() -> None:
    """'... and Rest it if they wish to defend.' Declining lets the attack through to the fort."""
    game = _hound_ready(seat1={"hand": ["hollow-warden"]})
    game.act(1, {"type": "summon", "card": "1-hollow-warden-1", "fort": 1})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 1})
    events = game.act(1, {"type": "no_block"})
    assert named(events, "BarrierBroken")[0].data["fort"] == 1
    assert not game.creature(1, "1-hollow-warden-1").rested


def test_atk_is_subtracted_from_edr_both_ways_and_below_zero_destroys() -> None:
    """'the ATK value of the attacker is subtracted from the EDR value of the defender and vice versa
    ... If a creature's EDR value drops below zero, it is destroyed and sent to the discard pile.'
    A 2/2 blocker hit for 2 sits at zero and survives; a 2/1 attacker hit for 2 is destroyed."""
    game = _hound_ready(decks=("emberguard", "thornwall"), seat1={"hand": ["sunspear-sentry"]})
    game.act(1, {"type": "summon", "card": "1-sunspear-sentry-1", "fort": 0})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    events = game.act(1, {"type": "block", "creature": "1-sunspear-sentry-1"})
    damaged = {e.data["creature"]: e.data["amount"] for e in named(events, "CreatureDamaged")}
    assert damaged == {"1-sunspear-sentry-1": 2, "0-emberhound-1": 2}
    assert named(events, "CreatureDestroyed")[0].data == {"seat": 0, "creature": "0-emberhound-1"}
    assert game.creature(1, "1-sunspear-sentry-1").damage == 2
    assert game.state.sides[0].discard == ("0-emberhound-1",)


def test_damage_is_removed_in_the_end_phase() -> None:
    """'Remove all damage counters on creatures.' ('These EDR reductions last until the end of the
    turn.')"""
    game = _hound_ready(decks=("emberguard", "thornwall"), seat1={"hand": ["sunspear-sentry"]})
    game.act(1, {"type": "summon", "card": "1-sunspear-sentry-1", "fort": 0})
    game.end_turn()
    game.act(0, {"type": "combat"})
    game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    game.act(1, {"type": "block", "creature": "1-sunspear-sentry-1"})
    events = game.end_turn()
    assert "DamageCleared" in types(events)
    assert game.creature(1, "1-sunspear-sentry-1").damage == 0


def _shield_on_fort_zero(strong: bool):  # type: ignore[no-untyped-def]
    def rolled(game: Scenario) -> bool:
        game.end_turn()
        game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
        game.end_turn()
        value = game.state.sides[1].dice[0].value
        return value >= 2 if strong else value < 2

    return rolled


def test_an_active_dragoshield_defends_automatically_and_holds_when_atk_is_not_above_it() -> None:
    """'If there is a Dragoshield active in front of the fort, the Dragoshield is immediately chosen
    as the defender.' Dragoshields are 0/X, X the die's value."""
    game = first_seed(_shield_on_fort_zero(True), first=1, seat0={"hand": ["emberhound"] * 3})
    game.act(1, {"type": "shield", "die": 0, "fort": 0})
    game.end_turn()
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    assert types(events) == [
        "AttackDeclared",
        "EffectsQueued",
        "PendingResolved",
        "AttackBlocked",
        "ShieldDamaged",
        "AttackEnded",
    ]
    assert events[3].data == {"seat": 1, "die": 0}
    assert game.state.sides[1].dice[0].use == "shield" and game.state.sides[1].dice[0].damage == 2
    assert len(game.state.sides[1].forts[0]) == 2


def test_a_dragoshield_whose_value_drops_below_zero_is_destroyed() -> None:
    """'If a creature's EDR value drops below zero, it is destroyed' applies to a 0/X Dragoshield."""
    game = first_seed(_shield_on_fort_zero(False), first=1, seat0={"hand": ["emberhound"] * 3})
    game.act(1, {"type": "shield", "die": 0, "fort": 0})
    game.end_turn()
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 0})
    assert named(events, "ShieldDestroyed")[0].data == {"seat": 1, "die": 0}
    assert game.state.sides[1].dice[0].use == "spent"
    assert len(game.state.sides[1].forts[0]) == 2


def test_a_fort_without_barriers_is_destroyed_and_its_owner_loses_at_the_end_of_the_turn() -> None:
    """'If a Fort has no more barriers, that Fort is considered destroyed.' and 'If all of a player's
    forts are destroyed at the end of the turn, the player loses the game.'"""
    game = Scenario(first=0, seat0={"hand": ["emberhound", "emberhound", "dawnshield-acolyte"]})
    hounds = ["0-emberhound-1", "0-emberhound-2", "0-dawnshield-acolyte-1"]
    for fort, card in enumerate(hounds):
        game.act(0, {"type": "summon", "card": card, "fort": fort})
    game.end_turn()
    destroyed: list[int] = []
    for _ in range(2):
        game.end_turn()
        game.act(0, {"type": "combat"})
        for fort, card in enumerate(hounds):
            events = game.act(0, {"type": "attack", "creature": card, "fort": fort})
            destroyed += [e.data["fort"] for e in named(events, "FortDestroyed")]
            game.act(1, {"type": "take"})
        if not destroyed:
            assert game.state.phase == "combat"
            game.end_turn()
    assert destroyed == [0, 1, 2]
    assert game.state.sides[1].standing_forts() == []
    assert GAME.outcome(game.state) is None
    events = game.act(0, {"type": "end_turn"})
    assert types(events) == ["DamageCleared", "GameEnded"]
    assert GAME.outcome(game.state) == {
        "winners": [0],
        "scores": [1, 0],
        "reason": "all forts of seat 1 were destroyed",
    }
