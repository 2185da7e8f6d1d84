"""The suite's order (``tests/conftest.py``): the heaviest tests start first, and each
entry of its list of them still names a test (a renamed one would silently fall back to
file order and hold up the end of a run)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import HEAVIEST

ROOT = Path(__file__).resolve().parents[2]


def collected(*args: str, workers: int = 1) -> list[str]:
    # Collecting needs no Redis; without REDIS_URL the run also skips its check for keys
    # left behind, which would judge the keys the parallel suite's other tests hold meanwhile.
    # Collected as one of ``workers`` xdist workers would (a worker learns their number so).
    env = {name: value for name, value in os.environ.items() if name not in ("REDIS_URL", "PYTEST_XDIST_WORKER_COUNT")}
    if workers > 1:
        env["PYTEST_XDIST_WORKER_COUNT"] = str(workers)
    answer = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert answer.returncode == 0, answer.stdout + answer.stderr
    return [line for line in answer.stdout.splitlines() if "::" in line]


def test_each_heavy_entry_names_a_test_and_they_come_first_in_their_order() -> None:
    files = sorted({start.split("::")[0] for start in HEAVIEST})
    # This file's own test, light, comes last: after every heavy one.
    nodes = collected(*files, "tests/tooling/test_suite_order.py")
    ranks = []
    for node in nodes:
        rank = next((r for r, start in enumerate(HEAVIEST) if node.startswith(start)), len(HEAVIEST))
        ranks.append(rank)
    for rank, start in enumerate(HEAVIEST):
        assert rank in ranks, f"HEAVIEST names {start}, which is no test"
    assert ranks == sorted(ranks), "the heaviest tests do not start first, in their order"
    assert nodes[-1].startswith("tests/tooling/test_suite_order.py::"), "a light test moved ahead"


def rank_of(node: str) -> int:
    return next((r for r, start in enumerate(HEAVIEST) if node.startswith(start)), len(HEAVIEST))


def test_under_four_workers_each_share_starts_with_its_turn_of_the_heavy_tests() -> None:
    """worksteal hands each worker one contiguous share of the collected list (what is left,
    divided by the workers left); each share must begin with a quarter of the heavy tests,
    dealt in their order, so that no worker starts with all of them."""
    files = sorted({start.split("::")[0] for start in HEAVIEST})
    nodes = collected(*files, "tests/tooling/test_suite_order.py", workers=4)
    alone = collected(*files, "tests/tooling/test_suite_order.py")
    assert sorted(nodes) == sorted(alone), "dealing lost or added a test"
    heavy = [node for node in alone if rank_of(node) < len(HEAVIEST)]
    shares, left = [], nodes
    for worker in range(4):
        size = len(left) // (4 - worker)
        shares.append(left[:size])
        left = left[size:]
    for worker, share in enumerate(shares):
        own = heavy[worker::4]
        assert share[: len(own)] == own, f"share {worker} does not start with its turn of the heavy tests"
        assert all(rank_of(node) == len(HEAVIEST) for node in share[len(own) :]), f"share {worker}: a heavy test late"


def test_the_timing_checks_run_alone() -> None:
    """The tests that compare latencies under load with latencies without it are marked
    ``solo`` (the README's command runs them after the parallel part): among the parallel
    tests, the others' load would be measured, not the server's."""
    solo = collected("-m", "solo", "tests/reliability")
    assert any("test_a_burst_at_ten_times_the_limit_is_throttled_and_others_stay_fast" in node for node in solo), solo
    assert any("test_reliability_crowd.py" in node for node in solo), solo


def test_every_timing_check_is_where_the_solo_step_looks() -> None:
    """The README's solo step collects ``tests/reliability`` only (collecting the whole suite
    a second time took ten seconds), so a test marked ``solo`` anywhere else would run in
    neither step."""
    tests = Path(__file__).resolve().parents[1]
    outside = [
        str(path.relative_to(tests))
        for path in sorted(tests.rglob("*.py"))
        if path.parent.name != "reliability" and path != Path(__file__).resolve() and "mark.solo" in path.read_text()
    ]
    assert outside == [], f"marked solo outside tests/reliability: {outside}"
