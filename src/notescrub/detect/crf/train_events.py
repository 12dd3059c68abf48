"""Training progress events: who hears the iterations of a model being trained.

The CRF trainer reports a :class:`TrainingStep` after every optimiser iteration (and one
with ``done`` when the optimisation ends); a caller listens with :func:`listening`, e.g.
the ``train`` command's progress bar. Nobody listening costs nothing. Only the process
that started listening hears: CRFs trained in forked worker processes (the per-type
CRFs of the manchester recipe with ``n_jobs`` > 1) report nothing.

>>> seen = []
>>> with listening(seen.append):
...     report(TrainingStep("crf", 1, 50, 812.5))
>>> seen
[TrainingStep(model='crf', iteration=1, max_iterations=50, loss=812.5, done=False)]
>>> report(TrainingStep("crf", 2, 50, 700.0))  # nobody listening: nothing happens
>>> len(seen)
1
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["TrainingStep", "listening", "report"]


@dataclass(frozen=True)
class TrainingStep:
    """One optimiser iteration of ``model`` (its name), ``iteration`` of at most ``max_iterations``
    (the optimiser may stop earlier: converged), with the training loss when the optimiser
    reports one; ``done``: the optimisation of this model has ended."""

    model: str
    iteration: int
    max_iterations: int | None
    loss: float | None = None
    done: bool = False


Listener = Callable[[TrainingStep], None]
_LISTENER: ContextVar[tuple[int, Listener] | None] = ContextVar("notescrub_training_listener", default=None)


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Send the training steps of this process to ``listener`` while the block runs."""
    token = _LISTENER.set((os.getpid(), listener))
    try:
        yield
    finally:
        _LISTENER.reset(token)


def report(step: TrainingStep) -> None:
    """Tell the listener of this process (if any) about ``step``."""
    current = _LISTENER.get()
    if current is not None and current[0] == os.getpid():
        current[1](step)
