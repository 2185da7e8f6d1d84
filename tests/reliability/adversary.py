"""The attacker, as code: what someone holding a seat's token (or none) can try,
with everything the service showed it, to learn a card hidden from it.

It knows the rules of ``docs/verification.md`` and the game's card list, and nothing of
the server's secrets. Its attacks, each tried over every candidate card ``c``:

* **hash**: rebuild an event's hashed body (spec section 2) with one unknown place filled by
  ``c`` or ``[c]``: a ``$commit`` leaf, a ``null``, a count of one standing for a one-card
  list, or a field the event lacks that events of its type carry (``card`` and ``cards``
  always); a count of two in a field seen holding a list, by every pair ``[c, d]``. A
  match with the event's ``hash`` (or, if that is withheld, the next event's ``prev_hash``)
  names the card. This is how a schema-1 log gave its cards away.
* **digest**: every hex string it read (hashes, commitments, ids, headers) against
  SHA-256 of ``c`` in the obvious encodings, and SHA-256 and HMAC-SHA256 combining them
  with public values (game id, seed commitment, its own token).
* **salt**: every commitment against the spec's recipe with its salt keyed by a public
  value in place of the secret seed.
* **same commitment**: a commitment it sees twice, once where its own data shows the
  value, names the value at the other place.
* **opening**: every salt the openings it was given hold (a seat's own values), tried on
  every commitment whose value it is not shown: the salt given for that very place (an
  opening of a value hidden from it), those given for other places of the same version
  (a salt that ignores the path) and the one given for the same place at the nearest
  earlier version (a salt that ignores the version). A salt that arrives later (the same
  event by another route, a later page) is tried on the commitments it bears on then.

Nothing here imports the service's hashing code: the rules are written from the spec, so
the test checks the spec and the service against each other too. The attacker only makes
*claims* ("card ``c`` at version ``v``"); the test judges them against the server's truth.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeGuard

GENESIS = "0" * 64
COMMIT = "$commit"
CARD_FIELDS = ("card", "cards")  # the attacker has read the games' sources too
SENTINEL = "\x00guess\x00"  # canonical JSON escapes it: it can stand nowhere else in a body
SALT = re.compile(r"[0-9a-fA-F]{64}")
OTHER_SALTS = 3  # salts of other places of the same version tried on a commitment
HEX = re.compile(r"(?<![0-9a-fA-F])[0-9a-fA-F]{32,}(?![0-9a-fA-F])")
JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


# -- the spec, as a verifier with nothing of ours writes it ------------------------------


def canonical(value: Any) -> str:
    """Section 1: sorted keys, no whitespace, non-ASCII as itself."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def hashed_body(event: Mapping[str, Any], hashed_data: Any = None) -> dict[str, Any]:
    """Section 2: the object an event's hash covers (``sealed`` in place of ``data`` when
    present; schema 1 without the ``schema`` field)."""
    if hashed_data is None:
        hashed_data = event["sealed"] if "sealed" in event else event["data"]
    body = {k: event[k] for k in ("version", "type", "seat", "actor", "at", "command_id")}
    body["data"] = hashed_data
    if event.get("schema", 1) != 1:
        body["schema"] = event["schema"]
    return body


def event_hash(prev_hash: str, event: Mapping[str, Any]) -> str:
    return hashlib.sha256((prev_hash + "\n" + canonical(hashed_body(event))).encode()).hexdigest()


def is_commitment(value: Any) -> bool:
    return isinstance(value, dict) and len(value) == 1 and isinstance(value.get(COMMIT), str)


def spec_salt(key: bytes, version: int, path: Sequence[str | int]) -> bytes:
    """Section 3's salt, with ``key`` where the seed belongs."""
    message = f"tablestream/salt/2\n{version}\n{canonical(list(path))}"
    return hmac.new(key, message.encode(), hashlib.sha256).digest()


def commitment(salt: bytes, value: Any) -> str:
    """Section 3's commitment to ``value`` under ``salt``."""
    return hashlib.sha256(salt + canonical(value).encode()).hexdigest()


def is_path(path: Any) -> TypeGuard[list[str | int]]:
    return isinstance(path, list) and all(isinstance(p, str) or type(p) is int for p in path)


class ChainCheck:
    """A seat's live check of one game's chain: every event it receives recomputes its
    hash from the spec, links to the event before it, and never changes once seen; each
    opening it carries opens the commitment at its path to the value shown there."""

    def __init__(self) -> None:
        self.hashes: dict[int, str] = {}
        self.events = 0
        self.openings = 0  # openings checked and found to open their commitment
        self.problems: list[str] = []

    def receive(self, event: Mapping[str, Any], where: str) -> None:
        self.events += 1
        self.check_openings(event, where)
        version, digest, prev = event["version"], event.get("hash"), event.get("prev_hash")
        if event.get("schema", 1) >= 2 and (digest is None or prev is None):
            self.problems.append(f"{where}: version {version} (schema 2) hides its hash")
            return
        if digest is None or prev is None:
            return
        expected_prev = GENESIS if version == 1 else self.hashes.get(version - 1)
        if expected_prev is not None and prev != expected_prev:
            self.problems.append(f"{where}: version {version} does not link to version {version - 1}")
        if event_hash(prev, event) != digest:
            self.problems.append(f"{where}: version {version} does not hash to its hash")
        if self.hashes.setdefault(version, digest) != digest:
            self.problems.append(f"{where}: version {version} was shown with another hash before")

    def check_openings(self, event: Mapping[str, Any], where: str) -> None:
        """Each opening names a commitment of the sealed form, at a path where the data
        shows a value, and its salt commits that value to it."""
        version, openings = event["version"], event.get("openings")
        if openings is None:
            return
        if not isinstance(openings, list):
            self.problems.append(f"{where}: version {version} has openings that are not a list")
            return
        for opening in openings:
            path = opening.get("path") if isinstance(opening, dict) else None
            salt = opening.get("salt") if isinstance(opening, dict) else None
            if not is_path(path) or not isinstance(salt, str) or not SALT.fullmatch(salt):
                self.problems.append(f"{where}: version {version} has an opening that is no path and salt")
                continue
            found, sealed = value_at(event.get("sealed"), path)
            shown, value = value_at(event.get("data"), path)
            if not found or not is_commitment(sealed):
                self.problems.append(f"{where}: version {version} opens {path}, where nothing is committed")
            elif not shown:
                self.problems.append(f"{where}: version {version} opens {path}, where its data shows nothing")
            elif commitment(bytes.fromhex(salt), value) != sealed[COMMIT]:
                self.problems.append(f"{where}: version {version} opens {path} to another value than it shows")
            else:
                self.openings += 1

    def head(self, head: Mapping[str, Any] | None, where: str) -> None:
        """A head (``{"version", "hash"}``) must name the hash this seat holds for its version."""
        if not head or head.get("hash") is None:
            return
        known = self.hashes.get(head["version"])
        if known is not None and known != head["hash"]:
            self.problems.append(f"{where}: head at version {head['version']} names another hash")


# -- what the attacker reads ------------------------------------------------------------


def json_strings(text: str) -> set[str]:
    """Every JSON string (keys included) in ``text``, as written (card ids need no escape)."""
    return set(JSON_STRING.findall(text))


def hex_strings(text: str) -> set[str]:
    return {match.lower() for match in HEX.findall(text)}


def leaves(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """Every leaf of a JSON value with its path; a commitment counts as one leaf."""
    if is_commitment(value):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))
    else:
        yield path, value


def value_at(value: Any, path: Sequence[str | int]) -> tuple[bool, Any]:
    for part in path:
        in_dict = isinstance(value, dict) and part in value
        in_list = isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value)
        if not (in_dict or in_list):
            return False, None
        value = value[part]
    return True, value


# -- the attacker -----------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """The attacker's belief that ``card`` is the hidden value it found ``how`` in ``where``."""

    how: str
    where: str
    version: int
    card: str


@dataclass(frozen=True)
class Place:
    """An unknown place in an event's hashed data: a leaf to fill, or a field to add; it
    stands for one card (or a one-card list), or for a list of two cards."""

    path: tuple[str | int, ...]
    added: bool = False
    pair: bool = False


def unknown_places(
    hashed: Any, fields: Iterable[str], list_fields: Iterable[str] = (), shown: Any = None
) -> list[Place]:
    """Where hidden cards may stand in ``hashed``: its commitments, its nulls, its counts of
    one, and at its top level each of ``fields`` it lacks; and, for a count of two (in
    ``hashed``, or in ``shown`` where ``hashed`` commits) in a field known to hold a list,
    the pairs of cards."""
    lists = set(list_fields)
    places = []
    for path, leaf in leaves(hashed):
        if not path:
            continue
        if is_commitment(leaf) or leaf is None or (type(leaf) is int and leaf == 1):
            places.append(Place(path))
        count = value_at(shown, path)[1] if is_commitment(leaf) else leaf
        if type(count) is int and count == 2 and path[-1] in lists:
            places.append(Place(path, pair=True))
    if isinstance(hashed, dict):
        places += [Place((name,), added=True) for name in sorted(set(fields) - set(hashed))]
    return places


def filled(hashed: Any, place: Place, value: Any) -> Any:
    copy = json.loads(json.dumps(hashed))
    target = copy
    for part in place.path[:-1]:
        target = target[part]
    target[place.path[-1]] = value
    return copy


@dataclass
class Tally:
    """What the attacker tried: places filled and bodies hashed (the hash attack),
    commitments and salts tried (the salt attack; the opening attack, with the salts it
    was given), hex strings and the digests each was compared with."""

    places: int = 0
    hash_guesses: int = 0
    commitments: int = 0
    salt_guesses: int = 0
    opening_guesses: int = 0
    hexes: int = 0
    digest_guesses: int = 0
    claims: list[Claim] = field(default_factory=list)

    @property
    def guesses(self) -> int:
        return self.hash_guesses + self.salt_guesses + self.opening_guesses + self.digest_guesses


class Adversary:
    """One viewer's attacker on one game: the candidates it tries, the public values it
    combines them with, and what it has already attacked (each thing once)."""

    def __init__(self, public: Iterable[str | bytes]) -> None:
        self.public = [p.encode() if isinstance(p, str) else p for p in public if p]
        self.cards: list[str] = []
        self.encodings: list[tuple[tuple[str, ...], bytes]] = []  # ((card,), canonical(card) or canonical([card]))
        self.digests: dict[str, list[tuple[str, str]]] = {}  # first 32 hex -> [(full hex, card)]
        self.fields: dict[str, set[str]] = {}  # per event type, the data fields seen
        self.list_fields: dict[str, set[str]] = {}  # per event type, the fields seen holding a list
        self.hashes: dict[int, str] = {}
        self.prevs: dict[int, str] = {}
        self.attacked_events: set[str] = set()
        self.waiting: dict[int, tuple[Mapping[str, Any], str]] = {}
        self.attacked_commits: set[str] = set()
        self.attacked_hexes: set[str] = set()
        self.known_commits: dict[str, Any] = {}  # a commitment -> the value its place shows this viewer
        self.commit_places: dict[str, dict[tuple[int, str], str]] = {}  # a commitment -> its places
        # The opening attack: salts given, by (version, canonical path), and the places
        # (version, canonical path) whose values this viewer is not shown.
        self.salts: dict[tuple[int, str], bytes] = {}
        self.salted_paths: dict[int, list[str]] = {}
        self.salted_versions: dict[str, list[int]] = {}
        self.unseen: dict[tuple[int, str], tuple[str, str]] = {}  # a place -> (its commitment, where)
        self.unseen_paths: dict[int, list[str]] = {}
        self.unseen_versions: dict[str, list[int]] = {}
        self.fresh_places: list[tuple[int, str]] = []
        self.salts_tried: dict[tuple[int, str], set[bytes]] = {}
        self.tally = Tally()

    # the candidates: the game's card list, each in the forms a place could hold it

    def add_candidates(self, cards: Iterable[str]) -> None:
        new = sorted(set(cards) - set(self.cards))
        self.cards += new
        for card in new:
            forms = [canonical(card).encode(), canonical([card]).encode()]
            self.encodings += [((card,), form) for form in forms]
            for digest in self._digests_of(card, [card.encode(), *forms]):
                self.digests.setdefault(digest[:32], []).append((digest, card))

    def _digests_of(self, card: str, forms: list[bytes]) -> Iterator[str]:
        for form in forms:
            yield hashlib.sha256(form).hexdigest()
            for value in self.public:
                for joined in (value + form, form + value, value + b"\n" + form, form + b"\n" + value):
                    yield hashlib.sha256(joined).hexdigest()
                yield hmac.new(value, form, hashlib.sha256).hexdigest()
                yield hmac.new(form, value, hashlib.sha256).hexdigest()

    @property
    def digests_per_card(self) -> int:
        return 3 * (1 + 6 * len(self.public))

    # learning: field names of each event type, and every hash and prev_hash seen

    def learn(self, events: Iterable[Mapping[str, Any]]) -> None:
        for event in events:
            if isinstance(event.get("data"), dict):
                self.fields.setdefault(event["type"], set(CARD_FIELDS)).update(event["data"])
                lists = {k for k, v in event["data"].items() if isinstance(v, list)}
                self.list_fields.setdefault(event["type"], set()).update(lists)
            if event.get("hash"):
                self.hashes[event["version"]] = event["hash"]
            if event.get("prev_hash"):
                self.prevs[event["version"]] = event["prev_hash"]

    # the attacks

    def attack_events(self, events: Iterable[Mapping[str, Any]], where: str) -> list[Claim]:
        events = list(events)
        self.learn(events)
        claims: list[Claim] = []
        salted: list[tuple[int, str]] = []
        for event in events:
            salted += self._learn_salts(event)
            # The openings are not hashed: an event seen before without them is attacked once.
            key = canonical({k: v for k, v in event.items() if k != "openings"})
            if key in self.attacked_events:
                continue
            self.attacked_events.add(key)
            claims += self._hash_attack(event, where)
            claims += self._commitment_attacks(event, where)
        for event, first_seen in list(self.waiting.values()):
            claims += self._hash_attack(event, first_seen)
        claims += self._opening_attacks(salted)
        self.tally.claims += claims
        return claims

    def _hash_attack(self, event: Mapping[str, Any], where: str) -> list[Claim]:
        """Fill each unknown place with each candidate; an event whose hash (or whose
        neighbours' hashes) the attacker lacks waits until it has them."""
        version = event["version"]
        target = event.get("hash") or self.prevs.get(version + 1)
        prev = event.get("prev_hash") or (GENESIS if version == 1 else self.hashes.get(version - 1))
        if not target or not prev:
            self.waiting[version] = (event, where)
            return []
        self.waiting.pop(version, None)
        hashed = event["sealed"] if "sealed" in event else event["data"]
        kind = event["type"]
        claims = []
        fields, lists = self.fields.get(kind, CARD_FIELDS), self.list_fields.get(kind, ())
        for place in unknown_places(hashed, fields, lists, event["data"]):
            self.tally.places += 1
            text = canonical(hashed_body(event, filled(hashed, place, SENTINEL)))
            before, after = text.split(canonical(SENTINEL))
            start = hashlib.sha256((prev + "\n" + before).encode())
            tail = after.encode()
            for cards, form in self.pairs() if place.pair else self.encodings:
                guess = start.copy()
                guess.update(form)
                guess.update(tail)
                if guess.hexdigest() == target:
                    spot = f"{where} v{version} {kind} {list(place.path)}"
                    claims += [Claim("hash", spot, version, card) for card in cards]
                self.tally.hash_guesses += 1
        return claims

    def pairs(self) -> Iterator[tuple[tuple[str, ...], bytes]]:
        for first in self.cards:
            for second in self.cards:
                if first != second:
                    yield (first, second), canonical([first, second]).encode()

    def _commitment_attacks(self, event: Mapping[str, Any], where: str) -> list[Claim]:
        if "sealed" not in event:
            return []
        version, claims, touched = event["version"], [], []
        keys = [*self.public, (event.get("prev_hash") or "").encode(), b""]
        for path, leaf in leaves(event["sealed"]):
            if not is_commitment(leaf):
                continue
            commit, spot = leaf[COMMIT], f"{where} v{version} {event['type']} {list(path)}"
            shown, value = value_at(event["data"], path)
            if shown and value is not None and type(value) is not int:
                self.known_commits.setdefault(commit, value)
            else:
                self._unseen_place(version, canonical(list(path)), commit, spot)
            self.commit_places.setdefault(commit, {})[version, canonical(list(path))] = spot
            touched.append(commit)
            if commit in self.attacked_commits:
                continue
            self.attacked_commits.add(commit)
            self.tally.commitments += 1
            for key in keys:
                salt = spec_salt(key, version, path)
                for (card,), form in self.encodings:
                    if hashlib.sha256(salt + form).hexdigest() == commit:
                        claims.append(Claim("salt", spot, version, card))
                self.tally.salt_guesses += len(self.encodings)
        for commit in touched:
            places = self.commit_places[commit]
            if commit in self.known_commits and len(places) > 1:
                value = self.known_commits[commit]
                cards = [value] if isinstance(value, str) else value if isinstance(value, list) else []
                claims += [
                    Claim("same commitment", spot, v, card)
                    for (v, _), spot in places.items()
                    for card in cards
                    if isinstance(card, str)
                ]
        return claims

    def _learn_salts(self, event: Mapping[str, Any]) -> list[tuple[int, str]]:
        """The places of the event's openings whose salts were not given before."""
        version, openings, new = event["version"], event.get("openings"), []
        for opening in openings if isinstance(openings, list) else []:
            try:
                place, salt = (version, canonical(opening["path"])), bytes.fromhex(opening["salt"])
            except (TypeError, KeyError, ValueError):
                continue
            if place not in self.salts:
                self.salts[place] = salt
                self.salted_paths.setdefault(version, []).append(place[1])
                self.salted_versions.setdefault(place[1], []).append(version)
                new.append(place)
        return new

    def _unseen_place(self, version: int, path: str, commit: str, spot: str) -> None:
        if (version, path) not in self.unseen:
            self.unseen[version, path] = (commit, spot)
            self.unseen_paths.setdefault(version, []).append(path)
            self.unseen_versions.setdefault(path, []).append(version)
            self.fresh_places.append((version, path))

    def _opening_attacks(self, salted: list[tuple[int, str]]) -> list[Claim]:
        """The opening attack on the places first seen since the last call, and on those
        a salt given since bears on: the places of its version, and its path's later ones."""
        places = dict.fromkeys(self.fresh_places)
        self.fresh_places = []
        for version, path in salted:
            places.update(dict.fromkeys((version, other) for other in self.unseen_paths.get(version, ())))
            later = (v for v in self.unseen_versions.get(path, ()) if v > version)
            places.update(dict.fromkeys((v, path) for v in later))
        return [claim for place in places for claim in self._opening_attack(place)]

    def _opening_attack(self, place: tuple[int, str]) -> list[Claim]:
        """Each candidate under the salts that could open the commitment at ``place`` if
        the service gave it away or salted carelessly, each salt tried there once."""
        version, path = place
        commit, spot = self.unseen[place]
        others = [(version, other) for other in self.salted_paths.get(version, ()) if other != path]
        earlier = max((v for v in self.salted_versions.get(path, ()) if v < version), default=None)
        keys = [place, *others[:OTHER_SALTS], *([] if earlier is None else [(earlier, path)])]
        tried, claims = self.salts_tried.setdefault(place, set()), []
        for key in keys:
            salt = self.salts.get(key)
            if salt is None or salt in tried:
                continue
            tried.add(salt)
            for (card,), form in self.encodings:
                if hashlib.sha256(salt + form).hexdigest() == commit:
                    claims.append(Claim("opening", spot, version, card))
            self.tally.opening_guesses += len(self.encodings)
        return claims

    def attack_text(self, text: str, version: int, where: str) -> list[Claim]:
        """Every hex string in ``text`` not tried before, against every digest of every card."""
        claims = []
        for found in hex_strings(text) - self.attacked_hexes:
            self.attacked_hexes.add(found)
            self.tally.hexes += 1
            self.tally.digest_guesses += len(self.cards) * self.digests_per_card
            for digest, card in self.digests.get(found[:32], []):
                if digest.startswith(found) or found.startswith(digest):
                    claims.append(Claim("digest", f"{where} {found[:16]}...", version, card))
        self.tally.claims += claims
        return claims
