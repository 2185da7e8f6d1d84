"""The ledger's transparency log against a forger (docs/verification.md, section 6).

Given a finished game of every kind, its record as the replay serves it (with its ledger
entry and that entry's inclusion proof under a signed checkpoint), when a forger rewrites
it with everything recomputed that they can recompute, then both verifiers refuse it at
the same version for the same reason, given the log's key, and given what the server
says now (its latest checkpoint, this game's entry, and a consistency proof):

- a hidden card changed, its commitment, the chain, the head and the ledger entry all
  recomputed, the record's checkpoint kept: the entry is not in the checkpoint's tree;
- the same with a tree and checkpoint of the forger's own, signed with their own key:
  the checkpoint is not the log's; without the key, the server's entry still differs;
- the record cut by three events with its head, ledger entry, proof and status removed
  (it then reads as a game in play): the server's ledger entry shows the missing tail;
- a split view: the operator (who holds the key) shows this record a checkpoint of a
  ledger forked from the one everyone else sees: the server's checkpoint does not extend
  it.

Honest records pass the same checks, with the key and against the server."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from events.transparency import Checkpoint, Signer, Tree, leaf_hash
from service import verifier
from stores.platform import Platform
from tests.verify.conftest import KINDS, Case, Games, js_verdicts, latest, python_verdict
from tests.verify.test_tampering import at, commitments, rechain, swap_two_cards

Record = dict[str, Any]
Forged = tuple[Case, int, str]


def honest_leaves(platform: Platform, size: int) -> list[bytes]:
    return [leaf_hash(platform.ledger.at(i) or {}) for i in range(1, size + 1)]


def proof_over(leaves: list[bytes], index: int, signer: Signer) -> dict[str, Any]:
    """A ledger proof of entry ``index`` over ``leaves``, signed by ``signer``."""
    tree = Tree(lambda start, end: leaves[start:end])
    size = len(leaves)
    note = signer.sign(Checkpoint(signer.name, size, tree.root(size)))
    return {"tree_size": size, "hashes": [h.hex() for h in tree.inclusion(index - 1, size)], "checkpoint": note}


def rewritten_card(record: Record) -> Record:
    """A hidden card swapped with another, its commitment recomputed from the revealed
    seed, and the chain, head and ledger entry redone: all a forger with the seed can do."""
    seed = record["events"][-1]["data"]["seed"]
    for event in record["events"]:
        if event["type"] in ("GameCreated", "ForkedFrom", "ActionTaken") or "sealed" not in event:
            continue
        for path in commitments(event["sealed"]):
            if swap_two_cards(at(event["data"], path)):
                salt = verifier.salt(seed, event["version"], list(path))
                at(event["sealed"], path)["$commit"] = verifier.commitment(salt, at(event["data"], path))
                rechain(record, event["version"])
                return record
    raise AssertionError("no committed list of cards")


def forger() -> Signer:
    return Signer("localhost/tablestream", hashlib.sha256(b"not the log's key").digest())


class Forgeries:
    def __init__(self, platform: Platform, client: FlaskClient) -> None:
        self.platform, self.client = platform, client
        self.key = platform.ledger.signer().vkey

    def rewrite_with_the_record_s_checkpoint(self, record: Record) -> Forged:
        honest = latest(self.client, record)
        record = rewritten_card(record)
        last = len(record["events"])
        reason = f"ledger entry {record['ledger']['index']} is not in the tree its checkpoint names"
        return Case(record, log_key=self.key, latest=honest), last, reason

    def _rewritten_with_its_own_checkpoint(self, record: Record) -> tuple[Record, verifier.Latest]:
        """The card rewrite, with a tree of the forger's own (the honest leaves before the
        entry, then the forged entry) signed with the forger's own key."""
        honest = latest(self.client, record)
        record = rewritten_card(record)
        index = record["ledger"]["index"]
        leaves = honest_leaves(self.platform, index)
        leaves[-1] = leaf_hash(record["ledger"])
        record["ledger_proof"] = proof_over(leaves, index, forger())
        return record, honest

    def rewrite_with_a_checkpoint_of_its_own(self, record: Record) -> Forged:
        record, honest = self._rewritten_with_its_own_checkpoint(record)
        reason = "the record's checkpoint is not signed by the log's key"
        return Case(record, log_key=self.key, latest=honest), len(record["events"]), reason

    def rewrite_with_its_own_checkpoint_and_no_key(self, record: Record) -> Forged:
        # Without the log's key the forger's own checkpoint passes: the server's entry,
        # which holds the honest head, does not.
        record, honest = self._rewritten_with_its_own_checkpoint(record)
        reason = "the last event's hash is not the hash of the server's ledger entry"
        return Case(record, latest=honest), len(record["events"]), reason

    def cut_with_its_anchors_and_status_removed(self, record: Record) -> Forged:
        honest = latest(self.client, record)
        del record["events"][-3:]
        for name in ("head", "ledger", "ledger_proof", "status", "seed", "outcome"):
            record.pop(name, None)
        last = len(record["events"])
        reason = f"the log ends at version {last} but the server's ledger entry is at version {last + 3}"
        return Case(record, log_key=self.key, latest=honest), last + 1, reason

    def split_view(self, record: Record) -> Forged:
        # The operator, holding the key, shows this record a ledger in which an earlier
        # game's entry differs (a fork of the ledger), properly signed; everyone else sees
        # the honest ledger, whose latest checkpoint cannot be shown to extend the fork.
        index = record["ledger"]["index"]
        size = self.platform.ledger.size()
        leaves = honest_leaves(self.platform, size)
        other = 0 if index != 1 else size - 1
        assert other != index - 1, "a split view needs a second entry"
        leaves[other] = hashlib.sha256(b"\x00another game's entry").digest()
        record["ledger_proof"] = proof_over(leaves, index, self.platform.ledger.signer())
        honest = latest(self.client, record)
        reason = f"the server's latest checkpoint ({verifier.entries(size)}) does not extend the record's"
        return Case(record, log_key=self.key, latest=honest), len(record["events"]), reason


FORGERIES = [
    "rewrite_with_the_record_s_checkpoint",
    "rewrite_with_a_checkpoint_of_its_own",
    "rewrite_with_its_own_checkpoint_and_no_key",
    "cut_with_its_anchors_and_status_removed",
    "split_view",
]

# A rewrite that keeps a checkpoint fails from the file alone; a cut record stripped of its
# anchors, a rewrite under the forger's own key checked without the log's, and a split view
# signed with the log's key need what the server says now (or a witness), as section 8 says.
FROM_A_FILE = ["rewrite_with_the_record_s_checkpoint", "rewrite_with_a_checkpoint_of_its_own"]

Judged = tuple[Forged, dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def judged(
    games: Games, platform: Platform, client: FlaskClient, tmp_path_factory: pytest.TempPathFactory
) -> Callable[[str], dict[str, Any]]:
    done: dict[str, dict[str, Any]] = {}

    def judge(kind: str) -> dict[str, Any]:
        if kind not in done:
            for other in KINDS:  # every kind's game finished first: the ledger stops growing
                games.finished(other)
            forgeries = Forgeries(platform, client)
            record = games.finished(kind)
            cases: dict[str, Any] = {name: getattr(forgeries, name)(copy.deepcopy(record)) for name in FORGERIES}
            for name in FROM_A_FILE:  # the file alone, with the log's key: its own checkpoint gives it away
                (case, version, reason) = cases[name]
                cases[f"{name}_from_a_file"] = (Case(case.record, log_key=case.log_key), version, reason)
            honest = Case(copy.deepcopy(record), log_key=forgeries.key, latest=latest(client, record))
            cases["honest"] = (honest, 0, "")
            js = js_verdicts([case for case, _, _ in cases.values()], tmp_path_factory.mktemp(kind))
            done[kind] = {
                name: (cases[name], python_verdict(cases[name][0]), verdict)
                for name, verdict in zip(cases, js, strict=True)
            }
        return done[kind]

    return judge


@pytest.mark.parametrize("forgery", [*FORGERIES, *(f"{name}_from_a_file" for name in FROM_A_FILE)])
@pytest.mark.parametrize("kind", KINDS)
def test_a_forged_record_fails_in_both_verifiers_given_the_key_and_the_server(
    kind: str, forgery: str, judged: Callable[[str], dict[str, Judged]]
) -> None:
    (_, version, reason), py, js = judged(kind)[forgery]
    assert not py["ok"], f"{kind}: {forgery} passed the Python verifier"
    assert py["first_bad_version"] == version, py
    assert py["reason"].startswith(reason), py
    assert js == py, "the two verifiers agree, word for word"


@pytest.mark.parametrize("kind", KINDS)
def test_an_honest_record_passes_both_with_the_key_and_the_server(
    kind: str, judged: Callable[[str], dict[str, Judged]], games: Games
) -> None:
    _, py, js = judged(kind)["honest"]
    assert py["ok"], py
    index = games.finished(kind)["ledger"]["index"]
    assert f"ledger entry {index} included in the checkpoint of" in " ".join(py["checked"])
    assert any(line.startswith("checkpoint of") and "signed by" in line for line in py["checked"]), py
    assert any("extends the record's" in line for line in py["checked"]), py
    assert f"the server's ledger entry {index} holds this game's final head" in py["checked"]
    assert js == py


def test_the_cli_checks_a_url_against_the_server_and_names_whose_key_it_used(games: Games, tmp_path: Path) -> None:
    """``tablestream verify URL`` fetches the server's key, checkpoint and entry itself;
    the pieces are unit-tested above, so here the arguments: a malformed key is refused."""
    assert verifier.main(["--log-key", "not a key", str(tmp_path / "missing.json")]) == 2
