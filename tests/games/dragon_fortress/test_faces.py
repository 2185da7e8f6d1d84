"""The card faces the web client draws (GET /v1/kinds/dragon-fortress/cards): every card
that can show up in a game has one, under the key the client computes from its id, and
each face's numbers are the card data's (cards.json), as the current rules revision reads them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from games.dragon_fortress import GAME
from games.dragon_fortress.cards import PHASES, RAW, TYPE_OF, TYPES, points_of
from games.play import random_game

FACES = GAME.card_faces()


def face_key(card: str) -> str:
    """The client's faceKey (service/client/kinds/dragon_fortress.js): the id without its copy number."""
    return re.sub(r"-\d+$", "", card)


def stats(card: str) -> dict[str, Any]:
    face = FACES[face_key(card)]
    return {s["label"]: s["value"] for s in face["stats"]}


def ids_in(view: dict[str, Any]) -> set[str]:
    """Every card id and pile key a view names."""
    seen: set[str] = set(view["dragons"]) | set(view["out_of_game"]) | set(view["piles"])
    for player in view["players"]:
        seen |= {player["flag"], *player["line"], *player["trophies"], *player["hand_gold"]}
        seen |= set(player["hand"] or [])
        if player["fresh_gold"]:
            seen.add(player["fresh_gold"])
    return seen


def test_every_card_of_the_manifest_has_a_face_with_a_name_and_type() -> None:
    assert set(FACES) == {t.key for t in TYPES}
    for card, kind in TYPE_OF.items():
        face = FACES[face_key(card)]
        assert face["name"] == kind.name
        assert face["type"] and face["colour"]


@pytest.mark.parametrize("players", [3, 4])
def test_every_card_seen_in_random_games_has_a_face(players: int) -> None:
    rng = random.Random(f"faces-{players}")
    play = random_game(GAME, players, rng)
    assert GAME.outcome(play.state) is not None
    seen: set[str] = set()
    state = None
    for event in play.events:
        state = GAME.evolve(state, event)
        for seat in range(players):
            seen |= ids_in(GAME.view(state, seat))
    missing = sorted(card for card in seen if face_key(card) not in FACES)
    assert not missing, missing
    assert any(TYPE_OF[card].is_dragon for card in seen if card in TYPE_OF)


def test_estate_tower_and_gold_numbers_are_the_card_data() -> None:
    points = points_of(GAME.rules_revision)
    for card, kind in TYPE_OF.items():
        got = stats(card)
        if kind.group in ("flag", "call"):
            assert got == {}
            continue
        assert got["VP"] == (points[card] if not kind.is_dragon else kind.victory_points)
        if kind.kind == "estate":
            assert got["Estate"] == kind.estate_power
        if kind.kind == "tower":
            assert got["Shots"] == kind.shots
        if kind.kind == "gold":
            assert got["Gold"] == kind.gold_power


def test_victory_points_are_those_of_the_current_revision() -> None:
    """Revision 2 moved a point from the Farmstead to the Crop Field (cards.json, revisions)."""
    assert GAME.rules_revision == 2
    assert stats("crop-field-01")["VP"] == points_of(2)["crop-field-01"] != points_of(1)["crop-field-01"]
    assert stats("farmstead-01")["VP"] == points_of(2)["farmstead-01"] != points_of(1)["farmstead-01"]


def test_upgrades_show_cost_phase_and_cap() -> None:
    for kind in TYPES:
        if kind.group != "upgrade":
            continue
        got = stats(f"{kind.key}-01")
        assert got["Cost"] == kind.gold_cost
        assert got["Phase"] == PHASES[kind.phase - 1].name
        assert got["Max"] == kind.limit
    assert "Front Line" in FACES["gate-tower"]["text"]
    assert "defeat" in FACES["dragon-tower"]["text"]


def test_phases_show_what_advancing_needs() -> None:
    for phase in PHASES:
        got = stats(f"{phase.key}-01")
        assert (got["Needs estate"], got["Needs fortress"]) == (phase.requires_estate, phase.requires_fortress)


def test_dragons_show_strength_points_speed_call_depth_and_raze_line() -> None:
    raw = {entry["key"]: entry for entry in RAW["cards"]}
    for kind in TYPES:
        if not kind.is_dragon:
            continue
        got = stats(f"{kind.key}-01")
        entry = raw[kind.key]
        assert got["Strength"] == entry["strength"]
        assert got["VP"] == entry["victory_points"]
        assert got["Speed"] == entry["speed"]
        assert got["Call depth"] == entry["placement"]
        razes = set(got["Razes"].split(", "))
        assert ("gold" in razes) == ("gold" in entry["raze"])
        assert ("towers" in razes) == ("towers" in entry["raze"])
        assert ("all estate" in razes) == ("full_sun" in entry["raze"])
        assert ("suns" in razes) == ("sun" in entry["raze"])
        assert "moons" in razes or "all estate" in razes
        text = FACES[kind.key]["text"]
        assert ("ends the game" in text) == entry["ends_game"]
        assert ("do not harm it" in text) == bool(entry["immune_to_shots"])


def test_every_hand_is_in_the_view_once_the_game_is_over() -> None:
    play = random_game(GAME, 3, random.Random("final-hands"))
    assert GAME.outcome(play.state) is not None
    for seat in (None, 0, 1, 2):
        shown = GAME.final_view(play.state, seat)
        hands = [player["hand"] for player in shown["players"]]
        assert all(isinstance(hand, list) for hand in hands)
        assert [len(hand) for hand in hands] == [player["hand_count"] for player in shown["players"]]
    during = GAME.view(play.state, 0)
    assert during["players"][1]["hand"] is None, "view() itself still hides the others' hands"
