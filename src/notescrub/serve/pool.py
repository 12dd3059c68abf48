"""Worker processes behind a bounded admission counter and a per-request time limit.

At most ``workers + queue`` requests are admitted at once; one more is refused at once
with :class:`Overloaded` (the service answers 503) instead of waiting. A request that
exceeds ``timeout`` raises :class:`TimedOut` (504); if it has not started yet it is
cancelled, otherwise its slot stays taken until the worker finishes, so the admission
count always matches the work really in progress.

>>> import asyncio
>>> async def demo():
...     pool = WorkerPool(1, 0, 5.0, initializer=None, initargs=())
...     await pool.start(check=pow, args=(2, 3))
...     try:
...         return await pool.run(pow, 2, 10), pool.stats()["completed"]
...     finally:
...         pool.close()
>>> asyncio.run(demo())
(1024, 1)
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["Overloaded", "PoolBroken", "TimedOut", "WorkerPool"]

log = logging.getLogger(__name__)


class Overloaded(Exception):
    """Every worker is busy and the queue is full."""


class TimedOut(Exception):
    """The request ran past the time limit."""


class PoolBroken(Exception):
    """A worker process died; the pool is being rebuilt."""


class WorkerPool:
    """A process pool whose initializer loads the model once per worker."""

    def __init__(self, workers: int, queue: int, timeout: float, *, initializer: Callable[..., None] | None,
                 initargs: tuple[Any, ...]) -> None:
        self.workers = workers
        self.capacity = workers + queue
        self.timeout = timeout
        self._initializer = initializer
        self._initargs = initargs
        self._executor = self._new_executor()
        self.in_flight = 0
        self.ready = False
        self.counts: Counter[str] = Counter()

    def _new_executor(self) -> ProcessPoolExecutor:
        # spawn: never fork a process that runs an event loop and threads
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=self._initializer, initargs=self._initargs)

    async def start(self, check: Callable[..., Any], args: tuple[Any, ...] = ()) -> None:
        """Start every worker (each loads the model) and run ``check`` once on each; then ready."""
        loop = asyncio.get_running_loop()
        await asyncio.gather(*(loop.run_in_executor(self._executor, check, *args) for _ in range(self.workers)))
        self.ready = True

    def full(self) -> bool:
        """True when a new request would be refused."""
        return self.in_flight >= self.capacity

    def reject(self) -> None:
        """Count a request refused before it reached :meth:`run` (the service's early 503)."""
        self.counts["rejected"] += 1

    def _release(self, _fut: Future) -> None:
        self.in_flight -= 1

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(*args)`` in a worker; :class:`Overloaded`, :class:`TimedOut` or :class:`PoolBroken`."""
        if self.full():
            self.reject()
            raise Overloaded
        loop = asyncio.get_running_loop()
        try:
            fut = self._executor.submit(fn, *args)
        except BrokenProcessPool:
            self._rebuild()
            raise PoolBroken from None
        self.in_flight += 1
        self.counts["admitted"] += 1
        fut.add_done_callback(lambda f: loop.call_soon_threadsafe(self._release, f))
        try:
            result = await asyncio.wait_for(asyncio.wrap_future(fut), self.timeout)
        except TimeoutError:
            self.counts["timed_out"] += 1
            raise TimedOut from None
        except BrokenProcessPool:
            self.counts["broken"] += 1
            self._rebuild()
            raise PoolBroken from None
        self.counts["completed"] += 1
        return result

    def _rebuild(self) -> None:
        log.error("a worker process died; starting a new pool")
        old = self._executor
        self._executor = self._new_executor()
        old.shutdown(wait=False, cancel_futures=True)

    def stats(self) -> dict[str, int]:
        """Admission counts: admitted = completed + timed_out + broken + in progress; rejected apart."""
        return {"workers": self.workers, "capacity": self.capacity, "in_flight": self.in_flight,
                **{k: self.counts.get(k, 0) for k in ("admitted", "completed", "rejected", "timed_out", "broken")}}

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
