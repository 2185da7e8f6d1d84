"""Rules revision 3: the rulebook's own words as the defaults. The Main Phase lists 'Switch the
position of creatures or move creatures to different forts' with no limit, so a creature moves
and switches as often as its player likes; Dragoshields 'are placed in front of forts', so a die
shields any standing fort of its owner whatever its colour, one a fort ('the Dragoshield is
immediately chosen as the defender'). Revision 2's reading of the shields stays as the option
``shields_match_banners``. Games of revisions 1 and 2 play, replay and audit as before; the bots
move a creature once a turn (their policy, not a rule), so their turns end."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import fakeredis
import pytest

from core.config import Config
from core.tooling import audit_game, import_lines
from games.base import IllegalAction, InvalidOptions, rules_of
from games.bots import greedy_bot, random_bot
from games.dragoborne import GAME
from games.dragoborne.bot import considered
from games.dragoborne.cards import CARDS_2, card_of, cards_of
from games.dragoborne.state import State
from games.ismcts import search
from games.play import new_game, step
from projections.audit import audit_entries
from stores.platform import Platform
from tests.games.dragoborne.scenario import Scenario, first_seed, types
from tests.games.dragoborne.test_dragoborne_revision2 import _fort_zero_falls

DATA = Path(__file__).resolve().parent / "data"
HOUNDS = {"hand": ["emberhound", "emberhound", "dawnshield-acolyte"]}
MATCHING: dict[str, Any] = {"options": {"shields_match_banners": True}}


def refusal(game: Scenario, seat: int, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as refused:
        GAME.decide(game.state, seat, action, random.Random(0))
    return refused.value.reason


def _moves(game: Scenario, creature: str) -> list[dict[str, Any]]:
    return [
        a
        for a in game.legal(game.state.active)
        if a["type"] == "move" and a["creature"] == creature or a["type"] == "switch" and creature in a["creatures"]
    ]


# ---------------------------------------------------------------- the revision a game is played under


def test_a_new_game_is_of_revision_3_and_says_so() -> None:
    """A game of revision 3 (a new game is of revision 4, which keeps revision 3's rules and
    changes the pool only); its GameStarted names the revision, and the option
    shields_match_banners only when it is on. Revision 3 plays revision 2's pool."""
    assert GAME.rules_revision == 4
    assert Scenario(first=0).state.rules == 4
    new = Scenario(first=0, rules=3)
    assert new.state.rules == 3 and not new.state.shields_match_banners
    assert new.play.events[0].data["rules"] == 3 and "shields_match_banners" not in new.play.events[0].data
    matching = Scenario(first=0, **MATCHING)
    assert matching.play.events[0].data["shields_match_banners"] is True and matching.state.shields_match_banners
    assert cards_of(3) is CARDS_2 and card_of("0-rally-horn-1", 3) == CARDS_2["rally-horn"]


@pytest.mark.parametrize("rules", [1, 2])
def test_the_option_shields_match_banners_is_refused_under_revisions_1_and_2(rules: int) -> None:
    """Revisions 1 and 2 always put a Dragoshield before the fort of its die's colour: the option
    that keeps that reading under revision 3 is refused there, saying why (as dragon-fortress's
    options of revision 2 are under revision 1); off, it is accepted."""
    with pytest.raises(InvalidOptions) as refused:
        GAME.validate_options({"rules": rules, "shields_match_banners": True}, 2)
    assert refused.value.problems == [
        f"Option 'shields_match_banners' is a reading of rules revision 3; under revision {rules} "
        "a Dragoshield already goes only before the fort whose banner matches its die."
    ]
    assert GAME.validate_options({"rules": rules, "shields_match_banners": False}, 2)["rules"] == rules
    checked = GAME.validate_options({"shields_match_banners": True}, 2)
    assert checked["rules"] == GAME.rules_revision and checked["shields_match_banners"] is True
    assert GAME.validate_options({"rules": 3, "shields_match_banners": True}, 2)["shields_match_banners"] is True
    (option,) = [o for o in GAME.options if o.name == "shields_match_banners"]
    assert option.default is False and option.description.startswith("Rules revision 3 only:")


# ---------------------------------------------------------------- moving creatures


def test_revision_3_a_creature_moves_and_switches_any_number_of_times_a_turn() -> None:
    """'Switch the position of creatures or move creatures to different forts.' The Main Phase sets
    no limit: one creature moves twice, moves back, then switches, in one turn; the view still
    says it has moved."""
    game = Scenario(first=0, seat0=HOUNDS)
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.act(0, {"type": "summon", "card": "0-dawnshield-acolyte-1", "fort": 1})
    game.act(0, {"type": "move", "creature": "0-emberhound-1", "fort": 2})
    game.act(0, {"type": "move", "creature": "0-emberhound-1", "fort": 0})
    assert game.creature(0, "0-emberhound-1").fort == 0 and game.creature(0, "0-emberhound-1").moved
    game.act(0, {"type": "move", "creature": "0-emberhound-1", "fort": 2})
    game.act(0, {"type": "switch", "creatures": ["0-emberhound-1", "0-dawnshield-acolyte-1"]})
    assert game.creature(0, "0-emberhound-1").fort == 1 and game.creature(0, "0-dawnshield-acolyte-1").fort == 2
    assert {"type": "move", "creature": "0-emberhound-1", "fort": 0} in game.legal(0)
    seen = {c["id"]: c["moved"] for c in GAME.view(game.state, 1)["players"][0]["creatures"]}
    assert seen == {"0-emberhound-1": True, "0-dawnshield-acolyte-1": True}
    game.end_turn()
    game.end_turn()
    assert not game.creature(0, "0-emberhound-1").moved, "a new turn, nothing has moved yet"


def test_revision_2_a_creature_that_moved_is_refused_a_second_move_saying_why() -> None:
    """Revision 2 (stored games) read the same sentence as once a turn: the second move of the
    same creature is not offered, and is refused with the reason."""
    game = Scenario(first=0, seat0=HOUNDS, rules=2)
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.act(0, {"type": "move", "creature": "0-emberhound-1", "fort": 2})
    assert _moves(game, "0-emberhound-1") == []
    assert refusal(game, 0, {"type": "move", "creature": "0-emberhound-1", "fort": 0}) == (
        "That creature has already moved or switched this turn; under rules revision 2 a creature "
        "moves once a turn (from revision 3 there is no limit)."
    )


def test_revision_3_still_holds_two_creatures_a_fort_and_moves_only_onto_a_standing_fort() -> None:
    """'Each fort may have up to two creatures on top of it.' and 'If a Fort has no more barriers,
    that Fort is considered destroyed.': a move never fills a fort past two or reaches a destroyed
    fort, however many moves came before; each refusal says why."""
    game = Scenario(first=0, seat0=HOUNDS)
    for n in (1, 2):
        game.act(0, {"type": "summon", "card": f"0-emberhound-{n}", "fort": 0})
    game.act(0, {"type": "summon", "card": "0-dawnshield-acolyte-1", "fort": 1})
    game.act(0, {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 2})
    game.act(0, {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 1})
    assert {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 0} not in game.legal(0)
    assert (
        refusal(game, 0, {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 0})
        == "Fort 0 already holds two creatures, the most a fort may hold."
    )
    assert (
        refusal(game, 0, {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 1})
        == "That creature is already on fort 1."
    )
    assert (
        refusal(game, 0, {"type": "switch", "creatures": ["0-emberhound-1", "0-emberhound-2"]})
        == "Those creatures are on the same fort; a switch trades creatures on different forts."
    )
    fallen = _fort_zero_falls(rules=3)
    fallen.act(0, {"type": "move", "creature": "0-scorchling-1", "fort": 2})
    fallen.act(0, {"type": "move", "creature": "0-scorchling-1", "fort": 1})
    assert not [a for a in fallen.legal(0) if a["type"] == "move" and a["fort"] == 0]
    assert (
        refusal(fallen, 0, {"type": "move", "creature": "0-scorchling-1", "fort": 0})
        == "A creature moves only onto a fort of yours that still stands."
    )


# ---------------------------------------------------------------- Dragoshields


def test_revision_3_a_dragoshield_goes_before_any_standing_fort_whatever_its_colour() -> None:
    """'Dragoshield - These can be used to defend forts from enemy attacks and are placed in front
    of forts.' Emberguard's Red die stands before its Yellow fort; every free die is offered before
    every standing fort without a Dragoshield."""
    game = Scenario(first=0)
    shields = {(a["die"], a["fort"]) for a in game.legal(0) if a["type"] == "shield"}
    assert shields == {(die, fort) for die in range(3) for fort in range(3)}
    colours = [f["colour"] for f in GAME.view(game.state, 0)["players"][0]["forts"]]
    assert colours == ["red", "red", "yellow"] and game.state.sides[0].dice[0].colour == "red"
    game.act(0, {"type": "shield", "die": 0, "fort": 2})
    assert game.state.sides[0].shield_at(2) == 0


def test_revision_3_one_dragoshield_a_fort() -> None:
    """'If there is a Dragoshield active in front of the fort, the Dragoshield is immediately chosen
    as the defender.': the Dragoshield of a fort, chosen with no choice made, so one a fort. A
    second die before a shielded fort is not offered and is refused saying why."""
    game = Scenario(first=0)
    game.act(0, {"type": "shield", "die": 0, "fort": 2})
    assert not [a for a in game.legal(0) if a["type"] == "shield" and a["fort"] == 2]
    assert refusal(game, 0, {"type": "shield", "die": 2, "fort": 2}) == (
        "Fort 2 already has a Dragoshield; a fort has one at a time."
    )
    assert refusal(game, 0, {"type": "shield", "die": 0, "fort": 1}) == "Die 0 is already used until your next roll."


@pytest.mark.parametrize(
    ("reading", "why"),
    [({"rules": 2}, "under rules revision 2"), (MATCHING, "with the option 'shields_match_banners'")],
)
def test_a_dragoshield_before_a_fort_of_another_colour_is_refused_under_revision_2_and_the_option(
    reading: dict[str, Any], why: str
) -> None:
    """Revision 2's reading ('placed in front of forts': the fort whose banner has the die's colour),
    kept under revision 3 by the option shields_match_banners: a Red die before the Yellow fort is
    not offered and is refused, naming the colours and the rule."""
    game = Scenario(first=0, **reading)
    assert {"type": "shield", "die": 0, "fort": 2} not in game.legal(0)
    assert refusal(game, 0, {"type": "shield", "die": 0, "fort": 2}) == (
        f"Die 0 is red and fort 2's banner is yellow: {why} a Dragoshield goes only before a fort "
        "whose banner matches its die."
    )
    shields = {(a["die"], a["fort"]) for a in game.legal(0) if a["type"] == "shield"}
    assert shields == {(0, 0), (0, 1), (1, 0), (1, 1), (2, 2)}


def _off_colour_shield_holds(game: Scenario) -> bool:
    """Seat 1 (Tidecrypt: forts Blue, Black, Black) plays its turn 1; seat 0 summons an Emberhound
    (ATK 2); on seat 1's turn 2 its Blue die 0 rolls 2 or more."""
    game.end_turn()
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.end_turn()
    return game.state.sides[1].dice[0].value >= 2


def test_revision_3_an_off_colour_dragoshield_defends_its_fort() -> None:
    """'If there is a Dragoshield active in front of the fort, the Dragoshield is immediately chosen
    as the defender.' Tidecrypt's Blue die before its Black fort meets the attack on that fort."""
    game = first_seed(_off_colour_shield_holds, first=1, seat0={"hand": ["emberhound"] * 3})
    assert GAME.view(game.state, 1)["players"][1]["forts"][1]["colour"] == "black"
    game.act(1, {"type": "shield", "die": 0, "fort": 1})
    game.end_turn()
    game.act(0, {"type": "combat"})
    events = game.act(0, {"type": "attack", "creature": "0-emberhound-1", "fort": 1})
    assert "AttackBlocked" in types(events) and "BarrierBroken" not in types(events)
    assert [e.data for e in events if e.type == "AttackBlocked"] == [{"seat": 1, "die": 0}]
    assert len(game.state.sides[1].forts[1]) == 2


# ---------------------------------------------------------------- stored games keep their rules


def lines(name: str) -> list[str]:
    return (DATA / name).read_text().splitlines()


@pytest.mark.parametrize("name", ["rules2-finished.ndjson", "rules2-in-play.ndjson"])
def test_a_game_stored_under_revision_2_audits_clean(name: str) -> None:
    """Games played under revision 2 before revision 3 existed (data/README.md), with dozens of
    moves and Dragoshields: every action is re-decided to the recorded events."""
    header, *events = lines(name)
    assert json.loads(events[0])["data"]["options"]["rules"] == 2
    report = audit_entries(
        json.loads(header)["game"], list(enumerate(events, start=1)), seed=json.loads(header).get("seed")
    )
    assert report.ok, report.as_json()
    assert "re-decided" in report.checks["actions"]


def _offers_only_revision_2(state: State, seat: int, legal: list[dict[str, Any]]) -> bool:
    side = state.sides[seat]
    colours = [card_of(b, state.rules).colour for b in side.banners]
    moved = {c.id for c in side.field if c.moved}
    for action in legal:
        if action["type"] == "shield" and side.dice[action["die"]].colour != colours[action["fort"]]:
            return False
        if action["type"] == "move" and action["creature"] in moved:
            return False
        if action["type"] == "switch" and moved & set(action["creatures"]):
            return False
    return True


def test_a_game_in_play_under_revision_2_goes_on_under_it() -> None:
    """The game in play goes on under revision 2: never a second move of a creature in a turn, never
    a Dragoshield before a fort of another colour; it still audits clean."""
    platform = Platform(Config(redis_url="fake", inline_jobs=True), fakeredis.FakeRedis())
    game_id, _ = import_lines(platform, lines("rules2-in-play.ndjson"))
    table = platform.handler.load(game_id)
    assert table.status == "active" and rules_of(table.options) == 2
    rng = random.Random("rules2-on")
    for _ in range(120):
        if table.status != "active":
            break
        seat = min(table.to_act())
        legal = table.game.legal_actions(table.state, seat)
        assert _offers_only_revision_2(table.state, seat, legal), legal
        wanted = [a for a in legal if a["type"] in ("move", "switch", "shield")]
        action = rng.choice(wanted or legal)
        table = platform.handler.act(game_id, seat, action, table.version).table
    assert audit_game(platform, game_id).ok


# ---------------------------------------------------------------- the bots end their turns


def test_the_bots_consider_a_creature_s_move_once_a_turn_though_the_rules_allow_more() -> None:
    """The bots' policy (bot.considered), not a rule: once a creature has moved this turn a bot
    leaves out its moves and switches, which stay legal for a player."""
    game = Scenario(first=0, seat0=HOUNDS)
    game.act(0, {"type": "summon", "card": "0-emberhound-1", "fort": 0})
    game.act(0, {"type": "summon", "card": "0-dawnshield-acolyte-1", "fort": 1})
    legal = game.legal(0)
    assert considered(game.state, 0, legal) == legal, "nothing has moved: every action"
    game.act(0, {"type": "move", "creature": "0-emberhound-1", "fort": 2})
    legal = game.legal(0)
    assert _moves(game, "0-emberhound-1"), "the rules allow the hound to move again"
    kept = considered(game.state, 0, legal)
    assert [a for a in legal if a not in kept] == _moves(game, "0-emberhound-1")
    assert {"type": "move", "creature": "0-dawnshield-acolyte-1", "fort": 0} in kept
    assert {"type": "combat"} in kept and {"type": "end_turn"} in kept


def _play_bots(bot: Any, pairing: tuple[str, str], seed: int, bound: int) -> int:
    """A game of ``bot`` on both seats; the number of actions it took. Asserts that no main phase
    moved a creature twice and that the game ended within ``bound`` actions."""
    rng = random.Random(f"bots-{pairing}-{seed}")
    play = new_game(GAME, 2, {"decks": list(pairing)}, rng)
    assert play.state.rules == GAME.rules_revision >= 3
    for count in range(bound):
        if GAME.outcome(play.state) is not None:
            return count
        seat = min(GAME.to_act(play.state))
        action = bot(GAME, play.state, seat, rng)
        assert not _moved_twice(play.state, seat, action), f"{bot.__name__} moved a creature twice: {action}"
        step(GAME, play, seat, action, rng)
    raise AssertionError(f"{bot.__name__} did not end a game within {bound} actions")


PAIRINGS = [("emberguard", "thornwall"), ("thornwall", "tidecrypt"), ("tidecrypt", "emberguard")]


@pytest.mark.parametrize("pairing", PAIRINGS, ids=["-".join(p) for p in PAIRINGS])
def test_greedy_and_random_bots_end_their_turns_and_their_games(pairing: tuple[str, str]) -> None:
    """Under revision 3's unlimited moves the greedy bot (the turn timer's autoplay) and the random
    bot still end every turn and every game: two games each, within 1,500 actions (greedy games
    take about 200, random ones about 300)."""
    for seed in range(2):
        assert _play_bots(greedy_bot, pairing, seed, 1_500) > 0
        assert _play_bots(random_bot, pairing, seed, 1_500) > 0


def _moved_twice(state: State, seat: int, action: dict[str, Any]) -> bool:
    """Whether ``action`` moves or switches a creature that has moved this turn."""
    if action["type"] not in ("move", "switch"):
        return False
    named = [action["creature"]] if action["type"] == "move" else action["creatures"]
    return not {c.id for c in state.sides[seat].field if c.moved}.isdisjoint(named)


@pytest.mark.parametrize("seed", [0, 1])
def test_ismcts_ends_a_main_phase_without_moving_a_creature_twice(seed: int) -> None:
    """ISMCTS (its prior, tree and rollouts keep to the considered actions) plays seat 0's main
    phase of turn 3 to its end, with three creatures that could move for ever. (Without the
    policy it moved them 18 and 9 times in these two main phases; over the first twelve turns
    of three games, 24,129 of its 24,485 decisions were a second move.)"""
    game = Scenario(first=0, seat0=HOUNDS)
    for card, fort in (("0-emberhound-1", 0), ("0-emberhound-2", 1), ("0-dawnshield-acolyte-1", 2)):
        game.act(0, {"type": "summon", "card": card, "fort": fort})
    game.end_turn()
    game.end_turn()
    rng = random.Random(seed)
    for _ in range(30):
        if game.state.phase != "main" or game.state.active != 0:
            break
        seat = min(GAME.to_act(game.state))  # seat 0, or whoever an effect's choice waits for
        action = search(GAME, game.state, seat, rng, iterations=60)
        assert not _moved_twice(game.state, seat, action), f"ISMCTS moved a creature twice: {action}"
        game.act(seat, action)
    assert game.state.phase != "main" or game.state.active != 0, "ISMCTS did not end its main phase"
