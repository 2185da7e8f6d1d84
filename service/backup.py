"""Backup and restore of a whole deployment: every key under its prefix, as Redis's own
``DUMP``, into one NDJSON file, and back with ``RESTORE`` into a Redis that holds nothing
under that prefix. Single Redis or cluster alike.

What a backup holds: every game's log, head and command records, its seed and its seat
tokens' hashes, its chat and snapshot; the ledger with its tree, signing key and
cosignatures; players, webhooks, read models, inboxes, ratings and the feed with the
projector's place in it. Left out: the rate counters (soft state, a window old at most)
and the health probes. The job queues live in the queue's Redis and are not backed up:
a worker, as it starts, enqueues again every job the games call for (``reconcile``).

Consistency: the keys that share a hash tag (and, on a cluster, a game's keys within its
partition's tag) are dumped together by one script, so each game is one consistent
prefix of its log, with the head and the records that go with it. Games are dumped one
after another while play goes on: a game may be at a later version than another was
when it was dumped, as in any backup of a running service, and each verifies alone.

The dumps are Redis's serialization, restorable into the same or a later Redis; the file
holds every seed and the ledger's signing key, so it is as secret as the Redis it came from.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

BACKUP_FORMAT = "tablestream-backup/1"

DUMP_LUA = """
-- KEYS: keys of one slot; returns for each {its dump or false, its ms to live (-1: none)}
local out = {}
for i, key in ipairs(KEYS) do
  out[i] = {redis.call('DUMP', key), redis.call('PTTL', key)}
end
return out
"""

TAG = re.compile(r"\{([^}]*)\}")
# On a cluster a partition's tag holds many games: a game's keys there are ``...:g:<id>:<part>``.
PARTITIONED_GAME = re.compile(r"\}:g:([^:]+):")
SKIPPED = re.compile(r"(^|:)(rate|healthz)(:|$)|(^|:)\{rate[:}]")
GROUP_LIMIT = 500  # keys dumped by one script, at most (a big group is dumped in parts)


class BackupError(Exception):
    """A backup that cannot be restored here, said plainly."""


def _group_of(key: str) -> str:
    """The keys dumped together: those of one hash tag, and on a cluster one game's within
    its partition's tag."""
    tag = TAG.search(key)
    if tag is None:
        return key  # no tag: a key on its own
    game = PARTITIONED_GAME.search(key)
    return f"{tag.group(1)}/{game.group(1)}" if game else tag.group(1)


def _keys(client: Any, prefix: str) -> Iterator[str]:
    for raw in client.scan_iter(match=f"{prefix}:*", count=1000):
        key = raw.decode() if isinstance(raw, bytes) else str(raw)
        if not SKIPPED.search(key[len(prefix) + 1 :]):
            yield key


def backup(
    client: Any, prefix: str, out: TextIO, clock: Callable[[], str], report: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Write every key under ``prefix`` to ``out``: a header line, one line per group of keys
    (``{"keys": [[name, dump, ms to live], ...]}``, dumps in base64), and a closing line
    with the count and the SHA-256 of the lines before it. Returns the closing line."""
    groups: dict[str, list[str]] = {}
    for key in _keys(client, prefix):
        groups.setdefault(_group_of(key), []).append(key)
    dump = client.register_script(DUMP_LUA)
    digest = hashlib.sha256()

    def write(record: dict[str, Any]) -> None:
        line = json.dumps(record, separators=(",", ":"), sort_keys=True) + "\n"
        digest.update(line.encode())
        out.write(line)

    write({"format": BACKUP_FORMAT, "prefix": prefix, "taken_at": clock()})
    written, total = 0, sum(len(keys) for keys in groups.values())
    for index, name in enumerate(sorted(groups)):
        keys = groups[name]
        for start in range(0, len(keys), GROUP_LIMIT):
            part = keys[start : start + GROUP_LIMIT]
            rows = []
            for key, (dumped, ttl) in zip(part, dump(keys=part), strict=True):
                if dumped is not None and dumped is not False:  # gone since the scan
                    rows.append([key, base64.b64encode(dumped).decode(), int(ttl)])
            if rows:
                write({"keys": rows})
                written += len(rows)
        if report is not None and (index % 50 == 0 or index == len(groups) - 1):
            report(written, total)
    closing = {"end": True, "keys": written, "sha256": digest.hexdigest()}
    out.write(json.dumps(closing, separators=(",", ":"), sort_keys=True) + "\n")
    return closing


def _records(lines: Iterable[str]) -> Iterator[tuple[dict[str, Any], str]]:
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise BackupError(f"line {number} is not JSON: the file is cut or not a backup") from None
        if not isinstance(record, dict):
            raise BackupError(f"line {number} is not a record of a backup")
        yield record, line if line.endswith("\n") else line + "\n"


def read_backup(lines: Iterable[str], prefix: str) -> Iterator[tuple[str, bytes, int]]:
    """Every key of a backup file, checked whole before anything is given: its format and
    prefix, and its closing line's count and SHA-256 (a file cut short or edited is refused)."""
    records = list(_records(lines))
    if not records or records[0][0].get("format") != BACKUP_FORMAT:
        raise BackupError(f"the first line is not a {BACKUP_FORMAT} header")
    if records[0][0].get("prefix") != prefix:
        raise BackupError(f"the backup is of prefix {records[0][0].get('prefix')!r}, not {prefix!r}")
    closing = records[-1][0]
    if not closing.get("end"):
        raise BackupError("the file has no closing line: it was cut short")
    digest = hashlib.sha256("".join(line for _, line in records[:-1]).encode()).hexdigest()
    rows = [row for record, _ in records[1:-1] for row in record.get("keys", [])]
    if digest != closing.get("sha256") or len(rows) != closing.get("keys"):
        raise BackupError("the file does not match its closing line: it was changed or cut")
    for key, dumped, ttl in rows:
        yield str(key), base64.b64decode(dumped), int(ttl)


def restore(client: Any, prefix: str, lines: Iterable[str], report: Callable[[int, int], None] | None = None) -> int:
    """Restore a backup into ``client``, which must hold nothing under ``prefix`` but the
    partition count a process writes as it starts (the backup's replaces it). Each key gets
    its time to live back (a key that had none keeps none). Returns how many keys."""
    partitions = f"{prefix}:partitions"
    for raw in client.scan_iter(match=f"{prefix}:*", count=1000):
        if (raw.decode() if isinstance(raw, bytes) else str(raw)) != partitions:
            raise BackupError(f"this Redis already holds keys under {prefix!r}: restore only into an empty one")
    rows = list(read_backup(lines, prefix))
    for index, (key, dumped, ttl) in enumerate(rows, 1):
        if ttl == -2:  # expired between its scan and its dump
            continue
        client.restore(key, max(ttl, 0), dumped, replace=key == partitions)
        if report is not None and (index % 1000 == 0 or index == len(rows)):
            report(index, len(rows))
    return len(rows)
