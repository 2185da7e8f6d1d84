"""``tablestream witness URL --state FILE``: watch a tablestream ledger for rewrites and
split views (docs/verification.md, section 6, "Witnesses").

A witness keeps the last checkpoint it accepted (and the log's key) in its state file.
Each run it fetches the server's latest checkpoint, checks that the log's key signed it
and that it extends the one kept (a consistency proof from the server), and keeps it. A
checkpoint that is smaller, or of the same size with another root, or that no proof ties
to the one kept, is a rewrite or a fork: the witness prints both checkpoints, keeps its
state, and exits 1. Checkpoints other clients were shown (``--checkpoint FILE``) are
checked the same way against the one kept: a split view, where an operator shows one
ledger to some and another to others, fails here when anyone hands a witness theirs.

With a key (``--key FILE``: base64 of a 32-byte Ed25519 seed, ``--name``), the witness
cosigns each checkpoint it accepts (C2SP tlog-cosignature, ``cosignature/v1``) and sends
the cosignature to the server, which serves it with that checkpoint.

The fetching is injected (``Fetch``), so the tests run witnesses against test clients.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from events.transparency import Signer, cosign, witness_vkey
from service.cli_arguments import readable_file, seconds, state_file, web_address
from service.verifier import Note, _loads, consistency_ok, parse_note, parse_vkey, signed_by

Fetch = Callable[[str], str]  # GET a path of the server: its body (raises on failure)
Post = Callable[[str, dict[str, Any]], int]  # POST JSON to a path: the status


class Alarm(Exception):
    """The log was rewritten or forked: what the witness saw, and why it refuses."""

    def __init__(self, reason: str, kept: str, shown: str) -> None:
        super().__init__(reason)
        self.reason, self.kept, self.shown = reason, kept, shown

    def report(self) -> str:
        return (
            f"ALARM: {self.reason}\n\nthe checkpoint this witness kept:\n{self.kept}\n"
            f"the checkpoint shown:\n{self.shown}"
        )


@dataclass
class State:
    log_key: str
    checkpoint: str | None = None
    cosigned: list[int] = field(default_factory=list)

    @staticmethod
    def load(path: Path) -> State | None:
        if not path.exists():
            return None
        raw = json.loads(path.read_text(encoding="utf-8"))
        return State(raw["log_key"], raw.get("checkpoint"), list(raw.get("cosigned", [])))

    def save(self, path: Path) -> None:
        """Written whole and renamed into place: a witness killed mid-write keeps the old one."""
        temporary = path.with_name(path.name + ".tmp")
        body = {"log_key": self.log_key, "checkpoint": self.checkpoint, "cosigned": self.cosigned[-16:]}
        temporary.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)


def _signed(note_text: str, log_key: str, what: str) -> Note:
    note = parse_note(note_text)
    vkey = parse_vkey(log_key)
    assert vkey is not None
    if note is None:
        raise ValueError(f"{what} is not a signed checkpoint")
    if note.origin != vkey[0] or not signed_by(note, vkey):
        raise Alarm(f"{what} is not signed by the log's key", "", note_text)
    return note


def _consistent(fetch: Fetch, older: Note, newer: Note) -> bool:
    if older.size == newer.size:
        return older.root == newer.root
    if older.size == 0:
        return True
    body = _loads(fetch(f"/v1/ledger/proofs/consistency?from={older.size}&to={newer.size}"))
    hashes = body.get("hashes") if isinstance(body, dict) else None
    if not isinstance(hashes, list) or not all(isinstance(h, str) and len(h) == 64 for h in hashes):
        return False
    try:
        proof = [bytes.fromhex(h) for h in hashes]
    except ValueError:
        return False
    return consistency_ok(older.size, newer.size, older.root, newer.root, proof)


def tie(fetch: Fetch, kept_text: str, shown_text: str, log_key: str) -> None:
    """Raise ``Alarm`` unless the two checkpoints are of one log: the larger extends the
    smaller, by a proof the server gives."""
    kept, shown = _signed(kept_text, log_key, "the kept checkpoint"), _signed(shown_text, log_key, "the checkpoint")
    older, newer = (kept, shown) if kept.size <= shown.size else (shown, kept)
    try:
        tied = _consistent(fetch, older, newer)
    except (urllib.error.URLError, OSError, ValueError, LookupError):
        tied = False
    if not tied:
        if kept.size == shown.size:
            reason = f"two checkpoints of {kept.size} entries with different roots: the ledger was forked"
        elif shown.size < kept.size:
            reason = f"the checkpoint shown ({shown.size} entries) is not a prefix of the one kept ({kept.size})"
        else:
            reason = f"the checkpoint of {shown.size} entries does not extend the one kept ({kept.size}): rewritten"
        raise Alarm(reason, kept_text, shown_text)


def cosignature(name: str, seed: bytes, note_text: str, timestamp: int) -> str:
    """The cosignature line of ``name``'s key over ``note_text``'s checkpoint at ``timestamp``."""
    note = parse_note(note_text)
    assert note is not None
    return cosign(name, seed, note.text, timestamp)


@dataclass
class Witness:
    state_path: Path
    fetch: Fetch
    post: Post | None = None
    name: str | None = None
    seed: bytes | None = None
    clock: Callable[[], float] = time.time

    def run(self, log_key: str | None = None, shown: list[str] | None = None) -> str:
        """One look at the server: the checkpoint accepted (raises ``Alarm``)."""
        state = State.load(self.state_path)
        if state is None:
            given = log_key or str(_loads(self.fetch("/v1/ledger/key")).get("verifier_key") or "")
            if parse_vkey(given) is None:
                raise ValueError("no valid log key (pass --log-key, or the server gives none)")
            state = State(given)
        elif log_key is not None and log_key != state.log_key:
            raise ValueError("the state file holds another log key than --log-key")
        latest = self.fetch("/v1/ledger/checkpoint")
        note = _signed(latest, state.log_key, "the server's checkpoint")
        if state.checkpoint is not None:
            tie(self.fetch, state.checkpoint, latest, state.log_key)
            if note.size < (parse_note(state.checkpoint) or note).size:
                latest = state.checkpoint  # an older view, consistent: keep the larger
        for text in shown or []:
            tie(self.fetch, latest, text, state.log_key)
        state.checkpoint = latest
        accepted = parse_note(latest)
        assert accepted is not None
        if self.post is not None and self.name and self.seed and accepted.size not in state.cosigned:
            line = cosignature(self.name, self.seed, latest, int(self.clock()))
            if self.post("/v1/ledger/cosignatures", {"checkpoint": accepted.text + "\n" + line + "\n"}) < 300:
                state.cosigned.append(accepted.size)
        state.save(self.state_path)
        return latest


# -- the command -----------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("url", type=web_address, help="the service's base URL, e.g. https://games.example.org")
    parser.add_argument("--state", required=True, type=state_file, help="the witness's state file (made on first run)")
    parser.add_argument("--log-key", default=None, help="the log's verifier key (first run: else the server's own)")
    parser.add_argument(
        "--checkpoint",
        action="append",
        default=[],
        type=readable_file,
        help="a checkpoint someone was shown: check it too",
    )
    parser.add_argument(
        "--key", type=readable_file, default=None, help="this witness's key: base64 of a 32-byte Ed25519 seed"
    )
    parser.add_argument("--name", default=None, help="this witness's name (with --key), e.g. witness.example.org")
    parser.add_argument("--every", type=seconds, default=0, help="look again every this many seconds (0: once)")


def _http(base: str) -> tuple[Fetch, Post]:
    def fetch(path: str) -> str:
        with urllib.request.urlopen(base.rstrip("/") + path, timeout=30) as response:
            return str(response.read().decode("utf-8"))

    def post(path: str, body: dict[str, Any]) -> int:
        request = urllib.request.Request(
            base.rstrip("/") + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return int(response.status)
        except urllib.error.HTTPError as error:
            return int(error.code)

    return fetch, post


def run(args: argparse.Namespace) -> int:
    """0 when every look is consistent, 1 on an alarm, 2 when the server cannot be read."""
    fetch, post = _http(args.url)
    if (args.key is None) != (args.name is None):
        print("error: --key and --name go together", file=sys.stderr)
        return 2
    seed = base64.b64decode(args.key.read_text().strip()) if args.key else None
    if seed is not None:
        # What the service's operator adds to TABLESTREAM_WITNESSES to keep this witness's cosignatures.
        print(f"witness key: {witness_vkey(args.name, Signer(args.name, seed).public_key)}", flush=True)
    witness = Witness(args.state, fetch, post if seed else None, args.name, seed)
    shown = [path.read_text(encoding="utf-8") for path in args.checkpoint]
    while True:
        try:
            accepted = witness.run(args.log_key, shown)
        except Alarm as alarm:
            print(alarm.report(), file=sys.stderr)
            return 1
        except (urllib.error.URLError, OSError, ValueError) as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        size = accepted.split("\n")[1]
        print(f"ok: checkpoint of {size} entries consistent with everything this witness has seen", flush=True)
        if not args.every:
            return 0
        shown = []
        time.sleep(args.every)
