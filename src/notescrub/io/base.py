"""The contract every corpus format implements, and the table of formats.

A format reads *one input file* into documents (a stream) and writes documents
either one file per document into a directory (``per_document``) or as one
stream into a single file. :mod:`notescrub.io` finds files, picks the format
and makes writes atomic; format modules only parse and serialise.

>>> sorted(FORMATS)
['brat', 'csv', 'i2b2-2006', 'i2b2-xml', 'inline', 'jsonl', 'parquet', 'physionet', 'txt']
>>> FORMATS["brat"].suffix, FORMATS["brat"].per_document
('.txt', True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notescrub.errors import UnknownFormatError
from notescrub.types import Document

__all__ = ["FORMATS", "Format", "get_format"]

Reader = Callable[..., Iterator[Document]]


@dataclass(frozen=True)
class Format:
    """A corpus format.

    ``module`` must define ``read(path, *, encoding, **options) -> Iterator[Document]``
    and, when writable, ``write_document(doc, folder, *, layer)`` (``per_document``)
    or ``write_stream(docs, file, *, layer) -> int``.
    """

    name: str
    module: str
    suffix: str  # the suffix of the files holding documents (".xml", ".txt", ".jsonl"...)
    per_document: bool  # one file per document (output is a directory)
    writable: bool = True
    description: str = ""
    extra: str | None = None  # the pip extra the format needs (notescrub.extras), if any
    title: str = ""  # the name in messages ("reading Parquet needs pyarrow")

    def _mod(self) -> Any:
        return importlib.import_module(self.module)

    def require(self, action: str) -> None:
        """Raise :class:`~notescrub.errors.MissingExtraError` when ``action`` ("reading",
        "writing") needs an extra that is not installed; do nothing otherwise."""
        if self.extra is not None:
            from notescrub.extras import require

            require(self.extra, f"{action} {self.title or self.name}")

    def read(self, path: Path, *, encoding: str = "utf-8", **options: Any) -> Iterator[Document]:
        self.require("reading")
        return self._mod().read(path, encoding=encoding, **options)

    def write_document(self, doc: Document, folder: Path, *, layer: str) -> None:
        self._mod().write_document(doc, folder, layer=layer)

    def write_stream(self, docs: Iterable[Document], file: Path, *, layer: str, **options: Any) -> int:
        self.require("writing")
        return int(self._mod().write_stream(docs, file, layer=layer, **options))


FORMATS: dict[str, Format] = {
    f.name: f
    for f in (
        Format("i2b2-xml", "notescrub.io.i2b2_xml", ".xml", True,
               description="i2b2/UTHealth 2014 XML: <TEXT><![CDATA[...]]></TEXT><TAGS>, one note per file"),
        Format("i2b2-2006", "notescrub.io.i2b2_2006", ".xml", False,
               description="i2b2 2006 inline XML: <ROOT><RECORD ID><TEXT> ... <PHI TYPE>..</PHI>"),
        Format("inline", "notescrub.io.inline", ".txt", True,
               description="plain notes with inline <PHI TYPE=\"X\">..</PHI> tags, one note per file"),
        Format("brat", "notescrub.io.brat", ".txt", True,
               description="brat standoff: NAME.txt + NAME.ann"),
        Format("physionet", "notescrub.io.physionet", ".text", False, writable=False,
               description="PhysioNet deid: id.text + id-phi.phrase or id.deid (read only)"),
        Format("jsonl", "notescrub.io.jsonl", ".jsonl", False,
               description='JSON lines: {"id","text","patient","spans":[{"start","end","type"}]}'),
        Format("txt", "notescrub.io.plaintext", ".txt", True,
               description="plain .txt notes, no annotations"),
        Format("csv", "notescrub.io.csv_table", ".csv", False,
               description="CSV table with id, patient, text and spans (JSON) columns"),
        Format("parquet", "notescrub.io.parquet_table", ".parquet", False,
               description="Parquet table with id, patient, text and spans columns (extra: parquet)",
               extra="parquet", title="Parquet"),
    )
}


def get_format(name: str) -> Format:
    """The :class:`Format` called ``name`` (``UnknownFormatError`` listing the known ones)."""
    try:
        return FORMATS[name]
    except KeyError:
        raise UnknownFormatError(f"unknown format {name!r}; known: {', '.join(FORMATS)}") from None
