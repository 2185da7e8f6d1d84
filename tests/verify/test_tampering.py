"""Given a game of every kind played to its end, when its record is tampered with as a
forger would (hashes recomputed wherever that helps them), then both verifiers refuse
it at the same first bad version, for the same reason (docs/verification.md, section 7:
"stops at the first failure, naming the version and the reason")."""

from __future__ import annotations

import copy
import hashlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from service import verifier
from tests.verify.conftest import KINDS, Case, Games, js_verdicts, latest, log_key, named, python_verdict

Record = dict[str, Any]
Tampered = tuple[Case, int, str]  # the case, its first bad version, the start of the reason
SWAPPED_ACTOR = {"human": "bot", "bot": "human", "system": "timeout", "timeout": "system"}


def rechain(record: Record, from_version: int = 1, anchors: bool = True) -> None:
    """Recompute every hash from ``from_version`` on; with ``anchors``, also the head
    and the ledger entry's hash (all a forger holding only this record can redo)."""
    events = record["events"]
    prev = verifier.GENESIS_HASH if from_version == 1 else events[from_version - 2]["hash"]
    for event in events[from_version - 1 :]:
        event["prev_hash"] = prev
        event["hash"] = prev = verifier.event_hash(prev, event)
    if anchors:
        record["head"] = {"version": events[-1]["version"], "hash": prev}
        entry = record.get("ledger")
        if entry:
            entry["version"], entry["hash"] = events[-1]["version"], prev
            entry["entry_hash"] = verifier.ledger_entry_hash(entry)


def commitments(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if verifier.is_commitment(value):
        yield path
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from commitments(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from commitments(inner, (*path, index))


def at(value: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def swap_two_cards(value: Any) -> bool:
    """Swap the first two different strings of the first list holding two (in place)."""
    if isinstance(value, list):
        strings = [i for i, item in enumerate(value) if isinstance(item, str)]
        other = next((j for j in strings if value[j] != value[strings[0]]), None) if strings else None
        if other is not None:
            value[strings[0]], value[other] = value[other], value[strings[0]]
            return True
        return any(swap_two_cards(item) for item in value)
    if isinstance(value, dict):
        return any(swap_two_cards(item) for item in value.values())
    return False


def hidden_cards(record: Record) -> tuple[dict[str, Any], tuple[str | int, ...]]:
    """The first event of the game (not the platform's) with a committed list of cards."""
    for event in record["events"]:
        if event["type"] in ("GameCreated", "ActionTaken") or "sealed" not in event:
            continue
        for path in commitments(event["sealed"]):
            if swap_two_cards(copy.deepcopy(at(event["data"], path))):
                return event, path
    raise AssertionError("no committed list of cards in this game")


def change_a_draw(
    record: Record, types: tuple[str, ...] = ("GameCreated", "ActionTaken")
) -> tuple[dict[str, Any], str]:
    """Change the first draw that can change, of an event of one of ``types``: an integer
    to another in its range, a shuffle with two of its items swapped. Returns the event
    and the reason it fails."""
    for event in record["events"]:
        if event["type"] not in types:
            continue
        for draw in event["data"].get("draws") or []:
            if "integer" in draw and draw["integer"][0] < draw["integer"][1]:
                low, high = draw["integer"]
                draw["result"] = low + (draw["result"] - low + 1) % (high - low + 1)
                return event, f"draw {draw['label']} is not what the seed gives"
            if "shuffle" in draw and swap_two_cards(draw["result"]):
                return event, f"shuffle {draw['label']} is not what the seed gives"
    raise AssertionError("no draw to change in this game")


def every_actor_changed(record: Record) -> Tampered:
    for event in record["events"]:
        event["actor"] = SWAPPED_ACTOR[event["actor"]]
    rechain(record, anchors=False)
    return Case(record), len(record["events"]), "the last event's hash is not the hash of its head"


def every_actor_changed_and_anchors_redone_against_a_kept_head(record: Record) -> Tampered:
    middle = len(record["events"]) // 2
    kept = (middle, record["events"][middle - 1]["hash"])
    for event in record["events"]:
        event["actor"] = SWAPPED_ACTOR[event["actor"]]
    rechain(record)
    return Case(record, kept), middle, f"the log has another hash at version {middle} than the head you kept"


def tail_cut(record: Record) -> Tampered:
    del record["events"][-3:]
    return Case(record), len(record["events"]) + 1, f"the log ends at version {len(record['events'])} but its head"


def tail_cut_and_head_moved_back(record: Record) -> Tampered:
    del record["events"][-3:]
    record["head"] = {"version": len(record["events"]), "hash": record["events"][-1]["hash"]}
    return Case(record), len(record["events"]) + 1, "the log ends at version"


def tail_cut_without_anchors(record: Record) -> Tampered:
    del record["events"][-3:]
    record["head"] = record["ledger"] = None
    return Case(record), len(record["events"]) + 1, "the record says the game is over"


def two_events_reordered(record: Record) -> Tampered:
    events = record["events"]
    i = len(events) // 2
    events[i - 1], events[i] = events[i], events[i - 1]
    return Case(record), i, f"version {i} is missing or out of order"


def card_swapped_in_a_committed_value(record: Record) -> Tampered:
    event, path = hidden_cards(record)
    swap_two_cards(at(event["data"], path))
    return Case(record), event["version"], f"the hidden value at {verifier.spell(path)} does not match its commitment"


def commitment_forged(record: Record) -> Tampered:
    event, path = hidden_cards(record)
    at(event["sealed"], path)["$commit"] = hashlib.sha256(b"another deck").hexdigest()
    rechain(record, event["version"])
    return Case(record), event["version"], f"the hidden value at {verifier.spell(path)} does not match its commitment"


def draw_changed_and_recommitted(record: Record) -> Tampered:
    """The forger knows the revealed seed, so commits to the changed draws properly."""
    event, reason = change_a_draw(record)
    seed = record["events"][-1]["data"]["seed"]
    salt = verifier.salt(seed, event["version"], ["draws"])
    event["sealed"]["draws"] = {"$commit": verifier.commitment(salt, event["data"]["draws"])}
    rechain(record, event["version"])
    return Case(record), event["version"], reason


def draw_changed(record: Record) -> Tampered:
    event, _ = change_a_draw(record)
    return Case(record), event["version"], 'the hidden value at data["draws"] does not match its commitment'


def recommitted(record: Record, event: dict[str, Any]) -> None:
    """Commit to ``event``'s draws as they now are, with the revealed seed's salt, and
    chain again from it (the head and the ledger entry too)."""
    seed = record["events"][-1]["data"]["seed"]
    salt = verifier.salt(seed, event["version"], ["draws"])
    event["sealed"]["draws"] = {"$commit": verifier.commitment(salt, event["data"]["draws"])}
    rechain(record, event["version"])


def fork_re_deal_changed_and_recommitted(record: Record) -> Tampered:
    """A fork's re-deal (its ForkedFrom's draws) changed by a forger holding the seed."""
    event, reason = change_a_draw(record, ("ForkedFrom",))
    recommitted(record, event)
    return Case(record), 1, reason


def fork_re_deal_changed(record: Record) -> Tampered:
    change_a_draw(record, ("ForkedFrom",))
    return Case(record), 1, 'the hidden value at data["draws"] does not match its commitment'


def fork_re_deal_dropped(record: Record) -> Tampered:
    """The re-deal's record removed from the data, as if the fork had drawn nothing (its
    seal still commits to it). Removed from the seal too, only the audit, which deals the
    fork again with the rules, can tell (tests/tooling/test_undo_fork_replay.py)."""
    del record["events"][0]["data"]["draws"]
    return Case(record), 1, 'data["draws"] is missing from the data'


TAMPERS: dict[str, Callable[[Record], Tampered]] = named(
    every_actor_changed,
    every_actor_changed_and_anchors_redone_against_a_kept_head,
    tail_cut,
    tail_cut_and_head_moved_back,
    tail_cut_without_anchors,
    two_events_reordered,
    card_swapped_in_a_committed_value,
    commitment_forged,
    draw_changed_and_recommitted,
    draw_changed,
)


def open_part_changed_in_play(record: Record) -> Tampered:
    """In play the hash covers a sealed event's open parts only through ``sealed``: a
    changed open part of ``data`` must not pass."""
    for event in record["events"]:
        sealed = event.get("sealed")
        if sealed is None:
            continue
        for key, value in sealed.items():
            if isinstance(value, (int, str)) and not isinstance(value, bool) and key in event["data"]:
                event["data"][key] = value + 1 if isinstance(value, int) else value + "x"
                return (
                    Case(record),
                    event["version"],
                    f"the data at {verifier.spell((key,))} differs from the sealed form its hash covers",
                )
    raise AssertionError("no open part in any sealed event")


def opened(record: Record) -> Iterator[tuple[dict[str, Any], tuple[str | int, ...], dict[str, Any]]]:
    """Every opening a seat was given in ``record``: its event, its path, the opening."""
    for event in record["events"]:
        for opening in event.get("openings", []):
            yield event, tuple(opening["path"]), opening


def no_match(event: dict[str, Any], path: tuple[str | int, ...]) -> tuple[int, str]:
    """Where and why a seat's opening fails: the value it is shown does not open."""
    return event["version"], f"the value at {verifier.spell(path)} does not match its commitment under the salt given"


def opening_salt_changed(record: Record) -> Tampered:
    """A salt the seat was given changed by one digit: it no longer opens its commitment."""
    event, path, opening = next(opened(record))
    opening["salt"] = opening["salt"][:-1] + ("0" if opening["salt"][-1] != "0" else "1")
    return (Case(record), *no_match(event, path))


def own_card_changed(record: Record) -> Tampered:
    """The server shows the seat other cards than the chain committed to, with the true
    salt: the seat's own check catches the lie as it arrives."""
    for event, path, _ in opened(record):
        if swap_two_cards(at(event["data"], path)):
            return (Case(record), *no_match(event, path))
    for event, path, _ in opened(record):  # no list of cards opened: change its first leaf (a card, a move)
        parent, key = event, "data"
        for part in path:
            parent, key = parent[key], part
        while isinstance(parent[key], (dict, list)) and parent[key]:
            parent, key = parent[key], next(iter(parent[key])) if isinstance(parent[key], dict) else 0
        if isinstance(parent[key], (str, int)) and not isinstance(parent[key], bool):
            parent[key] = parent[key] + ("x" if isinstance(parent[key], str) else 1)
            return (Case(record), *no_match(event, path))
    raise AssertionError("no opened value holds a card to change")


def opening_of_a_value_not_shown(record: Record) -> Tampered:
    """An opening for a commitment whose value the seat is not shown (the draws, another
    seat's cards): nothing to open, so nothing the seat could check."""
    for event in record["events"]:
        given = {canonical(list(path)) for _, path, _ in opened({"events": [event]})}
        for path in commitments(event.get("sealed")):
            found, _ = verifier.located(event["data"], list(path))
            if not found and canonical(list(path)) not in given:
                event.setdefault("openings", []).append({"path": list(path), "salt": "ab" * 32})
                reason = f"the opening of {verifier.spell(path)} names a value the data does not show"
                return Case(record), event["version"], reason
    raise AssertionError("no commitment whose value the seat is not shown")


def canonical(value: Any) -> str:
    return verifier.canonical_json(value)


OPENING_TAMPERS: dict[str, Callable[[Record], Tampered]] = named(
    opening_salt_changed, own_card_changed, opening_of_a_value_not_shown
)

Judged = tuple[Tampered, dict[str, Any], dict[str, Any]]  # the case, the Python and the JavaScript verdicts


FORK_TAMPERS: dict[str, Callable[[Record], Tampered]] = named(
    fork_re_deal_changed_and_recommitted, fork_re_deal_changed, fork_re_deal_dropped
)


@pytest.fixture(scope="module")
def judged(games: Games, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, Judged]]:
    """For one kind: every tampered case, with both verdicts on it (one node for all)."""
    done: dict[str, dict[str, Judged]] = {}

    def judge(kind: str) -> dict[str, Judged]:
        if kind not in done:
            seat = games.in_play(kind).seat_record
            sources: list[tuple[dict[str, Callable[[Record], Tampered]], Record]] = [
                (TAMPERS, games.finished(kind)),
                (FORK_TAMPERS, games.forked(kind)),
                ({"in_play": open_part_changed_in_play}, games.in_play(kind).spectator_record),
                (OPENING_TAMPERS, seat),
            ]
            cases: dict[str, Tampered] = {}
            for tampers, record in sources:
                # each from a file, and as `tablestream verify URL [--token]` checks it: with
                # the log's key and what the server says now about the untouched game
                now, key = latest(games.client, record), log_key(games.client)
                for name, tamper in tampers.items():
                    cases[name] = tamper(copy.deepcopy(record))
                    case, version, reason = tamper(copy.deepcopy(record))
                    cases[f"{name}_from_a_url"] = (Case(case.record, case.head, key, now), version, reason)
            js = js_verdicts([case for case, _, _ in cases.values()], tmp_path_factory.mktemp(kind))
            done[kind] = {
                name: (cases[name], python_verdict(cases[name][0]), verdict)
                for name, verdict in zip(cases, js, strict=True)
            }
        return done[kind]

    return judge


FROM_A_FILE = [*TAMPERS, *FORK_TAMPERS, "in_play", *OPENING_TAMPERS]


@pytest.mark.parametrize("tamper", [*FROM_A_FILE, *(f"{name}_from_a_url" for name in FROM_A_FILE)])
@pytest.mark.parametrize("kind", KINDS)
def test_a_tampered_record_fails_in_both_verifiers_at_the_same_version(
    kind: str, tamper: str, judged: Callable[[str], dict[str, Judged]]
) -> None:
    (_, version, reason), py, js = judged(kind)[tamper]
    assert not py["ok"], f"{kind}: {tamper} passed the Python verifier"
    assert py["first_bad_version"] == version, py
    assert py["reason"].startswith(reason), py
    assert js == py, "the two verifiers agree, word for word"


DAMAGE = [None, 1.5, 2**60, "x", [], {}, True, 0, -1, "\ud800", {"$commit": "ab"}, [1, 2]]


def damaged(record: Record, rng: random.Random) -> Record:
    """``record`` with one field anywhere (the record's own or an event's) deleted or
    replaced by a value of another shape."""
    record = copy.deepcopy(record)
    target = record if rng.random() < 0.15 else rng.choice(record["events"])
    places: list[tuple[Any, str | int]] = []
    stack: list[Any] = [target]
    while stack:
        value = stack.pop()
        keys: list[str | int] = list(value) if isinstance(value, dict) else list(range(len(value)))
        for key in keys:
            places.append((value, key))
            if isinstance(value[key], (dict, list)):
                stack.append(value[key])
    parent, key = rng.choice(places)
    if isinstance(parent, dict) and rng.random() < 0.3:
        del parent[key]
    else:
        parent[key] = rng.choice(DAMAGE)
    return record


def test_both_verifiers_agree_on_random_damage(games: Games, tmp_path: Path) -> None:
    """Whatever is broken, the two say the same, and neither crashes."""
    rng = random.Random(2026)
    cases = [Case(damaged(games.finished("tiny"), rng)) for _ in range(150)]
    js = js_verdicts(cases, tmp_path)
    for case, verdict in zip(cases, js, strict=True):
        assert python_verdict(case) == verdict
