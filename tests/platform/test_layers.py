"""The architecture's layers hold (pyproject's ``[tool.importlinter]``): the HTTP layer and
the workers over the stores, the stores over the core, the core over the projections,
those over the events and the rules; the rules import nothing of ours; only the HTTP
layer knows Flask; the core knows no Redis. And the check is no formality: an import
that crosses a layer, planted in a copy of the tree, breaks it."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "events", "projections", "core", "stores", "service", "workers")
LINT = [
    sys.executable,
    "-c",
    "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())",
]

pytestmark = pytest.mark.timeout(300)


def lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [*LINT, "--config", str(tree / "pyproject.toml"), "--no-cache"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
    )


def copy_of_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    tree.mkdir()
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "*.json", "*.txt"))
    return tree


def test_the_layers_hold() -> None:
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(
    ("module", "planted", "contract"),
    [
        ("core/handler.py", "import workers.jobs", "layers"),
        ("workers/jobs.py", "import service.app", "layers"),
        ("games/base.py", "import events.envelope", "layers"),
        ("projections/table.py", "import flask", "only the HTTP layer knows Flask"),
        ("games/cards.py", "import redis", "the rules are pure"),
        ("core/players.py", "import redis", "core knows no Redis"),
        ("stores/vault.py", "import workers.jobs", "layers"),
    ],
)
def test_an_import_across_a_layer_breaks_the_check(tmp_path: Path, module: str, planted: str, contract: str) -> None:
    tree = copy_of_tree(tmp_path)
    path = tree / module
    text = path.read_text()
    # After the module's docstring and future import, as a real import would sit.
    head, _, tail = text.partition("from __future__ import annotations\n")
    path.write_text(f"{head}from __future__ import annotations\n\n{planted}  # noqa\n{tail}")
    result = lint(tree)
    assert result.returncode != 0, result.stdout
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and planted.split()[-1].split(".")[0] in broken, result.stdout


OURS = ("games", "events", "projections", "core", "stores", "service", "workers")
LAZY_ENTRY_POINTS = {"service/cli.py", "service/tooling_cli.py", "service/admin_cli.py"}
"""The command lines import what a subcommand needs when it runs, so that ``--help`` and
a quick subcommand start fast; nothing else imports our modules inside a function."""


def imports_inside_functions(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for inner in ast.walk(node):
            names = []
            if isinstance(inner, ast.ImportFrom) and inner.module and inner.level == 0:
                names = [inner.module]
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            found += [f"{name} (line {inner.lineno})" for name in names if name.split(".")[0] in OURS]
    return found


def test_no_module_hides_an_import_of_ours_inside_a_function() -> None:
    # An import inside a function is how a cycle hides from the layer contracts: with
    # every import at the top, ``lint-imports`` sees each dependency, and a cycle fails
    # at import time instead of at the first call.
    hidden = {
        str(path.relative_to(ROOT)): found
        for package in OURS
        for path in sorted((ROOT / package).rglob("*.py"))
        if str(path.relative_to(ROOT)) not in LAZY_ENTRY_POINTS and (found := imports_inside_functions(path))
    }
    assert not hidden, hidden
