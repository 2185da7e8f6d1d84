"""The pinned Node tools of ``tools/<name>/`` (linters, a client generator), installed
from their lock file by ``npm ci`` once for all parallel workers and kept between runs
while the lock file is unchanged."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from pathlib import Path

QUIET = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true", "NO_COLOR": "1"}


def _installed(tools: Path) -> bool:
    """npm ci records what it installed in node_modules/.package-lock.json: current when
    it is newer than the lock file it came from."""
    record = tools / "node_modules" / ".package-lock.json"
    return record.exists() and record.stat().st_mtime >= (tools / "package-lock.json").stat().st_mtime


def installed(tools: Path, what: str) -> Path:
    """``tools``'s node_modules, installed by ``npm ci`` unless current; ``what`` says who
    needs it, for the message when npm is missing."""
    npm = shutil.which("npm")
    assert npm is not None, f"{what} needs Node's npm (apt-get install npm)"
    with (tools / ".install.lock").open("w") as lock:  # parallel workers install once
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(tools):
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"],
                cwd=tools,
                env=QUIET,
                check=True,
                capture_output=True,
                timeout=600,
            )
    return tools / "node_modules"
