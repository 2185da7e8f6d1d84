"""The suite leaves nothing behind in a shared Redis: a plugin that snapshots the
database ``REDIS_URL`` names before the first test and after the last, and fails the run
naming every key (and every member of a set such as RQ's ``rq:queues``) that was not
there before.

It runs once per run, in the process that ends it (the xdist controller when tests run
in parallel, never in a worker), so the "after" sees every worker's cleanup done. Keys
that were there before are never judged: the database may be shared with others.
``tests/platform/test_leftovers.py`` runs this plugin on a leaking test to show it
fails."""

from __future__ import annotations

import os

import pytest
import redis

Snapshot = dict[str, frozenset[bytes]]

_BEFORE = pytest.StashKey[Snapshot]()
_SETS = "(set)"


def snapshot(client: redis.Redis) -> Snapshot:
    """Every key in the database, and for each set its members (a set that gains a
    member, as ``rq:queues`` does when a test's queue is named in it, is a leftover too)."""
    out: Snapshot = {}
    for key in client.scan_iter(count=1000):
        name = key.decode(errors="replace")
        members = client.smembers(key) if client.type(key) == b"set" else set()
        out[name] = frozenset(members)
    return out


def leftovers(before: Snapshot, after: Snapshot) -> list[str]:
    """What ``after`` holds that ``before`` did not: new keys, and new members of sets."""
    found = []
    for key in sorted(after):
        if key not in before:
            found.append(key)
            continue
        for member in sorted(after[key] - before[key]):
            found.append(f"{key} {_SETS} {member.decode(errors='replace')}")
    return found


def _client() -> redis.Redis | None:
    url = os.environ.get("REDIS_URL")
    return redis.Redis.from_url(url) if url else None  # the embedded Redis is the run's own


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def pytest_sessionstart(session: pytest.Session) -> None:
    client = _client()
    if client is None or _is_worker(session.config):
        return
    with client:
        session.config.stash[_BEFORE] = snapshot(client)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    before = session.config.stash.get(_BEFORE, None)
    client = _client()
    if before is None or client is None:
        return
    with client:
        left = leftovers(before, snapshot(client))
    if not left:
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = [f"the suite left {len(left)} key(s) or set member(s) behind in {os.environ['REDIS_URL']}:"]
    lines += [f"  {item}" for item in left[:50]]
    if len(left) > 50:
        lines.append(f"  ... and {len(left) - 50} more")
    for line in lines:
        if reporter is not None:
            reporter.write_line(line, red=True)
        else:
            print(line)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
