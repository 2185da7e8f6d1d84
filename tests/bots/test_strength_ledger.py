"""The strength table's ledger: every finished game is kept at once, a run
resumes where the ledger stops and plays the games a single run would have, and a
change to what decides a game starts its pairing over."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import bots


@pytest.fixture()
def ledger(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "strength-games.jsonl"
    monkeypatch.setattr(bots, "LEDGER", path)
    monkeypatch.setattr(bots, "STRENGTH_FILE", tmp_path / "strength.md")
    return path


def pairing(record: bool = True) -> bots.Pairing:
    return bots.Pairing("fortress-siege", "greedy", "random", record=record)


def scores(results: list[bots.Result]) -> list[tuple[int, float]]:
    return [(result.index, result.score) for result in results]


def test_a_resumed_run_adds_only_the_missing_games_and_matches_one_long_run(ledger: Path) -> None:
    first = bots.play_pairing(pairing(), None, 1, 3, None)
    assert first.added == 3 and len(ledger.read_text().splitlines()) == 3
    resumed = bots.play_pairing(pairing(), None, 1, 5, None)
    assert resumed.added == 2, "the three recorded games are not played again"
    assert [json.loads(line)["index"] for line in ledger.read_text().splitlines()] == [0, 1, 2, 3, 4]
    fresh = bots.play_pairing(pairing(record=False), None, 1, 5, None)
    assert scores(resumed.results) == scores(fresh.results)
    assert len(ledger.read_text().splitlines()) == 5, "a run told not to record leaves the ledger alone"


def test_a_game_is_in_the_ledger_as_soon_as_it_finishes(ledger: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    played = bots.play_match

    def interrupted(match: bots.Match) -> bots.Result:
        if match.index == 2:
            raise KeyboardInterrupt
        return played(match)

    monkeypatch.setattr(bots, "play_match", interrupted)
    with pytest.raises(KeyboardInterrupt):
        bots.play_pairing(pairing(), None, 1, 5, None)
    assert [json.loads(line)["index"] for line in ledger.read_text().splitlines()] == [0, 1]


def test_games_of_an_older_fingerprint_neither_count_nor_survive_the_next_table(ledger: Path) -> None:
    bots.play_pairing(pairing(), None, 1, 2, None)
    lines = ledger.read_text().splitlines()
    stale = json.loads(lines[0]) | {"fingerprint": "0" * 16, "index": 2, "score": 0.0}
    ledger.write_text("\n".join([*lines, json.dumps(stale)]) + "\n")
    current = pairing().fingerprint()
    assert sorted(bots.ledger_results("fortress-siege", "greedy-random", current)) == [0, 1]
    table = bots.write_strength("test")
    assert all(json.loads(line)["fingerprint"] == current for line in ledger.read_text().splitlines())
    row = next(line for line in table.splitlines() if "fortress-siege | 2 | greedy vs random" in line)
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    assert cells[3] == "2", "the table counts the current games only"


def test_the_fingerprint_follows_the_kind_the_budget_and_the_options() -> None:
    base = bots.fingerprint("fortress-siege", "ismcts", "greedy", 0.3, ())
    assert base == bots.fingerprint("fortress-siege", "ismcts", "greedy", 0.3, ())
    assert base != bots.fingerprint("fortress-royals", "ismcts", "greedy", 0.3, ())
    assert base != bots.fingerprint("fortress-siege", "ismcts", "greedy", 0.2, ())
    assert base != bots.fingerprint("fortress-siege", "ismcts", "greedy", 0.3, (("rollout_depth", 3.0),))
    # The budget means nothing to a pairing without ISMCTS.
    assert bots.fingerprint("fortress-siege", "greedy", "random", 0.3, ()) == bots.fingerprint(
        "fortress-siege", "greedy", "random", 0.2, ()
    )


def test_the_fingerprint_changes_with_the_rules_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    before = bots.fingerprint("fortress-siege", "greedy", "random", 0.3, ())
    games = tmp_path / "games"
    games.mkdir()
    for name in bots.SHARED_SOURCES:
        (games / name).write_bytes((bots.GAMES_DIR / name).read_bytes())
    monkeypatch.setattr(bots, "GAMES_DIR", games)
    assert bots.fingerprint("fortress-siege", "greedy", "random", 0.3, ()) == before
    (games / "bots.py").write_bytes((games / "bots.py").read_bytes() + b"\n# changed\n")
    assert bots.fingerprint("fortress-siege", "greedy", "random", 0.3, ()) != before


def test_a_prune_waits_for_a_game_being_recorded_and_keeps_it(ledger: Path) -> None:
    import fcntl
    import threading

    bots.play_pairing(pairing(), None, 1, 1, None)
    line = ledger.read_text()
    current = json.loads(line)["fingerprint"]
    ledger.write_text(line + json.dumps(json.loads(line) | {"fingerprint": "0" * 16}) + "\n")
    with ledger.open("a") as writer:
        fcntl.flock(writer, fcntl.LOCK_EX)  # a run in the middle of recording a game
        pruned: list[int] = []
        prune = threading.Thread(target=lambda: pruned.append(bots.prune_ledger({current})))
        prune.start()
        prune.join(0.3)
        assert prune.is_alive(), "the prune waits for the lock"
        writer.write(json.dumps(json.loads(line) | {"index": 1}) + "\n")
    prune.join(5)
    assert pruned == [1]
    assert [json.loads(kept)["index"] for kept in ledger.read_text().splitlines()] == [0, 1]
