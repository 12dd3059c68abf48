"""Run chunks of patient groups in this process (``--jobs 1``) or in a pool of worker processes.

Each worker holds one task (the model, the replacer and the options: see
:mod:`notescrub.scale.work`), built once: on Linux the pool forks after the model was
loaded, so workers share its memory and nothing is pickled; where ``fork`` is not
available an initializer builds the task from a small picklable recipe. Per chunk, a
worker receives the notes (pickled once, as any input must be), runs the task on each
group and writes the chunk file itself; only a small summary comes back. At most
``2 * jobs`` chunks are in flight, so memory is bounded by the chunk size, not the corpus.

Workers log nothing themselves: their records are captured and re-emitted by the parent
(so the per-run warning summary counts them). A worker whose parent disappears (``kill -9``)
exits within a second.

>>> from notescrub.replace import Replacer
>>> from notescrub.scale.work import DeidTask
>>> from notescrub.scale.workdir import RunFolder
>>> from notescrub.types import Document, Span
>>> task = DeidTask(Replacer("tag", layer="gold"), spans_from_input=True)
>>> doc = Document("a", "Seen by Ruiz.", layers={"gold": [Span(8, 12, "DOCTOR")]})
>>> rf = RunFolder.temporary(); rf.open({}, resume=False)
>>> with Pool(task, jobs=1) as pool:
...     got = list(pool.run([(0, [[(0, doc)]])], rf))
>>> [(i, h["n"], h["skipped"]) for i, h in got], [p[0].text for _, p in rf.records()]
([(0, 1, [])], ['Seen by [**DOCTOR**].'])
>>> rf.remove()
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from notescrub.errors import NotescrubError, ProcessingError
from notescrub.scale.work import GroupResult
from notescrub.scale.workdir import RunFolder

__all__ = ["DocumentFailure", "Pool", "WorkerDied", "cpu_count", "parse_jobs"]

log = logging.getLogger(__name__)

Chunk = tuple[int, list[list[tuple[int, Any]]]]
Summary = tuple[int, dict[str, Any]]

class DocumentFailure(ProcessingError):
    """A document failed (without ``skip_bad``): the run stops and, as before, writes nothing."""


class WorkerDied(ProcessingError):
    """A worker process was killed (out of memory, ``kill``): the finished chunks are kept for ``--resume``."""


_TASK: Any = None  # the task of this process (set before forking, or by the initializer)
_CAPTURED: list[dict[str, Any]] = []


def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def parse_jobs(value: str | int | None) -> int:
    """``--jobs`` value -> a number of processes (``auto``: every CPU this process may use).

    >>> parse_jobs("3"), parse_jobs(None), parse_jobs("auto") >= 1
    (3, 1, True)
    """
    from notescrub.errors import ConfigError

    if value is None:
        return 1
    if str(value).strip().lower() == "auto":
        return cpu_count()
    try:
        n = int(value)
    except ValueError:
        raise ConfigError(f"--jobs takes a number of processes or 'auto', got {value!r}") from None
    if n < 1:
        raise ConfigError("--jobs must be at least 1")
    return n


class _Capture(logging.Handler):
    """Keep a worker's log records (as plain dicts) for the parent to re-emit."""

    def emit(self, record: logging.LogRecord) -> None:
        d = dict(record.__dict__)
        d["msg"], d["args"], d["exc_info"], d["exc_text"] = record.getMessage(), None, None, None
        _CAPTURED.append(d)


def _watch_parent(ppid: int) -> None:
    while True:
        if os.getppid() != ppid:
            os._exit(3)
        time.sleep(0.5)


def _init_worker(builder: Callable[[], Any] | None, level: int, ppid: int) -> None:
    global _TASK
    root = logging.getLogger()
    root.handlers[:] = [_Capture()]
    root.setLevel(level)
    threading.Thread(target=_watch_parent, args=(ppid,), daemon=True).start()
    if builder is not None:
        _TASK = builder()


def _ping() -> int:
    return os.getpid()


def _drain() -> list[dict[str, Any]]:
    out = list(_CAPTURED)
    _CAPTURED.clear()
    return out


def _run_chunk(index: int, groups: list[list[tuple[int, Any]]], folder: str,
               on_group: Callable[[int], None] | None = None) -> tuple[int, dict[str, Any] | str, list]:
    """Run the task on every group of a chunk and write the chunk file; ``(index, header or error, logs)``."""
    res = GroupResult()
    try:
        for g in groups:
            res.merge(_TASK(g))
            if on_group is not None:
                on_group(len(g))
    except NotescrubError as exc:  # fail closed: no chunk file; the message names positions only
        return index, str(exc), _drain()
    header: dict[str, Any] = {"skipped": res.skipped, "report": dict(res.report)}
    RunFolder(Path(folder)).write_chunk(index, res.records, header)
    header["n"] = len(res.records)
    return index, header, _drain()


def _replay(logs: list[dict[str, Any]]) -> None:
    for d in logs:
        record = logging.makeLogRecord(d)
        logging.getLogger(record.name).handle(record)


class Pool:
    """Run chunks with ``jobs`` processes (``1``: in this process). Use as a context manager.

    ``builder`` (a picklable callable returning the task) is needed only where workers cannot
    be forked; ``on_group(n)`` is called after each group in this process, for progress.
    """

    def __init__(self, task: Any, jobs: int = 1, *, builder: Callable[[], Any] | None = None) -> None:
        self.task = task
        self.jobs = max(1, int(jobs))
        self.builder = builder
        self._ex: ProcessPoolExecutor | None = None

    def __enter__(self) -> Pool:
        global _TASK
        _TASK = self.task
        if self.jobs > 1:
            fork = "fork" in multiprocessing.get_all_start_methods() and sys.platform.startswith("linux")
            if not fork and self.builder is None:
                raise ProcessingError("--jobs > 1 needs a task recipe on this platform (no fork)")
            ctx = multiprocessing.get_context("fork" if fork else "spawn")
            self._ex = ProcessPoolExecutor(
                self.jobs, mp_context=ctx, initializer=_init_worker,
                initargs=(None if fork else self.builder, logging.getLogger().getEffectiveLevel(), os.getpid()))
            # start every worker now, before the input is read (threads of readers are not forked)
            for f in [self._ex.submit(_ping) for _ in range(self.jobs)]:
                f.result()
        return self

    def __exit__(self, *exc: object) -> None:
        global _TASK
        if self._ex is not None:
            procs = list(getattr(self._ex, "_processes", {}).values())
            self._ex.shutdown(wait=exc[0] is None, cancel_futures=True)
            if exc[0] is not None:
                for p in procs:
                    if p.is_alive():
                        p.terminate()
            self._ex = None
        _TASK = None

    def run(self, chunks: Iterable[Chunk], folder: RunFolder,
            on_group: Callable[[int], None] | None = None) -> Iterator[Summary]:
        """Run each chunk; yield ``(index, header)`` as chunks finish (header: ``n``, ``skipped``, ``report``).

        A document failure (without ``skip_bad``) raises :class:`ProcessingError`; chunks
        finished before it stay in ``folder``.
        """
        if self._ex is None:
            for index, groups in chunks:
                yield self._result(_run_chunk(index, groups, str(folder.path), on_group))
            return
        pending: set[Future] = set()
        try:
            for index, groups in chunks:
                while len(pending) >= 2 * self.jobs:
                    done, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in done:
                        yield self._result(f.result())
                pending.add(self._ex.submit(_run_chunk, index, groups, str(folder.path)))
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in done:
                    yield self._result(f.result())
        except BrokenProcessPool:
            raise WorkerDied("a worker process died (killed, or out of memory?); the chunks finished so far "
                                  "are kept: rerun the same command with --resume") from None

    @staticmethod
    def _result(out: tuple[int, dict[str, Any] | str, list]) -> Summary:
        index, header, logs = out
        _replay(logs)
        if isinstance(header, str):
            raise DocumentFailure(header)
        return index, header
