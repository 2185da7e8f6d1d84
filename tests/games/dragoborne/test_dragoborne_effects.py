"""Card abilities: each effect primitive and each timing ([ACT], [AUTO], [CONT], Fort Burst),
as printed in our card pool (cards.json)."""

from __future__ import annotations

from games.dragoborne import GAME
from games.dragoborne.cards import DECKS
from games.dragoborne.state import stats
from tests.games.dragoborne.scenario import Scenario, named, types

RAINBOW = {"cards": DECKS["emberguard"]["cards"], "banners": ["tide-standard", "tide-standard", "dawn-standard"]}
BLUE_YELLOW = {**RAINBOW, "dice": ["blue", "blue", "yellow"]}


def _black_pair_then(seat0: dict, decks=("emberguard", "tidecrypt")) -> Scenario:  # type: ignore[no-untyped-def]
    """Seat 1 goes first and summons a Gravemoth (1/0) and a Shade Stalker (2/2); seat 0's turn 2."""
    game = Scenario(first=1, seat0=seat0, seat1={"hand": ["gravemoth", "shade-stalker"]}, decks=decks)
    game.act(1, {"type": "summon", "card": "1-gravemoth-1", "fort": 0})
    game.act(1, {"type": "summon", "card": "1-shade-stalker-1", "fort": 1})
    game.end_turn()
    return game


def test_damage_waits_for_the_casters_choice_of_target() -> None:
    """Flare Volley: 'Deal 2 damage to an enemy creature.' With two targets the caster chooses; the
    2/2 Shade Stalker sits at zero EDR and stays ('drops below zero' destroys)."""
    game = _black_pair_then({"hand": ["flare-volley"]})
    events = game.act(0, {"type": "cast", "card": "0-flare-volley-1"})
    assert types(events) == ["SpellCast", "EffectsQueued"]
    assert GAME.to_act(game.state) == frozenset({0})
    assert game.legal(0) == [
        {"type": "target", "target": "1-gravemoth-1"},
        {"type": "target", "target": "1-shade-stalker-1"},
    ]
    events = game.act(0, {"type": "target", "target": "1-shade-stalker-1"})
    assert types(events) == ["PendingResolved", "CreatureDamaged"]
    assert events[1].data == {"seat": 1, "creature": "1-shade-stalker-1", "amount": 2}
    assert game.creature(1, "1-shade-stalker-1").damage == 2


def test_destroy_and_an_auto_when_destroyed_trigger() -> None:
    """Magma Rupture: 'Destroy an enemy creature with EDR 3 or less.' Gravemoth: '[AUTO] When this
    creature is destroyed: draw a card.' (the trigger is its owner's)"""
    game = _black_pair_then({"hand": ["magma-rupture"], "barriers": [], "draws": []})
    hand = len(game.state.sides[1].hand)
    game.act(0, {"type": "cast", "card": "0-magma-rupture-1"})
    events = game.act(0, {"type": "target", "target": "1-gravemoth-1"})
    assert types(events) == ["PendingResolved", "CreatureDestroyed", "EffectsQueued", "PendingResolved", "CardsDrawn"]
    assert events[-1].data["seat"] == 1 and len(game.state.sides[1].hand) == hand + 1
    assert game.state.sides[1].discard == ("1-gravemoth-1",)


def test_destroy_only_reaches_creatures_within_its_edr_limit_and_auto_when_summoned() -> None:
    """Duskblade Assassin: '[AUTO] When this creature is summoned: destroy an enemy creature with EDR 2
    or less.' A 2/3 Pyre Warden is out of reach, so the 2/1 Emberhound is the only target."""
    game = Scenario(first=0, seat0={"hand": ["emberhound", "pyre-warden"]}, seat1={"hand": ["duskblade-assassin"]})
    game.act(0, {"type": "summon", "card": "0-pyre-warden-1", "fort": 0})
    game.end_turn()
    game.end_turn()
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 1})
    game.end_turn()
    events = game.act(1, {"type": "summon", "card": "1-duskblade-assassin-1", "fort": 0})
    assert types(events) == ["CreatureSummoned", "EffectsQueued", "PendingResolved", "CreatureDestroyed"]
    assert [c.id for c in game.state.sides[0].field] == ["0-pyre-warden-1"]


def test_barrier_puts_the_top_card_of_the_deck_on_a_chosen_fort() -> None:
    """Bastion Rite: 'Put the top card of your deck on a fort of yours as a barrier.'"""
    game = Scenario(first=0, seat0={"hand": ["bastion-rite"], "draws": ["emberhound", "magma-rupture"]})
    game.act(0, {"type": "cast", "card": "0-bastion-rite-1"})
    assert game.legal(0) == [{"type": "target", "target": f} for f in range(3)]
    events = game.act(0, {"type": "target", "target": 1})
    (added,) = named(events, "BarrierAdded")
    assert added.data == {"seat": 0, "fort": 1, "card": "0-magma-rupture-1"}
    assert game.state.sides[0].forts[1][-1] == "0-magma-rupture-1" and len(game.state.sides[0].forts[1]) == 3
    assert "card" not in GAME.redact(added, 0).data and "card" not in GAME.redact(added, 1).data


def test_act_with_a_rest_cost_reroll_and_stand() -> None:
    """Mistveil Heron: '[ACT] Rest this creature: reroll one of your unassigned dice.' Rally Horn:
    'Stand a creature of yours, then draw a card.' (revision 1's Rally Horn)"""
    game = Scenario(
        first=0, seat0={"hand": ["mistveil-heron", "rally-horn"]}, decks=(BLUE_YELLOW, "tidecrypt"), rules=1
    )
    game.act(0, {"type": "summon", "card": "0-mistveil-heron-1", "fort": 0})
    game.act(0, {"type": "shield", "die": 0, "fort": 0})
    game.act(0, {"type": "shield", "die": 2, "fort": 2})
    events = game.act(0, {"type": "activate", "creature": "0-mistveil-heron-1", "ability": 0})
    assert types(events) == ["AbilityActivated", "EffectsQueued", "PendingResolved", "DieRerolled"]
    assert events[-1].data["die"] == 1 and GAME.irreversible(events[-1])
    assert game.state.sides[0].dice[1].value == events[-1].data["value"]
    assert game.creature(0, "0-mistveil-heron-1").rested
    assert not [a for a in game.legal(0) if a["type"] == "activate"]
    events = game.act(0, {"type": "cast", "card": "0-rally-horn-1"})
    assert types(events)[-3:] == ["CreatureStood", "PendingResolved", "CardsDrawn"]
    assert not game.creature(0, "0-mistveil-heron-1").rested


def test_a_white_die_cost_is_paid_by_any_die() -> None:
    """'When a card asks for a white die, any colored die can be used for its cost.' Radiant Paladin:
    '[ACT] Spend a die of any colour (white): stand a creature of yours.' (revision 1: the card as it
    was, and the lowest free die pays)"""
    game = Scenario(
        first=0, seat0={"hand": ["radiant-paladin", "mistveil-heron"]}, decks=(BLUE_YELLOW, "tidecrypt"), rules=1
    )
    game.act(0, {"type": "summon", "card": "0-mistveil-heron-1", "fort": 0})
    game.end_turn()
    game.end_turn(resource=True)
    game.act(0, {"type": "summon", "card": "0-radiant-paladin-1", "fort": 1})
    assert not [a for a in game.legal(0) if a["type"] == "activate" and a["creature"] == "0-radiant-paladin-1"]
    game.act(0, {"type": "activate", "creature": "0-mistveil-heron-1", "ability": 0})
    game.act(0, {"type": "target", "target": 0})
    dice = game.state.sides[0].dice
    lowest = min(range(3), key=lambda i: (dice[i].value, i))
    events = game.act(0, {"type": "activate", "creature": "0-radiant-paladin-1", "ability": 0})
    assert events[0].data["die"] == lowest and game.state.sides[0].dice[lowest].use == "spent"
    assert types(events)[-1] == "CreatureStood"
    assert not game.creature(0, "0-mistveil-heron-1").rested


def test_act_rest_an_enemy_needs_a_target() -> None:
    """Hollow Warden: '[ACT] Rest this creature: rest an enemy creature.' An ability with nothing to
    target is not offered."""
    game = Scenario(first=1, seat0={"hand": ["emberhound", "emberhound"]}, seat1={"hand": ["hollow-warden"]})
    game.act(1, {"type": "summon", "card": "1-hollow-warden-1", "fort": 0})
    assert not [a for a in game.legal(1) if a["type"] == "activate"]
    game.end_turn()
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.act(0, {"type": "summon", "card": "0-emberhound-2", "fort": 1})
    game.end_turn()
    game.act(1, {"type": "activate", "creature": "1-hollow-warden-1", "ability": 0})
    events = game.act(1, {"type": "target", "target": "0-emberhound-2"})
    assert types(events) == ["PendingResolved", "CreatureRested"]
    assert game.creature(0, "0-emberhound-2").rested and game.creature(1, "1-hollow-warden-1").rested


def test_bounce_returns_a_creature_to_its_owners_hand_in_view_of_both() -> None:
    """Riptide Sentinel: '[AUTO] When this creature is summoned: return an enemy creature to its owner's
    hand.' The returned card is known to the opponent."""
    game = Scenario(first=0, seat0={"hand": ["pyre-warden"]}, seat1={"hand": ["riptide-sentinel"]})
    game.act(0, {"type": "summon", "card": "0-pyre-warden-1", "fort": 0})
    game.end_turn(resource=True)
    events = game.act(1, {"type": "summon", "card": "1-riptide-sentinel-1", "fort": 2})
    assert types(events)[-1] == "CreatureReturned"
    assert "0-pyre-warden-1" in game.state.sides[0].hand
    assert GAME.view(game.state, 1)["players"][0]["known"] == ["0-pyre-warden-1"]
    assert "0-pyre-warden-1" not in GAME.secrets(game.state, 1)


def test_search_reveals_a_matching_card_and_shuffles() -> None:
    """Wild Bounty: 'Search your deck for a Green creature, reveal it, put it into your hand and
    shuffle your deck.'"""
    game = Scenario(
        first=0,
        decks=("thornwall", "tidecrypt"),
        seat0={"hand": ["wild-bounty"], "draws": ["gravemoth", "undertow", "elderbark-colossus"]},
    )
    events = game.act(0, {"type": "cast", "card": "0-wild-bounty-1"})
    assert types(events)[-2:] == ["CardSearched", "DeckShuffled"]
    assert events[-2].data == {"seat": 0, "card": "0-elderbark-colossus-1"}
    assert "0-elderbark-colossus-1" in game.state.sides[0].hand
    assert sorted(events[-1].data["deck"]) == sorted(game.state.sides[0].deck)
    assert isinstance(GAME.redact(events[-1], 0).data["deck"], int)


def test_auto_when_attacking() -> None:
    """Cinder Lancer: '[AUTO] When this creature attacks: deal 1 damage to an enemy creature.' It
    resolves before the defender chooses a blocker."""
    game = Scenario(first=0, seat0={"hand": ["cinder-lancer"]}, seat1={"hand": ["gravemoth"]})
    game.act(0, {"type": "summon", "card": "0-cinder-lancer-1", "fort": 0})
    game.end_turn()
    game.act(1, {"type": "summon", "card": "1-gravemoth-1", "fort": 0})
    game.end_turn()
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-cinder-lancer-1", "fort": 0})
    kinds = types(events)
    assert kinds.index("CreatureDamaged") < kinds.index("CreatureDestroyed") < kinds.index("BarrierBroken")
    assert named(events, "CreatureDestroyed")[0].data["creature"] == "1-gravemoth-1"


def test_auto_when_its_attack_breaks_a_barrier() -> None:
    """Shade Stalker: '[AUTO] When an attack of this creature breaks a barrier: rest an enemy creature.'"""
    game = Scenario(first=1, seat0={"hand": ["emberhound"]}, seat1={"hand": ["shade-stalker"]})
    game.act(1, {"type": "summon", "card": "1-shade-stalker-1", "fort": 0})
    game.end_turn()
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 1})
    game.end_turn()
    game.act(1, {"type": "combat"})
    events = game.act(1, {"type": "attack", "creature": "1-shade-stalker-1", "fort": 2})
    assert "BarrierBroken" in types(events) and not game.creature(0, "0-emberhound-1").rested
    events = game.act(0, {"type": "take"})
    assert types(events) == ["PendingResolved", "BarrierTaken", "PendingResolved", "CreatureRested"]
    assert game.creature(0, "0-emberhound-1").rested


def test_cont_boosts_other_creatures_on_the_same_fort() -> None:
    """Pyre Warden: '[CONT] Your other creatures on this fort get +1/+0.'"""
    game = Scenario(first=0, seat0={"hand": ["pyre-warden", "dawnshield-acolyte"]})
    game.act(0, {"type": "summon", "card": "0-pyre-warden-1", "fort": 0})
    game.end_turn()
    game.end_turn(resource=True)
    game.act(0, {"type": "summon", "card": "0-dawnshield-acolyte-1", "fort": 0})
    side = game.state.sides[0]
    assert stats(side, game.creature(0, "0-dawnshield-acolyte-1"), game.state.rules) == (1, 2)
    assert stats(side, game.creature(0, "0-pyre-warden-1"), game.state.rules) == (2, 3)
    game.act(0, {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 1})
    assert stats(game.state.sides[0], game.creature(0, "0-dawnshield-acolyte-1"), game.state.rules) == (0, 2)


def test_fort_burst_barrier_on_a_creature_card() -> None:
    """Dawnshield Acolyte: 'Fort Burst: put the top card of your deck on a fort of yours as a barrier.'"""
    game = Scenario(first=1, seat0={"barriers": ["emberhound", "dawnshield-acolyte"]}, seat1={"hand": ["gravemoth"]})
    game.act(1, {"type": "summon", "card": "1-gravemoth-1", "fort": 0})
    game.end_turn()
    game.end_turn()
    game.act(1, {"type": "combat"})
    game.act(1, {"type": "attack", "creature": "1-gravemoth-1", "fort": 0})
    assert game.legal(0) == [{"type": "burst"}, {"type": "take"}]
    game.act(0, {"type": "burst"})
    events = game.act(0, {"type": "target", "target": 0})
    assert types(events) == ["PendingResolved", "BarrierAdded"]
    assert len(game.state.sides[0].forts[0]) == 2


def test_cont_while_dragocrossed() -> None:
    """Thornhide Stalker: '[CONT] While this creature is Dragocrossed it gets +1/+0.' On top of the
    +1/+1 every Dragocross gives ('All creatures, when Dragocrossed, gain a +1/+1 stat boost')."""
    game = Scenario(first=0, decks=("thornwall", "tidecrypt"), seat0={"hand": ["thornhide-stalker"]})
    game.act(0, {"type": "summon", "card": "0-thornhide-stalker-1", "fort": 0})
    assert stats(game.state.sides[0], game.creature(0, "0-thornhide-stalker-1"), game.state.rules) == (3, 2)
    game.act(0, {"type": "cross", "die": 2, "creature": "0-thornhide-stalker-1"})
    assert stats(game.state.sides[0], game.creature(0, "0-thornhide-stalker-1"), game.state.rules) == (5, 3)
    assert GAME.view(game.state, 1)["players"][0]["creatures"][0]["atk"] == 5


def test_act_paid_by_resting_resources_and_draw() -> None:
    """Brinescribe Adept: '[ACT] Rest two of your resources: draw a card.' It can be used again while
    two resources stand, and not once fewer do."""
    game = Scenario(first=1, seat1={"hand": ["brinescribe-adept"], "draws": ["gravemoth", "undertow", "soul-rend"]})
    game.act(1, {"type": "summon", "card": "1-brinescribe-adept-1", "fort": 0})
    assert not [a for a in game.legal(1) if a["type"] == "activate"]
    game.end_turn()
    game.end_turn(resource=True)
    assert len(game.state.sides[1].resources) == 4 and not game.state.sides[1].rested
    hand = len(game.state.sides[1].hand)
    activate = {"type": "activate", "creature": "1-brinescribe-adept-1", "ability": 0}
    events = game.act(1, activate)
    assert types(events) == ["AbilityActivated", "EffectsQueued", "PendingResolved", "CardsDrawn"]
    assert len(events[0].data["paid"]) == 2 and game.state.sides[1].rested == frozenset(events[0].data["paid"])
    assert len(game.state.sides[1].hand) == hand + 1
    assert not game.creature(1, "1-brinescribe-adept-1").rested
    game.act(1, activate)
    assert len(game.state.sides[1].rested) == 4 and len(game.state.sides[1].hand) == hand + 2
    assert activate not in game.legal(1)
