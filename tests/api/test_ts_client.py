"""The contract makes a usable TypeScript client: the types openapi-typescript generates from
openapi.yaml let tools/tsclient/play.ts, written against them with openapi-fetch, compile
under ``tsc --strict`` with no cast (each kind's options typed as that kind's, optional
fields left out of a create, a game's view narrowed by its kind, the outcome and the legal
actions read with their types), and the compiled client plays a game of every kind to the
end against ``tablestream serve``. The same types make tsc refuse a client that breaks the
contract, so a compile that passes says something.

The tools are the versions pinned in tools/tsclient/package-lock.json, installed by
``npm ci`` into tools/tsclient/node_modules (kept between runs while the lock file is
unchanged).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from games.registry import all_games
from tests.api.npmtools import installed
from tests.served import serving

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools" / "tsclient"
SPEC = ROOT / "openapi.yaml"
QUIET = {**os.environ, "NO_COLOR": "1"}
KINDS = sorted(key for key, game in all_games().items() if type(game).__module__.startswith("games."))
# strict, as a client's own project would be. Node 20 runs what tsc emits as CommonJS (the
# package.json beside it says so), which lets play.ts import "./schema" with no extension.
# skipLibCheck leaves out only the packages' declarations (five seconds of @types/node):
# the schema is generated as a .ts file, so it is checked in full.
TSCONFIG = {
    "compilerOptions": {
        "strict": True,
        "noEmit": False,
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "target": "es2022",
        "types": ["node"],
        "skipLibCheck": True,
    },
}
# Two mistakes a client could make, each on a line marked "wrong": tsc must refuse both
# lines and nothing else, which it does only while options are typed per kind and a view
# narrows by its kind.
WRONG = """\
import type { components } from "./schema";

type Schemas = components["schemas"];

export const create: Schemas["CreateGame"] = {
  kind: "fortress-royals",
  players: [{ name: "ann" }, { name: "bob" }],
  options: { rounds: "one" }, // wrong: rounds is a number
};

export function rounds(game: Schemas["Game"]): number | null {
  const view = game.view;
  if (view.kind !== "stomping-grounds") return null;
  return view.rounds; // wrong: only a view of fortress-royals counts rounds
}
"""


@pytest.fixture(scope="module")
def tools() -> Path:
    return installed(TOOLS, "the TypeScript client")


@pytest.fixture(scope="module")
def schema(tools: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The types generated from openapi.yaml, once for the run: the parallel workers share
    the directory of this run's temporary files, and the first to come generates them."""
    digest = hashlib.sha256(SPEC.read_bytes()).hexdigest()[:16]
    shared = tmp_path_factory.getbasetemp().parent
    out = shared / f"ts-schema-{digest}.ts"
    with (shared / f"ts-schema-{digest}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not out.exists():
            building = shared / f"ts-schema-{digest}.building.ts"
            run = subprocess.run(
                [str(tools / ".bin" / "openapi-typescript"), str(SPEC), "--output", str(building)],
                env=QUIET,
                capture_output=True,
                text=True,
                timeout=300,
            )
            assert run.returncode == 0, run.stdout + run.stderr
            building.rename(out)  # whole, or not there
    return out


def compile_client(tools: Path, schema: Path, build: Path, sources: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """tsc's run over ``sources`` (name: text) beside the schema in ``build``."""
    build.mkdir(exist_ok=True)
    (build / "node_modules").symlink_to(tools, target_is_directory=True)
    (build / "package.json").write_text(json.dumps({"private": True, "type": "commonjs"}))
    (build / "tsconfig.json").write_text(json.dumps({**TSCONFIG, "files": sorted(sources)}))
    shutil.copyfile(schema, build / "schema.ts")
    for name, text in sources.items():
        (build / name).write_text(text)
    return subprocess.run(
        [str(tools / ".bin" / "tsc"), "--project", "tsconfig.json", "--pretty", "false"],
        cwd=build,
        env=QUIET,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service with rate limits that this one client does not reach: at the defaults,
    one seat's token (20 requests a second) paces the games to half a minute where they
    take seconds. play.ts still honours a 429's Retry-After."""
    with serving(
        tmp_path_factory.mktemp("tsclient") / "data",
        TABLESTREAM_RATE_PER_TOKEN="1000",
        TABLESTREAM_RATE_PER_ADDRESS="10000",
    ) as base:
        yield base


def test_the_typescript_client_compiles_strictly_and_plays_every_kind(
    tools: Path, schema: Path, server: str, tmp_path: Path
) -> None:
    build = tmp_path / "build"
    compiled = compile_client(tools, schema, build, {"play.ts": (TOOLS / "play.ts").read_text()})
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr

    node = shutil.which("node")
    assert node is not None, "the TypeScript client needs Node (apt-get install nodejs)"
    run = subprocess.run([node, "play.js", server, *KINDS], cwd=build, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    played = {game["kind"]: game for game in map(json.loads, run.stdout.splitlines())}
    assert sorted(played) == KINDS, run.stdout
    for kind, game in played.items():
        assert game["moves"] > 0, game
        assert game["outcome"]["winners"] == game["winners"], game
        assert set(game["winners"]) <= set(range(game["seats"])), f"{kind}: winners are not seats: {game}"


def test_tsc_refuses_a_client_that_breaks_the_contract(tools: Path, schema: Path, tmp_path: Path) -> None:
    compiled = compile_client(tools, schema, tmp_path / "build", {"wrong.ts": WRONG})
    wrong = [number for number, line in enumerate(WRONG.splitlines(), 1) if "// wrong:" in line]
    refused = sorted({int(line) for line in re.findall(r"^wrong\.ts\((\d+),\d+\): error", compiled.stdout, re.M)})
    assert compiled.returncode != 0 and refused == wrong, compiled.stdout + compiled.stderr
