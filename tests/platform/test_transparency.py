"""The ledger's Merkle tree, proofs and signed checkpoints (``events.transparency``),
its proofs checked by the standalone verifier's functions (which share no code with it),
against RFC 9162's definitions written out as plainly as the RFC states them (the
recursive MTH, PATH and PROOF), at every size up to 140 (past the 64-leaf subtrees kept
in Redis) and for every leaf and earlier size; and attacked: any changed byte or index of
a proof fails, and a checkpoint verifies only under the key that signed it. (A path
alone does not fix the tree's size, leaf 0's path in a tree of 3 also checks at size 4
against the same root; the signed checkpoint binds size and root together.)"""

from __future__ import annotations

import base64
import hashlib
from typing import Any

import fakeredis
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.ledger import Ledger
from events.transparency import (
    DASH,
    Tree,
    key_id,
    leaf_hash,
    node_hash,
)
from service.verifier import consistency_ok as verify_consistency
from service.verifier import inclusion_ok as verify_inclusion

LEAVES = [hashlib.sha256(b"\x00" + f"leaf {i}".encode()).digest() for i in range(140)]


def mth(d: list[bytes]) -> bytes:
    if not d:
        return hashlib.sha256(b"").digest()
    if len(d) == 1:
        return d[0]
    k = 1
    while k * 2 < len(d):
        k *= 2
    return node_hash(mth(d[:k]), mth(d[k:]))


def path(m: int, d: list[bytes]) -> list[bytes]:
    if len(d) == 1:
        return []
    k = 1
    while k * 2 < len(d):
        k *= 2
    return path(m, d[:k]) + [mth(d[k:])] if m < k else path(m - k, d[k:]) + [mth(d[:k])]


def subproof(m: int, d: list[bytes], whole: bool) -> list[bytes]:
    if m == len(d):
        return [] if whole else [mth(d)]
    k = 1
    while k * 2 < len(d):
        k *= 2
    if m <= k:
        return subproof(m, d[:k], whole) + [mth(d[k:])]
    return subproof(m - k, d[k:], False) + [mth(d[:k])]


class Nodes:
    def __init__(self) -> None:
        self.stored: dict[str, bytes] = {}
        self.leaf_reads = 0

    def tree(self) -> Tree:
        def read(start: int, end: int) -> list[bytes]:
            self.leaf_reads += 1
            return LEAVES[start:end]

        return Tree(read, lambda names: [self.stored.get(n) for n in names], self.stored.update)


def test_roots_and_proofs_are_rfc_9162_s_at_every_size() -> None:
    tree = Nodes().tree()
    for size in range(1, len(LEAVES) + 1):
        d = LEAVES[:size]
        root = tree.root(size)
        assert root == mth(d), size
        for index in range(size):
            proof = tree.inclusion(index, size)
            assert proof == path(index, d), (index, size)
            assert verify_inclusion(d[index], index, size, proof, root)
        for first in range(1, size + 1):
            proof = tree.consistency(first, size)
            assert proof == subproof(first, d, True), (first, size)
            assert verify_consistency(first, size, mth(d[:first]), root, proof)


def flipped(digest: bytes) -> bytes:
    return bytes([digest[0] ^ 1]) + digest[1:]


@pytest.mark.parametrize("size", [2, 3, 7, 8, 64, 65, 100, 140])
def test_any_changed_part_of_a_proof_fails(size: int) -> None:
    tree = Nodes().tree()
    root = tree.root(size)
    for index in range(size):
        proof = tree.inclusion(index, size)
        leaf = LEAVES[index]
        assert not verify_inclusion(flipped(leaf), index, size, proof, root)
        assert not verify_inclusion(leaf, index, size, proof, flipped(root))
        assert not verify_inclusion(leaf, (index + 1) % size, size, proof, root) or LEAVES[(index + 1) % size] == leaf
        assert not verify_inclusion(leaf, index, size, proof[:-1], root)
        assert not verify_inclusion(leaf, index, size, [*proof, root], root)
        for at in range(len(proof)):
            assert not verify_inclusion(leaf, index, size, [*proof[:at], flipped(proof[at]), *proof[at + 1 :]], root)
    for first in range(1, size):
        proof = tree.consistency(first, size)
        old = tree.root(first)
        assert not verify_consistency(first, size, flipped(old), root, proof)
        assert not verify_consistency(first, size, old, flipped(root), proof)
        assert not verify_consistency(first + 1, size, old, root, proof) or first + 1 == size
        assert not verify_consistency(first, size, old, root, proof[:-1]) or not proof
        for at in range(len(proof)):
            assert not verify_consistency(first, size, old, root, [*proof[:at], flipped(proof[at]), *proof[at + 1 :]])


def test_a_rewritten_leaf_has_no_consistency_with_the_tree_it_was_in() -> None:
    # An operator who changes entry 5 of 40 and shows the new tree cannot prove it extends
    # the one a client kept: the split view the witnesses look for.
    tree = Nodes().tree()
    honest = tree.root(40)
    changed = list(LEAVES)
    changed[5] = hashlib.sha256(b"another entry").digest()
    forged = Tree(lambda start, end: changed[start:end])
    for first in range(6, 41):
        assert not verify_consistency(first, 60, tree.root(first), forged.root(60), forged.consistency(first, 60))
    assert forged.root(40) != honest


def test_subtrees_of_64_leaves_are_kept_and_not_read_again() -> None:
    nodes = Nodes()
    nodes.tree().root(140)
    assert {"6:0", "6:1", "7:0"} <= set(nodes.stored)
    reads = nodes.leaf_reads
    fresh = nodes.tree()  # another process: its own memory empty, the stored nodes shared
    assert fresh.root(128) == mth(LEAVES[:128])
    assert nodes.leaf_reads == reads


def entry(index: int) -> dict[str, Any]:
    return {"index": index, "game": f"g{index}", "kind": "tiny", "version": 9, "hash": "a" * 64, "at": "t"}


def parse(note: str) -> tuple[str, int, bytes, str, bytes]:
    body, _, signature = note.partition("\n\n")
    origin, size, root = body.split("\n")
    assert signature.startswith(f"{DASH} ") and signature.endswith("\n")
    name, stamp = signature[2:-1].split(" ")
    return origin, int(size), base64.b64decode(root), name, base64.b64decode(stamp)


def test_a_ledger_signs_checkpoints_of_its_tree_as_signed_notes() -> None:
    client = fakeredis.FakeRedis()
    ledger = Ledger(client, prefix="tt", origin="example.org/games")
    for index in range(1, 71):
        e = entry(index)
        ledger.record(e["game"], e["kind"], e["version"], e["hash"], e["at"])
    note = ledger.checkpoint()
    origin, size, root, name, stamp = parse(note)
    assert (origin, size, name) == ("example.org/games", 70, "example.org/games")
    leaves = [leaf_hash(ledger.at(i) or {}) for i in range(1, 71)]
    assert root == mth(leaves)
    signer = ledger.signer()
    assert stamp[:4] == key_id(name, signer.public_key)
    body = note.partition("\n\n")[0] + "\n"
    Ed25519PublicKey.from_public_bytes(signer.public_key).verify(stamp[4:], body.encode())
    with pytest.raises(InvalidSignature):
        Ed25519PublicKey.from_public_bytes(signer.public_key).verify(stamp[4:], body.replace("70", "71").encode())
    # Every process signs with the one key kept beside the ledger, and proves the same tree.
    other = Ledger(client, prefix="tt", origin="example.org/games")
    assert other.checkpoint() == note
    proof = other.proof_of(other.at(33) or {})
    assert proof["tree_size"] == 70 and proof["checkpoint"] == note
    assert verify_inclusion(leaves[32], 32, 70, [bytes.fromhex(h) for h in proof["hashes"]], root)
    assert verify_consistency(20, 70, mth(leaves[:20]), root, [bytes.fromhex(h) for h in other.consistency(20, 70)])


def test_a_configured_key_is_used_and_none_is_kept_in_redis() -> None:
    client = fakeredis.FakeRedis()
    seed = bytes(range(32))
    ledger = Ledger(client, prefix="tk", origin="o", key=base64.b64encode(seed).decode())
    ledger.record("g", "tiny", 1, "b" * 64, "t")
    ledger.checkpoint()
    assert client.get(ledger.signer_key) is None
    # RFC 8032's first test vector's key pair is not this one; the public key is derived.
    assert len(ledger.signer().public_key) == 32
