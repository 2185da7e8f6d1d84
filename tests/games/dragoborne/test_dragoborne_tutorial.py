"""The web client's dragoborne tutorial (service/client/tutorials.js) says what its position
teaches under the rules as they are now (the default revision, its card pool): the learner
goes first and keeps five cards, holds two red banners and one yellow, and on the first turn
can bring out both the Cinder Lancer and the Dawnshield Acolyte by paying the Lancer with
the two reds, while paying it with red and yellow leaves the Acolyte unaffordable. A change
to the pool or the paying rules that breaks the lesson fails here, not in front of a learner.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

from games.dragoborne import GAME
from games.dragoborne.cards import OPENING_HAND
from games.play import new_game, step

CLIENT = Path(__file__).resolve().parents[3] / "service" / "client" / "tutorials.js"
READ = "const m = await import(process.argv[1]); console.log(JSON.stringify(m.TUTORIALS));"


def tutorial() -> dict[str, Any]:
    listed = subprocess.run(
        ["node", "--input-type=module", "-e", READ, CLIENT.as_uri()], capture_output=True, text=True, check=True
    )
    (found,) = [t for t in json.loads(listed.stdout) if t["kind"] == "dragoborne"]
    return dict(found)


def summons(state: Any, name: str) -> list[dict[str, Any]]:
    return [a for a in GAME.legal_actions(state, 0) if a["type"] == "summon" and a["card"].startswith(f"0-{name}-")]


def test_the_tutorial_position_teaches_what_its_note_says() -> None:
    lesson = tutorial()
    assert "two red banners and one yellow" in lesson["note"]
    play = new_game(GAME, 2, lesson["options"], random.Random(0))
    view = GAME.view(play.state, 0)
    assert view["first"] == 0, "the learner goes first"
    assert len(view["players"][0]["hand"]) == OPENING_HAND == 5
    assert sorted(r["colour"] for r in view["players"][0]["resources"]) == ["red", "red", "yellow"]
    rng = random.Random(0)
    for seat in (0, 1):
        step(GAME, play, seat, {"type": "mulligan", "cards": []}, rng)
    start = play.state
    lancer = summons(start, "cinder-lancer")
    assert {tuple(sorted(a["pay"])) for a in lancer} == {("red", "red"), ("red", "yellow")}

    # Both reds on the Lancer: the yellow banner still brings out the Acolyte.
    both = [a for a in lancer if sorted(a["pay"]) == ["red", "red"]][0]
    after = GAME.decision(start, 0, both, random.Random(1)).state
    acolyte = summons(after, "dawnshield-acolyte")
    assert acolyte and all(a["pay"] == ["yellow"] for a in acolyte)

    # Red and yellow on the Lancer: the Acolyte has to wait.
    mixed = [a for a in lancer if sorted(a["pay"]) == ["red", "yellow"]][0]
    after = GAME.decision(start, 0, mixed, random.Random(1)).state
    assert summons(after, "dawnshield-acolyte") == []
