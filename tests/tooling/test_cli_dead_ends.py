"""The ``tablestream`` command has no dead ends: it says its version, describes every
subcommand, refuses impossible arguments with a sentence and a non-zero exit, numbers seats
from 0 as the API does, and says why an import was given a new id. Run in this process, on
fakeredis (``workers.wiring.process_platform`` is where the commands find their platform)."""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import random
import tomllib
from pathlib import Path

import fakeredis
import pytest

from core.config import Config
from core.tooling import export_lines
from service.cli import build_parser, installed_version, main
from stores.platform import Platform
from tests.tooling.conftest import humans, play
from workers import wiring

ROOT = Path(__file__).resolve().parents[2]


def subcommands() -> dict[str, tuple[str | None, argparse.ArgumentParser]]:
    """Each subcommand's name: its line in ``tablestream --help``, and its own parser."""
    (chooser,) = [a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction)]
    lines = {action.dest: action.help for action in chooser._choices_actions}
    return {name: (lines.get(name), parser) for name, parser in chooser.choices.items()}


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What the command printed on stderr as it refused ``argv`` with argparse's status 2."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def on(platform: Platform, monkeypatch: pytest.MonkeyPatch) -> Platform:
    """The commands act on ``platform`` (set a REDIS_URL so none looks for an embedded Redis)."""
    monkeypatch.setenv("REDIS_URL", "redis://unused.invalid")
    monkeypatch.setattr(wiring, "process_platform", lambda: platform)
    return platform


def finished(platform: Platform, seed: int) -> str:
    table = platform.handler.create_game("tiny", humans(2)).table
    table = play(platform, table, random.Random(seed))
    assert table.status == "finished"
    return table.game_id


def test_version_prints_the_installed_version_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"tablestream {importlib.metadata.version('tablestream')}"


def test_without_package_metadata_the_version_is_pyprojects(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", not_installed)
    with open(ROOT / "pyproject.toml", "rb") as pyproject:
        assert installed_version() == tomllib.load(pyproject)["project"]["version"]


def test_every_subcommand_has_a_help_line_and_a_description() -> None:
    found = subcommands()
    assert {"serve", "replay", "import", "verify", "analyse", "close-player"} <= set(found)
    for name, (line, parser) in found.items():
        assert line and line.strip(), f"{name} has no line in tablestream --help"
        assert parser.description and parser.description.strip(), f"tablestream {name} --help describes nothing"


def test_the_help_says_how_seats_are_numbered(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "Seats are numbered from 0" in " ".join(capsys.readouterr().out.split())
    assert "from 0" in (subcommands()["replay"][1].format_help())


IMPOSSIBLE = [
    (["serve", "--port", "0"], "a port is 1 to 65535, not 0"),
    (["serve", "--port", "65536"], "a port is 1 to 65535, not 65536"),
    (["serve", "--port", "eighty"], "a port is a whole number, not 'eighty'"),
    (["serve", "--workers", "0"], "a count is at least 1, not 0"),
    (["serve", "--workers", "-2"], "a count is at least 1, not -2"),
    (["serve", "--with-worker", "--no-worker"], "not allowed with argument"),
    (["replay", "g1", "--seat", "-1"], "seats are numbered from 0, so -1 is no seat"),
    (["replay", "g1", "--at", "0"], "a game's versions start at 1, not 0"),
    (["replay", "g1", "--delay", "-1"], "a duration is 0 seconds or more, not -1"),
    (["replay", "g1", "--delay", "nan"], "a duration is 0 seconds or more, not nan"),
    (["import", "no-such-export.ndjson"], "no such file: no-such-export.ndjson"),
    (["restore", "no-such-backup.ndjson"], "no such file: no-such-backup.ndjson"),
    (["backup", "no-such-folder/backup.ndjson"], "no such folder: no-such-folder"),
    (["reports", "--limit", "0"], "a limit is 1 to 200"),
    (["reports", "--limit", "many"], "a limit is a whole number, not 'many'"),
    (["analyse", "g1", "--iterations", "0"], "iterations are 1 to 100000"),
    (["resolve-report", "r1", "forgiven"], "invalid choice: 'forgiven'"),
    (["verify", "record.json", "--head", "0:abc"], "a head is VERSION:HASH"),
    (["witness", "games.example.org", "--state", "state.json"], "an address is http:// or https:// and a host"),
    (["witness", "https://games.example.org", "--state", "no-such-folder/s.json"], "no such folder: no-such-folder"),
    (["witness", "https://games.example.org", "--state", "s.json", "--every", "-5"], "0 seconds or more, not -5"),
    (["witness", "https://games.example.org", "--state", "s.json", "--key", "no-key"], "no such file: no-key"),
]


@pytest.mark.parametrize(("argv", "message"), IMPOSSIBLE, ids=[" ".join(argv) for argv, _ in IMPOSSIBLE])
def test_an_impossible_argument_is_refused_with_a_sentence(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the relative paths above name nothing that exists
    error = refused(argv, capsys)
    assert message in error, error
    assert f"tablestream {argv[0]}: error:" in error


def test_a_folder_is_not_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert f"{tmp_path} is not a file" in refused(["import", str(tmp_path)], capsys)
    assert f"{tmp_path} is a folder, not a file" in refused(["backup", str(tmp_path)], capsys)


def test_a_seat_or_a_version_the_game_does_not_have_is_refused(
    on: Platform, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id = finished(on, 1)
    last = on.store.last_version(game_id)
    assert main(["replay", game_id, "--seat", "2", "--plain"]) == 1
    assert f"game {game_id} has no seat 2: its seats are 0 to 1" in capsys.readouterr().err
    assert main(["replay", game_id, "--at", str(last + 1), "--plain"]) == 1
    assert f"game {game_id} has versions 1 to {last}, not {last + 1}" in capsys.readouterr().err
    # The last seat, as the API numbers it, is one the game has: its head says the same number.
    assert main(["replay", game_id, "--seat", "1", "--at", str(last), "--plain"]) == 0
    assert capsys.readouterr().out.startswith(f"v{last} ")


def write_export(path: Path, lines: list[str]) -> str:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


def imported_id(out: str) -> str:
    assert out.startswith("imported "), out
    return out.split()[-1]


def test_an_import_given_a_new_id_says_why(
    on: Platform, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = finished(on, 2)
    lines = list(export_lines(on, game_id))
    vouched = write_export(tmp_path / "vouched.ndjson", lines)
    header = json.loads(lines[0])
    bare = write_export(
        tmp_path / "bare.ndjson",
        [json.dumps({k: v for k, v in header.items() if k not in ("ledger", "head")})] + lines[1:],
    )

    # Given the export of a game this service holds, when it is imported here, then it is a copy.
    assert main(["import", vouched]) == 0
    captured = capsys.readouterr()
    copy = imported_id(captured.out)
    assert copy != game_id
    assert f"a new id, {copy}: this service already holds that game as {game_id}" in captured.err

    # Given a service where another game holds that id, the id is taken.
    other = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    someone_else = finished(other, 3)
    other.store.import_raw(game_id, other.store.read_raw(someone_else))
    monkeypatch.setattr(wiring, "process_platform", lambda: other)
    assert main(["import", vouched]) == 0
    captured = capsys.readouterr()
    assert f"the id {game_id} is taken by another game here" in captured.err
    assert imported_id(captured.out) != game_id

    # Given an export without its ledger entry, on a service that never held the game, nothing vouches for the id.
    fresh = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    monkeypatch.setattr(wiring, "process_platform", lambda: fresh)
    assert main(["import", bare]) == 0
    captured = capsys.readouterr()
    assert f"the id {game_id} is kept only when a ledger entry vouches for it" in captured.err
    assert imported_id(captured.out) != game_id

    # With its ledger entry, on a service that does not hold it, the id is kept and nothing more is said.
    kept = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    monkeypatch.setattr(wiring, "process_platform", lambda: kept)
    assert main(["import", vouched]) == 0
    captured = capsys.readouterr()
    assert imported_id(captured.out) == game_id and "new id" not in captured.err
