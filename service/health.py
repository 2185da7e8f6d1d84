"""What ``/healthz`` says of the processes beside the API: the job runner's workers and
the read-model projector. Neither makes the API unhealthy (moves are decided, appended
and read without them), so neither turns ``/healthz`` into a 503 that would take the API
out of a load balancer; each makes it ``degraded``, with the reason in ``problems``, for
an operator to alert on (docs/operations.md, "Supervision").

The job runner is counted by a census the entry point wires in (``CENSUS``: the HTTP
layer does not know RQ); without one, ``workers`` is null. The projector is judged by
how far it is behind the feed, not by whether it runs: Redis before 7.2 does not record
an idle consumer's reads, and a stopped projector harms nothing until a game changes."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from service.metrics import PROJECTOR_GROUP

# The app extension holding the census of the job runner's workers (``{"alive", "busy"}``).
CENSUS = "tablestream-census"
# Past this, the lobby, lists and inboxes are stale enough for players to notice
# (docs/operations.md: the "Projector behind" alert).
BEHIND_LIMIT_SECONDS = 30.0


def report(store: Any, census: Callable[[], dict[str, int]] | None, queue: Any = None) -> dict[str, Any]:
    """The ``degraded``, ``problems``, ``queue``, ``workers`` and ``projector`` of
    ``/healthz``: a round trip to the queue's Redis (``queue``, when it is not the store's),
    one for the census, one for the projector (a second while it is behind)."""
    problems = []
    queue_state: dict[str, Any] | None = None
    if queue is not None:
        try:
            queue.ping()
            queue_state = {"reachable": True}
        except Exception as error:
            queue_state = {"reachable": False, "error": str(error)}
            problems.append("The job queue's Redis is unreachable: bot turns, turn timers and long jobs wait.")
            census = None  # it would only fail the same way
    workers: dict[str, Any] | None = None
    if census is not None:
        try:
            workers = dict(census())
        except Exception as error:
            workers = {"alive": None, "error": str(error)}
            problems.append(f"The job workers cannot be counted: {error}.")
        else:
            if not workers["alive"]:
                problems.append("No job worker is alive on the queues: bot turns, turn timers and long jobs wait.")
    try:
        projector: dict[str, Any] = projector_lag(store)
    except Exception as error:
        projector = {"caught_up": None, "error": str(error)}
        problems.append(f"The projector's progress cannot be read: {error}.")
    else:
        if projector["behind_seconds"] > BEHIND_LIMIT_SECONDS:
            problems.append(
                f"The projector is {projector['behind_seconds']:.0f} s behind the feed: "
                "the lobby, game lists and inboxes are stale."
            )
    return {
        "degraded": bool(problems),
        "problems": problems,
        "queue": queue_state,
        "workers": workers,
        "projector": projector,
    }


def projector_lag(store: Any) -> dict[str, Any]:
    """``caught_up``: the projector's group has been handed every entry of every feed
    partition and acked each; ``pending``: entries handed out, not acked yet;
    ``behind_seconds``: the age of the oldest entry not applied yet (from its stream id),
    0 when caught up (every entry when the group does not exist yet)."""
    feeds: list[str] = store.feed_keys()
    with store.redis.pipeline(transaction=False) as pipe:
        for feed in feeds:
            pipe.xinfo_groups(feed)
            pipe.xinfo_stream(feed)
        replies = pipe.execute(raise_on_error=False)
    pending, oldest_ms, caught_up = 0, None, True
    asks: list[tuple[str, str]] = []  # (feed, what to read of it) for a second round trip
    for feed, groups, stream in zip(feeds, replies[0::2], replies[1::2], strict=True):
        if isinstance(stream, Exception):  # no feed yet: nothing to apply
            continue
        if isinstance(groups, Exception):
            raise groups
        group = next((g for g in groups if _text(g["name"]) == PROJECTOR_GROUP), None)
        if group is None:
            if stream["length"]:
                caught_up = False
                oldest_ms = _earliest(oldest_ms, stream["first-entry"][0])
            continue
        waiting = int(group["pending"])
        pending += waiting
        if waiting:
            asks.append((feed, "pending"))
        delivered = _text(group["last-delivered-id"])
        if delivered != _text(stream["last-generated-id"]):
            asks.append((feed, "(" + delivered))
        caught_up = caught_up and not waiting and delivered == _text(stream["last-generated-id"])
    if asks:
        with store.redis.pipeline(transaction=False) as pipe:
            for feed, what in asks:
                if what == "pending":
                    pipe.xpending(feed, PROJECTOR_GROUP)
                else:
                    pipe.xrange(feed, min=what, max="+", count=1)
            for reply in pipe.execute():
                if isinstance(reply, dict):
                    oldest_ms = _earliest(oldest_ms, reply.get("min"))
                elif reply:  # the first entry not handed out (none: deleted since)
                    oldest_ms = _earliest(oldest_ms, reply[0][0])
    behind = 0.0 if oldest_ms is None else max(0.0, round(time.time() - oldest_ms / 1000, 1))
    return {"caught_up": caught_up, "pending": pending, "behind_seconds": behind}


def _earliest(known: int | None, entry_id: Any) -> int | None:
    if entry_id is None:
        return known
    at = int(_text(entry_id).split("-")[0])
    return at if known is None else min(known, at)


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
