"""Parquet tables of notes (pyarrow), read by row groups and written in batches.

See :mod:`notescrub.io.table_rows` for the columns; ``spans`` is written as a list
of ``{start, end, type, text, meta}`` structs (``meta``: JSON of any other span
attributes). Errors name the file and the row (1-based, counted as the line).

>>> import tempfile, pathlib
>>> from notescrub.types import Span
>>> f = pathlib.Path(tempfile.mkdtemp()) / "notes.parquet"
>>> write_stream([Document("n1", "Seen by Ruiz.", "P1", layers={"gold": [Span(8, 12, "DOCTOR", meta={"id": "T1"})]})], f)
1
>>> [(d.id, d.patient_id, [(d.span_text(s), s.meta) for s in d.layer("gold")]) for d in read(f)]
[('n1', 'P1', [('Ruiz', {'id': 'T1'})])]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import InputFormatError, NotescrubError
from notescrub.io.table_rows import Columns, doc_to_row, row_to_doc
from notescrub.io.table_shape import TableShape
from notescrub.types import Document

__all__ = ["read", "write_row_groups", "write_stream"]

_BATCH = 256


def _schema() -> Any:
    import pyarrow as pa

    span = pa.struct([("start", pa.int64()), ("end", pa.int64()), ("type", pa.string()), ("text", pa.string()),
                      ("meta", pa.string())])
    return pa.schema([("id", pa.string()), ("patient", pa.string()), ("text", pa.string()),
                      ("spans", pa.list_(span)), ("meta", pa.string())])




def read(path: Path, *, encoding: str = "utf-8", on_error: Callable[[NotescrubError], None] | None = None,
         batch_size: int = _BATCH, **options: Any) -> Iterator[Document]:
    """Stream the rows of a Parquet file (``encoding`` is ignored: Parquet strings are UTF-8)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = Columns(**options)
    try:
        pf = pq.ParquetFile(path)
        names = pf.schema_arrow.names
        rows = pf.metadata.num_rows
    except (OSError, pa.ArrowException, UnicodeDecodeError) as exc:  # also a damaged footer or schema
        raise InputFormatError(f"not a readable Parquet file ({type(exc).__name__})", path=path) from None
    cols.check(names, where=path)
    if rows == 0:
        raise InputFormatError("empty file (no rows)", path=path)
    n = 0
    try:
        batches = pf.iter_batches(batch_size=batch_size)
        for batch in batches:
            for row in batch.to_pylist():
                n += 1
                try:
                    doc = row_to_doc(row, default_id=f"{path.stem}-{n}", where=path, line=n, cols=cols,
                                     blank_is_missing=False)
                except NotescrubError as exc:
                    if on_error is None:
                        raise
                    on_error(exc)
                    continue
                yield doc
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:  # damaged pages, invalid UTF-8 strings
        raise InputFormatError(f"corrupt Parquet data near row {n + 1} ({type(exc).__name__})", path=path) from None


def write_stream(docs: Iterable[Document], file: Path, *, layer: str = "gold", batch_size: int = _BATCH,
                 shape: TableShape | None = None) -> int:
    """Write the documents in row groups of ``batch_size`` rows: as ``id, patient, text, spans,
    meta``, or in the columns and Arrow types of ``shape`` (the input's, for ``deid``)."""
    schema = _schema() if shape is None else shape.arrow_schema()
    rows = (doc_to_row(doc, layer, nested=True) if shape is None else shape.row(doc, layer, nested=True) for doc in docs)
    return write_row_groups(rows, file, schema, batch_size)


def write_row_groups(rows: Iterable[dict[str, Any]], file: Path, schema: Any, batch_size: int = _BATCH) -> int:
    """Write dict ``rows`` of Arrow ``schema`` to ``file`` in row groups of ``batch_size`` rows,
    streaming (an input with no row still writes a file with the schema); return the row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    n = 0
    batch: list[dict[str, Any]] = []
    with pq.ParquetWriter(file, schema) as writer:
        for row in rows:
            batch.append(row)
            n += 1
            if len(batch) >= batch_size:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or n == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    return n
