"""The shape of a de-identified table: the input's own columns, less what is not released.

A warehouse table comes out of ``deid`` looking like it went in: the id, patient and
text columns under their own names, every column allow-listed with ``--keep-field``
as its own column with its own name and (Parquet) Arrow type, in the input's column
order, plus a ``spans`` column (Parquet ``list<struct>``, CSV JSON text). Every other
column is dropped: the release policy (:mod:`notescrub.replace.release`) decides what
leaves, the shape only where it goes. An input without an id column gets one, first
(the row ids the reader gave the notes): with ``--skip-bad`` rows can be left out.

>>> shape = TableShape.from_columns(["note_id", "mrn", "note_text", "dept", "contact"], keep_fields={"dept"},
...                                 text_column="note_text", id_column="note_id", patient_column="mrn")
>>> shape.names
['note_id', 'mrn', 'note_text', 'dept', 'spans']
>>> shape.dropped
['contact']
>>> doc = Document("n1", "Seen by [**DOCTOR**].", "pt-1a2b", {"dept": "cardio", "deidentified": True})
>>> row = shape.row(doc, "gold")
>>> row["note_id"], row["mrn"], row["note_text"], row["dept"], row["spans"]
('n1', 'pt-1a2b', 'Seen by [**DOCTOR**].', 'cardio', '[]')
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError, InputFormatError
from notescrub.io.jsonl import jsonable, span_records
from notescrub.types import Document

__all__ = ["TableShape", "input_columns"]

#: the ``--keep-field`` name that keeps patient ids (``notescrub.replace.release.KEEP_PATIENT``;
#: not imported: the readers and writers do not load the replacement engine)
KEEP_PATIENT = "patient"
#: what a column of the output holds
ROLES = ("id", "patient", "text", "spans", "meta", "field")
#: the core fields of one span struct in Parquet (anything else goes to its JSON ``meta``)
SPAN_CORE = ("start", "end", "type", "text")


@dataclass(frozen=True)
class Column:
    """One output column: its name, what it holds, and its Arrow type in the input (``None``: text)."""

    name: str
    role: str
    arrow: Any = None


def input_columns(path: Path, fmt: str, *, encoding: str = "utf-8") -> list[tuple[str, Any]]:
    """``[(name, Arrow type or None)]`` of a table file, in order, without reading its rows."""
    if fmt == "parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        try:
            schema = pq.read_schema(path)
        except (OSError, pa.ArrowException) as exc:
            raise InputFormatError(f"not a readable Parquet file ({type(exc).__name__})", path=path) from None
        return [(f.name, f.type) for f in schema]
    from notescrub.io.decode import iter_lines

    lines = (line for _, line in iter_lines(path, encoding))
    delim = "\t" if path.suffix.lower() == ".tsv" else ","
    try:
        header = next(csv.reader(lines, delimiter=delim, strict=True))
    except StopIteration:
        raise InputFormatError("empty file", path=path) from None
    except csv.Error as exc:
        raise InputFormatError(f"malformed CSV header ({exc})", path=path, line=1) from None
    finally:
        lines.close()
    return [(name, None) for name in header]


class TableShape:
    """The columns of a de-identified table (see the module docstring)."""

    def __init__(self, columns: Sequence[Column], dropped: Sequence[str] = ()) -> None:
        self.columns = tuple(columns)
        self.dropped = list(dropped)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]

    @classmethod
    def from_columns(cls, columns: Sequence[str | tuple[str, Any]], *, keep_fields: Iterable[str] = (),
                     text_column: str | None = None, id_column: str | None = None,
                     patient_column: str | None = None, spans_column: str | None = None,
                     where: str | Path | None = None) -> TableShape:
        """The output shape of an input with ``columns`` (names, or ``(name, Arrow type)``)."""
        typed = [(c, None) if isinstance(c, str) else (c[0], c[1]) for c in columns]
        names = [n for n, _ in typed]
        text, ident = text_column or "text", id_column or "id"
        patient, spans = patient_column or "patient", spans_column or "spans"
        keep = set(keep_fields)
        role_of = {text: "text", ident: "id", patient: "patient", spans: "spans"}
        for name in sorted(keep - {KEEP_PATIENT}):
            if role_of.get(name) == "patient":
                raise ConfigError(f"--keep-field {name}: {name} is the patient column; '--keep-field patient' keeps "
                                  "patient ids instead of keyed pseudonyms", path=where)
            if name in role_of:
                raise ConfigError(f"--keep-field {name}: the {role_of[name]} column is always written", path=where)
            if name not in names and "meta" not in names:
                raise ConfigError(f"--keep-field {name}: the input table has no column {name!r} (columns: "
                                  f"{', '.join(names)}); only the id, patient, text and allow-listed columns are "
                                  "written, every other column is dropped (release policy, docs/deid.md)",
                                  path=where)
        out: list[Column] = []
        dropped: list[str] = []
        for name, arrow in typed:
            role = role_of.get(name) or ("meta" if name == "meta" else "field" if name in keep else None)
            if role is None:
                dropped.append(name)
            else:  # pseudonyms are text, whatever the type of the patient ids they replace
                out.append(Column(name, role, None if role == "patient" and KEEP_PATIENT not in keep else arrow))
        if ident not in names:
            out.insert(0, Column(ident, "id"))
        if spans not in names:
            out.append(Column(spans, "spans"))
        return cls(out, dropped)

    @classmethod
    def of_input(cls, files: Sequence[Path], fmt: str, *, keep_fields: Iterable[str] = (),
                 encoding: str = "utf-8", **options: Any) -> TableShape:
        """The shape of the table(s) in ``files``: every file must give the same output columns."""
        keep = set(keep_fields)
        shape: TableShape | None = None
        for path in files:
            this = cls.from_columns(input_columns(path, fmt, encoding=encoding), keep_fields=keep, where=path,
                                    **options)
            if shape is None:
                shape = this
            elif this.columns != shape.columns:
                raise InputFormatError(f"the released columns of this table ({', '.join(this.names)}) differ from "
                                       f"those of {files[0].name} ({', '.join(shape.names)}); the output is one "
                                       "table", path=path)
        if shape is None:
            raise InputFormatError("no table files", path=files[0] if files else None)
        return shape

    # -- rows -----------------------------------------------------------------

    def row(self, doc: Document, layer: str, *, nested: bool = False) -> dict[str, Any]:
        """The output row of ``doc``: spans as JSON text, or (``nested``) Parquet-ready structs."""
        out: dict[str, Any] = {}
        own = {c.name for c in self.columns}
        for c in self.columns:
            if c.role == "id":
                out[c.name] = _restore(doc.id, c.arrow) if nested else doc.id
            elif c.role == "patient":
                out[c.name] = _restore(doc.patient_id, c.arrow) if nested else doc.patient_id
            elif c.role == "text":
                out[c.name] = doc.text
            elif c.role == "spans":
                out[c.name] = spans_value(doc, layer, nested)
            elif c.role == "meta":
                rest = {k: v for k, v in doc.metadata.items() if k not in own and k != "deidentified" and jsonable(v)}
                out[c.name] = json.dumps(rest, ensure_ascii=False) if rest else None
            else:
                out[c.name] = doc.metadata.get(c.name)
        return out

    def arrow_schema(self) -> Any:
        """The Parquet schema: kept columns keep their Arrow type; ids keep an integer or string
        type; a pseudonymised patient column and the text are strings."""
        import pyarrow as pa

        fields = []
        for c in self.columns:
            if c.role == "field":
                t = c.arrow if c.arrow is not None else pa.string()
            elif c.role in ("id", "patient"):
                t = c.arrow if c.arrow is not None and (_is_int(c.arrow) or _is_str(c.arrow)) else pa.string()
            elif c.role == "text":
                t = c.arrow if c.arrow is not None and _is_str(c.arrow) else pa.string()
            elif c.role == "spans":
                t = pa.list_(pa.struct([("start", pa.int64()), ("end", pa.int64()), ("type", pa.string()),
                                        ("text", pa.string()), ("meta", pa.string())]))
            else:
                t = pa.string()
            fields.append(pa.field(c.name, t, nullable=True))
        return pa.schema(fields)


def spans_value(doc: Document, layer: str, nested: bool) -> Any:
    """The spans of ``doc`` as JSON text, or (``nested``) as ``{start, end, type, text, meta}`` structs."""
    spans = span_records(doc, layer)
    if not nested:
        return json.dumps(spans, ensure_ascii=False)
    return [{**{k: s[k] for k in SPAN_CORE},
             "meta": json.dumps({k: v for k, v in s.items() if k not in SPAN_CORE}, ensure_ascii=False)
             if len(s) > len(SPAN_CORE) else None} for s in spans]


def _is_int(t: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_integer(t))


def _is_str(t: Any) -> bool:
    import pyarrow as pa

    return bool(pa.types.is_string(t) or pa.types.is_large_string(t))


def _restore(value: str | None, arrow: Any) -> Any:
    """An id read from an integer column back as an integer (``None`` for an id the reader made
    up for a row whose id was null); any other id as text."""
    if value is None or arrow is None or not _is_int(arrow):
        return value
    try:
        return int(value)
    except ValueError:
        return None

