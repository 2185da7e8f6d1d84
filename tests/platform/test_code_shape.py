"""The code's shape, checked on every run: ``ruff format`` clean, ``ruff check`` clean, and
``mypy --strict`` clean on the packages below the core (the rules, the log, the
projections), whose types every layer above leans on."""

from __future__ import annotations

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
