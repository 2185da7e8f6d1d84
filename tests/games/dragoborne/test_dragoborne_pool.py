"""The card pool and the pre-built decks as data: read from the JSON
files beside the game, checked against what the issue asks of them and against what the engine
can interpret."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

from games.dragoborne.cards import (
    CARDS,
    COLOURS,
    COPIES_MAXIMUM,
    DECK_MINIMUM,
    DECKS,
    TARGETED,
    UNTARGETED,
    deck_keys,
    deck_problems,
)

PRIMITIVES = {"draw", "damage", "destroy", "barrier", "stand", "rest", "bounce", "reroll", "search"}
TRIGGERS = {"summoned", "attacks", "destroyed", "barrier_broken"}


def _raw(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads(resources.files("games.dragoborne").joinpath(name).read_text(encoding="utf-8"))


def _every_effect() -> list[tuple[str, str]]:
    """(card key, op) of every effect printed anywhere: spells, abilities, Fort Bursts."""
    out = []
    for card in CARDS.values():
        effects = [*card.effects, *card.burst, *(e for a in card.abilities for e in a.effects)]
        out += [(card.key, e.op) for e in effects]
    return out


def test_at_least_36_distinct_cards_across_the_five_colours() -> None:
    """'At least 36 distinct cards across the five colours (Red, Blue, Yellow, Green, Black)'."""
    raw = _raw("cards.json")["cards"]
    assert len({c["key"] for c in raw}) == len(raw) == len(CARDS) >= 36
    assert len({c["name"] for c in raw}) == len(raw), "every card has a name of its own"
    playable = [c for c in CARDS.values() if c.type != "banner"]
    assert len(playable) >= 36
    assert {c.colour for c in playable} == set(COLOURS)
    per_colour = Counter(c.colour for c in playable)
    assert min(per_colour.values()) >= 5, per_colour


def test_creatures_spells_and_the_five_banners() -> None:
    """'creatures with cost, colour, ATK, EDR and Dragocross bonuses by colour and value range;
    spells; and the five banners.'"""
    kinds = Counter(c.type for c in CARDS.values())
    assert set(kinds) == {"creature", "spell", "banner"}
    assert sorted(c.colour for c in CARDS.values() if c.type == "banner") == sorted(COLOURS)
    creatures = [c for c in CARDS.values() if c.type == "creature"]
    for card in creatures:
        assert card.cost >= 1 and card.atk >= 0 and card.edr >= 0 and card.colour in COLOURS, card.key
        for bonus in card.cross:
            assert bonus.colour in COLOURS and 1 <= bonus.low <= bonus.high <= 6, card.key
    assert sum(1 for c in creatures if c.cross) >= 10
    assert all(c.effects and not c.abilities for c in CARDS.values() if c.type == "spell")


def test_abilities_are_data_built_from_every_primitive_and_timing() -> None:
    """'Abilities are data, built from a small set of effect primitives (draw, deal damage to a
    creature, destroy a creature with EDR <= X, add a barrier to a fort, stand or rest a creature,
    return to hand, reroll a die, search the deck); ability timings [ACT] (with a cost such as
    resting), [AUTO] (a trigger: when summoned, when it attacks, when destroyed, when a barrier is
    broken) and [CONT]'."""
    ops = {op for _, op in _every_effect()}
    assert ops == PRIMITIVES == set(TARGETED) | set(UNTARGETED)
    abilities = [a for c in CARDS.values() for a in c.abilities]
    assert {a.timing for a in abilities} == {"ACT", "AUTO", "CONT"}
    assert {a.trigger for a in abilities if a.timing == "AUTO"} == TRIGGERS
    acts = [a for a in abilities if a.timing == "ACT"]
    assert all(a.rest_cost or a.resource_cost or a.die_cost for a in acts), "every [ACT] has a cost"
    assert any(a.rest_cost for a in acts) and any(a.resource_cost for a in acts) and any(a.die_cost for a in acts)
    conts = [a for a in abilities if a.timing == "CONT"]
    assert {a.scope for a in conts} == {"fort", "crossed"}, "every [CONT] scope is one the engine knows, each used"
    assert all((a.atk or a.edr) and not a.effects for a in conts)
    limits = [e.max_edr for c in CARDS.values() for e in (*c.effects, *c.burst) if e.op == "destroy"]
    limits += [e.max_edr for c in CARDS.values() for a in c.abilities for e in a.effects if e.op == "destroy"]
    assert limits and min(limits) >= 1, "destroy names its EDR limit X"


def test_fort_burst_on_at_least_eight_cards() -> None:
    """'and Fort Burst on at least eight cards.' Creatures and spells both carry one."""
    bursting = [c for c in CARDS.values() if c.burst]
    assert len(bursting) >= 8
    assert {c.type for c in bursting} == {"creature", "spell"}
    assert all("Fort Burst" in c.text for c in bursting)
    assert not [c.key for c in CARDS.values() if not c.burst and "Fort Burst" in c.text]


def test_every_card_and_deck_says_it_is_the_projects_own_design() -> None:
    """'Every card says that it is the project's own design.'"""
    cards = _raw("cards.json")
    assert "own design" in cards["about"]
    for raw in cards["cards"]:
        assert raw["source"].startswith("ours") and "own design" in raw["source"], raw["key"]
    for deck in _raw("decks.json")["decks"]:
        assert deck["source"] == "ours", deck["key"]


def test_three_prebuilt_fifty_card_decks_of_different_colour_pairs() -> None:
    """'At least three pre-built legal decks of 50 cards with their banners and dice, with different
    colour pairs.'"""
    assert len(DECKS) >= 3
    pairs = set()
    for key, deck in DECKS.items():
        listed = {"cards": deck["cards"], "banners": deck["banners"], "dice": deck["dice"]}
        assert deck_problems(key, key) == [] and deck_problems(listed, key) == []
        keys = deck_keys(deck)
        assert len(keys) == DECK_MINIMUM
        assert max(Counter(keys).values()) <= COPIES_MAXIMUM
        assert all(CARDS[k].type != "banner" for k in keys)
        colours = frozenset(deck["colours"])
        assert len(colours) == 2 and colours == {CARDS[b].colour for b in deck["banners"]} == set(deck["dice"])
        pairs.add(colours)
    assert len(pairs) == len(DECKS)
