"""Rules revision 2: who chooses what pays a cost, a switch onto a
destroyed fort, and the cards that never worked. Each change applies to games of revision 2; a game
of revision 1 (stored before) plays as it always did, which each test checks beside it."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import pytest

from games.base import InvalidOptions, replace
from games.dragoborne import GAME
from games.dragoborne.cards import CARDS, CARDS_2, DECKS_2, cards_of, deck_keys
from games.dragoborne.costs import payment, payments, resources_for
from games.dragoborne.state import Side
from tests.games.dragoborne.scenario import Scenario, named, types

BANNER = {"red": "ember-standard", "yellow": "dawn-standard", "blue": "tide-standard"}


def _summons(game: Scenario, seat: int, card: str) -> list[dict]:  # type: ignore[type-arg]
    return [a for a in game.legal(seat) if a["type"] == "summon" and a["card"] == card]


# ---------------------------------------------------------------- who pays: the player chooses


def _two_yellow_twos(rules: int) -> Scenario:
    """Seat 0 (Emberguard: banners Red, Red, Yellow) places a Yellow card as a resource on its second
    turn: Red, Red, Yellow, Yellow standing, and two Sunspear Sentries (Yellow, cost 2) in hand."""
    game = Scenario(
        first=0,
        seat0={
            "hand": ["sunspear-sentry", "sunspear-sentry"],
            "draws": ["bastion-rite", "bastion-rite", "dawnshield-acolyte"],
        },
        rules=rules,
    )
    game.end_turn()
    game.end_turn(resource=True)
    colours = sorted(GAME.view(game.state, 0)["players"][0]["resources"], key=lambda r: r["id"])
    assert Counter(r["colour"] for r in colours) == {"red": 2, "yellow": 2}
    return game


def test_revision_2_the_player_chooses_the_resources_so_two_yellow_twos_both_pay() -> None:
    """'Play cards from hand by paying their Call/Cast Costs.'
    Red, Red, Yellow, Yellow pay two cost-2 Yellow cards, Yellow and Red each; the player
    chooses what rests, and each distinct choice is offered once."""
    game = _two_yellow_twos(rules=2)
    offered = _summons(game, 0, "0-sunspear-sentry-1")
    assert sorted({tuple(a["pay"]) for a in offered}) == [("red", "yellow"), ("yellow", "yellow")]
    assert len(offered) == 2 * 3, "one summon per distinct payment and fort"
    events = game.act(0, {"type": "summon", "card": "0-sunspear-sentry-1", "fort": 0, "pay": ["red", "yellow"]})
    assert sorted(_colour(r) for r in events[0].data["paid"]) == ["red", "yellow"]
    assert _summons(game, 0, "0-sunspear-sentry-2") == [
        {"type": "summon", "card": "0-sunspear-sentry-2", "fort": f, "pay": ["red", "yellow"]} for f in (0, 1, 2)
    ]
    game.act(0, {"type": "summon", "card": "0-sunspear-sentry-2", "fort": 1, "pay": ["red", "yellow"]})
    assert {c.id for c in game.state.sides[0].field} == {"0-sunspear-sentry-1", "0-sunspear-sentry-2"}


def test_revision_1_the_engine_rested_yellow_and_yellow_and_stranded_the_second() -> None:
    """'Play cards from hand by paying their Call/Cast Costs.'
    Revision 1, as stored games were played: the engine chose, and its choice left the
    second Yellow card unpayable though Yellow and Red twice would pay both."""
    game = _two_yellow_twos(rules=1)
    events = game.act(0, {"type": "summon", "card": "0-sunspear-sentry-1", "fort": 0})
    assert sorted(_colour(r) for r in events[0].data["paid"]) == ["yellow", "yellow"]
    assert _summons(game, 0, "0-sunspear-sentry-2") == []


@pytest.mark.parametrize("rules", [1, 2])
def test_emberguards_own_first_turn_pays_cinder_lancer_then_scorchling(rules: int) -> None:
    """'Play cards from hand by paying their Call/Cast Costs.'
    Emberguard's turn 1 (Red, Red, Yellow): Cinder Lancer (Red, 2) paid with Red and
    Yellow leaves Red for Scorchling (Red, 1). Revision 1's engine rested Red and Red and stranded it."""
    game = Scenario(first=0, seat0={"hand": ["cinder-lancer", "scorchling"]}, rules=rules)
    lancer = {"type": "summon", "card": "0-cinder-lancer-1", "fort": 0}
    if rules >= 2:
        assert sorted(tuple(a["pay"]) for a in _summons(game, 0, "0-cinder-lancer-1") if a["fort"] == 0) == [
            ("red", "red"),
            ("red", "yellow"),
        ]
        lancer["pay"] = ["red", "yellow"]
    game.act(0, lancer)
    scorchling = _summons(game, 0, "0-scorchling-1")
    if rules >= 2:
        assert scorchling and all(a["pay"] == ["red"] for a in scorchling)
        game.act(0, scorchling[0])
        assert len(game.state.sides[0].field) == 2
    else:
        assert scorchling == []


def _side(colours: tuple[str, ...]) -> Side:
    copies: Counter[str] = Counter()
    resources = []
    for colour in colours:
        copies[colour] += 1
        resources.append(f"0-{BANNER[colour]}-{copies[colour]}")
    return Side(deck=(), resources=tuple(resources))


def _standing(side: Side) -> list[str]:
    return [r for r in side.resources if r not in side.rested]


def _colour(resource: str) -> str:
    return CARDS[resource.split("-", 1)[1].rsplit("-", 1)[0]].colour


def _all_payable(side: Side, plays: tuple[tuple[str, int], ...]) -> bool:
    """The oracle, blind to how the engine pays: distinct resources for every play, each set of
    the play's size holding one of its colour."""
    if not plays:
        return True
    (colour, cost), rest = plays[0], plays[1:]
    for chosen in combinations(_standing(side), cost):
        if any(_colour(r) == colour for r in chosen) and _all_payable(
            replace(side, rested=side.rested | set(chosen)), rest
        ):
            return True
    return False


def _offered_play_all(side: Side, plays: tuple[tuple[str, int], ...]) -> bool:
    """Some order of the plays, and for each some payment revision 2 offers, plays them all."""
    if not plays:
        return True
    for index, (colour, cost) in enumerate(plays):
        rest = plays[:index] + plays[index + 1 :]
        for paid in payments(side, colour, cost):
            rested = side.rested | set(resources_for(side, paid))
            if _offered_play_all(replace(side, rested=rested), rest):
                return True
    return False


def _engine_play_all(side: Side, plays: tuple[tuple[str, int], ...]) -> bool:
    """Some order of the plays that revision 1's engine choice pays in full."""
    if not plays:
        return True
    for index, (colour, cost) in enumerate(plays):
        paid = payment(side, colour, cost)
        if paid is not None and _engine_play_all(
            replace(side, rested=side.rested | set(paid)), plays[:index] + plays[index + 1 :]
        ):
            return True
    return False


def test_exhaustively_on_small_hands_every_payable_set_of_plays_is_offered_a_way_to_pay() -> None:
    """'Play cards from hand by paying their Call/Cast Costs.'
    Every set of up to three plays (cost 1-3, colour Red, Yellow or Blue) that up to
    four resources of those colours can pay is paid by some order and some offered payment; and
    the offered payments are exactly the distinct sets of colours that pay, each once."""
    colours = ("red", "yellow", "blue")
    plays_pool = [(colour, cost) for colour in colours for cost in (1, 2, 3)]
    blocked_in_revision_1 = 0
    checked = 0
    for size in range(1, 5):
        for held in combinations_with_replacement(colours, size):
            side = _side(held)
            for colour in colours:
                for cost in range(1, size + 1):
                    ways = {
                        tuple(sorted(_colour(r) for r in chosen))
                        for chosen in combinations(side.resources, cost)
                        if any(_colour(r) == colour for r in chosen)
                    }
                    offered = [tuple(p) for p in payments(side, colour, cost)]
                    assert sorted(offered) == sorted(ways), (held, colour, cost)
            for count in range(1, 4):
                for plays in combinations_with_replacement(plays_pool, count):
                    if not _all_payable(side, plays):
                        continue
                    checked += 1
                    assert _offered_play_all(side, plays), (held, plays)
                    blocked_in_revision_1 += not _engine_play_all(side, plays)
    assert checked > 400
    assert blocked_in_revision_1 > 0, "revision 1's engine choice blocked some of them"


# ---------------------------------------------------------------- switch


def _fort_zero_falls(rules: int) -> Scenario:
    """Seat 0's Scorchlings hold forts 0 and 1; seat 1's break both barriers of fort 0 (no block).
    Seat 0's second turn follows, fort 0 destroyed with a Scorchling on it."""
    game = Scenario(
        first=0,
        seat0={"hand": ["scorchling", "scorchling"]},
        seat1={"hand": ["scorchling", "scorchling"]},
        decks=("emberguard", "emberguard"),
        rules=rules,
    )
    game.act(0, {"type": "summon", "card": "0-scorchling-1", "fort": 0})
    game.act(0, {"type": "summon", "card": "0-scorchling-2", "fort": 1})
    game.end_turn()
    game.act(1, {"type": "summon", "card": "1-scorchling-1", "fort": 0})
    game.act(1, {"type": "summon", "card": "1-scorchling-2", "fort": 1})
    game.act(1, {"type": "combat"})
    for attacker in ("1-scorchling-1", "1-scorchling-2"):
        game.act(1, {"type": "attack", "creature": attacker, "fort": 0})
        game.act(0, {"type": "no_block"})
        game.act(0, {"type": "take"})
    assert not game.state.sides[0].forts[0]
    game.end_turn()
    assert game.state.active == 0 and game.state.phase == "main"
    return game


@pytest.mark.parametrize("rules", [1, 2])
def test_a_switch_cannot_put_a_creature_onto_a_destroyed_fort(rules: int) -> None:
    """'If a Fort has no more barriers, that Fort is considered destroyed.' A move or a summon goes
    only onto a fort that stands; from revision 2 a switch too (revision 1 let it)."""
    game = _fort_zero_falls(rules)
    legal = game.legal(0)
    assert not [a for a in legal if a["type"] in ("move", "summon") and a.get("fort") == 0]
    switch = {"type": "switch", "creatures": ["0-scorchling-1", "0-scorchling-2"]}
    assert (switch in legal) == (rules == 1)
    assert game.creature(0, "0-scorchling-1").fort == 0, "a creature on a fort that falls stays there"
    assert {"type": "move", "creature": "0-scorchling-1", "fort": 2} in legal


# ---------------------------------------------------------------- the cards that never worked


def test_rally_horn_works_in_ordinary_play() -> None:
    """Rally Horn, revision 2: 'Reroll one of your unassigned dice, then draw a card.' (revision 1's
    'Stand a creature of yours' had nothing to stand in the Main Phase: creatures rest in combat)."""
    game = Scenario(first=0, seat0={"hand": ["rally-horn"]})
    cast = [a for a in game.legal(0) if a["type"] == "cast"]
    assert cast == [{"type": "cast", "card": "0-rally-horn-1", "pay": ["yellow"]}]
    events = game.act(0, cast[0])
    assert "DieRerolled" not in types(events), "three unassigned dice: the player chooses"
    game.act(0, {"type": "target", "target": 2})
    assert types(game.play.events[-3:]) == ["DieRerolled", "PendingResolved", "CardsDrawn"]
    old = Scenario(first=0, seat0={"hand": ["rally-horn"]}, rules=1)
    assert not [a for a in old.legal(0) if a["type"] == "cast"], "revision 1: nothing of yours rests"


def _creature_on_each_side(card: str, dice: list[str]) -> Scenario:
    deck = {"cards": DECKS_2["emberguard"]["cards"], "banners": ["ember-standard", "ember-standard", "dawn-standard"]}
    game = Scenario(
        first=1,
        seat0={"hand": [card]},
        seat1={"hand": ["coral-skirmisher"]},
        decks=({**deck, "dice": dice}, "tidecrypt"),
    )
    game.act(1, {"type": "summon", "card": "1-coral-skirmisher-1", "fort": 0})
    game.end_turn(resource=True)
    game.act(0, {"type": "summon", "card": f"0-{card}-1", "fort": 0})
    return game


def test_ashen_berserker_spends_a_red_die_of_the_players_choice() -> None:
    """Ashen Berserker, revision 2: '[ACT] Spend a Red die: deal 1 damage to an enemy creature.' The
    die that pays is the player's choice among dice that differ (rulebook: dice come in colours)."""
    game = _creature_on_each_side("ashen-berserker", ["red", "red", "yellow"])
    dice = game.state.sides[0].dice
    offered = [a for a in game.legal(0) if a["type"] == "activate"]
    reds = {(dice[i].colour, dice[i].value) for i in range(3) if dice[i].colour == "red"}
    assert len(offered) == len(reds) and {dice[a["die"]].colour for a in offered} == {"red"}
    events = game.act(0, offered[-1])
    assert game.state.sides[0].dice[offered[-1]["die"]].use == "spent"
    assert named(events, "CreatureDamaged")[0].data == {"seat": 1, "creature": "1-coral-skirmisher-1", "amount": 1}


def test_radiant_paladin_spends_a_white_die_any_colour() -> None:
    """'When a card asks for a white die, any colored die can be used for its cost.' Radiant Paladin,
    revision 2: '[ACT] Spend a die of any colour (white): put the top card of your deck on a fort of
    yours as a barrier.'"""
    game = _creature_on_each_side("radiant-paladin", ["red", "red", "yellow"])
    dice = game.state.sides[0].dice
    offered = [a for a in game.legal(0) if a["type"] == "activate"]
    assert {a["die"] for a in offered} <= {0, 1, 2}
    assert len(offered) == len({(d.colour, d.value) for d in dice})
    yellow = next(a for a in offered if dice[a["die"]].colour == "yellow")
    barriers = sum(len(pile) for pile in game.state.sides[0].forts)
    game.act(0, yellow)
    if game.state.pending:
        game.act(0, {"type": "target", "target": 1})
    assert sum(len(pile) for pile in game.state.sides[0].forts) == barriers + 1


def test_soul_rend_and_rootsnare_do_more_than_the_cheaper_cards_they_copied() -> None:
    """Revision 2: Soul Rend (3) destroys EDR 4 or less, where Magma Rupture (2) stops at 3; Rootsnare
    (2) rests two enemy creatures, Grasp of Dusk (1) one."""
    assert CARDS["soul-rend"].effects == CARDS["magma-rupture"].effects, "revision 1, as the issue found"
    assert [e.max_edr for e in CARDS_2["soul-rend"].effects] == [4]
    assert [e.max_edr for e in CARDS_2["magma-rupture"].effects] == [3]
    assert [e.op for e in CARDS_2["rootsnare"].effects] == ["rest", "rest"]
    assert [e.op for e in CARDS_2["grasp-of-dusk"].effects] == ["rest"]


def _at_least_as_good(better: object, worse: object) -> bool:
    """Every printed feature of ``worse`` is in ``better`` with a number at least as good."""
    b, w = cards_of(2)[better], cards_of(2)[worse]  # type: ignore[index]
    if b.type != w.type or b.cost > w.cost or b.atk < w.atk or b.edr < w.edr:
        return False
    if b.abilities != w.abilities or b.cross != w.cross:
        return False
    for mine, theirs in ((b.effects, w.effects), (b.burst, w.burst)):
        if [e.op for e in mine] != [e.op for e in theirs]:
            return False
        for e, f in zip(mine, theirs, strict=True):
            if (e.amount, e.max_edr, e.card_type, e.colour) != (f.amount, f.max_edr, f.card_type, f.colour) and (
                e.amount < f.amount or e.max_edr < f.max_edr or (e.card_type, e.colour) != (f.card_type, f.colour)
            ):
                return False
    return True


def test_no_card_is_strictly_dominated_by_another_of_its_set() -> None:
    """No card of the pool does exactly what another does, or less, for as much or more
    (colour aside, as Soul Rend and Magma Rupture showed)."""
    pool = [k for k, c in CARDS_2.items() if c.type != "banner"]
    dominated = [(w, b) for w in pool for b in pool if w != b and _at_least_as_good(b, w)]
    assert dominated == []


def test_fort_bursts_are_varied() -> None:
    """36 of 40 cards shared one Fort Burst; now no Fort Burst is on more than a third of
    the cards that have one, and the decks hold at least five different ones each."""
    bursts = Counter(c.burst for c in CARDS_2.values() if c.burst)
    assert max(bursts.values()) * 3 <= sum(bursts.values()), bursts
    for deck in DECKS_2.values():
        assert len({CARDS_2[k].burst for k in deck_keys(deck)}) >= 5, deck["key"]


def test_revision_2_keeps_every_cards_name_type_and_colour() -> None:
    """A resource pays as its card's colour and the per-card table names cards: revision 2 changes
    what cards do, never what they are."""
    for key, card in CARDS_2.items():
        assert (card.name, card.type, card.colour) == (CARDS[key].name, CARDS[key].type, CARDS[key].colour)


# ---------------------------------------------------------------- revisions


def test_a_game_records_its_revision_and_revision_1_reads_the_first_pool() -> None:
    """A game of revision 2 says so in its GameStarted (a game created now is of revision 3:
    test_dragoborne_revision3.py); a game of revision 1 (every stored game) has none there and
    reads cards.json as it was."""
    new = Scenario(first=0, rules=2)
    old = Scenario(first=0, rules=1)
    assert new.state.rules == 2 and old.state.rules == 1
    assert new.play.events[0].data["rules"] == 2 and "rules" not in old.play.events[0].data
    assert cards_of(1) is CARDS and cards_of(1)["rally-horn"].effects[0].op == "stand"


def test_card_names_and_action_cards() -> None:
    """bench.balance's per-card table: every card dealt, by name; the card an action plays or uses."""
    game = Scenario(first=0, seat0={"hand": ["cinder-lancer"]})
    names = GAME.card_names(game.state)
    assert "Cinder Lancer" in names and "Tidal Insight" in names and "Ember Standard" not in names
    summon = _summons(game, 0, "0-cinder-lancer-1")[0]
    assert GAME.action_cards(game.state, 0, summon) == ("Cinder Lancer",)
    assert GAME.action_cards(game.state, 0, {"type": "end_turn"}) == ()


# ---------------------------------------------------------------- the rulebook's worked example


def test_worked_example_two_yellow_dice_and_one_red_die_play_two_yellow_banners_and_one_red() -> None:
    """'if you have 2 Yellow dice and 1 Red die, you must play 2 Yellow Banners and 1 Red Banner':
    such a deck plays, its forts take the banners' colours, and under revision 2 a Yellow die
    shields a Yellow fort only; with the banners the other way round it is refused."""
    cards = DECKS_2["emberguard"]["cards"]
    dice = ["yellow", "yellow", "red"]
    example = {"cards": cards, "banners": ["dawn-standard", "dawn-standard", "ember-standard"], "dice": dice}
    game = Scenario(first=0, decks=(example, "tidecrypt"), rules=2)
    forts = GAME.view(game.state, 0)["players"][0]["forts"]
    assert [f["colour"] for f in forts] == ["yellow", "yellow", "red"]
    shields = {(a["die"], a["fort"]) for a in game.legal(0) if a["type"] == "shield"}
    assert shields == {(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)}
    wrong = {"cards": cards, "banners": ["dawn-standard", "ember-standard", "ember-standard"], "dice": dice}
    with pytest.raises(InvalidOptions, match="each banner must match the colour of a die"):
        GAME.validate_options({"decks": [wrong, "tidecrypt"]}, 2)
