"""A batch run: plan the patient groups, run chunks of them on ``jobs`` processes, merge in input order.

:func:`run_batch` ties the pieces together:

1. the worker processes are started (:class:`~notescrub.scale.pool.Pool`: forked after
   the model was loaded, before any input is read);
2. a first pass over the input records each patient's last position
   (:func:`~notescrub.scale.grouping.plan`);
3. the run folder beside the output is created, or, with ``resume``, the one a killed run
   left is checked against this command's fingerprint and its finished chunks are kept;
4. a second pass forms the patient groups (:func:`~notescrub.scale.grouping.groups`) and
   packs consecutive complete groups into chunks of about ``chunk_size`` notes; the chunk
   boundaries depend on the input only, never on ``jobs``, so every chunk is the same in a
   resumed run; chunks not yet written are handed to the workers;
5. :meth:`BatchOutcome.records` then streams every note's result in input order.

Memory is bounded by the chunks in flight (``2 * jobs``), the largest patient and the
open-group buffer, not by the corpus.

>>> from notescrub.replace import Replacer
>>> from notescrub.scale.work import DeidTask
>>> from notescrub.scale.workdir import RunFolder
>>> from notescrub.types import Document, Span
>>> docs = [Document(f"n{i}", "Seen by Ruiz.", f"P{i % 2}", layers={"gold": [Span(8, 12, "DOCTOR")]})
...         for i in range(5)]
>>> task = DeidTask(Replacer("tag", layer="gold"), spans_from_input=True)
>>> out = run_batch(task, lambda report: iter(docs), RunFolder.temporary(), {}, by_patient=True, chunk_size=2)
>>> [(pos, payload[0].id) for pos, payload in out.records()]
[(0, 'n0'), (1, 'n1'), (2, 'n2'), (3, 'n3'), (4, 'n4')]
>>> out.total, out.written, out.chunks
(5, 5, 2)
>>> out.folder.remove()
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from notescrub.errors import ProcessingError
from notescrub.scale.grouping import MEMORY_CHARS, groups, plan
from notescrub.scale.pool import Pool
from notescrub.scale.workdir import RunFolder
from notescrub.types import Document

__all__ = ["BatchOutcome", "auto_chunk_size", "chunked", "run_batch"]

log = logging.getLogger(__name__)

#: the merge keeps one file open per chunk: the automatic chunk size keeps chunks below this
MAX_CHUNKS = 800
MIN_CHUNK = 64


def auto_chunk_size(total: int) -> int:
    """Notes per chunk: at least 64, and at most :data:`MAX_CHUNKS` chunks.

    >>> auto_chunk_size(1000), auto_chunk_size(1_000_000)
    (64, 1250)
    """
    return max(MIN_CHUNK, math.ceil(total / MAX_CHUNKS))


def chunked(items: Iterable[list[Any]], size: int) -> Iterator[list[list[Any]]]:
    """Pack consecutive groups into chunks of at least ``size`` notes (a large group alone).

    >>> [[len(g) for g in c] for c in chunked([[1], [2, 3], [4], [5, 6, 7], [8]], 2)]
    [[1, 2], [1, 3], [1]]
    """
    buf: list[list[Any]] = []
    n = 0
    for g in items:
        buf.append(g)
        n += len(g)
        if n >= size:
            yield buf
            buf, n = [], 0
    if buf:
        yield buf


@dataclass
class BatchOutcome:
    """Totals of a finished batch run; :meth:`records` streams the results in input order."""

    folder: RunFolder
    total: int = 0
    written: int = 0
    chunks: int = 0
    resumed: int = 0  # chunks found finished from an earlier run
    skipped: list[tuple[int, str]] = field(default_factory=list)
    report: Counter = field(default_factory=Counter)

    def records(self) -> Iterator[tuple[int, Any]]:
        return self.folder.records()


def run_batch(
    task: Any,
    read: Callable[[bool], Iterable[Document]],
    folder: RunFolder,
    parts: dict[str, Any],
    *,
    by_patient: bool,
    jobs: int = 1,
    resume: bool = False,
    chunk_size: int | None = None,
    builder: Callable[[], Any] | None = None,
    progress: Any = None,
    memory_chars: int = MEMORY_CHARS,
) -> BatchOutcome:
    """Run ``task`` over the notes of ``read`` (see the module docstring).

    ``read(report)`` opens the input stream (called twice; ``report`` is true for the
    pass whose unreadable records should be reported); ``parts`` is the fingerprint of
    the command (no secrets); ``progress`` has ``start(total, done)`` and ``advance(n)``.
    """
    with Pool(task, jobs, builder=builder) as pool:
        p = plan(read(False), by_patient=by_patient)
        size = chunk_size or auto_chunk_size(p.total)
        folder.open({**parts, "chunk_size": size, "notes": p.total}, resume=resume)
        done = folder.done()
        headers = {i: folder.header(i) for i in done}
        out = BatchOutcome(folder, total=p.total, resumed=len(done))
        if progress is not None:
            progress.start(p.total, sum(h["n"] + len(h["skipped"]) for h in headers.values()))
        if done:
            log.info("resuming: %d chunk(s) were finished by the interrupted run", len(done))

        def todo() -> Iterator[tuple[int, list[list[Any]]]]:
            stream = groups(read(True), p, by_patient=by_patient, memory_chars=memory_chars,
                            spill_dir=folder.path)
            for i, chunk in enumerate(chunked(stream, size)):
                out.chunks = i + 1
                if i not in done:
                    yield i, chunk

        on_group = progress.advance if progress is not None and jobs == 1 else None
        for i, h in pool.run(todo(), folder, on_group=on_group):
            headers[i] = h
            if progress is not None and jobs > 1:
                progress.advance(h["n"] + len(h["skipped"]))
    missing = set(range(out.chunks)) - set(headers)
    if missing or set(headers) - set(range(out.chunks)):
        raise ProcessingError("the run folder does not match the input (chunks missing or extra); delete it "
                              "and run again", path=folder.path)
    for h in headers.values():
        out.written += h["n"]
        out.skipped.extend(tuple(s) for s in h["skipped"])
        out.report.update(h["report"])
    if out.written + len(out.skipped) != p.total:
        raise ProcessingError(f"the run folder holds {out.written + len(out.skipped)} notes, the input {p.total}; "
                              "delete it and run again", path=folder.path)
    out.skipped.sort()
    return out
