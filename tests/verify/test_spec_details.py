"""The details of docs/verification.md that decide a verdict (section 7, "Details that
decide a verdict"), each held to in both verifiers, word for word alike: which check
comes first, which version a failure names, what present means, duplicate keys."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.verify.conftest import Case, Games, js_verdicts, named, python_verdict
from tests.verify.test_tampering import rechain

KIND = "fortress-royals"
Record = dict[str, Any]
Detail = tuple[Case, int | None, str | None]  # the case, the version it must name (None: it verifies), the reason


def sealed_at(record: Record) -> int:
    """The index of the first event with a sealed form after version 2."""
    return next(i for i, e in enumerate(record["events"]) if "sealed" in e and e["version"] > 2)


def steps_run_in_order(record: Record) -> Detail:
    """A broken hash early and a gap late: the gap is found first (step 1 runs over the
    whole log before step 2)."""
    record["events"][2]["actor"] = "timeout" if record["events"][2]["actor"] != "timeout" else "bot"
    del record["events"][-3]
    last = len(record["events"]) + 1
    return Case(record), last - 2, f"version {last - 2} is missing or out of order"


def chain_before_contents(record: Record) -> Detail:
    """A commitment that does not open early and a broken hash late: the hash is found
    first (step 2 before step 4)."""
    i = sealed_at(record)
    event = record["events"][i]
    path = next(iter(k for k, v in event["sealed"].items() if isinstance(v, dict) and "$commit" in v))
    event["sealed"][path] = {"$commit": "0" * 64}
    rechain(record, event["version"])
    record["events"][-2]["command_id"] = "forged"
    version = record["events"][-2]["version"]
    return Case(record), version, "the event's content does not match its hash"


def status_finished_over_a_log_in_play(record: Record) -> Detail:
    record["status"] = "finished"
    last = len(record["events"])
    return Case(record), last + 1, "the record says the game is over"


def status_active_over_a_finished_log(record: Record) -> Detail:
    record["status"] = "active"
    return Case(record), len(record["events"]), "the log reveals the seed, but the record says the game is in play"


def sealed_null_is_present(record: Record) -> Detail:
    event = record["events"][sealed_at(record)]
    event["sealed"] = None
    return Case(record), event["version"], "the event's sealed form is not an object"


def openings_null_is_present(record: Record) -> Detail:
    event = record["events"][sealed_at(record)]
    event["openings"] = None
    return Case(record), event["version"], "the event's openings are not a list"


def anchors_null_are_absent(record: Record) -> Detail:
    for name in ("status", "head", "ledger", "seed", "ledger_proof"):
        record[name] = None
    return Case(record), None, None


def outcome_null_is_compared(record: Record) -> Detail:
    record["outcome"] = None
    return Case(record), len(record["events"]), "the record's outcome is not the one the last event holds"


def duplicate_keys_last_wins(record: Record) -> Detail:
    """An event written with its ``actor`` twice, a false one first: read as JSON readers
    read it, the last (true) one counts, and the record verifies."""
    text = json.dumps(record)
    actor = record["events"][3]["actor"]
    marker = json.dumps(record["events"][3])
    doubled = marker.replace(f'"actor": "{actor}"', f'"actor": "forged", "actor": "{actor}"', 1)
    assert doubled != marker
    return Case(text.replace(marker, doubled, 1)), None, None


FINISHED: dict[str, Callable[[Record], Detail]] = named(
    steps_run_in_order,
    chain_before_contents,
    status_active_over_a_finished_log,
    anchors_null_are_absent,
    outcome_null_is_compared,
    duplicate_keys_last_wins,
)
IN_PLAY: dict[str, Callable[[Record], Detail]] = named(
    status_finished_over_a_log_in_play, sealed_null_is_present, openings_null_is_present
)


@pytest.fixture(scope="module")
def judged(games: Games, tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Detail, dict[str, Any], Any]]:
    cases = {name: f(copy.deepcopy(games.finished(KIND))) for name, f in FINISHED.items()}
    cases |= {name: f(copy.deepcopy(games.in_play(KIND).seat_record)) for name, f in IN_PLAY.items()}
    js = js_verdicts([case for case, _, _ in cases.values()], Path(tmp_path_factory.mktemp("details")))
    return {name: (cases[name], python_verdict(cases[name][0]), v) for name, v in zip(cases, js, strict=True)}


@pytest.mark.parametrize("detail", [*FINISHED, *IN_PLAY])
def test_both_verifiers_decide_each_detail_as_the_spec_says(
    detail: str, judged: dict[str, tuple[Detail, dict[str, Any], Any]]
) -> None:
    (_, version, reason), py, js = judged[detail]
    if version is None:
        assert py["ok"], py
    else:
        assert not py["ok"] and py["first_bad_version"] == version, py
        assert reason is not None and py["reason"].startswith(reason), py
    assert js == py, "the two verifiers agree, word for word"
