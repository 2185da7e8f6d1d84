"""The contract passes both linters that client generators are judged by: Redocly's
recommended rules and Spectral's OpenAPI rules, 0 errors and 0 warnings.

Both run at the versions pinned in tools/spec/package-lock.json, installed by ``npm ci``
into tools/spec/node_modules (kept between runs while the lock file is unchanged).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "spec"
SPEC = ROOT / "openapi.yaml"
QUIET = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def _installed() -> bool:
    """npm ci records what it installed in node_modules/.package-lock.json: current when
    it is newer than the lock file it came from."""
    record = TOOLS / "node_modules" / ".package-lock.json"
    return record.exists() and record.stat().st_mtime >= (TOOLS / "package-lock.json").stat().st_mtime


@pytest.fixture(scope="module")
def linters() -> Iterator[Path]:
    npm = shutil.which("npm")
    assert npm is not None, "the spec linters need Node's npm (apt-get install npm)"
    with (TOOLS / ".install.lock").open("w") as lock:  # parallel workers install once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed():
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"],
                cwd=TOOLS,
                env=QUIET,
                check=True,
                capture_output=True,
                timeout=600,
            )
    yield TOOLS / "node_modules" / ".bin"


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
