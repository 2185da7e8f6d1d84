"""The card faces the web client draws (GET /v1/kinds/dragon-fortress/cards): every card
that can show up in a game has one, under the key the client computes from its id, and
each face's numbers are the card data's (cards.json), as the current rules revision reads them."""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from games.base import GameEvent
from games.dragon_fortress import GAME
from games.dragon_fortress.cards import PHASES, RAW, TYPE_OF, TYPES, points_of
from games.dragon_fortress.evolve import EVOLVE
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


# -- the client module's words (service/client/kinds/dragon_fortress.js), under node ----

CLIENT = Path(__file__).resolve().parents[3] / "service" / "client" / "kinds" / "dragon_fortress.js"
BAR = {"stay", "spare"}  # actions with no place on the board
NODE_CHECK = """
import kind from %s;
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const name = (i) => `Random bot ${i + 1}`;
const ctxOf = (seat, view, actions) => ({
  seat, view, actions, name, isYou: (i) => i === seat, who: (i) => (i === seat ? "You" : name(i)),
  face: (id) => input.faces[kind.faceKey(id)] || null, cardName: (id) => input.faces[kind.faceKey(id)]?.name || id,
});
const out = { sentences: [], labels: [], refs: [], endings: [] };
for (const step of input.steps) {
  const ctx = ctxOf(step.seat, step.view, step.actions);
  for (const e of step.events) {
    const text = kind.describe(e, ctx);
    const said = text === undefined ? "undefined: left to the generic summary" : text;
    out.sentences.push([e.type, step.seat, e.seat, said]);
  }
  for (const a of step.actions) {
    out.labels.push([a.type, kind.label(a, ctx)]);
    out.refs.push([a, kind.refs(a, ctx)]);
  }
  if (step.outcome) out.endings.push(kind.ending(step.view, step.outcome, ctx));
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_client_module_has_words_for_every_event_and_action() -> None:
    """Every event of random games, each from one seat's redacted side, is a sentence (or
    left out: the turn passing); every legal action has a label and refs; the ending names
    the seat. A bot's move never reads as the viewer's ("your" is the viewer's alone)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing")
    steps: list[dict[str, Any]] = []
    seen: set[str] = set()
    for players, seed in ((3, 1), (4, 2), (3, 3)):
        play = random_game(GAME, players, random.Random(f"client-{seed}"))
        state = None
        for index, event in enumerate(play.events):
            state = GAME.evolve(state, event)
            seen.add(event.type)
            seat = index % players
            shown = GAME.redact(event, seat)
            steps.append(
                {
                    "seat": seat,
                    "view": GAME.view(state, seat),
                    "actions": GAME.legal_actions(state, state.turn) if seat == state.turn else [],
                    "events": [{"type": shown.type, "data": dict(shown.data), "seat": shown.seat}],
                }
            )
        for seat in range(players):
            steps.append(
                {
                    "seat": seat,
                    "view": GAME.final_view(state, seat),
                    "actions": [],
                    "events": [],
                    "outcome": GAME.outcome(state),
                }
            )
    # Events random play seldom makes, as the moves write them.
    rare = [
        GameEvent("SacrificeOffered", {"dragon": "spitfire-01", "tower": "dragon-tower-01", "steps_left": 0}, 1),
        GameEvent("TowerSacrificed", {"tower": "dragon-tower-01", "dragon": "spitfire-01"}, 1),
        GameEvent("SacrificeDeclined", {"tower": "dragon-tower-01", "dragon": "spitfire-01"}, 0),
        GameEvent("DragonDefeated", {"dragon": "spitfire-01", "damage": None}, 1),
        GameEvent("DragonFled", {"dragon": "dread-wyrm-01", "to": None}, 0),
        GameEvent("DragonFled", {"dragon": "dread-wyrm-01", "to": 0}, 1),
        GameEvent("DragonCalled", {"dragon": "shadow-terror-01", "call_returned_at": None}, 2),
        GameEvent("StructurePurchased", {"card": "barn-01", "at": 3, "paid": ["gold-01"]}, 1),
        GameEvent("GameEnded", {"reason": "terror", "dispersed": ["spitfire-01", "ice-wyvern-01"]}, 0),
        GameEvent("GameEnded", {"reason": "hand", "dispersed": []}, 2),
        GameEvent("AcquireForgone", {}, 1),
    ]
    for event in rare:
        seen.add(event.type)
        steps.append({"seat": 0, "view": steps[-1]["view"], "actions": [], "events": [event.__dict__]})
    payload = json.dumps({"faces": FACES, "steps": steps})
    script = NODE_CHECK % json.dumps(CLIENT.as_uri())
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], input=payload, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert {kind for kind, *_ in got["sentences"]} == seen == set(EVOLVE), sorted(set(EVOLVE) - seen)
    for kind, viewer, actor, text in got["sentences"]:
        if text is None:
            assert kind == "TurnPassed"
            continue
        assert re.match(r"^[A-Z].*[.]$", text) and not re.search(r"undefined|NaN|null|\[object|-\d\d\b", text), text
        if actor is not None and actor != viewer:
            assert text.startswith(f"Random bot {actor + 1} ") or not text.startswith("You "), (kind, text)
            assert kind == "DragonFled" or not re.search(r"\byour\b", text), (kind, viewer, actor, text)
    assert any(text.startswith("You draw ") for kind, *_, text in got["sentences"] if kind == "CommonCardDrawn")
    assert any(
        re.match(r"Random bot \d draws a card from the common supply\.$", text or "") for *_, text in got["sentences"]
    )
    assert got["labels"], "no action was offered"
    for kind, text in got["labels"]:
        assert isinstance(text, str) and re.match(r"^[A-Z]", text), (kind, text)
        assert not re.search(r"undefined|NaN|null|\[object|-\d\d\b", text), (kind, text)
    for action, refs in got["refs"]:
        assert (refs == []) == (action["type"] in BAR), (action, refs)
        if action["type"] == "place":
            assert refs[0] == action["card"] and re.match(r"front:\d$", refs[1])
        if action["type"] in ("draw", "purchase", "advance"):
            assert refs == [f"pile:{action.get('pile') or action.get('card') or action.get('phase')}"]
    assert got["endings"] and all(
        re.match(r"^(You|Random bot \d) (defeated the Shadow Terror|placed the last card)", text)
        for text in got["endings"]
    ), got["endings"]


def test_every_event_type_and_action_type_has_a_case_in_the_client_module() -> None:
    source = CLIENT.read_text()
    cases = set(re.findall(r'case "(\w+)"', source))
    assert set(EVOLVE) <= cases, sorted(set(EVOLVE) - cases)
    assert set(GAME.action_schemas()) <= cases, sorted(set(GAME.action_schemas()) - cases)
