"""Long work on RQ (``core.jobs.LongJobs``): enqueuing it and reading its status,
progress and result."""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Sequence
from typing import Any

import redis
from rq import Queue
from rq.exceptions import NoSuchJobError
from rq.job import Job

from core.errors import Code, CommandError
from core.jobs import QUEUE_AWAY, queue_names
from stores.platform import Platform
from workers import jobs

KINDS = {"replay": jobs.replay_job, "audit": jobs.audit_job, "rebuild": jobs.rebuild_job, "analysis": jobs.analysis_job}


def enqueue(platform: Platform, kind: str, *args: Any, owner: str | None = None) -> str:
    """Start a job. ``owner`` is the SHA-256 of the token that may read it (None: anyone)."""
    job_id = f"{kind}-{secrets.token_urlsafe(12)}"
    record = {"kind": kind, "done": 0, "total": 0, "owner": owner or "", "args": json.dumps(args)}
    platform.redis.hset(platform.key("job", job_id), mapping=record)
    platform.redis.expire(platform.key("job", job_id), jobs.RESULT_SECONDS)
    if not platform.config.inline_jobs:  # what ``requeue_lost`` looks at
        platform.redis.zadd(platform.key("jobs", "open"), {job_id: time.time()})
    try:
        _queue(platform, kind, job_id, args)
    except redis.RedisError:  # refused, and forgotten: the caller asks again once the queue is back
        if platform.queue_redis is platform.redis:
            raise
        platform.redis.delete(platform.key("job", job_id))
        platform.redis.zrem(platform.key("jobs", "open"), job_id)
        raise CommandError(Code.UNAVAILABLE, QUEUE_AWAY) from None
    return job_id


def _queue(platform: Platform, kind: str, job_id: str, args: Sequence[Any]) -> None:
    inline = platform.config.inline_jobs
    queue = Queue(queue_names(platform.config.prefix)[1], connection=platform.queue_redis, is_async=not inline)
    queue.enqueue_call(KINDS[kind], args=(job_id, *args), job_id=job_id, timeout=3600, result_ttl=jobs.RESULT_SECONDS)


def requeue_lost(platform: Platform) -> int:
    """Enqueue again every long job the queue lost (its entry gone, no result stored), from
    the record kept with the data; forget those that ended or whose record expired. Returns
    how many were enqueued again."""
    opened = platform.key("jobs", "open")
    requeued = 0
    for raw in platform.redis.zrange(opened, 0, -1):
        job_id = raw.decode()
        state = platform.queue_redis.hget(Job.key_for(job_id), "status")
        if state is not None and state.decode() in ("queued", "scheduled", "started", "deferred"):
            continue
        record = platform.redis.hmget(platform.key("job", job_id), "kind", "args", "result")
        kind, args, result = (None if value is None else value.decode() for value in record)
        if state is None and kind in KINDS and args is not None and result is None:
            _queue(platform, kind, job_id, json.loads(args))
            requeued += 1
        else:  # ended (finished, failed, stopped), or its record is gone
            platform.redis.zrem(opened, job_id)
    return requeued


def status(platform: Platform, job_id: str) -> dict[str, Any] | None:
    raw = platform.redis.hgetall(platform.key("job", job_id))
    if not raw:
        return None
    fields = {k.decode(): v.decode() for k, v in raw.items()}
    try:
        job = Job.fetch(job_id, connection=platform.queue_redis)
        state = str(job.get_status(refresh=True) or "queued")
        error = None
        if state == "failed":
            error = (job.latest_result().exc_string or "").strip().splitlines()[-1:] if job.latest_result() else None
    except NoSuchJobError:
        state, error = ("finished" if "result" in fields else "unknown"), None
    state = state.split(".")[-1].lower()
    return {
        "id": job_id,
        "kind": fields.get("kind"),
        "status": state,
        "progress": {"done": int(fields.get("done", 0)), "total": int(fields.get("total", 0))},
        "result": f"/v1/jobs/{job_id}/result" if "result" in fields else None,
        "error": error[0] if error else None,
    }


def owner(platform: Platform, job_id: str) -> str | None:
    """The token hash that may read the job ("" when anyone may), or None for no such job."""
    value = platform.redis.hget(platform.key("job", job_id), "owner")
    return None if value is None else value.decode()


def result(platform: Platform, job_id: str) -> tuple[str, str] | None:
    media, body = platform.redis.hmget(platform.key("job", job_id), "media_type", "result")
    if body is None:
        return None
    return media.decode(), body.decode()


class RQLongJobs:
    """``core.jobs.LongJobs`` on RQ, for one platform."""

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def enqueue(self, kind: str, *args: Any, owner: str | None = None) -> str:
        return enqueue(self.platform, kind, *args, owner=owner)

    def status(self, job_id: str) -> dict[str, Any] | None:
        return status(self.platform, job_id)

    def owner(self, job_id: str) -> str | None:
        return owner(self.platform, job_id)

    def result(self, job_id: str) -> tuple[str, str] | None:
        return result(self.platform, job_id)

    def queue_depths(self) -> dict[str, int]:
        from rq import Queue

        p = self.platform
        return {name: len(Queue(name, connection=p.queue_redis)) for name in queue_names(p.config.prefix)}
