"""Progress reporting for long CLI work (rich progress bar on stderr; silent with ``-q``)."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterable, Iterator, TypeVar

T = TypeVar("T")


def track(items: Iterable[T], description: str, *, quiet: bool = False, total: int | None = None) -> Iterator[T]:
    """Yield ``items`` while showing a progress bar on stderr unless ``quiet``."""
    if quiet:
        yield from items
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

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
