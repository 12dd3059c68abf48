"""Rows of a notes table (CSV or Parquet) <-> documents.

A table has one note per row: ``text`` (required), ``id``, ``patient``, ``spans``
(the JSONL span objects, as a JSON string in CSV, a list of structs in Parquet)
and ``meta`` (document metadata as JSON). Column names can be changed with the
reader options ``text_column``, ``id_column``, ``patient_column`` and
``spans_column``; any other column goes to ``doc.metadata``.

>>> doc = row_to_doc({"id": "n1", "text": "Seen by Ruiz.", "spans": '[{"start": 8, "end": 12, "type": "DOCTOR"}]'},
...                  default_id="t-1", where="t.csv", line=2)
>>> [(s.label, doc.span_text(s)) for s in doc.layer("gold")]
[('DOCTOR', 'Ruiz')]
>>> doc_to_row(doc)["spans"]
'[{"start": 8, "end": 12, "type": "DOCTOR", "text": "Ruiz"}]'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from notescrub.errors import InputFormatError
from notescrub.io.checks import json_loads
from notescrub.io.jsonl import jsonable, spans_from_records
from notescrub.io.table_shape import spans_value
from notescrub.types import Document

__all__ = ["COLUMNS", "Columns", "doc_to_row", "row_to_doc"]

COLUMNS = ("id", "patient", "text", "spans", "meta")


class Columns:
    """Which columns hold what (from the reader options)."""

    def __init__(self, text_column: str = "text", id_column: str = "id", patient_column: str = "patient",
                 spans_column: str = "spans", **_: Any) -> None:
        self.text, self.id, self.patient, self.spans = text_column, id_column, patient_column, spans_column

    def check(self, names: list[str], *, where: str | Path) -> None:
        if self.text not in names:
            raise InputFormatError(f"table has no {self.text!r} column (columns: {', '.join(map(str, names))}); "
                                   f"pass text_column", path=where, line=1)


def _json(value: Any, what: str, where: str | Path, line: int) -> Any:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        return value
    return json_loads(value, f"{what} column", path=where, line=line)


def _spans_value(value: Any, where: str | Path, line: int) -> Any:
    items = _json(value, "spans", where, line)
    if isinstance(items, list):  # Parquet structs carry extra keys in a JSON "meta" field
        out = []
        for it in items:
            if isinstance(it, dict) and "meta" in it:
                it = dict(it)
                extra = _json(it.pop("meta"), "spans.meta", where, line) or {}
                if not isinstance(extra, dict):
                    raise InputFormatError("spans.meta must be a JSON object", path=where, line=line)
                it.update({k: v for k, v in extra.items() if k not in it})
                it = {k: v for k, v in it.items() if v is not None}
            out.append(it)
        return out
    return items


def row_to_doc(row: dict[str, Any], *, default_id: str, where: str | Path, line: int, cols: Columns | None = None,
               blank_is_missing: bool = True) -> Document:
    """The document of one row. Other columns go to the metadata, except empty ones: null, and
    (``blank_is_missing``, as in CSV where nothing else says "no value") the empty string."""
    c = cols or Columns()
    text = row.get(c.text)
    if not isinstance(text, str):
        raise InputFormatError(f"{c.text!r} is empty or not text", path=where, line=line)
    did = row.get(c.id)
    did = default_id if did is None or did == "" else str(did)
    patient = row.get(c.patient)
    patient = None if patient is None or patient == "" else str(patient)
    meta = _json(row.get("meta"), "meta", where, line)
    if meta is not None and not isinstance(meta, dict):
        raise InputFormatError("meta column must hold a JSON object", path=where, line=line)
    metadata: dict[str, Any] = dict(meta or {})
    for k, v in row.items():
        if k not in (c.text, c.id, c.patient, c.spans, "meta") and v is not None and not (blank_is_missing and v == ""):
            metadata[k] = v
    doc = Document(did, text, patient, metadata)
    doc.add_layer("gold", spans_from_records(text, _spans_value(row.get(c.spans), where, line), path=where, line=line))
    return doc


def doc_to_row(doc: Document, layer: str = "gold", *, nested: bool = False) -> dict[str, Any]:
    """A row dict; spans as a JSON string, or (``nested``) as Parquet-ready structs."""
    meta = {k: v for k, v in doc.metadata.items() if jsonable(v)}
    return {"id": doc.id, "patient": doc.patient_id, "text": doc.text, "spans": spans_value(doc, layer, nested),
            "meta": json.dumps(meta, ensure_ascii=False) if meta else None}

