"""JSON lines, notescrub's canonical interchange format (one document per line).

``{"id": ..., "patient": ..., "text": ..., "spans": [{"start", "end", "type", "text", ...}], "meta": {...}}``

``patient``, ``spans`` and ``meta`` are optional; ``label`` is accepted for
``type``. Span keys other than ``start``/``end``/``type``/``text``/``fragments``/
``score``/``source`` are kept in ``span.meta`` (so ids, comments and the i2b2
element name survive a round trip). Read line by line, written line by line.

>>> line = dumps(Document("n1", "Seen by Ruiz.", "P1", layers={"gold": [Span(8, 12, "DOCTOR", meta={"id": "T1"})]}))
>>> line
'{"id": "n1", "patient": "P1", "text": "Seen by Ruiz.", "spans": [{"start": 8, "end": 12, "type": "DOCTOR", "text": "Ruiz", "id": "T1"}]}'
>>> doc = loads(line)
>>> doc.patient_id, [(s.label, s.meta["id"], doc.span_text(s)) for s in doc.layer("gold")]
('P1', [('DOCTOR', 'T1', 'Ruiz')])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import InputFormatError, NotescrubError
from notescrub.io.checks import check_unicode, json_loads, make_span, parse_int
from notescrub.io.decode import iter_lines
from notescrub.types import Document, Span

__all__ = [
    "doc_from_record",
    "dumps",
    "jsonable",
    "loads",
    "read",
    "record_from_doc",
    "span_records",
    "spans_from_records",
    "write_stream",
]

_SPAN_KEYS = {"start", "end", "type", "label", "text", "fragments", "score", "source"}


def spans_from_records(text: str, items: Any, *, path: str | Path | None = None, line: int | None = None) -> list[Span]:
    """Spans from a list of ``{"start","end","type",...}`` dicts, checked against ``text``."""
    if items is None:
        return []
    if not isinstance(items, list):
        raise InputFormatError('"spans" must be a list', path=path, line=line)
    out = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            raise InputFormatError(f"span #{i} is not an object", path=path, line=line)
        label = item.get("type", item.get("label"))
        if not isinstance(label, str) or not label:
            raise InputFormatError(f'span #{i} has no "type"', path=path, line=line)
        check_unicode(label, f"type of span #{i}", path=path, line=line)
        start = parse_int(item.get("start"), f"start of span #{i}", path=path, line=line)
        end = parse_int(item.get("end"), f"end of span #{i}", path=path, line=line)
        frags = item.get("fragments") or ()
        try:
            frags = [(parse_int(a, "fragment", path=path, line=line), parse_int(b, "fragment", path=path, line=line))
                     for a, b in frags]
        except (TypeError, ValueError):
            raise InputFormatError(f"span #{i} has malformed fragments", path=path, line=line) from None
        quoted = item.get("text")
        span = make_span(text, start, end, label, quoted=quoted if isinstance(quoted, str) else None,
                         fragments=frags, meta={k: v for k, v in item.items() if k not in _SPAN_KEYS},
                         source=str(item.get("source", "gold")), path=path, line=line)
        if "score" in item:
            score = item["score"]
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
                # strings ("nan", "0.9"), NaN and infinities included
                raise InputFormatError(f"span #{i} has a score that is not a number in [0, 1]", path=path, line=line)
            span = span.with_(score=float(score))
        out.append(span)
    return out


def span_records(doc: Document, layer: str = "gold") -> list[dict[str, Any]]:
    """The spans of ``layer`` as JSON-ready dicts (inverse of :func:`spans_from_records`)."""
    out = []
    for s in doc.layer(layer):
        rec: dict[str, Any] = {"start": s.start, "end": s.end, "type": s.label, "text": doc.span_text(s)}
        if s.fragments:
            rec["fragments"] = [list(f) for f in s.fragments]
        if s.score != 1.0:
            rec["score"] = s.score
        if s.source and s.source != "gold":
            rec["source"] = s.source
        for k, v in s.meta.items():
            if k not in _SPAN_KEYS and isinstance(v, (str, int, float, bool, type(None), list, dict)):
                rec[k] = v
        out.append(rec)
    return out


def doc_from_record(rec: Any, *, default_id: str, path: str | Path | None = None, line: int | None = None) -> Document:
    """A document from a decoded JSON object."""
    if not isinstance(rec, dict):
        raise InputFormatError("record is not a JSON object", path=path, line=line)
    text = rec.get("text")
    if not isinstance(text, str):
        raise InputFormatError('record has no string "text"', path=path, line=line)
    did = rec.get("id", default_id)
    if isinstance(did, bool) or not isinstance(did, (str, int)):
        raise InputFormatError('"id" must be a string or an integer', path=path, line=line)
    patient = rec.get("patient", rec.get("patient_id"))
    if patient is not None and (isinstance(patient, bool) or not isinstance(patient, (str, int))):
        raise InputFormatError('"patient" must be a string or an integer', path=path, line=line)
    meta = rec.get("meta", {})
    if not isinstance(meta, dict):
        raise InputFormatError('"meta" must be a JSON object', path=path, line=line)
    for what, value in (("text", text), ("id", did), ("patient", patient),
                        ("meta", json.dumps(meta, ensure_ascii=False) if meta else None)):
        check_unicode(value, what, path=path, line=line)
    doc = Document(str(did), text, None if patient is None else str(patient), meta)
    doc.add_layer("gold", spans_from_records(text, rec.get("spans"), path=path, line=line))
    return doc


def is_span_only(path: str | Path) -> bool:
    """True when the first record of a JSONL file has ``"spans"`` but no ``"text"``
    (the output of ``notescrub annotate``, which never writes note text)."""
    for _, line in iter_lines(path):
        if line.strip():
            try:
                rec = json.loads(line)
            except (ValueError, RecursionError):
                return False
            return isinstance(rec, dict) and "text" not in rec and "spans" in rec
    return False


def read_span_only(path: str | Path, reference: Iterable[Document], *, layer: str = "gold") -> list[Document]:
    """Span-only records (``{"id", "spans"}``) attached to the texts of ``reference`` documents.

    Each record's id must name a reference document; its spans are checked against that
    document's text and stored in ``layer`` of a copy of the document (other layers dropped).
    """
    by_id = {d.id: d for d in reference}
    out: list[Document] = []
    for lineno, line in iter_lines(path):
        if not line.strip():
            continue
        rec = json_loads(line, "record", path=path, line=lineno)
        if not isinstance(rec, dict) or "id" not in rec:
            raise InputFormatError('span-only record needs an "id"', path=path, line=lineno)
        ref = by_id.get(str(rec["id"]))
        if ref is None:
            raise InputFormatError(f"document id {str(rec['id'])!r} is not in the reference corpus", path=path, line=lineno)
        doc = ref.copy(layers=False)
        doc.add_layer(layer, spans_from_records(doc.text, rec.get("spans"), path=path, line=lineno))
        out.append(doc)
    return out


def record_from_doc(doc: Document, layer: str = "gold") -> dict[str, Any]:
    rec: dict[str, Any] = {"id": doc.id}
    if doc.patient_id is not None:
        rec["patient"] = doc.patient_id
    rec["text"] = doc.text
    rec["spans"] = span_records(doc, layer)
    meta = {k: v for k, v in doc.metadata.items() if jsonable(v)}
    if meta:
        rec["meta"] = meta
    return rec


def jsonable(v: Any) -> bool:
    """Whether ``v`` can be written as JSON (metadata that cannot is left out of outputs).

    >>> jsonable({"site": "A"}), jsonable({1, 2})
    (True, False)
    """
    try:
        json.dumps(v)
        return True
    except (TypeError, ValueError):
        return False


def loads(line: str, *, default_id: str = "document", path: str | Path | None = None, lineno: int | None = None) -> Document:
    """Parse one JSONL line."""
    rec = json_loads(line, "record", path=path, line=lineno)
    return doc_from_record(rec, default_id=default_id, path=path, line=lineno)


def dumps(doc: Document, *, layer: str = "gold") -> str:
    """One JSONL line (no trailing newline)."""
    return json.dumps(record_from_doc(doc, layer), ensure_ascii=False)


def read(
    path: Path, *, encoding: str = "utf-8", on_error: Callable[[NotescrubError], None] | None = None, **options: Any
) -> Iterator[Document]:
    """Stream the documents of a ``.jsonl`` file; blank lines are skipped, an empty file is an error.

    With ``on_error`` a bad line is reported to it and skipped instead of raising.
    """
    seen = False

    def report(exc: NotescrubError) -> None:
        nonlocal seen
        seen = True
        if on_error is not None:
            on_error(exc)

    for n, line in iter_lines(path, encoding, on_error=report if on_error else None):
        if not line.strip():
            continue
        seen = True
        try:
            doc = loads(line, default_id=f"{path.stem}-{n}", path=path, lineno=n)
        except NotescrubError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        yield doc
    if not seen:
        raise InputFormatError("empty file", path=path)


def write_stream(docs: Iterable[Document], file: Path, *, layer: str = "gold") -> int:
    n = 0
    with open(file, "w", encoding="utf-8", newline="\n") as fh:
        for doc in docs:
            fh.write(dumps(doc, layer=layer))
            fh.write("\n")
            n += 1
    return n
