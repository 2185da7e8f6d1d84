"""Given a game of every kind played through the public API, when its record is fetched
from GET /v1/games/{id}/replay, then both verifiers accept it, word for word alike:
over, with every commitment opened and every draw re-derived (docs/verification.md,
section 7, step 4); in play, as a seat and as a spectator see it, with the chain whole
("every seat and every spectator can check the chain live", section 2); and against a
head a client kept ("a client that keeps a head it was shown can later prove a rewrite
or a truncation", section 6)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from core.tooling import export_lines
from service import cli, verifier
from stores.platform import Platform
from tests.verify.conftest import KINDS, Case, Games, js_verdicts, python_verdict

Verdicts = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def verdicts_of(games: Games, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, Verdicts]]:
    """For one kind: the Python and JavaScript verdicts on its finished game and on its
    game in play as the seat and a spectator fetch it (a head kept early in play)."""
    done: dict[str, dict[str, Verdicts]] = {}

    def judge(kind: str) -> dict[str, Verdicts]:
        if kind not in done:
            playing = games.in_play(kind)
            kept = (playing.kept_head["version"], playing.kept_head["hash"])
            cases = {
                "over": Case(games.finished(kind)),
                "seat": Case(playing.seat_record, kept),
                "spectator": Case(playing.spectator_record, kept),
            }
            folder = tmp_path_factory.mktemp(kind)
            js = js_verdicts(list(cases.values()), folder / "subtle")
            [pure] = js_verdicts([cases["over"]], folder / "pure", pure=True)
            done[kind] = {
                "python": {name: python_verdict(case) for name, case in cases.items()},
                "js": dict(zip(cases, js, strict=True)),
                "js-pure": {"over": pure},
            }
        return done[kind]

    return judge


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_game_verifies_whole_in_both(kind: str, verdicts_of: Callable[[str], dict[str, Verdicts]]) -> None:
    verdicts = verdicts_of(kind)
    py = verdicts["python"]["over"]
    assert py["ok"], py
    assert py["over"] and py["kind"] == kind
    assert py["commitments"] > 0 and py["draws"] > 0
    assert any(line.startswith("ledger entry") for line in py["checked"]), "the replay carries its ledger entry"
    assert verdicts["js"]["over"] == py
    assert verdicts["js-pure"]["over"] == py, "the browser's own SHA-256 agrees with crypto.subtle"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("viewer", ["seat", "spectator"])
def test_a_game_in_play_keeps_its_chain_for_a_seat_and_a_spectator(
    kind: str, viewer: str, verdicts_of: Callable[[str], dict[str, Verdicts]]
) -> None:
    verdicts = verdicts_of(kind)
    py = verdicts["python"][viewer]
    assert py["ok"], py
    assert not py["over"] and py["commitments"] == 0 and py["draws"] == 0
    assert any(line.startswith("the head you kept") for line in py["checked"])
    # a seat opens its own hidden values with the salts it was given; a spectator is given none
    opened = [line for line in py["checked"] if line.endswith("shown to this seat opened with the salts given")]
    assert bool(opened) == (viewer == "seat"), py["checked"]
    assert verdicts["js"][viewer] == py


@pytest.mark.parametrize("kind", KINDS)
def test_the_operator_s_export_verifies_like_the_replay(
    kind: str, platform: Platform, games: Games, tmp_path: Path
) -> None:
    """``tablestream export``: a header, then the stored envelopes. While the game is in
    play the header carries the seed, and every commitment opens with it already."""
    over = "\n".join(export_lines(platform, games.finished(kind)["id"]))
    playing = "\n".join(export_lines(platform, games.in_play(kind).game_id))
    py_over, py_playing = python_verdict(Case(over)), python_verdict(Case(playing))

    # The ledger may have grown between the replay and the export: their checkpoints differ.
    def apart_from_checkpoints(verdict: dict[str, Any]) -> dict[str, Any]:
        return {**verdict, "checked": [line for line in verdict["checked"] if "checkpoint" not in line]}

    assert apart_from_checkpoints(py_over) == apart_from_checkpoints(python_verdict(Case(games.finished(kind))))
    assert any("included in the checkpoint of" in line for line in py_over["checked"]), py_over
    assert py_playing["ok"] and not py_playing["over"], py_playing
    assert "seed (not yet revealed) matches its commitment" in py_playing["checked"]
    assert py_playing["commitments"] > 0 and py_playing["draws"] > 0
    assert js_verdicts([Case(over), Case(playing)], tmp_path) == [py_over, py_playing]


def test_a_kept_head_that_the_log_no_longer_holds_fails(games: Games) -> None:
    record = games.finished("tiny")
    last = len(record["events"])
    other = verifier.verify(record, (3, "f" * 64))
    assert (other.ok, other.first_bad_version) == (False, 3)
    assert other.reason == "the log has another hash at version 3 than the head you kept"
    beyond = verifier.verify(record, (last + 5, "f" * 64))
    assert (beyond.ok, beyond.first_bad_version) == (False, last + 1)


def test_the_command_prints_a_summary_and_exits_0_1_or_2(
    games: Games, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = copy.deepcopy(games.finished("tiny"))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert cli.main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert "verified" in out and f"chain of {len(record['events'])} events" in out

    record["events"][2]["actor"] = "bot" if record["events"][2]["actor"] != "bot" else "human"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert cli.main(["verify", str(bad), "--json"]) == 1
    result = json.loads(capsys.readouterr().out)
    assert result["first_bad_version"] == 3 and result["reason"] == "the event's content does not match its hash"

    head = f"{record['head']['version']}:{record['head']['hash']}"
    assert cli.main(["verify", str(good), "--head", head]) == 0
    capsys.readouterr()

    garbage = tmp_path / "garbage.txt"
    garbage.write_text("not a record\n")
    assert cli.main(["verify", str(garbage)]) == 2
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_url_names_the_game_s_replay() -> None:
    assert verifier.replay_url("http://host:8000/#/replay/abc") == "http://host:8000/v1/games/abc/replay"
    assert verifier.replay_url("http://host:8000/#/game/abc?seat=1") == "http://host:8000/v1/games/abc/replay"
    assert verifier.replay_url("https://host/v1/games/abc") == "https://host/v1/games/abc/replay"
    assert verifier.replay_url("https://host/v1/games/abc/replay") == "https://host/v1/games/abc/replay"


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_fork_verifies_with_its_re_deal_re_derived(kind: str, games: Games, tmp_path: Path) -> None:
    """A fork of a game in play re-deals what its seat could not see: the re-deal's draws
    (labels v1/0, ...) are recorded in ForkedFrom, committed, and re-derived by both."""
    record = games.forked(kind)
    first = record["events"][0]
    assert first["type"] == "ForkedFrom" and first["data"]["fair_deal"] and not first["data"]["exact"]
    redeal = first["data"]["draws"]
    assert redeal and all(draw["label"] == f"v1/{k}" for k, draw in enumerate(redeal))
    py = python_verdict(Case(record))
    assert py["ok"], py
    later = sum(len(e["data"].get("draws") or []) for e in record["events"][1:] if e["type"] == "ActionTaken")
    assert py["draws"] == len(redeal) + later, "every draw re-derived, the re-deal's included"
    assert js_verdicts([Case(record)], tmp_path) == [py]
