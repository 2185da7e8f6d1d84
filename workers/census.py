"""Which RQ workers serve this deployment's queues, as RQ's registry has them, and
withdrawing one whose process is known to be dead.

RQ keeps a worker registered (a hash, in a set per queue) until its heartbeat lapses:
its hash expires ``worker_ttl + 60`` s after the last heartbeat, eight minutes with
RQ's defaults, and an idle worker sends one only every ``worker_ttl - 15`` s. A worker
killed with ``-9`` therefore stays registered for minutes; whoever knows it dead (the
supervisor of ``tablestream serve``, which started it) withdraws it at once."""

from __future__ import annotations

import socket

from rq import Queue, Worker
from rq.worker_registration import WORKERS_BY_QUEUE_KEY

from stores.platform import Platform
from workers.scheduling import queue_names, release_dead_schedulers


def census(platform: Platform) -> dict[str, int]:
    """``alive``: the workers registered on this deployment's queues whose heartbeat has
    not lapsed; ``busy``: those of them running a job. One round trip: each queue's set
    of workers read with the fields of each worker's hash (``SORT ... GET``)."""
    with platform.queue_redis.pipeline(transaction=False) as pipe:
        for name in queue_names(platform):
            pipe.sort(WORKERS_BY_QUEUE_KEY % name, by="nosort", get=["#", "*->last_heartbeat", "*->state"], groups=True)
        replies = pipe.execute()
    states = {key: state for reply in replies for key, beat, state in reply if beat is not None}
    return {"alive": len(states), "busy": sum(1 for state in states.values() if state == b"busy")}


def forget_dead_worker(platform: Platform, pid: int) -> tuple[int, int]:
    """Process ``pid`` of this host ran an RQ worker and is dead, with everything it
    forked: its registration on this deployment's queues is withdrawn (RQ's own death
    record), and the scheduler locks held by a dead scheduler of this host are freed
    (each only while it still holds the dead scheduler's name), so that the worker
    started in its place schedules at once rather than after the lock lapses. Returns
    how many registrations and locks."""
    here = socket.gethostname()
    dead: dict[str, Worker] = {}
    for name in queue_names(platform):
        for worker in Worker.all(connection=platform.queue_redis, queue=Queue(name, connection=platform.queue_redis)):
            if worker.hostname == here and worker.pid == pid:
                dead[worker.key] = worker
    for worker in dead.values():
        worker.register_death()
    return len(dead), release_dead_schedulers(platform)
