"""CSV (or TSV) tables of notes, read and written row by row.

See :mod:`notescrub.io.table_rows` for the columns. Fields may span lines (quoted);
line endings inside the text are kept. Errors name the file and the line where
the row starts.

>>> import tempfile, pathlib
>>> from notescrub.types import Span
>>> f = pathlib.Path(tempfile.mkdtemp()) / "notes.csv"
>>> write_stream([Document("n1", "Seen by Ruiz.\\r\\nBye", "P1", layers={"gold": [Span(8, 12, "DOCTOR")]})], f)
1
>>> [(d.id, d.patient_id, d.text, [d.span_text(s) for s in d.layer("gold")]) for d in read(f)]
[('n1', 'P1', 'Seen by Ruiz.\\r\\nBye', ['Ruiz'])]
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.errors import InputFormatError, NotescrubError
from notescrub.io.decode import iter_lines
from notescrub.io.table_rows import COLUMNS, Columns, doc_to_row, row_to_doc
from notescrub.io.table_shape import TableShape
from notescrub.types import Document

__all__ = ["read", "write_stream"]

csv.field_size_limit(2**31 - 1)  # clinical notes can be longer than the 128 kB default


def read(path: Path, *, encoding: str = "utf-8", on_error: Callable[[NotescrubError], None] | None = None,
         delimiter: str | None = None, **options: Any) -> Iterator[Document]:
    """Stream the rows of a CSV file (``.tsv``: tab-separated) as documents."""
    cols = Columns(**options)
    delim = delimiter or ("\t" if path.suffix.lower() == ".tsv" else ",")
    lines = (line for _, line in iter_lines(path, encoding))
    # strict: an unclosed quote is an error, not a field that swallows the rest of the file
    reader = csv.reader(lines, delimiter=delim, strict=True)
    try:
        header = next(reader)
    except StopIteration:
        raise InputFormatError("empty file", path=path) from None
    except csv.Error as exc:
        raise InputFormatError(f"malformed CSV header ({exc})", path=path, line=1) from None
    cols.check(header, where=path)
    n = 0
    while True:
        first = reader.line_num + 1
        try:
            values = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            raise InputFormatError(f"malformed CSV ({exc})", path=path, line=first) from None
        if not values or values == [""]:
            continue
        n += 1
        try:
            if len(values) != len(header):
                raise InputFormatError(f"row has {len(values)} fields, the header {len(header)}", path=path, line=first)
            doc = row_to_doc(dict(zip(header, values)), default_id=f"{path.stem}-{n}", where=path, line=first, cols=cols)
        except NotescrubError as exc:
            if on_error is None:
                raise
            on_error(exc)
            continue
        yield doc
    if n == 0:
        raise InputFormatError("empty file (a header but no rows)", path=path)


def write_stream(docs: Iterable[Document], file: Path, *, layer: str = "gold", shape: TableShape | None = None,
                 delimiter: str = ",") -> int:
    """Write ``id, patient, text, spans, meta`` rows, or the columns of ``shape`` (the input's,
    for ``deid``); UTF-8, RFC 4180 quoting; ``delimiter`` ``"\\t"`` for TSV."""
    names = list(COLUMNS) if shape is None else shape.names
    n = 0
    with open(file, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter=delimiter)
        w.writerow(names)
        for doc in docs:
            row = doc_to_row(doc, layer) if shape is None else shape.row(doc, layer)
            w.writerow(["" if row[k] is None else row[k] for k in names])
            n += 1
    return n
