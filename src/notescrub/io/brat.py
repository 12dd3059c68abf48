"""brat standoff: ``NAME.txt`` holds the note, ``NAME.ann`` its annotations.

Text-bound annotations (``T1<TAB>TYPE START END[;START END...]<TAB>text``) become
spans of the ``gold`` layer; discontinuous ones keep their pieces in
``Span.fragments``. ``#`` notes (``AnnotatorNotes``) become ``span.meta["comment"]``;
relations, events, attributes and normalisations are kept verbatim in
``doc.metadata["brat_other"]`` so that writing gives them back.

>>> doc = parse_ann("Seen by Dr. Ruiz on 3/18.", "T1\\tDOCTOR 12 16\\tRuiz\\nT2\\tDATE 20 22;23 24\\t3/ 8\\n", doc_id="n1")
>>> [(s.label, s.fragments, doc.span_text(s)) for s in doc.layer("gold")]
[('DOCTOR', (), 'Ruiz'), ('DATE', ((20, 22), (23, 24)), '3/ 8')]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError
from notescrub.io.checks import make_span, patient_from_stem, safe_filename
from notescrub.io.decode import read_text
from notescrub.types import Document, Span

__all__ = ["dumps_ann", "parse_ann", "read", "write_document"]

_T_RE = re.compile(r"^(T[0-9]+)\t(\S+) ([0-9]{1,15} [0-9]{1,15}(?:;[0-9]{1,15} [0-9]{1,15})*)\t(.*)$", re.DOTALL)
_NOTE_RE = re.compile(r"^(#\d*)\t(\S+) (T\d+)\t?(.*)$", re.DOTALL)
_OTHER_RE = re.compile(r"^[RENAM*]\d*\t")


def parse_ann(text: str, ann: str, *, doc_id: str, path: str | Path | None = None, patient_id: str | None = None) -> Document:
    """Build a document from its text and the content of its ``.ann`` file."""
    where = path or "<string>"
    spans: dict[str, Span] = {}
    notes: list[tuple[str, str, int]] = []
    other: list[str] = []
    for lineno, raw in enumerate(ann.split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip():
            continue
        if line.startswith("T"):
            m = _T_RE.match(line)
            if not m:
                raise InputFormatError("cannot parse text-bound annotation line", path=where, line=lineno)
            tid, label, offs, quoted = m.groups()
            if tid in spans:
                raise InputFormatError(f"annotation id {tid} used twice", path=where, line=lineno)
            frags = [(int(a), int(b)) for a, b in (part.split() for part in offs.split(";"))]  # _T_RE: pairs
            start, end = min(a for a, _ in frags), max(b for _, b in frags)
            spans[tid] = make_span(text, start, end, label, quoted=quoted, fragments=frags if len(frags) > 1 else (),
                                   meta={"id": tid}, path=where, line=lineno)
        elif line.startswith("#"):
            m = _NOTE_RE.match(line)
            if not m:
                raise InputFormatError("cannot parse annotator note line", path=where, line=lineno)
            notes.append((m.group(3), m.group(4), lineno))
        elif _OTHER_RE.match(line):
            other.append(line)
        else:
            raise InputFormatError("line is not a brat annotation (expected T, R, E, A, M, N, * or # id)", path=where, line=lineno)
    for tid, comment, lineno in notes:
        if tid not in spans:
            raise InputFormatError(f"note refers to unknown annotation {tid}", path=where, line=lineno)
        s = spans[tid]
        spans[tid] = s.with_(meta={**s.meta, "comment": comment})
    meta: dict[str, Any] = {"brat_other": other} if other else {}
    doc = Document(doc_id, text, patient_id, meta)
    doc.add_layer("gold", spans.values())
    return doc


def dumps_ann(doc: Document, *, layer: str = "gold") -> str:
    """The ``.ann`` content for the spans of ``layer`` (ids kept when the spans have them)."""
    spans = doc.layer(layer)
    used = {str(s.meta["id"]) for s in spans if re.fullmatch(r"T\d+", str(s.meta.get("id", "")))}
    n, written = 1, set()
    lines: list[str] = []
    notes: list[str] = []
    for s in spans:
        tid = str(s.meta.get("id", ""))
        if not re.fullmatch(r"T\d+", tid) or tid in written:
            while f"T{n}" in used:
                n += 1
            tid = f"T{n}"
            used.add(tid)
        written.add(tid)
        if any(c.isspace() for c in s.label):
            raise InputFormatError(f"{doc_ref(doc.id)}: label {s.label!r} contains whitespace and cannot be written to brat")
        offs = ";".join(f"{a} {b}" for a, b in s.pieces)
        quoted = re.sub(r"[\r\n\t]", " ", doc.span_text(s))
        lines.append(f"{tid}\t{s.label} {offs}\t{quoted}\n")
        comment = s.meta.get("comment")
        if comment:
            flat = re.sub(r"[\r\n]", " ", str(comment))
            notes.append(f"#{len(notes) + 1}\tAnnotatorNotes {tid}\t{flat}\n")
    lines.extend(notes)
    lines.extend(f"{x}\n" for x in doc.metadata.get("brat_other", ()))
    return "".join(lines)


def read(path: Path, *, encoding: str = "utf-8", **options: Any) -> Iterator[Document]:
    """Read ``NAME.txt`` and its ``NAME.ann`` (given either) as one document."""
    txt, ann = path.with_suffix(".txt"), path.with_suffix(".ann")
    if not txt.is_file():
        raise InputFormatError("brat annotation file has no matching .txt file", path=ann)
    if not ann.is_file():
        raise InputFormatError("brat text file has no matching .ann file", path=txt)
    text = read_text(txt, encoding)
    yield parse_ann(text, read_text(ann, encoding, allow_empty=True), doc_id=txt.stem, path=ann,
                    patient_id=patient_from_stem(txt.stem))


def write_document(doc: Document, folder: Path, *, layer: str = "gold") -> None:
    """Write ``folder/<id>.txt`` and ``folder/<id>.ann``."""
    ann = dumps_ann(doc, layer=layer)
    (folder / safe_filename(doc.id, ".txt")).write_text(doc.text, encoding="utf-8", newline="")
    (folder / safe_filename(doc.id, ".ann")).write_text(ann, encoding="utf-8", newline="")
