"""Progress reporting for long CLI work.

:func:`track` wraps an iterable in a rich progress bar. :class:`Progress` reports a
batch of notes: on a terminal a bar with notes/s and the time left; otherwise (a log
file, a scheduler's output) one plain line every ``interval`` seconds; nothing with
``-q``. Everything goes to stderr.

>>> import io
>>> out = io.StringIO()
>>> with Progress("deid", stream=out, interval=0) as p:
...     p.start(4, 0); p.advance(2); p.advance(2)
>>> lines = out.getvalue().splitlines()
>>> lines[0].startswith("notescrub deid: 2/4 notes (50%), ") and "notes/s" in lines[0], lines[-1].split(",")[0]
(True, 'notescrub deid: 4/4 notes (100%)')
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO, TypeVar

T = TypeVar("T")

__all__ = ["Progress", "TrainingProgress", "format_duration", "track"]


def track(items: Iterable[T], description: str, *, quiet: bool = False, total: int | None = None) -> Iterator[T]:
    """Yield ``items`` while showing a progress bar on stderr unless ``quiet``."""
    if quiet:
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    if total is None and hasattr(items, "__len__"):
        total = len(items)  # type: ignore[arg-type]
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    ) as progress:
        task = progress.add_task(description, total=total)
        for item in items:
            yield item
            progress.advance(task)


def format_duration(seconds: float) -> str:
    """``3725`` -> ``'1 h 02 min'``; ``75`` -> ``'1 min 15 s'``; ``8.2`` -> ``'8 s'``.

    >>> format_duration(3725), format_duration(75), format_duration(8.2)
    ('1 h 02 min', '1 min 15 s', '8 s')
    """
    s = round(seconds)
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


class _Reporter:
    """Where and how often progress is reported: stderr (or ``stream``), a bar on a terminal,
    a plain line every ``interval`` seconds otherwise, nothing with ``quiet``."""

    def __init__(self, command: str, *, quiet: bool = False, stream: TextIO | None = None,
                 interval: float = 10.0, tty: bool | None = None) -> None:
        self.command = command
        self.quiet = quiet
        self.stream = stream if stream is not None else sys.stderr
        self.interval = interval
        self.tty = self.stream.isatty() if tty is None else tty
        self._bar: Any = None
        self._task: Any = None
        self._t0 = self._last = time.monotonic()


class Progress(_Reporter):
    """Notes done, notes/s and time left for a batch command (see the module docstring).

    ``start(total, done)`` sets the total (``done``: notes finished by an interrupted run
    being resumed, not counted in the rate); ``advance(n)`` counts finished notes.
    """

    def __init__(self, command: str, *, quiet: bool = False, stream: TextIO | None = None,
                 interval: float = 10.0, tty: bool | None = None) -> None:
        super().__init__(command, quiet=quiet, stream=stream, interval=interval, tty=tty)
        self.total = 0
        self.done = self._base = 0
        self._printed = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
        elif self._printed and exc[0] is None and self.done > self._base:
            self._line()  # a run long enough to report progress also reports its end

    def start(self, total: int, done: int = 0) -> None:
        self.total, self.done, self._base = total, done, done
        self._t0 = self._last = time.monotonic()
        if self.quiet or not self.tty:
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self._bar = Bar(TextColumn(f"notescrub {self.command}"), BarColumn(), MofNCompleteColumn(),
                        TextColumn("notes"), TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
                        TextColumn("left"), TimeRemainingColumn(),
                        console=Console(file=self.stream), transient=True)
        self._bar.start()
        self._task = self._bar.add_task(self.command, total=total, completed=done, rate="")

    def rate(self) -> float:
        """Notes per second since :meth:`start` (resumed notes excluded)."""
        elapsed = time.monotonic() - self._t0
        return (self.done - self._base) / elapsed if elapsed > 0 else 0.0

    def _eta(self) -> str:
        r = self.rate()
        return format_duration((self.total - self.done) / r) if r > 0 else "unknown"

    def _line(self) -> None:
        pct = 100 * self.done / self.total if self.total else 100.0
        print(f"notescrub {self.command}: {self.done:,}/{self.total:,} notes ({pct:.0f}%), "
              f"{self.rate():.1f} notes/s, {self._eta()} left", file=self.stream, flush=True)
        self._printed = True

    def advance(self, n: int = 1) -> None:
        self.done += n
        if self.quiet:
            return
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done, rate=f"{self.rate():.1f}/s")
            return
        now = time.monotonic()
        if now - self._last >= self.interval and self.done < self.total:
            self._last = now
            self._line()


class TrainingProgress(_Reporter):
    """Iterations of the models being trained (``train``): the listener of
    :func:`notescrub.detect.crf.train_events.listening`.

    On a terminal a bar per model with iterations done / max, the loss and the elapsed
    time; otherwise one plain line every ``interval`` seconds and one when a model's
    optimisation ends; nothing with ``quiet``. Everything goes to stderr.

    >>> import io
    >>> from notescrub.detect.crf.train_events import TrainingStep
    >>> out = io.StringIO()
    >>> with TrainingProgress(stream=out, interval=0) as p:
    ...     p(TrainingStep("crf", 1, 3, 90.5)); p(TrainingStep("crf", 2, 3, 40.25)); p(TrainingStep("crf", 2, 3, 40.25, done=True))
    >>> [line.split(", ")[:2] for line in out.getvalue().splitlines()]
    [['notescrub train: crf iteration 1/3', 'loss 90.5'], ['notescrub train: crf iteration 2/3', 'loss 40.25'], ['notescrub train: crf done after 2 iterations', 'loss 40.25']]
    """

    def __init__(self, command: str = "train", *, quiet: bool = False, stream: TextIO | None = None,
                 interval: float = 10.0, tty: bool | None = None) -> None:
        super().__init__(command, quiet=quiet, stream=stream, interval=interval, tty=tty)
        self._model: str | None = None

    def __enter__(self) -> TrainingProgress:
        if not self.quiet and self.tty:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            # not transient: a finished model's bar stays, with its iterations, loss and time
            self._bar = Bar(TextColumn(f"notescrub {self.command}: {{task.description}}"), BarColumn(),
                            MofNCompleteColumn(), TextColumn("iterations"), TextColumn("{task.fields[loss]}"),
                            TimeElapsedColumn(), console=Console(file=self.stream))
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def __call__(self, step: Any) -> None:
        """Take one :class:`~notescrub.detect.crf.train_events.TrainingStep`."""
        if self.quiet:
            return
        if step.model != self._model or (step.iteration <= 1 and not step.done):  # the next model
            self._model, self._t0, self._last = step.model, time.monotonic(), time.monotonic()
            if self._bar is not None:
                self._task = self._bar.add_task(step.model, total=step.max_iterations, loss="")
        loss = "" if step.loss is None else f"loss {step.loss:g}"
        if self._bar is not None:
            total = step.iteration if step.done else step.max_iterations  # converged early: the bar ends full
            self._bar.update(self._task, completed=step.iteration, total=total, loss=loss)
            return
        now = time.monotonic()
        if not step.done and now - self._last < self.interval:
            return
        self._last = now
        what = (f"done after {step.iteration:,} iterations" if step.done
                else f"iteration {step.iteration:,}/{step.max_iterations:,}" if step.max_iterations
                else f"iteration {step.iteration:,}")
        parts = [f"notescrub {self.command}: {step.model} {what}", loss, f"{format_duration(now - self._t0)} elapsed"]
        print(", ".join(p for p in parts if p), file=self.stream, flush=True)
