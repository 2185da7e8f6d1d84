"""The code's shape, checked on every run: ``ruff format`` clean, ``ruff check`` clean, and
``mypy --strict`` clean on the packages below the core (the rules, the log, the
projections), whose types every layer above leans on."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TREES = ["games", "events", "projections", "core", "service", "workers", "bench", "tests"]

pytestmark = pytest.mark.timeout(600)


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=540)


def test_the_tree_is_ruff_format_clean() -> None:
    result = run("ruff", "format", "--check", *TREES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_tree_is_ruff_check_clean() -> None:
    result = run("ruff", "check", *TREES)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_rules_the_log_and_the_projections_are_mypy_strict_clean(tmp_path: Path) -> None:
    result = run("mypy", "--strict", "--cache-dir", str(tmp_path / "cache"), "games", "events", "projections")
    assert result.returncode == 0, result.stdout + result.stderr


ISSUE_NUMBER = re.compile(r"\b[Ii]ssues? [0-9]+")
"""A reference to a tracker's issue: it means nothing to a reader of the code."""


def test_no_code_names_an_issue_number() -> None:
    # A comment or docstring says why; a tracker number says only where a talk once was.
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for tree in [*TREES, "stores"]
        for path in sorted((ROOT / tree).rglob("*"))
        if path.suffix in {".py", ".js", ".css", ".html"} and "vendor" not in path.parts
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if ISSUE_NUMBER.search(line)
    ]
    assert not found, "\n".join(found)
