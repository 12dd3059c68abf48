"""Helpers for the evaluation tests: build items tersely."""

from __future__ import annotations

from notescrub.evaluate.labels import Item
from notescrub.taxonomy import canonical, category_of


def item(start: int, end: int, label: str) -> Item:
    """An Item whose label is used as is; category/phi derived when the label is canonical."""
    sub = canonical(label)
    cat = category_of(sub) if sub else "OTHER"
    return Item(start, end, label, cat, sub, label)


def at(text: str, sub: str, label: str, nth: int = 0) -> Item:
    """Item covering the ``nth`` occurrence of ``sub`` in ``text``."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(sub, pos + 1)
    return item(pos, pos + len(sub), label)
