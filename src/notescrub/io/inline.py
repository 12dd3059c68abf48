"""Notes with inline PHI tags: ``Seen by Dr. <PHI TYPE="DOCTOR">Ruiz</PHI>.``

The file is the note exactly as exported with each PHI mention wrapped in a tag;
nothing else is escaped (a literal ``<`` or ``&`` is note text). Tags never nest.
Files are named ``PNNN-K.txt`` (patient ``PNNN``, note ``K``) in the en-dev corpus.
The tag syntax is the one of i2b2 2006 (:mod:`notescrub.io.i2b2_2006`) without the
XML wrapper and escaping.

>>> doc = parse('MRN:<PHI TYPE="MEDICALRECORD">SA-0091</PHI> x<PHI TYPE="PHONE">4417</PHI>', doc_id="P301-1")
>>> doc.text, [(s.label, doc.span_text(s)) for s in doc.layer("gold")], doc.patient_id
('MRN:SA-0091 x4417', [('MEDICALRECORD', 'SA-0091'), ('PHONE', '4417')], 'P301')
>>> dumps(doc)
'MRN:<PHI TYPE="MEDICALRECORD">SA-0091</PHI> x<PHI TYPE="PHONE">4417</PHI>'
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError
from notescrub.io.checks import make_span, patient_from_stem, safe_filename
from notescrub.io.decode import read_text
from notescrub.types import Document, Span

__all__ = ["dumps", "non_overlapping", "parse", "read", "write_document"]

_TAG_RE = re.compile(r'<PHI TYPE="([^"<>]*)">|</PHI>')
_ANY_TAG_RE = re.compile(r"</?PHI[\s>]")
_OPEN_START_RE = re.compile(r"<PHI[\s>]")


def _line(raw: str, pos: int) -> int:
    return raw.count("\n", 0, pos) + 1


def parse(raw: str, *, doc_id: str, path: str | Path | None = None) -> Document:
    """Strip the tags from ``raw``; each tag becomes a ``gold`` span with its TYPE as label."""
    where = path or "<string>"
    out: list[str] = []
    spans: list[Span] = []
    pos = length = 0
    open_at: tuple[int, str, int] | None = None  # (text offset, type, raw position)
    for m in _OPEN_START_RE.finditer(raw):
        if not _TAG_RE.match(raw, m.start()):
            raise InputFormatError('malformed PHI tag (expected <PHI TYPE="X">)', path=where, line=_line(raw, m.start()))
    for m in _TAG_RE.finditer(raw):
        out.append(raw[pos : m.start()])
        length += m.start() - pos
        pos = m.end()
        if m.group(1) is not None:
            if open_at is not None:
                raise InputFormatError("PHI tag opened inside another PHI tag", path=where, line=_line(raw, m.start()))
            if not m.group(1):
                raise InputFormatError("PHI tag with an empty TYPE", path=where, line=_line(raw, m.start()))
            open_at = (length, m.group(1), m.start())
        else:
            if open_at is None:
                raise InputFormatError("</PHI> without an opening tag", path=where, line=_line(raw, m.start()))
            spans.append(Span(open_at[0], length, open_at[1], 1.0, "gold"))
            open_at = None
    if open_at is not None:
        raise InputFormatError("PHI tag is never closed", path=where, line=_line(raw, open_at[2]))
    out.append(raw[pos:])
    text = "".join(out)
    stray = _ANY_TAG_RE.search(text)
    if stray:
        raise InputFormatError("malformed PHI tag (expected <PHI TYPE=\"X\">)", path=where,
                               line=text.count("\n", 0, stray.start()) + 1)
    doc = Document(doc_id, text, patient_from_stem(doc_id))
    doc.add_layer("gold", [make_span(text, s.start, s.end, s.label, path=where) for s in spans])
    return doc


def non_overlapping(doc: Document, layer: str, fmt: str) -> list[Span]:
    """Spans of ``layer`` as inline tags can hold them (no overlaps; a discontinuous span as its extent)."""
    spans = sorted(doc.layer(layer), key=lambda s: (s.start, s.end))
    for a, b in pairwise(spans):
        if b.start < a.end:
            raise InputFormatError(
                f"{doc_ref(doc.id)}: spans [{a.start}, {a.end}) and [{b.start}, {b.end}) overlap; "
                f"{fmt} tags cannot nest (resolve the layer first)"
            )
    for s in spans:
        if not re.fullmatch(r'[^"<>&\s]+', s.label):
            raise InputFormatError(f"{doc_ref(doc.id)}: label {s.label!r} cannot be written as a TYPE attribute")
    return spans


def dumps(doc: Document, *, layer: str = "gold") -> str:
    """The note with the spans of ``layer`` wrapped in ``<PHI TYPE>`` tags."""
    if _ANY_TAG_RE.search(doc.text):
        raise InputFormatError(f"{doc_ref(doc.id)}: its text contains a literal PHI tag; inline format would be ambiguous")
    out, pos = [], 0
    for s in non_overlapping(doc, layer, "inline"):
        out.append(doc.text[pos : s.start])
        out.append(f'<PHI TYPE="{s.label}">{doc.text[s.start : s.end]}</PHI>')
        pos = s.end
    out.append(doc.text[pos:])
    return "".join(out)


def read(path: Path, *, encoding: str = "utf-8", **options: Any) -> Iterator[Document]:
    """Read one tagged ``.txt`` note (id = file stem)."""
    yield parse(read_text(path, encoding), doc_id=path.stem, path=path)


def write_document(doc: Document, folder: Path, *, layer: str = "gold") -> None:
    (folder / safe_filename(doc.id, ".txt")).write_text(dumps(doc, layer=layer), encoding="utf-8", newline="")
