"""Progress on long CLI work (replay, audit, rebuild, import), drawn by ``rich`` on a
terminal and as a few plain lines otherwise (a log, a pipe, a test)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Report = Callable[[int, int], None]


@contextmanager
def progress(what: str, unit: str) -> Iterator[Report]:
    """A ``report(done, total)`` for ``what`` (e.g. "audit", counting ``unit``): a bar
    with the rate and the time left on a terminal; else a line at each tenth and at the end."""
    if sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(
            TextColumn(f"{what}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(unit),
            TimeRemainingColumn(),
            transient=True,
        ) as bar:
            task = bar.add_task(what, total=None)

            def report(done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            yield report
        return
    shown = [-1]

    def plain(done: int, total: int) -> None:
        tenth = (10 * done) // total if total else 10
        if tenth != shown[0] and (tenth > shown[0] or done == total):
            shown[0] = tenth
            print(f"{what}: {done}/{total} {unit}", file=sys.stderr, flush=True)

    yield plain
