"""The transparency log's test vectors of docs/verification.md (section 9, "Transparency
log vectors"), read from the spec itself: the server's code (``events.transparency``)
makes them, and the standalone verifier (``service/verifier.py``) accepts them: the
proofs verify, the checkpoint is signed by the verifier key, and nothing else is."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from events.transparency import Checkpoint, Signer, Tree, leaf_hash
from service import verifier
from tests.verify.conftest import ROOT

ORIGIN = "example.org/tablestream"


def spec() -> dict[str, Any]:
    text = (ROOT / "docs" / "verification.md").read_text(encoding="utf-8")
    section = text[text.index("### Transparency log vectors") :]
    rows = dict(re.findall(r"^\| (.+?) \| `(.+?)` \|$", section, re.M))
    note = re.search(r"The signed checkpoint of all five:\n\n```\n(.+?)```", section, re.S)
    assert note is not None
    return {
        "leaf": rows["leaf hash of entry 1"],
        "root3": rows["root of the first 3 entries"],
        "root5": rows["root of all 5"],
        "inclusion": json.loads(rows["inclusion proof of entry 3 in 5"]),
        "consistency": json.loads(rows["consistency proof from 3 to 5"]),
        "vkey": rows["verifier key"],
        "note": note.group(1),
    }


def entry(n: int) -> dict[str, Any]:
    return {
        "index": n,
        "game": f"game{n}",
        "kind": "tiny",
        "version": 10 * n,
        "hash": hashlib.sha256(f"head{n}".encode()).hexdigest(),
        "at": f"2026-11-28T12:00:0{n}.000Z",
    }


LEAVES = [leaf_hash(entry(n)) for n in range(1, 6)]


def test_the_server_makes_the_spec_s_vectors() -> None:
    v = spec()
    tree = Tree(lambda start, end: LEAVES[start:end])
    signer = Signer(ORIGIN, bytes.fromhex("5eed" * 16))
    assert LEAVES[0].hex() == v["leaf"]
    assert (tree.root(3).hex(), tree.root(5).hex()) == (v["root3"], v["root5"])
    assert [h.hex() for h in tree.inclusion(2, 5)] == v["inclusion"]
    assert [h.hex() for h in tree.consistency(3, 5)] == v["consistency"]
    assert signer.vkey == v["vkey"]
    assert signer.sign(Checkpoint(ORIGIN, 5, tree.root(5))) == v["note"]


def test_the_standalone_verifier_accepts_them_and_nothing_else() -> None:
    v = spec()
    assert verifier.ledger_leaf_hash({**entry(1), "prev": "x", "entry_hash": "y"}).hex() == v["leaf"]
    root3, root5 = bytes.fromhex(v["root3"]), bytes.fromhex(v["root5"])
    inclusion = [bytes.fromhex(h) for h in v["inclusion"]]
    consistency = [bytes.fromhex(h) for h in v["consistency"]]
    assert verifier.inclusion_ok(LEAVES[2], 2, 5, inclusion, root5)
    assert not verifier.inclusion_ok(LEAVES[3], 2, 5, inclusion, root5)
    assert not verifier.inclusion_ok(LEAVES[2], 3, 5, inclusion, root5)
    assert verifier.consistency_ok(3, 5, root3, root5, consistency)
    assert not verifier.consistency_ok(3, 5, root5, root3, consistency)
    assert not verifier.consistency_ok(2, 5, root3, root5, consistency)
    note = verifier.parse_note(v["note"])
    vkey = verifier.parse_vkey(v["vkey"])
    assert note is not None and vkey is not None
    assert (note.origin, note.size, note.root) == (ORIGIN, 5, root5)
    assert verifier.signed_by(note, vkey)
    # The same text with another size or root is not what was signed; another key signs nothing here.
    for changed in (v["note"].replace("\n5\n", "\n6\n"), v["note"].replace("tDm6", "tDm7")):
        other = verifier.parse_note(changed)
        assert other is not None and not verifier.signed_by(other, vkey)
    stranger = verifier.parse_vkey(Signer(ORIGIN, bytes(32)).vkey)
    assert stranger is not None and not verifier.signed_by(note, stranger)


def test_ed25519_in_integers_agrees_with_rfc_8032_and_the_cryptography_library() -> None:
    public = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
    signature = bytes.fromhex(
        "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"
    )
    assert verifier.ed25519_verify(public, b"", signature)  # RFC 8032, section 7.1, test 1
    assert not verifier.ed25519_verify(public, b"x", signature)
    for n in range(16):
        signer = Signer("k", hashlib.sha256(bytes([n])).digest())
        message = bytes(range(n * 5))
        stamp = signer._key.sign(message)
        assert verifier.ed25519_verify(signer.public_key, message, stamp)
        broken = bytes([stamp[n] ^ 0x10]) if n < 64 else b""
        assert not verifier.ed25519_verify(signer.public_key, message, stamp[:n] + broken + stamp[n + 1 :])
    # S at or above the group order is refused (a malleated signature).
    s = int.from_bytes(signature[32:], "little") + 2**252 + 27742317777372353535851937790883648493
    assert not verifier.ed25519_verify(public, b"", signature[:32] + s.to_bytes(32, "little"))
