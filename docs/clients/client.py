"""The smallest complete tablestream client: it creates a game against bots, plays its
seat to the end and prints the outcome. Python 3.10+, standard library only.

    python docs/clients/client.py --base http://127.0.0.1:8000
    python docs/clients/client.py --kind fortress-siege --options '{}' --bot greedy
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator

# The per-token limit is a rate (20 requests a second by default): spaced this far apart,
# no request of ours is refused, and a burst is not answered by a second's wait.
PACE = 0.05
next_request = 0.0


class Problem(Exception):
    """An application/problem+json answer: ``code`` is stable (stale_version, game_over, ...)."""

    def __init__(self, status: int, body: dict) -> None:
        super().__init__(f"{status} {body.get('code')}: {body.get('detail')}")
        self.code = body.get("code")


def send(request: urllib.request.Request, timeout: float = 30):
    """urlopen that waits out a 429 for its Retry-After, and sends the same request again
    when it got no answer, a 503 or a 409 request_in_progress. That is safe for a POST only
    because it carries an Idempotency-Key: the server appends a command once however often
    it arrives."""
    global next_request
    failures = 0
    while failures < 8:
        time.sleep(max(0.0, next_request - time.monotonic()))
        next_request = time.monotonic() + PACE
        try:
            return urllib.request.urlopen(request, timeout=timeout)
        except urllib.error.HTTPError as error:
            if error.code == 429:  # over the rate limit: nothing was done, wait as told
                wait = float(error.headers.get("Retry-After", "1"))
                print(f"429 rate_limited: waiting {wait:g} s", file=sys.stderr)
                time.sleep(wait)
                continue
            problem = json.load(error)
            # 503, or our first try of this key still running: ask again in a moment.
            if error.code != 503 and problem.get("code") != "request_in_progress":
                raise Problem(error.code, problem) from None
        except OSError:  # no connection, reset or timed out: we cannot know if it was done
            pass
        time.sleep(0.25 * 2**failures)  # back off: 0.25 s, 0.5 s, 1 s, ...
        failures += 1
    raise RuntimeError(f"no answer from {request.full_url}")


def call(base: str, method: str, path: str, token: str | None = None, body: dict | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if method == "POST":  # one new key per command, reused by every retry of it
        headers["Idempotency-Key"] = str(uuid.uuid4())
    data = None if body is None else json.dumps(body).encode()
    with send(urllib.request.Request(base + path, data, headers, method=method)) as response:
        return json.load(response)


def follow(base: str, game_id: str, token: str, after: int) -> Iterator[dict]:
    """The game's events as they are appended, after version ``after``. A dropped
    connection is opened again from the last version seen (Last-Event-ID); the server
    ends the stream once the game is over and every event has been sent."""
    while True:
        headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream", "Last-Event-ID": str(after)}
        request = urllib.request.Request(f"{base}/v1/games/{game_id}/events/stream", headers=headers)
        try:
            # A heartbeat comes every 15 s, so a minute of silence is a dead connection.
            with send(request, timeout=60) as stream:
                event, data = None, []
                for raw in stream:
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].strip())
                    elif not line and data:  # a blank line ends a message
                        if event != "chat":  # table chat shares the stream; it has no version
                            message = json.loads("\n".join(data))
                            after = message["version"]
                            yield message
                        event, data = None, []
            return
        except (OSError, http.client.HTTPException):  # cut off: reconnect from `after`
            time.sleep(1)


def play(base: str, kind: str, options: dict, bot: str) -> dict:
    kinds = {k["key"]: k for k in call(base, "GET", "/v1/kinds")["kinds"]}
    players = [{"name": "client"}] + [{"bot": bot}] * (kinds[kind]["min_players"] - 1)
    created = call(base, "POST", "/v1/games", body={"kind": kind, "options": options, "players": players})
    # The seat token is shown in this answer only: keep it, it is the only way to act.
    game_id, token = created["id"], created["seats"][0]["token"]
    print(f"game {game_id}: {kind}, playing seat 0 against {len(players) - 1} {bot} bot(s)", flush=True)

    def read() -> dict:  # our view: the board as seat 0 may see it, and our legal actions
        return call(base, "GET", f"/v1/games/{game_id}", token)

    game, moves = read(), 0
    stream = follow(base, game_id, token, after=game["version"])
    while game["status"] == "active":
        if game["legal_actions"]:  # our turn: empty unless we are to act
            action = random.choice(game["legal_actions"])
            body = {"action": action, "expected_version": game["version"]}
            try:
                call(base, "POST", f"/v1/games/{game_id}/actions", token, body)
                moves += 1
            except Problem as problem:  # someone moved first, or it ended: read, decide again
                if problem.code not in ("stale_version", "game_over"):
                    raise
        else:
            # Not our turn: wait on the stream for an event we have not read. One read
            # shows everything appended with it, so the events of the same append that
            # follow are already known and need no read of their own.
            for event in stream:
                if event["version"] > game["version"]:
                    break
            else:  # the stream ended: the game is over, or we read once more and reopen it
                stream = follow(base, game_id, token, after=game["version"])
        game = read()
    print(f"game {game_id} finished after {moves} moves of ours: {json.dumps(game['outcome'])}")
    return game


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="http://127.0.0.1:8000", help="the service's address")
    parser.add_argument("--kind", default="fortress-royals", help="a key from GET /v1/kinds")
    parser.add_argument("--options", default='{"rounds": 1}', help="the kind's options, as JSON")
    parser.add_argument("--bot", default="random", help="random, greedy or ismcts")
    args = parser.parse_args()
    play(args.base.rstrip("/"), args.kind, json.loads(args.options), args.bot)
