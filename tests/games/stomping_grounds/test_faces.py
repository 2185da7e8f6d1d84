"""Card faces for the web client: every card a game can hold has one, its numbers are the
card data's (under the current rules revision), and its sentence says what the effect
primitives do. A finished game's view shows every hand."""

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
from games.play import random_game
from games.stomping_grounds import GAME
from games.stomping_grounds.cards import CARDS_BY_RULES, DECK_KEYS, DECKS, deck_ids
from games.stomping_grounds.evolve import EVOLVE
from games.stomping_grounds.faces import card_text

FACES = GAME.card_faces()
PRINTED = CARDS_BY_RULES[GAME.rules_revision]
ID = re.compile(r"^s\d+-(.+)-\d+$")


def face_key(card_id: str) -> str:
    """As the client module's faceKey: a card id loses its seat and its copy."""
    found = ID.match(card_id)
    return found.group(1) if found else card_id


def stats(slug: str) -> dict[str, Any]:
    return {s["label"]: s["value"] for s in FACES[slug]["stats"]}


def test_every_card_of_every_deck_at_every_seat_has_a_face() -> None:
    for seat in range(GAME.max_players):
        for key in DECK_KEYS:
            for card_id in deck_ids(seat, key):
                assert face_key(card_id) in FACES, card_id
    assert set(FACES) == {slug for key in DECK_KEYS for slug in DECKS[key]}


def test_every_id_a_played_game_shows_has_a_face() -> None:
    play = random_game(GAME, 3, random.Random(5), {"turn_limit": 2})
    assert GAME.outcome(play.state) is not None
    seen: set[str] = set()
    for event in play.events:
        for value in event.data.values():
            items = value if isinstance(value, list) else [value]
            seen.update(v for v in items if isinstance(v, str) and v.startswith("s") and v[1:2].isdigit())
    assert seen, "the game named no card"
    assert all(face_key(c) in FACES for c in seen)


@pytest.mark.parametrize("slug", sorted(PRINTED))
def test_the_numbers_are_the_card_data(slug: str) -> None:
    card, face, shown = PRINTED[slug], FACES[slug], stats(slug)
    assert face["name"] == card.name
    assert shown["Luck"] == card.luck
    assert shown.get("Cost", 0) == card.cost
    if card.type in ("hoard", "action"):
        assert "Cost" in shown
    assert shown.get("Needs") == card.number
    assert shown.get("Roam", 0) == card.roam
    assert shown.get("Border") == card.border
    assert face["type"].lower().startswith(card.type)
    if card.type == "challenge":
        assert face["colour"] == card.colour
    assert face["text"] == card_text(card)


def test_faces_follow_the_current_rules_revision() -> None:
    changed = [slug for slug in PRINTED if PRINTED[slug].luck != CARDS_BY_RULES[1][slug].luck]
    assert changed, "revision 2 changes some luck numbers"
    for slug in changed:
        assert stats(slug)["Luck"] == PRINTED[slug].luck != CARDS_BY_RULES[1][slug].luck


def test_the_sentences_say_what_the_effects_do() -> None:
    assert FACES["burn-down-the-farm"]["text"] == "Win (luck 5+): burn 2 cards."
    assert FACES["charred-orchard"]["text"] is None
    assert "Needs Red Dragonscale in your hoard." in FACES["dragonfire-torrent"]["text"]
    assert FACES["red-dragonscale"]["text"] == "Luck +1 in red challenges."
    assert "Only on a Town no dragon is on." in FACES["saint-george-dragonslayer"]["text"]
    assert FACES["smoldering-lair"]["text"] == "A dragon landing here: stash 2 cards."
    assert FACES["molten-crown"]["text"] == "At the end of your turn: burn 1 card."
    for slug, card in PRINTED.items():
        text = FACES[slug]["text"] or ""
        for effect in (*card.effect, *card.landing, *card.trigger):
            if effect.op in ("burn", "stash", "draw"):
                n = effect.n
                assert f"{effect.op} {n} card{'s' if n != 1 else ''}" in text.lower(), (slug, text)
        if card.type == "action":
            assert text.endswith(".") and "Play " in text


def test_a_finished_game_shows_every_hand() -> None:
    play = random_game(GAME, 3, random.Random(11), {"turn_limit": 1})
    assert GAME.outcome(play.state) is not None
    for viewer in (None, 0, 1):
        shown = GAME.final_view(play.state, viewer)
        for seat, player in enumerate(shown["players"]):
            assert player["hand"] == list(play.state.players[seat].hand)


# -- the client module's words (service/client/kinds/stomping_grounds.js), under node ----

CLIENT = Path(__file__).resolve().parents[3] / "service" / "client" / "kinds" / "stomping_grounds.js"
BAR = {"end_phase", "land", "pass", "skip"}  # actions with no place on the board
NODE_CHECK = """
import kind from %s;
let raw = "";
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const ctxOf = (seat, view, actions) => ({
  seat, view, actions, isYou: (i) => i === seat, name: (i) => `Bot ${i + 1}`,
  who: (i) => (i === seat ? "You" : `Bot ${i + 1}`), face: (id) => input.faces[kind.faceKey(id)] || null,
});
const out = { sentences: [], labels: [], refs: [] };
for (const step of input.steps) {
  const ctx = ctxOf(step.seat, step.view, step.actions);
  for (const e of step.events) {
    const text = kind.describe(e, ctx);
    out.sentences.push([e.type, text === undefined ? "undefined: left to the generic summary" : text]);
  }
  for (const a of step.actions) {
    out.labels.push([a.type, kind.label(a, ctx)]);
    out.refs.push([a.type, kind.refs(a, ctx)]);
  }
}
process.stdout.write(JSON.stringify(out));
"""


def test_the_client_module_has_words_for_every_event_and_action() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is missing")
    steps: list[dict[str, Any]] = []
    seen: set[str] = set()
    for players, seed in ((2, 1), (3, 21), (4, 5), (2, 8)):
        play = random_game(GAME, players, random.Random(seed), {"turn_limit": 8})
        state = None
        for event in play.events:
            state = GAME.evolve(state, event)
            seen.add(event.type)
            seat = len(steps) % players  # each event from one seat's side in turn, redacted for it
            shown = GAME.redact(event, seat)
            steps.append(
                {
                    "seat": seat,
                    "view": GAME.view(state, seat),
                    "actions": GAME.legal_actions(state, seat),
                    "events": [{"type": shown.type, "data": dict(shown.data), "seat": shown.seat}],
                }
            )
    # Events random play seldom makes, as their builders write them.
    card = "s1-tithe-collection-1"
    rare = [
        GameEvent("BurnReturned", {"seat": 1, "cards": [card]}, 1),
        GameEvent("ChallengeCancelled", {"index": 0, "seat": 0}, 1),
        GameEvent("ChallengeFizzled", {"seat": 0, "at": [0, 0]}, 0),
        GameEvent("HoardBroken", {"seat": 1, "card": "s1-ivory-sceptre-1", "by": 0, "settles": True}, 0),
        GameEvent("RealmRazed", {"seat": 0, "at": [0, 0], "settles": True}, 0),
        GameEvent("StashJunked", {"seat": 1, "cards": [card, card]}, 1),
        GameEvent("ChallengeRoamed", {"seat": 1, "from": [0, 0], "to": [0, 1], "settles": False}, 1),
        GameEvent("ChallengeWon", {"seat": 0, "at": [0, 0], "card": card, "total": 6, "number": 5}, 0),
        GameEvent("ChoiceSkipped", {"seat": 1}, 1),
    ]
    for event in rare:
        seen.add(event.type)
        steps.append({"seat": 0, "view": GAME.view(state, 0), "actions": [], "events": [event.__dict__]})
    payload = json.dumps({"faces": FACES, "steps": steps})
    script = NODE_CHECK % json.dumps(CLIENT.as_uri())
    done = subprocess.run(
        [node, "--input-type=module", "-e", script], input=payload, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    described = {kind for kind, _ in got["sentences"]}
    assert described == seen == set(EVOLVE), sorted(set(EVOLVE) - seen)
    for kind, text in got["sentences"]:
        assert text is None or (isinstance(text, str) and re.match(r"^[A-Z].*[.]$", text)), (kind, text)
        assert text is None or not re.search(r"undefined|NaN|null|\[object", text), (kind, text)
    assert {kind for kind, text in got["sentences"] if text is None} <= {
        "PhaseBegan",
        "WindowClosed",
        "ItemResolved",
        "ChoicesOwed",
    }
    assert got["labels"], "no action was offered"
    for kind, text in got["labels"]:
        assert isinstance(text, str) and text and not re.search(r"undefined|NaN|null|\[object", text), (kind, text)
    for kind, refs in got["refs"]:
        assert (refs == []) == (kind in BAR) or kind == "attempt", (kind, refs)


def test_every_event_type_and_action_type_has_a_case_in_the_client_module() -> None:
    source = CLIENT.read_text()
    cases = set(re.findall(r'case "(\w+)"', source))
    assert set(EVOLVE) <= cases, sorted(set(EVOLVE) - cases)
    assert set(GAME.action_schemas()) <= cases, sorted(set(GAME.action_schemas()) - cases)
