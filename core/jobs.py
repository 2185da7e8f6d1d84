"""What the core asks of a job runner, without knowing which one runs: bot turns
scheduled after an append (``Scheduler``, in ``core.handler``) and long work (replays,
audits, rebuilds) started, followed and collected (``LongJobs``). ``workers`` provides
both on RQ; the entry points wire them in (``workers.wiring``)."""

from __future__ import annotations

from typing import Any, Protocol

from core.errors import Code, CommandError


class QueueUnavailable(Exception):
    """The job queue's Redis could not be reached: what was to be enqueued was not (the
    reconcile enqueues it when the queue is back, ``workers.scheduling.reconcile``)."""


QUEUE_AWAY = "The job queue is unreachable; try again shortly."


class LongJobs(Protocol):
    def enqueue(self, kind: str, *args: Any, owner: str | None = None) -> str:
        """Start a job of ``kind``; ``owner`` is the SHA-256 of the token that may read it
        (None: anyone). Returns the job's id."""
        ...

    def status(self, job_id: str) -> dict[str, Any] | None: ...

    def owner(self, job_id: str) -> str | None:
        """The token hash that may read the job ("" when anyone may), None for no such job."""
        ...

    def result(self, job_id: str) -> tuple[str, str] | None:
        """The job's media type and body, None until it has one."""
        ...

    def queue_depths(self) -> dict[str, int]: ...


class NoJobs:
    """A platform with no job runner wired: long work is refused, clearly."""

    def _refuse(self) -> CommandError:
        return CommandError(Code.UNAVAILABLE, "No job runner is configured for this service; long work cannot start.")

    def enqueue(self, kind: str, *args: Any, owner: str | None = None) -> str:
        raise self._refuse()

    def status(self, job_id: str) -> dict[str, Any] | None:
        return None

    def owner(self, job_id: str) -> str | None:
        return None

    def result(self, job_id: str) -> tuple[str, str] | None:
        return None

    def queue_depths(self) -> dict[str, int]:
        return {}


def queue_names(prefix: str) -> tuple[str, str]:
    """The bot-turn queue and the long-work queue of a deployment (named by its prefix)."""
    return f"{prefix}-bots", f"{prefix}-work"
