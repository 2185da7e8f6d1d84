"""The contract passes both linters that client generators are judged by: Redocly's
recommended rules and Spectral's OpenAPI rules, 0 errors and 0 warnings.

Both run at the versions pinned in tools/spec/package-lock.json, installed by ``npm ci``
into tools/spec/node_modules (kept between runs while the lock file is unchanged).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.npmtools import QUIET, installed

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "spec"
SPEC = ROOT / "openapi.yaml"


@pytest.fixture(scope="module")
def linters() -> Iterator[Path]:
    yield installed(TOOLS, "the spec linters") / ".bin"


def test_redocly_recommended_finds_nothing(linters: Path) -> None:
    run = subprocess.run(
        [str(linters / "redocly"), "lint", "--config", "redocly.yaml", "--format", "json", str(SPEC)],
        cwd=TOOLS,
        env=QUIET,
        capture_output=True,
        text=True,
        timeout=300,
    )
    report = json.loads(run.stdout)
    problems = [
        f"{p['severity']} {p['ruleId']}: {p['message']} at {p['location'][0]['pointer']}" for p in report["problems"]
    ]
    assert report["totals"] == {"errors": 0, "warnings": 0, "ignored": 0}, "\n".join(problems)


def test_spectral_oas_finds_nothing(linters: Path) -> None:
    run = subprocess.run(
        [str(linters / "spectral"), "lint", "--ruleset", ".spectral.yaml", "--format", "json", "--quiet", str(SPEC)],
        cwd=TOOLS,
        env=QUIET,
        capture_output=True,
        text=True,
        timeout=300,
    )
    problems = [f"{p['code']}: {p['message']} at {'.'.join(map(str, p['path']))}" for p in json.loads(run.stdout)]
    assert problems == [], "\n".join(problems)
