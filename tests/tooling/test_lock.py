"""The locks (``requirements/*.lock``): every dependency that pyproject.toml asks for, direct
or transitive, pinned to one version with its hashes; the README's commands, the benchmarks'
(``docs/benchmarks.md``) and CI install from them; and the environment running this suite
is the one the test lock describes."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = ROOT / "requirements"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\]+)")


def pins(lock: str) -> dict[str, str]:
    """Each package of a lock with its version; fails on any entry that is not an exact pin with hashes."""
    found: dict[str, str] = {}
    entry: list[str] = []
    for line in [*(LOCKS / lock).read_text().splitlines(), ""]:
        if line.startswith(" ") and entry:
            entry.append(line)
            continue
        if entry:
            match = PIN.match(entry[0])
            assert match, f"{lock}: not an exact pin: {entry[0]!r}"
            assert any("--hash=sha256:" in part for part in entry), f"{lock}: {entry[0]!r} has no hash"
            found[canonicalize_name(match[1])] = match[2]
            entry = []
        if line and not line.startswith("#"):
            entry = [line]
    return found


def wanted(*extras: str) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = list(project["dependencies"])
    for extra in extras:
        names += project["optional-dependencies"][extra]
    return [Requirement(name) for name in names]


def test_every_lock_pins_what_pyproject_asks_for_within_its_range() -> None:
    for lock, extras in [("serve.lock", ()), ("test.lock", ("test",)), ("bench.lock", ("test", "bench"))]:
        pinned = pins(lock)
        for requirement in wanted(*extras):
            name = canonicalize_name(requirement.name)
            assert name in pinned, f"{lock} does not pin {requirement.name}"
            assert requirement.specifier.contains(pinned[name], prereleases=True), (
                f"{lock} pins {requirement.name}=={pinned[name]}, outside {requirement.specifier}"
            )


def test_the_locks_agree_with_each_other() -> None:
    # What is served, and what the benchmarks measure, is what the suite tested.
    tested = pins("test.lock")
    for lock in ("serve.lock", "bench.lock"):
        for name, version in pins(lock).items():
            if name in tested:
                assert version == tested[name], f"{lock} pins {name}=={version}, test.lock {tested[name]}"


def test_the_readme_the_benchmarks_and_ci_install_from_the_locks_with_hashes_required() -> None:
    readme = (ROOT / "README.md").read_text()
    bench = (ROOT / "docs" / "benchmarks.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "pip install -q --require-hashes -r requirements/serve.lock" in readme
    assert "pip install -q --require-hashes -r requirements/test.lock" in readme
    assert "pip install -q --require-hashes -r requirements/bench.lock" in bench
    assert "pip install -q --require-hashes -r requirements/test.lock" in ci
    for text in (readme, bench, ci):
        # The project itself goes in on top without pulling anything the lock did not choose.
        assert "pip install -q --no-deps --no-build-isolation -e ." in text
        assert "pip install -e" not in text and "pip install -q -e" not in text


def test_this_environment_is_the_test_lock() -> None:
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    for name, version in pins("test.lock").items():
        assert installed.get(name) == version, f"{name}: installed {installed.get(name)}, locked {version}"
