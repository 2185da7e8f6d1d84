"""The two verifiers import nothing of ours ("a verifier needs nothing of ours",
docs/verification.md): a copy of service/verifier.py alone, run by a bare Python,
verifies a file or a URL; service/client/verify.js imports no module at all."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.verify.conftest import ROOT, Games


def test_the_python_verifier_imports_the_standard_library_only() -> None:
    tree = ast.parse((ROOT / "service" / "verifier.py").read_text(encoding="utf-8"))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    }
    imported |= {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}, imported - set(sys.stdlib_module_names)


def test_the_javascript_verifier_imports_nothing() -> None:
    source = (ROOT / "service" / "client" / "verify.js").read_text(encoding="utf-8")
    assert not re.search(r"^\s*import\b|\bimport\(|\brequire\(", source, re.M)


@pytest.fixture
def served(tmp_path: Path, games: Games) -> Iterator[tuple[str, str]]:
    """A plain file server holding one game's replay at its API path: (base URL, game id)."""
    record = games.finished("tiny")
    replay = tmp_path / "v1" / "games" / record["id"] / "replay"
    replay.parent.mkdir(parents=True)
    replay.write_text(json.dumps(record), encoding="utf-8")
    handler = partial(SimpleHTTPRequestHandler, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", record["id"]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_a_copy_of_the_python_verifier_checks_a_url_alone(served: tuple[str, str], tmp_path: Path) -> None:
    base, game_id = served
    copy = tmp_path / "elsewhere" / "verifier.py"
    copy.parent.mkdir()
    shutil.copy(ROOT / "service" / "verifier.py", copy)
    done = subprocess.run(
        [sys.executable, "-I", str(copy), f"{base}/#/replay/{game_id}", "--json"],
        cwd=copy.parent,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["ok"] and verdict["over"] and verdict["game"] == game_id
    missing = subprocess.run(
        [sys.executable, "-I", str(copy), f"{base}/v1/games/nothing"], capture_output=True, text=True, timeout=60
    )
    assert missing.returncode == 2 and "cannot read" in missing.stderr
