"""Plain notes: a directory of ``.txt`` files, one note per file, no annotations.

The document id is the file stem; the text is the file content exactly (line
endings untouched). Writing stores ``doc.text`` only, so this is also how
de-identified notes are exported for people to read.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_document(Document("P301-1", "Seen today."), d)
>>> [(doc.id, doc.patient_id, doc.text) for doc in read(d / "P301-1.txt")]
[('P301-1', 'P301', 'Seen today.')]
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from notescrub.io.checks import patient_from_stem, safe_filename
from notescrub.io.decode import read_text
from notescrub.types import Document

__all__ = ["read", "write_document"]


def read(path: Path, *, encoding: str = "utf-8", **options: Any) -> Iterator[Document]:
    """One document per ``.txt`` file; empty files are an error."""
    yield Document(path.stem, read_text(path, encoding), patient_from_stem(path.stem))


def write_document(doc: Document, folder: Path, *, layer: str = "gold") -> None:
    """Write ``folder/<id>.txt`` (the text only; ``layer`` is not used)."""
    (folder / safe_filename(doc.id, ".txt")).write_text(doc.text, encoding="utf-8", newline="")
