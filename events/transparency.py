"""The ledger as a transparency log, in the manner of Certificate Transparency (RFC 9162,
section 2.1): a Merkle tree over the ledger's entries, checkpoints of it signed with the
service's Ed25519 key in the C2SP signed-note checkpoint format, and the two proofs a
client needs: that an entry is in a tree (inclusion) and that a later tree extends an
earlier one (consistency). ``docs/verification.md`` section 6 is the specification,
with test vectors. Proofs are checked by the verifier (``service/verifier.py``), with the
standard library alone and sharing no code with this module; the tests check this
module's proofs with it.

- Leaf ``i`` (0-based: ledger index ``i + 1``) is the canonical JSON of the entry's
  hashed fields; its hash is ``SHA-256(0x00 || leaf)``; a node's ``SHA-256(0x01 || left ||
  right)``; the root of no leaves ``SHA-256("")``. A tree of ``n`` leaves splits at the
  largest power of two below ``n``.
- A checkpoint is the text ``<origin>\\n<size>\\n<base64 root>\\n``; a signed one adds a
  blank line and ``— <name> <base64(key id || signature)>\\n``, the key id being the first
  four bytes of ``SHA-256(<name> "\\n" 0x01 <public key>)``, the signature Ed25519's over the
  checkpoint text.

Complete subtrees never change once their leaves exist, so the nodes of subtrees of 64
leaves or more are kept in Redis (``<ledger>:tree``) and in the process as they are first
needed; smaller ones are hashed from one read of their leaves. A proof costs O(log n)
reads once the tree is warm.
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from events.envelope import canonical_json

HASHED = ("index", "game", "kind", "version", "hash", "at")
STORED_LEVEL = 6  # subtrees of 2**6 leaves and more are kept
EMPTY_ROOT = hashlib.sha256(b"").digest()
DASH = "\u2014"  # the em dash that begins a signature line
ED25519 = b"\x01"  # the signed-note algorithm byte for Ed25519


def leaf_hash(entry: Mapping[str, Any]) -> bytes:
    body = canonical_json({name: entry[name] for name in HASHED})
    return hashlib.sha256(b"\x00" + body.encode()).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(n: int) -> int:
    """The largest power of two below ``n`` (n >= 2)."""
    return 1 << ((n - 1).bit_length() - 1)


class Tree:
    """The Merkle tree over leaves read by ``read_leaves(start, end)`` (their hashes, in
    order). ``load``/``save`` keep the nodes of complete subtrees of ``2**STORED_LEVEL``
    leaves or more (by ``"<level>:<index>"``); this process remembers them too."""

    def __init__(
        self,
        read_leaves: Callable[[int, int], list[bytes]],
        load: Callable[[list[str]], list[bytes | None]] = lambda names: [None] * len(names),
        save: Callable[[dict[str, bytes]], None] = lambda nodes: None,
        remembered: int = 100_000,
    ) -> None:
        self.read_leaves, self.load, self.save = read_leaves, load, save
        self.memo: dict[tuple[int, int], bytes] = {}
        self.remembered = remembered

    def complete(self, level: int, index: int) -> bytes:
        """The root of the complete subtree of ``2**level`` leaves from ``index << level``."""
        found = self.memo.get((level, index))
        if found is not None:
            return found
        if level >= STORED_LEVEL:
            (stored,) = self.load([f"{level}:{index}"])
            if stored is not None:
                return self._remember(level, index, stored)
        if level <= STORED_LEVEL:
            hashes = self.read_leaves(index << level, (index + 1) << level)
            while len(hashes) > 1:
                hashes = [node_hash(hashes[i], hashes[i + 1]) for i in range(0, len(hashes), 2)]
            digest = hashes[0]
        else:
            digest = node_hash(self.complete(level - 1, 2 * index), self.complete(level - 1, 2 * index + 1))
        if level >= STORED_LEVEL:
            self.save({f"{level}:{index}": digest})
        return self._remember(level, index, digest)

    def _remember(self, level: int, index: int, digest: bytes) -> bytes:
        if len(self.memo) >= self.remembered:
            self.memo.clear()
        self.memo[(level, index)] = digest
        return digest

    def hash(self, start: int, end: int) -> bytes:
        """MTH of leaves ``[start, end)``, where ``start`` is a multiple of a power of two
        at least as large as the range (as every range a proof asks for is)."""
        n = end - start
        if n == 0:
            return EMPTY_ROOT
        if n & (n - 1) == 0:
            return self.complete(n.bit_length() - 1, start // n)
        k = split(n)
        return node_hash(self.hash(start, start + k), self.hash(start + k, end))

    def root(self, size: int) -> bytes:
        return self.hash(0, size)

    def inclusion(self, index: int, size: int) -> list[bytes]:
        """The audit path of leaf ``index`` in the tree of ``size`` leaves (RFC 9162 2.1.3.1)."""
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size}")
        path: list[bytes] = []
        start, end = 0, size
        while end - start > 1:
            k = split(end - start)
            if index < start + k:
                path.append(self.hash(start + k, end))
                end = start + k
            else:
                path.append(self.hash(start, start + k))
                start += k
        return path[::-1]

    def consistency(self, first: int, second: int) -> list[bytes]:
        """The proof that the tree of ``second`` leaves extends that of ``first`` (RFC 9162
        2.1.4.1); empty when they are the same size."""
        if not 0 < first <= second:
            raise ValueError(f"no consistency proof from {first} to {second}")
        proof: list[bytes] = []
        start, end, whole = 0, second, True
        m = first
        while m != end - start:
            k = split(end - start)
            if m <= k:
                proof.append(self.hash(start + k, end))
                end = start + k
            else:
                proof.append(self.hash(start, start + k))
                m -= k
                start += k
                whole = False
        if not whole:
            proof.append(self.hash(start, end))
        return proof[::-1]


# -- checkpoints and signed notes -------------------------------------------------------


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes

    def text(self) -> str:
        return f"{self.origin}\n{self.size}\n{base64.b64encode(self.root).decode()}\n"


def key_id(name: str, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + ED25519 + public_key).digest()[:4]


def verifier_key(name: str, public_key: bytes) -> str:
    """The signed-note verifier key: ``<name>+<key id, hex>+<base64(0x01 || key)>``."""
    return f"{name}+{key_id(name, public_key).hex()}+{base64.b64encode(ED25519 + public_key).decode()}"


class Signer:
    """The service's checkpoint key: Ed25519, from the ``cryptography`` library."""

    def __init__(self, name: str, seed: bytes) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
        from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

        self.name = name
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        self.public_key = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    def sign(self, checkpoint: Checkpoint) -> str:
        """The checkpoint as a signed note."""
        text = checkpoint.text()
        signature = self._key.sign(text.encode())
        stamp = base64.b64encode(key_id(self.name, self.public_key) + signature).decode()
        return f"{text}\n{DASH} {self.name} {stamp}\n"

    def sign_bytes(self, message: bytes) -> bytes:
        return self._key.sign(message)

    @property
    def vkey(self) -> str:
        return verifier_key(self.name, self.public_key)


# -- witnesses' cosignatures (C2SP tlog-cosignature, cosignature/v1) ---------------------

COSIGNATURE = b"\x04"  # the signed-note algorithm byte of a timestamped Ed25519 cosignature


def cosignature_message(checkpoint_text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n{checkpoint_text}".encode()


def witness_key_id(name: str, public_key: bytes) -> bytes:
    return hashlib.sha256(name.encode() + b"\n" + COSIGNATURE + public_key).digest()[:4]


def witness_vkey(name: str, public_key: bytes) -> str:
    """A witness's verifier key: ``<name>+<key id>+<base64(0x04 || key)>``."""
    stamp = witness_key_id(name, public_key).hex()
    return f"{name}+{stamp}+{base64.b64encode(COSIGNATURE + public_key).decode()}"


def cosign(name: str, seed: bytes, checkpoint_text: str, timestamp: int) -> str:
    """``name``'s cosignature line over a checkpoint's text at ``timestamp`` (seconds)."""
    signer = Signer(name, seed)
    signature = signer.sign_bytes(cosignature_message(checkpoint_text, timestamp))
    stamp = witness_key_id(name, signer.public_key) + timestamp.to_bytes(8, "big") + signature
    return f"{DASH} {name} {base64.b64encode(stamp).decode()}"


def parse_witness_vkey(text: str) -> tuple[str, bytes] | None:
    """``(name, public key)`` of a witness's verifier key, or None."""
    parts = text.strip().split("+", 2)  # the key's base64 may hold "+" itself
    if len(parts) != 3:
        return None
    name, key_id, encoded = parts
    try:
        raw = base64.b64decode(encoded, validate=True)
    except ValueError:
        return None
    if len(raw) != 33 or raw[:1] != COSIGNATURE or witness_key_id(name, raw[1:]).hex() != key_id:
        return None
    return name, raw[1:]


def cosigned_by(checkpoint_text: str, line: str, name: str, public_key: bytes) -> bool:
    """Whether ``line`` is ``name``'s valid cosignature over the checkpoint's text."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    prefix = f"{DASH} {name} "
    if not line.startswith(prefix):
        return False
    try:
        stamp = base64.b64decode(line[len(prefix) :], validate=True)
    except ValueError:
        return False
    if len(stamp) != 4 + 8 + 64 or stamp[:4] != witness_key_id(name, public_key):
        return False
    timestamp = int.from_bytes(stamp[4:12], "big")
    message = cosignature_message(checkpoint_text, timestamp)
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(stamp[12:], message)
    except InvalidSignature:
        return False
    return True
