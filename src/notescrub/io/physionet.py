"""PhysioNet deid gold standard (nursing notes), read only.

``id.text`` holds the notes, each between a ``START_OF_RECORD=P||||N||||`` line and a
``||||END_OF_RECORD`` line; offsets count from the first character after the start
line. Annotations come from ``id-phi.phrase`` next to it (``P N START END TYPE
PHRASE`` per line, end exclusive) or, failing that, from the category-blind
``id.deid`` (a ``Patient P<TAB>Note N`` line, then ``start start end`` lines;
those spans are labelled ``PHI``). Document ids are ``P-N``; ``patient_id`` is ``P``.
The notes are under a data-use agreement: users bring them, notescrub ships none.

>>> notes = "START_OF_RECORD=7||||1||||\\nPt seen by Dr. Ruiz.\\n||||END_OF_RECORD\\n"
>>> phrases = "7 1 15 19 HCPName Ruiz\\n"
>>> [(d.id, d.patient_id, [(s.label, d.span_text(s)) for s in d.layer("gold")])
...  for d in parse_records(notes.splitlines(True), phrase_index(phrases.splitlines(True)))]
[('7-1', '7', [('HCPName', 'Ruiz')])]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import InputFormatError, NotescrubError
from notescrub.io.checks import is_offset, make_span
from notescrub.io.decode import iter_lines
from notescrub.types import Document

__all__ = ["deid_index", "parse_records", "phrase_index", "read"]

_START_RE = re.compile(r"^START_OF_RECORD=(\d+)\|\|\|\|(\d+)\|\|\|\|\s*$")
_END = "||||END_OF_RECORD"
_DEID_HEAD_RE = re.compile(r"^Patient\s+([0-9]+)\s+Note\s+([0-9]+)\s*$")

# (patient, note) -> [(start, end, label, phrase or None, line)]
Index = dict[tuple[str, str], list[tuple[int, int, str, str | None, int]]]


def phrase_index(lines: Iterable[str], *, path: str | Path | None = None) -> Index:
    """Parse ``id-phi.phrase`` lines."""
    idx: Index = {}
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split(None, 5)
        if len(parts) < 5 or not all(is_offset(p) for p in parts[:4]):
            raise InputFormatError("expected 'PATIENT NOTE START END TYPE PHRASE'", path=path, line=n)
        phrase = parts[5] if len(parts) > 5 else None
        idx.setdefault((parts[0], parts[1]), []).append((int(parts[2]), int(parts[3]), parts[4], phrase, n))
    return idx


def deid_index(lines: Iterable[str], *, path: str | Path | None = None) -> Index:
    """Parse ``id.deid`` lines (category-blind: every span is labelled ``PHI``)."""
    idx: Index = {}
    key: tuple[str, str] | None = None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        m = _DEID_HEAD_RE.match(line)
        if m:
            key = (m.group(1), m.group(2))
            idx.setdefault(key, [])
            continue
        parts = line.split()
        if key is None or len(parts) != 3 or not all(is_offset(p, signed=True) for p in parts):
            raise InputFormatError("expected 'Patient P Note N' or 'start start end'", path=path, line=n)
        idx[key].append((int(parts[0]), int(parts[2]), "PHI", None, n))
    return idx


def parse_records(lines: Iterable[str], index: Index, *, path: str | Path | None = None,
                  ann_path: str | Path | None = None) -> Iterator[Document]:
    """Documents of ``id.text`` lines, one at a time, with spans from ``index``."""
    where = path or "<string>"
    key: tuple[str, str] | None = None
    buf: list[str] = []
    start_line = 0
    for n, line in enumerate(lines, 1):
        m = _START_RE.match(line)
        if m:
            if key is not None:
                raise InputFormatError("START_OF_RECORD before the previous record ended", path=where, line=n)
            key, buf, start_line = (m.group(1), m.group(2)), [], n
        elif line.startswith(_END):
            if key is None:
                raise InputFormatError("END_OF_RECORD without START_OF_RECORD", path=where, line=n)
            yield _document(key, "".join(buf), index.get(key, []), ann_path or where)
            key = None
        elif key is not None:
            buf.append(line)
        elif line.strip():
            raise InputFormatError("text outside a record", path=where, line=n)
    if key is not None:
        raise InputFormatError("record is never closed with ||||END_OF_RECORD", path=where, line=start_line)


def _document(key: tuple[str, str], text: str, items: list[tuple[int, int, str, str | None, int]],
              where: str | Path) -> Document:
    doc = Document(f"{key[0]}-{key[1]}", text, key[0], {"physionet_note": key[1]})
    doc.add_layer("gold", [make_span(text, a, b, label, quoted=phrase, path=where, line=ln) for a, b, label, phrase, ln in items])
    return doc


def _numbered(path: Path, encoding: str, on_error: Callable[[NotescrubError], None] | None) -> Iterator[str]:
    for _, line in iter_lines(path, encoding, on_error=on_error):
        yield line


def read(path: Path, *, encoding: str = "utf-8", on_error: Callable[[NotescrubError], None] | None = None,
         **options: Any) -> Iterator[Document]:
    """Read ``NAME.text`` with ``NAME-phi.phrase`` (preferred) or ``NAME.deid`` from the same folder."""
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    phrase, deid = path.with_name(f"{stem}-phi.phrase"), path.with_name(f"{stem}.deid")
    if phrase.is_file():
        index, ann = phrase_index(_numbered(phrase, encoding, None), path=phrase), phrase
    elif deid.is_file():
        index, ann = deid_index(_numbered(deid, encoding, None), path=deid), deid
    else:
        index, ann = {}, path
    seen = False
    for doc in parse_records(_numbered(path, encoding, None), index, path=path, ann_path=ann):
        seen = True
        yield doc
    if not seen:
        raise InputFormatError("no START_OF_RECORD ... ||||END_OF_RECORD record found", path=path)
