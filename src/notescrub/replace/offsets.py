"""Old <-> new character offsets after replacing spans of a text.

An :class:`OffsetMap` records each replaced region ``[old_start, old_end)`` and the
region ``[new_start, new_end)`` its replacement occupies in the new text. Positions
outside replaced regions move by the accumulated length difference, so untouched
text maps back exactly; region boundaries map onto region boundaries.

>>> m = OffsetMap([Edit(4, 8, 4, 9)])       # "Seen Ruiz today" -> "Seen Baker today"
>>> m.to_new(2), m.to_new(4), m.to_new(8), m.to_new(10)
(2, 4, 9, 11)
>>> m.to_old(11), m.to_old(9)
(10, 8)
>>> m.map_span(Span(4, 8, "DOCTOR"))
Span(start=4, end=9, label='DOCTOR', score=1.0, source='', fragments=(), meta={})
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from notescrub.errors import OffsetError
from notescrub.types import Span

__all__ = ["Edit", "OffsetMap"]


@dataclass(frozen=True, slots=True)
class Edit:
    """One replaced region: ``[old_start, old_end)`` became ``[new_start, new_end)``."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int

    @property
    def delta(self) -> int:
        """Length change caused by this edit."""
        return (self.new_end - self.new_start) - (self.old_end - self.old_start)


class OffsetMap:
    """Translate positions between the original and the replaced text.

    ``edits`` must be sorted and non-overlapping (the :class:`~notescrub.replace.engine.Replacer`
    builds them so). A position strictly inside a replaced region has no exact image:
    :meth:`to_new` maps it to the region's new start (``side="start"``) or end.
    """

    __slots__ = ("_new_starts", "_old_starts", "edits")

    def __init__(self, edits: Iterable[Edit] = ()) -> None:
        self.edits: tuple[Edit, ...] = tuple(edits)
        prev_old = prev_new = 0
        for e in self.edits:
            if e.old_start < prev_old or e.new_start < prev_new or e.old_end < e.old_start or e.new_end < e.new_start:
                raise OffsetError("offset map edits must be sorted and non-overlapping")
            if e.new_start - e.old_start != prev_new - prev_old:
                raise OffsetError("offset map edit does not line up with the text before it")
            prev_old, prev_new = e.old_end, e.new_end
        self._old_starts = [e.old_start for e in self.edits]
        self._new_starts = [e.new_start for e in self.edits]

    def __len__(self) -> int:
        return len(self.edits)

    def __repr__(self) -> str:
        return f"OffsetMap({len(self.edits)} edits)"

    @staticmethod
    def _locate(starts: Sequence[int], edits: Sequence[Edit], pos: int) -> Edit | None:
        i = bisect_right(starts, pos) - 1
        return edits[i] if i >= 0 else None

    def to_new(self, pos: int, side: str = "start") -> int:
        """Position in the new text of old position ``pos``."""
        e = self._locate(self._old_starts, self.edits, pos)
        if e is None:
            return pos
        if pos >= e.old_end:
            return pos + (e.new_end - e.old_end)
        if pos == e.old_start:
            return e.new_start
        return e.new_start if side == "start" else e.new_end

    def to_old(self, pos: int, side: str = "start") -> int:
        """Position in the original text of new position ``pos``."""
        e = self._locate(self._new_starts, self.edits, pos)
        if e is None:
            return pos
        if pos >= e.new_end:
            return pos + (e.old_end - e.new_end)
        if pos == e.new_start:
            return e.old_start
        return e.old_start if side == "start" else e.old_end

    def map_span(self, span: Span) -> Span:
        """The span's extent (and fragments) in the new text."""
        frags = tuple((self.to_new(a), self.to_new(b, "end")) for a, b in span.fragments)
        return Span(self.to_new(span.start), self.to_new(span.end, "end"), span.label, span.score, span.source,
                    frags, span.meta)

    def unmap_span(self, span: Span) -> Span:
        """The span's extent (and fragments) in the original text."""
        frags = tuple((self.to_old(a), self.to_old(b, "end")) for a, b in span.fragments)
        return span.with_(start=self.to_old(span.start), end=self.to_old(span.end, "end"), fragments=frags)

    def changed(self, old_start: int, old_end: int) -> bool:
        """True when ``[old_start, old_end)`` overlaps a replaced region."""
        return any(e.old_start < old_end and old_start < e.old_end for e in self.edits)

    def to_json(self) -> list[list[int]]:
        """``[[old_start, old_end, new_start, new_end], ...]``."""
        return [[e.old_start, e.old_end, e.new_start, e.new_end] for e in self.edits]

    @classmethod
    def from_json(cls, rows: Iterable[Sequence[int]]) -> OffsetMap:
        return cls(Edit(*map(int, r)) for r in rows)
