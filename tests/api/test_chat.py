"""Table chat: two channels per game, who may post and read each, plain text
within its rule, a rate limit that stores nothing it refuses, live delivery on the game's
event stream (without an id) and on the other seated players' streams, export and import,
and a hash chain that never sees a message."""

from __future__ import annotations

import contextvars
import json
from collections.abc import Iterator
from typing import Any

import fakeredis
import pytest
from flask.testing import FlaskClient

from core.chat import KEPT, MAX_TEXT, RATE_LIMIT, Chat
from core.config import Config
from core.errors import CommandError
from core.tooling import audit_game, export_lines, import_lines
from projections.inbox import Inbox
from service.app import create_app
from stores.platform import Platform
from tests.api.conftest import bearer, new_tiny
from tests.api.test_players import register, stream_events
from tests.localcluster import LocalCluster, local_cluster  # noqa: F401  (a fixture)
from workers.scheduling import InlineBots
from workers.wiring import wire


def chat_path(game: dict[str, Any]) -> str:
    return f"/v1/games/{game['id']}/chat"


def say(client: FlaskClient, game: dict[str, Any], headers: dict[str, str], text: str, channel: str = "seats") -> Any:
    return client.post(chat_path(game), json={"channel": channel, "text": text}, headers=headers)


def texts(client: FlaskClient, game: dict[str, Any], headers: dict[str, str] | None = None, query: str = "") -> Any:
    answer = client.get(f"{chat_path(game)}{query}", headers=headers or {})
    assert answer.status_code == 200, answer.get_json()
    return [(m["channel"], m["text"]) for m in answer.get_json()["messages"]]


def stored(platform: Platform, game: dict[str, Any]) -> int:
    return int(platform.redis.xlen(Chat.of(platform).key(game["id"])))


def seats_of(game: dict[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    return bearer(game["seats"][0]["token"]), bearer(game["seats"][1]["token"])


def player_game(client: FlaskClient, **extra: Any) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """A tiny game between the players ann (seat 0) and bob (seat 1): the game, and their keys."""
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}], **extra}, headers=ann
    ).get_json()
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob).status_code == 200
    return game, ann, bob


def finish(client: FlaskClient, game: dict[str, Any], seat0: dict[str, str]) -> None:
    """A tiny game created with ``start`` 9 ends at seat 0's first action."""
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    done = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=seat0,
    )
    assert done.status_code == 200 and client.get(f"/v1/games/{game['id']}").get_json()["status"] == "finished"


class Stream:
    """A game's event stream, opened and read in a context of its own. Between two reads,
    Flask's ``stream_with_context`` keeps the stream's request context pushed, and in one
    thread a request made meanwhile would share its ``g`` (the caller's seat); a server
    serves each request in its own thread, and so does this."""

    def __init__(self, client: FlaskClient, game: dict[str, Any], headers: dict[str, str]) -> None:
        self.context = contextvars.Context()
        path = f"/v1/games/{game['id']}/events/stream"
        self.response = self.context.run(client.get, path, headers=headers, buffered=False)
        assert self.response.status_code == 200 and self.response.mimetype == "text/event-stream"
        self.chunks = iter(self.response.response)

    def until_chat(self, count: int) -> list[tuple[dict[str, str], str]]:
        """Every message (its fields, and its raw text) up to the ``count``-th chat message."""
        found: list[tuple[dict[str, str], str]] = []
        while sum(1 for fields, _ in found if fields["event"] == "chat") < count:
            chunk = self.context.run(next, self.chunks)
            # A write may carry several messages (all a move brought): split them as SSE does.
            for text in (chunk.decode() if isinstance(chunk, bytes) else chunk).split("\n\n"):
                if text and not text.startswith(("retry:", ":")):
                    found.append((dict(line.split(": ", 1) for line in text.strip().splitlines()), text + "\n\n"))
        return found

    def close(self) -> None:
        self.context.run(self.response.close)


def chat_of(found: list[tuple[dict[str, str], str]]) -> list[str]:
    return [json.loads(fields["data"])["text"] for fields, _ in found if fields["event"] == "chat"]


def test_seats_post_on_the_seats_channel_and_everyone_reads_it(client: FlaskClient) -> None:
    game = new_tiny(client)
    ann, bob = seats_of(game)
    posted = say(client, game, ann, "  good luck,\nbob  ")
    assert posted.status_code == 201, posted.get_json()
    message = posted.get_json()
    assert set(message) == {"id", "channel", "from", "text", "at"}
    assert message["channel"] == "seats" and message["text"] == "good luck,\nbob"
    assert message["from"] == {"seat": 0, "name": "ann", "player": None}
    assert message["at"].endswith("Z") and len(message["at"]) == len("2026-01-01T00:00:00.000Z")
    assert say(client, game, bob, "thanks").status_code == 201
    _, watcher = register(client, "carl")
    for reader in (ann, bob, watcher, {}):
        assert texts(client, game, reader) == [("seats", "good luck,\nbob"), ("seats", "thanks")]
    page = client.get(f"{chat_path(game)}?limit=1").get_json()
    assert [m["text"] for m in page["messages"]] == ["good luck,\nbob"] and page["next_after"] == message["id"]
    rest = client.get(f"{chat_path(game)}?after={page['next_after']}").get_json()
    assert [m["text"] for m in rest["messages"]] == ["thanks"]
    assert client.get(f"{chat_path(game)}?after={rest['next_after']}").get_json() == {
        "messages": [],
        "next_after": rest["next_after"],
    }


def test_a_player_posts_as_its_seat_and_a_player_watching_on_the_spectators_channel(client: FlaskClient) -> None:
    game, ann, bob = player_game(client)
    ann_id = client.get("/v1/players/me", headers=ann).get_json()["id"]
    mine = say(client, game, ann, "hi bob").get_json()
    assert mine["from"] == {"seat": 0, "name": "ann", "player": ann_id}
    carl, carl_key = register(client, "carl")
    watching = say(client, game, carl_key, "bob is bluffing", "spectators")
    assert watching.status_code == 201, watching.get_json()
    assert watching.get_json()["from"] == {"seat": None, "name": "carl", "player": carl["id"]}
    # Who may not post where: 401 for no one known, 403 for someone who may not post there.
    refusals = [
        (carl_key, "seats", 403, "not_your_seat"),
        ({}, "seats", 401, "unauthorized"),
        ({}, "spectators", 401, "unauthorized"),
        (ann, "spectators", 403, "forbidden"),
        (bob, "spectators", 403, "forbidden"),
    ]
    for headers, channel, status, code in refusals:
        refused = say(client, game, headers, "nope", channel)
        assert (refused.status_code, refused.get_json()["code"]) == (status, code), (headers, channel)
    tokens = new_tiny(client)
    refused = say(client, tokens, seats_of(tokens)[0], "nope", "spectators")
    assert (refused.status_code, refused.get_json()["code"]) == (403, "forbidden")
    assert len(texts(client, game, carl_key)) == 2, "nothing refused was stored"


def test_the_seats_read_the_spectators_channel_only_once_the_game_is_finished(client: FlaskClient) -> None:
    game, ann, bob = player_game(client, options={"start": 9})
    _, carl = register(client, "carl")
    say(client, game, ann, "gl")
    say(client, game, carl, "ann should add one", "spectators")
    both = [("seats", "gl"), ("spectators", "ann should add one")]
    assert texts(client, game, carl) == both
    assert texts(client, game, {}) == both, "an anonymous spectator reads both"
    assert texts(client, game, {}, "?channel=spectators") == [("spectators", "ann should add one")]
    for seat in (ann, bob):
        assert texts(client, game, seat) == [("seats", "gl")], "a seat in play hears no spectator"
        assert texts(client, game, seat, "?channel=seats") == [("seats", "gl")]
        refused = client.get(f"{chat_path(game)}?channel=spectators", headers=seat)
        assert (refused.status_code, refused.get_json()["code"]) == (403, "forbidden")
    # The same seat by its name's spellings: the header's scheme in any case, any spaces.
    key = ann["Authorization"][len("Bearer ") :]
    for spelled in (f"bearer {key}", f"BEARER {key}", f"Bearer   {key}  ", f"Bearer\t{key}"):
        refused = client.get(f"{chat_path(game)}?channel=spectators", headers={"Authorization": spelled})
        assert refused.status_code == 403, spelled
        assert texts(client, game, {"Authorization": spelled}) == [("seats", "gl")]
    assert client.get(f"{chat_path(game)}?channel=kibitz").status_code == 422
    finish(client, game, ann)
    for seat in (ann, bob):
        assert texts(client, game, seat) == both
        assert texts(client, game, seat, "?channel=spectators") == [("spectators", "ann should add one")]


def test_credentials_of_another_game_unknown_rotated_or_revoked_are_refused_and_store_nothing(
    client: FlaskClient, platform: Platform
) -> None:
    game = new_tiny(client)
    other = new_tiny(client)
    theirs = seats_of(other)[0]
    for answer in (say(client, game, theirs, "hi"), client.get(chat_path(game), headers=theirs)):
        assert (answer.status_code, answer.get_json()["code"]) == (403, "not_your_seat")
    assert say(client, game, bearer("no-such-token"), "hi").status_code == 401
    assert client.get(chat_path(game), headers=bearer("no-such-token")).status_code == 401
    assert say(client, game, {"Authorization": "Basic YW5uOmFubg=="}, "hi").status_code == 401
    _, rotated = register(client, "dave")
    assert client.post("/v1/players/me/key", headers=rotated).status_code == 200
    _, revoked = register(client, "erin")
    assert client.delete("/v1/players/me/key", headers=revoked).status_code == 204
    for key in (rotated, revoked):
        assert say(client, game, key, "hi", "spectators").status_code == 401
        assert client.get(chat_path(game), headers=key).status_code == 401
    assert say(client, {"id": "no-such-game"}, seats_of(game)[0], "hi").status_code == 403
    _, frank = register(client, "frank")
    assert say(client, {"id": "no-such-game"}, frank, "hi", "spectators").status_code == 404
    assert client.get("/v1/games/no-such-game/chat").status_code == 404
    assert stored(platform, game) == 0 and stored(platform, other) == 0


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        (" \n\t ", "empty"),
        ("x" * (MAX_TEXT + 1), "over"),
        ("a\x00b", "U+0000"),
        ("a\tb", "U+0009"),
        ("a\r\nb", "U+000D"),
        ("\x1b[31mred", "U+001B"),
        ("a\x7fb", "U+007F"),
        ("a\x85b", "U+0085"),
    ],
)
def test_a_text_outside_the_rule_is_refused_with_the_rule_and_nothing_is_stored(
    client: FlaskClient, platform: Platform, text: str, why: str
) -> None:
    game = new_tiny(client)
    refused = say(client, game, seats_of(game)[0], text)
    problem = refused.get_json()
    assert (refused.status_code, problem["code"]) == (422, "invalid_request") and why in problem["detail"]
    assert refused.mimetype == "application/problem+json" and "1 to 500 characters" in problem["rule"]
    assert stored(platform, game) == 0


def test_text_at_the_limit_and_unicode_pass_as_sent(client: FlaskClient) -> None:
    game = new_tiny(client)
    ann = seats_of(game)[0]
    for text in ("x" * MAX_TEXT, "  " + "y" * MAX_TEXT + "\n ", "<b>not html</b> & 🂡 ünïcode\nline two"):
        posted = say(client, game, ann, text)
        assert posted.status_code == 201 and posted.get_json()["text"] == text.strip()
    assert texts(client, game)[-1] == ("seats", "<b>not html</b> & 🂡 ünïcode\nline two"), "returned as sent"


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        ({"channel": "table", "text": "hi"}, "application/json", 422, "invalid_request"),
        ({"channel": "SEATS", "text": "hi"}, "application/json", 422, "invalid_request"),
        ({"channel": "seats"}, "application/json", 422, "invalid_request"),
        ({"text": "hi"}, "application/json", 422, "invalid_request"),
        ({"channel": "seats", "text": 7}, "application/json", 422, "invalid_request"),
        ({"channel": "seats", "text": ["hi"]}, "application/json", 422, "invalid_request"),
        ({"channel": "seats", "text": "hi", "html": True}, "application/json", 422, "invalid_request"),
        ([{"channel": "seats", "text": "hi"}], "application/json", 422, "invalid_request"),
        ("{not json", "application/json", 400, "bad_request"),
        ('{"channel": "seats", "text": "\\ud800"}', "application/json", 400, "bad_request"),
        ("channel=seats&text=hi", "application/x-www-form-urlencoded", 415, "unsupported_media_type"),
    ],
)
def test_a_bad_body_is_a_problem_with_a_stable_code_and_stores_nothing(
    client: FlaskClient, platform: Platform, body: Any, content_type: str, status: int, code: str
) -> None:
    game = new_tiny(client)
    data = body if isinstance(body, str) else json.dumps(body)
    answer = client.post(chat_path(game), data=data, headers={**seats_of(game)[0], "Content-Type": content_type})
    assert answer.mimetype == "application/problem+json"
    assert (answer.status_code, answer.get_json()["code"]) == (status, code), answer.get_json()
    assert stored(platform, game) == 0


@pytest.mark.parametrize("query", ["?after=soon", "?after=1-2-3", "?limit=0", "?limit=501", "?channel=all"])
def test_a_bad_query_is_refused(client: FlaskClient, query: str) -> None:
    game = new_tiny(client)
    answer = client.get(f"{chat_path(game)}{query}")
    assert (answer.status_code, answer.get_json()["code"]) == (422, "invalid_request")
    assert client.get(f"{chat_path(game)}?since=0").status_code == 400, "a parameter the route does not take"


def test_an_author_over_its_rate_is_refused_with_retry_after_and_nothing_is_stored(
    client: FlaskClient, platform: Platform
) -> None:
    game = new_tiny(client)
    ann, bob = seats_of(game)
    for n in range(RATE_LIMIT):
        assert say(client, game, ann, f"message {n}").status_code == 201
    refused = say(client, game, ann, "one too many")
    assert (refused.status_code, refused.get_json()["code"]) == (429, "rate_limited")
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    # Another spelling of the same token is the same author.
    token = ann["Authorization"][len("Bearer ") :]
    assert say(client, game, {"Authorization": f"bearer   {token}"}, "again").status_code == 429
    assert stored(platform, game) == RATE_LIMIT
    assert all(text != "one too many" for _, text in texts(client, game))
    assert say(client, game, bob, "my turn to talk").status_code == 201, "per author"
    other = new_tiny(client, players=[{"name": "ann"}, {"name": "bob"}])
    assert say(client, other, seats_of(other)[0], "elsewhere").status_code == 201, "per game"


def test_a_player_watching_is_rate_limited_too(client: FlaskClient) -> None:
    game, _, _ = player_game(client)
    _, carl = register(client, "carl")
    for n in range(RATE_LIMIT):
        assert say(client, game, carl, f"watching {n}", "spectators").status_code == 201
    assert say(client, game, carl, "more", "spectators").status_code == 429


def test_chat_comes_over_the_game_stream_without_an_id_and_only_what_the_caller_may_read(
    client: FlaskClient,
) -> None:
    game, ann, bob = player_game(client)
    _, carl = register(client, "carl")
    resume = {"Last-Event-ID": str(client.get(f"/v1/games/{game['id']}").get_json()["version"])}
    key = bob["Authorization"][len("Bearer ") :]
    watcher = Stream(client, game, {**carl, **resume})
    anonymous = Stream(client, game, resume)
    seats = [
        Stream(client, game, {"Authorization": spelled, **resume}) for spelled in (f"bearer {key}", f"BEARER\t{key}")
    ]
    say(client, game, carl, "bob holds c6", "spectators")
    say(client, game, ann, "hello")
    for stream, expected in [(watcher, ["bob holds c6", "hello"]), (anonymous, ["bob holds c6", "hello"])] + [
        (seat, ["hello"]) for seat in seats
    ]:
        found = stream.until_chat(len(expected))
        stream.close()
        assert chat_of(found) == expected, "a seat in play hears no spectator"
        for fields, raw in found:
            assert fields["event"] == "chat" and "id" not in fields and not raw.startswith("id:") and "\nid:" not in raw
            assert json.loads(fields["data"]) in client.get(chat_path(game)).get_json()["messages"]


def test_events_keep_their_versions_as_ids_around_the_chat_and_a_seat_token_hears_no_spectator(
    client: FlaskClient,
) -> None:
    game = new_tiny(client)
    ann, bob = seats_of(game)
    _, carl = register(client, "carl")
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    stream = Stream(client, game, {**bob, "Last-Event-ID": str(version)})
    say(client, game, carl, "psst", "spectators")
    say(client, game, ann, "hi")
    acted = client.post(
        f"/v1/games/{game['id']}/actions",
        json={"action": {"type": "add", "amount": 1}, "expected_version": version},
        headers=ann,
    )
    say(client, game, ann, "your turn")
    found = stream.until_chat(2)
    stream.close()
    events = [int(fields["id"]) for fields, _ in found if fields["event"] != "chat"]
    assert events == list(range(version + 1, acted.get_json()["version"] + 1))
    assert chat_of(found) == ["hi", "your turn"]
    # Reconnected after the last event, the stream resumes by version: chat is not replayed.
    again = Stream(client, game, {**bob, "Last-Event-ID": str(events[-1])})
    say(client, game, ann, "still there?")
    assert chat_of(again.until_chat(1)) == ["still there?"]
    again.close()


def test_a_player_watching_who_takes_a_seat_stops_hearing_the_spectators(client: FlaskClient) -> None:
    _, ann = register(client, "ann")
    _, bob = register(client, "bob")
    _, carl = register(client, "carl")
    game = client.post(
        "/v1/games", json={"kind": "tiny", "players": [{"me": True}, {"open": True}]}, headers=ann
    ).get_json()
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    watching = Stream(client, game, {**bob, "Last-Event-ID": str(version)})
    say(client, game, carl, "before bob sat", "spectators")
    assert chat_of(watching.until_chat(1)) == ["before bob sat"]
    assert client.post(f"/v1/games/{game['id']}/seats/1/join", json={}, headers=bob).status_code == 200
    say(client, game, carl, "bob will lose", "spectators")
    say(client, game, ann, "welcome")
    assert chat_of(watching.until_chat(1)) == ["welcome"]
    watching.close()


def test_a_message_reaches_the_other_seated_players_streams_not_the_author_s(
    client: FlaskClient, platform: Platform
) -> None:
    game, ann, bob = player_game(client, options={"start": 9})
    _, carl = register(client, "carl")
    inbox = Inbox(platform.redis, platform.config.prefix)

    def chat_notices(key: dict[str, str]) -> list[dict[str, Any]]:
        player = platform.players.authenticate(key["Authorization"][len("Bearer ") :])
        assert player is not None
        return [n for _, n in inbox.read(player["id"], "0", None, count=1000) if n["type"] == "chat"]

    message = say(client, game, ann, "your move, bob").get_json()
    say(client, game, carl, "bob is toast", "spectators")
    assert chat_notices(ann) == [] and chat_notices(carl) == []
    assert chat_notices(bob) == [
        {"type": "chat", "game": game["id"], "kind": "tiny", "channel": "seats", "message": message}
    ]
    heard = stream_events(client, bob, 1, after="0")
    assert [(event, data["message"]["text"]) for _, event, data in heard] == [("chat", "your move, bob")]
    assert heard[0][0], "the player stream's events carry their cursor"
    # Once the game is over the seats may read the watchers, and hear them.
    finish(client, game, ann)
    late = say(client, game, carl, "well played", "spectators").get_json()
    assert [n["message"] for n in chat_notices(ann)] == [late]
    assert [n["message"]["text"] for n in chat_notices(bob)] == ["your move, bob", "well played"]


def test_chat_never_enters_the_log_and_the_head_stays(client: FlaskClient, platform: Platform) -> None:
    game = new_tiny(client)
    before = client.get(f"/v1/games/{game['id']}").get_json()
    head, raw = platform.store.head(game["id"]), platform.store.read_raw(game["id"])
    say(client, game, seats_of(game)[0], "does the chain notice?")
    after = client.get(f"/v1/games/{game['id']}").get_json()
    assert (after["version"], after["head"]) == (before["version"], before["head"])
    assert platform.store.head(game["id"]) == head and platform.store.read_raw(game["id"]) == raw
    assert client.get(f"/v1/games/{game['id']}/events").get_json()["last_version"] == before["version"]
    assert audit_game(platform, game["id"]).ok
    assert all("chain notice" not in text for _, text in raw)


def test_export_carries_the_chat_and_import_restores_it_with_the_game_still_verifying(
    client: FlaskClient, platform: Platform
) -> None:
    game, ann, bob = player_game(client)
    _, carl = register(client, "carl")
    say(client, game, ann, "chat-gl\nhf")
    say(client, game, carl, "chat-watching", "spectators")
    say(client, game, bob, "chat-thanks")
    kept = client.get(chat_path(game)).get_json()["messages"]
    lines = list(export_lines(platform, game["id"]))
    header = json.loads(lines[0])
    assert header["chat"] == kept and len(kept) == 3
    assert all("chat-" not in line for line in lines[1:]), "the log lines hold no chat"
    elsewhere = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    imported, report = import_lines(elsewhere, lines)
    assert report.ok and audit_game(elsewhere, imported).ok
    assert elsewhere.store.read_raw(imported) == platform.store.read_raw(game["id"])
    assert Chat.of(elsewhere).export(imported) == kept
    back = list(export_lines(elsewhere, imported))
    assert back[1:] == lines[1:] and json.loads(back[0])["chat"] == kept, "exported back as it came"
    # An export made before chat existed imports, with no chat.
    old = [json.dumps({k: v for k, v in header.items() if k != "chat"}), *lines[1:]]
    bare = Platform(Config(redis_url="fake"), fakeredis.FakeRedis())
    without, report = import_lines(bare, old)
    assert report.ok and Chat.of(bare).export(without) == []
    assert "chat" not in json.loads(next(iter(export_lines(bare, without))))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda chat: "not a list",
        lambda chat: [{**chat[0], "channel": "kibitz"}],
        lambda chat: [{**chat[0], "text": "\x1b[2J"}],
        lambda chat: [{**chat[0], "text": "x" * (MAX_TEXT + 1)}],
        lambda chat: [{**chat[0], "id": "soon"}],
        lambda chat: [chat[1], chat[0]],
        lambda chat: [{**chat[0], "from": {"seat": "0", "name": "ann", "player": None}}],
    ],
)
def test_an_export_whose_chat_breaks_the_rules_is_refused_and_writes_nothing(
    client: FlaskClient, platform: Platform, spoil: Any
) -> None:
    game = new_tiny(client)
    ann, bob = seats_of(game)
    say(client, game, ann, "one")
    say(client, game, bob, "two")
    header, *events = export_lines(platform, game["id"])
    spoiled = json.dumps({**json.loads(header), "chat": spoil(json.loads(header)["chat"])})
    elsewhere = fakeredis.FakeRedis()
    with pytest.raises(CommandError) as refused:
        import_lines(Platform(Config(redis_url="fake"), elsewhere), [spoiled, *events])
    assert refused.value.code == "invalid_request" and "chat" in refused.value.detail
    assert elsewhere.keys() == []


def test_the_chat_stream_is_capped(client: FlaskClient, platform: Platform) -> None:
    game = new_tiny(client)
    chat = Chat.of(platform)
    key = chat.key(game["id"])
    assert key.startswith(f"{platform.config.prefix}:{{{game['id']}}}:"), "in the game's hash tag"
    with platform.redis.pipeline(transaction=False) as pipe:
        for n in range(KEPT + 500):
            message = {"channel": "seats", "from": {"seat": 0, "name": "ann", "player": None}, "text": str(n)}
            pipe.xadd(key, {"m": json.dumps(message)})
        pipe.execute()
    say(client, game, seats_of(game)[0], "the newest")
    assert KEPT <= stored(platform, game) < KEPT + 500
    oldest = client.get(f"{chat_path(game)}?limit=1").get_json()["messages"][0]["text"]
    assert int(oldest) > 0, "the oldest went"


@pytest.fixture
def on_cluster(local_cluster: LocalCluster, redis_url: str, prefix: str) -> Iterator[Platform]:  # noqa: F811
    url = "redis+cluster://" + ",".join(f"{n.host}:{n.port}" for n in local_cluster.startup_nodes)
    config = Config(
        redis_url=url,
        queue_redis_url=redis_url,
        prefix=prefix,
        rate_per_address=10**6,
        rate_per_token=10**6,
        heartbeat_seconds=1,
    )
    p = Platform.from_config(config)
    wire(p, bots=False)
    p.handler.scheduler = InlineBots(p)
    yield p
    for node in p.redis.get_primaries():
        connection = node.redis_connection
        assert connection is not None
        for key in connection.scan_iter(match=f"{prefix}:*", count=1000):
            connection.delete(key)
    p.redis.close()


def test_chat_on_a_redis_cluster_lives_in_the_game_s_slot_and_arrives_live(on_cluster: Platform) -> None:
    from redis.crc import key_slot

    client = create_app(on_cluster.config, on_cluster).test_client()
    game, ann, bob = player_game(client)
    _, carl = register(client, "carl")
    chat = Chat.of(on_cluster)
    assert key_slot(chat.key(game["id"]).encode()) == key_slot(on_cluster.store.key(game["id"], "events").encode())
    version = client.get(f"/v1/games/{game['id']}").get_json()["version"]
    seat = Stream(client, game, {**bob, "Last-Event-ID": str(version)})
    say(client, game, carl, "psst", "spectators")
    posted = say(client, game, ann, "hello from the cluster")
    assert posted.status_code == 201, posted.get_json()
    assert chat_of(seat.until_chat(1)) == ["hello from the cluster"]
    seat.close()
    assert texts(client, game, carl) == [("spectators", "psst"), ("seats", "hello from the cluster")]
    for n in range(RATE_LIMIT - 1):
        assert say(client, game, ann, f"more {n}").status_code == 201
    assert say(client, game, ann, "too many").status_code == 429
    bob_id = client.get("/v1/players/me", headers=bob).get_json()["id"]
    inbox = Inbox(on_cluster.redis, on_cluster.config.prefix)
    assert [n["message"]["text"] for _, n in inbox.read(bob_id, "0", None)][0] == "hello from the cluster"
    lines = list(export_lines(on_cluster, game["id"]))
    assert len(json.loads(lines[0])["chat"]) == RATE_LIMIT + 1
