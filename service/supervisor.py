"""Keeps the RQ worker and the projector of ``tablestream serve`` running.

``serve`` forks one supervising process before gunicorn starts (``Supervisor.start``). It
starts each program in a session of its own and, when one exits without being asked to
(a crash, ``kill -9``, an exit of its own), stops what the dead process left in its
session (RQ's scheduler, a work horse), runs the program's ``after_death`` (the worker's
withdraws its registration and frees the scheduler locks it held), and starts it again
after a backoff: ``FIRST_DELAY``, doubling after each death in a row up to
``LONGEST_DELAY``, back to ``FIRST_DELAY`` once a run has lasted ``SETTLED_SECONDS``.
Every death and restart is logged with its exit status or signal. Asked to stop, it
stops the programs as ``serve`` always has: SIGTERM to each, then up to ``STOP_SECONDS``
for each to finish before it is killed.

Why a process of its own and not a thread of gunicorn's master: the master reaps every
child that exits (``waitpid(-1)``), so a thread there would lose the exit status it must
log, and gunicorn's workers are forks of the master, which must not supervise anything.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass

from service.embedded import die_with_parent

FIRST_DELAY = 0.5
LONGEST_DELAY = 30.0
SETTLED_SECONDS = 60.0
STOP_SECONDS = 10.0
# How often a death is looked for: a restart waits at least FIRST_DELAY anyway.
POLL_SECONDS = 0.1
# How long the leftovers of a dead program's session get to die once killed.
LEFTOVER_SECONDS = 2.0


def say(line: str) -> None:
    print(f"tablestream: {line}", flush=True)


@dataclass
class Program:
    """A command to keep running. ``after_death`` is given the pid of a process of it that
    died (its whole session dead too) and returns what it did, to be logged, or None."""

    name: str
    argv: list[str]
    env: dict[str, str]
    after_death: Callable[[int], str | None] | None = None


def next_delay(previous: float | None, ran_for: float) -> float:
    """The wait before starting again a program whose process died after ``ran_for``
    seconds, ``previous`` being the wait before that process (None: there was none)."""
    if previous is None or ran_for >= SETTLED_SECONDS:
        return FIRST_DELAY
    return min(previous * 2, LONGEST_DELAY)


def how_it_ended(returncode: int) -> str:
    if returncode >= 0:
        return f"exited with status {returncode}"
    try:
        name = signal.Signals(-returncode).name
    except ValueError:
        name = f"signal {-returncode}"
    return f"was killed by {name}"


@dataclass
class Slot:
    """One program in the supervising process: its running process, or when it starts again."""

    program: Program
    process: subprocess.Popen[bytes] | None = None
    started: float = 0.0
    delay: float | None = None
    restart_at: float | None = None
    restarts: int = 0


class Supervision:
    """The supervising loop; ``run`` returns once ``stopping()`` says so and every program
    is stopped."""

    def __init__(self, programs: list[Program], log: Callable[[str], None] = say) -> None:
        self.slots = [Slot(program) for program in programs]
        self.log = log

    def run(self, stopping: Callable[[], bool]) -> None:
        for slot in self.slots:
            self._start(slot)
        try:
            while not stopping():
                now = time.monotonic()
                for slot in self.slots:
                    if slot.process is not None and exited(slot.process):
                        self._buried(slot)
                    elif slot.process is None and slot.restart_at is not None and now >= slot.restart_at:
                        self._start(slot)
                        slot.restarts += 1
                        assert slot.process is not None
                        self.log(f"{slot.program.name} started again (pid {slot.process.pid}, restart {slot.restarts})")
                time.sleep(POLL_SECONDS)
        finally:
            self.stop()

    def stop(self) -> None:
        """SIGTERM to every program, then each one waited for in turn, killed if it takes
        longer than ``STOP_SECONDS``."""
        running = [slot.process for slot in self.slots if slot.process is not None]
        for process in running:
            if not exited(process):
                process.send_signal(signal.SIGTERM)
        for process in running:
            deadline = time.monotonic() + STOP_SECONDS
            while not exited(process) and time.monotonic() < deadline:
                time.sleep(0.05)
            bury(process)
        for slot in self.slots:
            slot.process, slot.restart_at = None, None

    def _start(self, slot: Slot) -> None:
        slot.process = subprocess.Popen(
            slot.program.argv,
            env=slot.program.env,
            preexec_fn=die_with_parent,
            start_new_session=True,  # stopped by us, in order, not by the terminal's Ctrl-C
        )
        slot.started = time.monotonic()
        slot.restart_at = None

    def _buried(self, slot: Slot) -> None:
        assert slot.process is not None
        pid = slot.process.pid
        ran_for = time.monotonic() - slot.started
        returncode = bury(slot.process)
        slot.process = None
        slot.delay = next_delay(slot.delay, ran_for)
        slot.restart_at = time.monotonic() + slot.delay
        self.log(
            f"{slot.program.name} (pid {pid}) {how_it_ended(returncode)} after {ran_for:.1f} s; "
            f"starting it again in {slot.delay:g} s"
        )
        if slot.program.after_death is not None:
            try:
                done = slot.program.after_death(pid)
            except Exception as error:  # the restart matters more than the clean-up
                self.log(f"after {slot.program.name} (pid {pid}) died, its clean-up failed: {error!r}")
            else:
                if done:
                    self.log(f"after {slot.program.name} (pid {pid}) died: {done}")


def exited(process: subprocess.Popen[bytes]) -> bool:
    """Whether ``process`` has exited, leaving it unreaped: its pid, which is also its
    session's and process group's id, is not given to another process while it is a
    zombie, so the group can still be killed by that id without hitting a stranger."""
    if process.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def bury(process: subprocess.Popen[bytes]) -> int:
    """Kill what is left of the session of ``process`` (it has exited, or is to be killed
    with it), reap it, and wait a little for the rest of its session to be gone; its exit
    status (``Popen.returncode``: negative for a signal)."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    returncode = process.wait()
    deadline = time.monotonic() + LEFTOVER_SECONDS
    while group_runs(process.pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    return returncode


def group_runs(pgid: int) -> bool:
    """Whether a process of the process group ``pgid`` still runs. A killed one that is a
    zombie does not: whoever inherited it (init) reaps it in its own time."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    try:
        entries = os.listdir("/proc")
    except OSError:  # no /proc: zombies count as running, and the wait is bounded
        return True
    for entry in entries:
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    state, _, group = stat.read().rsplit(")", 1)[1].split()[:3]
            except OSError:
                continue
            if int(group) == pgid and state != "Z":
                return True
    return False


class Supervisor:
    """``serve``'s handle on the supervising process."""

    def __init__(self, pid: int | None) -> None:
        self.pid = pid

    @classmethod
    def start(cls, programs: list[Program]) -> Supervisor:
        """Fork the supervising process, which starts ``programs``. Call it before any
        thread starts: the fork carries the calling thread alone."""
        parent = os.getpid()
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid:
            return cls(pid)
        code = 1
        try:
            os.setsid()  # Ctrl-C in the terminal reaches serve, which stops this in order
            die_with_parent()
            if os.getppid() == parent:  # else serve died before the line above took effect
                stopping: list[bool] = []
                for asked in (signal.SIGTERM, signal.SIGINT):
                    signal.signal(asked, lambda *_: stopping.append(True))
                Supervision(programs).run(lambda: bool(stopping))
            code = 0
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)  # never back into serve's code, nor its finalizers

    def forget(self) -> None:
        """In a fork of serve (a gunicorn worker): the supervising process is not its own."""
        self.pid = None

    def stop(self, timeout: float = 2 * STOP_SECONDS + 5) -> None:
        """Ask the supervising process to stop its programs and wait for it to be done;
        killed when it takes longer than ``timeout`` (its programs then get SIGTERM as
        their parent dies)."""
        if self.pid is None:
            return
        pid, self.pid = self.pid, None
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    return
            except ChildProcessError:  # reaped already (gunicorn's master reaps any child)
                return
            time.sleep(0.05)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
