"""Patient groups from a document stream, without holding the corpus in memory.

Patient-level models (the two-pass patient dictionary of en-default) need all notes
of a patient together, and the input is not always sorted by patient. Grouping is done
in two streaming passes over the input:

1. :func:`plan` reads the input once and keeps, per patient, only the position of its
   *last* note (``{patient key: last position}``: memory grows with the number of
   patients, never with the text). Notes without a patient id are their own group.
2. :func:`groups` reads the input again and hands out each patient group as soon as its
   last note has been read. Notes of groups still open wait in a :class:`GroupBuffer`,
   which moves them to an unnamed temporary file once they exceed ``memory_chars``, so
   an input that interleaves patients costs disk, not memory. For an input grouped by
   patient (the usual warehouse export) one group is open at a time and nothing spills.

>>> from notescrub.types import Document
>>> docs = [Document("a", "x", "P1"), Document("b", "y", "P2"), Document("c", "z", "P1"), Document("d", "w")]
>>> p = plan(docs)
>>> p.total, p.groups
(4, 3)
>>> [[(pos, d.id) for pos, d in g] for g in groups(docs, p)]
[[(1, 'b')], [(0, 'a'), (2, 'c')], [(3, 'd')]]
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from notescrub.errors import ProcessingError
from notescrub.types import Document

__all__ = ["GroupBuffer", "Plan", "group_key", "groups", "plan"]

#: notes kept in memory while their patient group is open, before spilling (characters)
MEMORY_CHARS = 64_000_000

Positioned = tuple[int, Document]


def group_key(doc: Document, position: int) -> str:
    """The grouping key: the patient id, or the note's own position when it has none.

    >>> group_key(Document("n1", "x", "P7"), 3), group_key(Document("n1", "x"), 3)
    ('P7', '\\x00#3')
    """
    return doc.patient_id if doc.patient_id is not None else f"\0#{position}"


@dataclass
class Plan:
    """What the first pass learnt: number of notes, and each patient's last position."""

    total: int = 0
    last: dict[str, int] = field(default_factory=dict)
    singles: int = 0  # notes without a patient id (each its own group; not stored in ``last``)

    @property
    def groups(self) -> int:
        return len(self.last) + self.singles


def plan(docs: Iterable[Document], *, by_patient: bool = True) -> Plan:
    """First pass: count the notes and record every patient's last position (no text is kept).

    With ``by_patient=False`` every note is its own group and only the count is taken.
    """
    p = Plan()
    for pos, doc in enumerate(docs):
        if by_patient and doc.patient_id is not None:
            p.last[doc.patient_id] = pos
        else:
            p.singles += 1
        p.total = pos + 1
    return p


class GroupBuffer:
    """Notes of open groups: in memory up to ``memory_chars``, then in an unnamed temporary file.

    The spill file is created in ``folder`` (default: the system's temporary folder), readable
    by the owner only, and unlinked at once, so it disappears with the process even after
    ``kill -9``.

    >>> b = GroupBuffer(memory_chars=3)
    >>> b.add("P1", 0, Document("a", "xyz")); b.add("P1", 2, Document("c", "uv"))
    >>> b.spilled, [(p, d.text) for p, d in b.pop("P1")]
    (2, [(0, 'xyz'), (2, 'uv')])
    >>> b.close()
    """

    def __init__(self, memory_chars: int = MEMORY_CHARS, folder: str | Path | None = None) -> None:
        self.memory_chars = memory_chars
        self.folder = folder
        self._mem: dict[str, list[Positioned]] = {}
        self._disk: dict[str, list[tuple[int, int]]] = {}  # key -> [(offset, length)]
        self._chars = 0
        self._file: IO[bytes] | None = None
        self.spilled = 0  # notes written to the spill file so far

    def __len__(self) -> int:
        return len(self._mem.keys() | self._disk.keys())

    def add(self, key: str, pos: int, doc: Document) -> None:
        self._mem.setdefault(key, []).append((pos, doc))
        self._chars += len(doc.text)
        if self._chars > self.memory_chars:
            self._spill()

    def _spill(self) -> None:
        if self._file is None:
            fd, name = tempfile.mkstemp(prefix=".notescrub-spill.", dir=self.folder)
            os.unlink(name)
            self._file = os.fdopen(fd, "w+b")
        fh = self._file
        fh.seek(0, os.SEEK_END)
        for key, items in self._mem.items():
            for item in items:
                start = fh.tell()
                pickle.dump(item, fh, protocol=pickle.HIGHEST_PROTOCOL)
                self._disk.setdefault(key, []).append((start, fh.tell() - start))
                self.spilled += 1
        self._mem.clear()
        self._chars = 0

    def pop(self, key: str) -> list[Positioned]:
        """All notes of group ``key`` (removed from the buffer), in input order."""
        items = self._mem.pop(key, [])
        self._chars -= sum(len(d.text) for _, d in items)
        for off, n in self._disk.pop(key, ()):
            assert self._file is not None
            self._file.seek(off)
            items.append(pickle.loads(self._file.read(n)))
        items.sort(key=lambda it: it[0])
        return items

    def keys(self) -> list[str]:
        return list(self._mem.keys() | self._disk.keys())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def groups(docs: Iterable[Document], p: Plan, *, by_patient: bool = True, memory_chars: int = MEMORY_CHARS,
           spill_dir: str | Path | None = None) -> Iterator[list[Positioned]]:
    """Second pass: yield each group (``[(position, note), ...]``) once its last note was read.

    Groups come out in the order of their last note, which depends on the input only.
    A stream that differs from the one :func:`plan` saw is refused (the input changed).
    """
    buf = GroupBuffer(memory_chars, spill_dir)
    n = 0
    try:
        for pos, doc in enumerate(docs):
            n = pos + 1
            if not by_patient or doc.patient_id is None:
                yield [(pos, doc)]
                continue
            last = p.last.get(doc.patient_id)
            if last is None or last < pos:
                raise ProcessingError("the input changed while it was being read (a patient appeared that the "
                                      "first pass did not see); rerun on a stable copy of the input")
            if last == pos:
                yield buf.pop(doc.patient_id) + [(pos, doc)]
            else:
                buf.add(doc.patient_id, pos, doc)
        if n != p.total or len(buf):
            raise ProcessingError(f"the input changed while it was being read ({n} notes now, {p.total} in the "
                                  "first pass); rerun on a stable copy of the input")
    finally:
        buf.close()
