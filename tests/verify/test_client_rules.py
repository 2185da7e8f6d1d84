"""The web client mirrors a few of the server's rules so that it offers only what the
server accepts; each mirror is read from the client's own module and compared here."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from projections.table import COMMAND_STARTS
from tests.verify.conftest import node

ROOT = Path(__file__).resolve().parents[2]


def test_the_replay_forks_where_the_server_does() -> None:
    script = (
        "import {COMMAND_STARTS} from './service/client/replay.js'; console.log(JSON.stringify([...COMMAND_STARTS]))"
    )
    out = subprocess.run(
        [node(), "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    assert set(json.loads(out.stdout)) == COMMAND_STARTS
