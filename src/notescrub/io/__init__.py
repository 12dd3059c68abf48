"""Reading and writing clinical corpora in every supported format.

Readers stream documents one at a time; writers are atomic (a corpus is written
completely or not at all). Annotated spans go to the ``gold`` layer with their
native labels.

========== ======================================================== ==========
format     what                                                     output
========== ======================================================== ==========
i2b2-xml   i2b2/UTHealth 2014 XML, one note per ``.xml`` file       directory
i2b2-2006  i2b2 2006 ``<ROOT><RECORD ID><TEXT>`` with inline PHI     ``.xml`` file
inline     ``.txt`` notes with inline ``<PHI TYPE="X">..</PHI>``       directory
brat       brat standoff ``NAME.txt`` + ``NAME.ann``                  directory
physionet  PhysioNet deid ``id.text`` + ``id-phi.phrase``/``.deid``  (read only)
jsonl      one JSON object per line                                  ``.jsonl`` file
txt        plain ``.txt`` notes without annotations                  directory
csv        table with ``id``, ``patient``, ``text``, ``spans`` columns ``.csv`` file
parquet    the same table as Parquet                                 ``.parquet`` file
========== ======================================================== ==========

>>> import tempfile, pathlib
>>> from notescrub.types import Document, Span
>>> tmp = pathlib.Path(tempfile.mkdtemp())
>>> docs = [Document("110-01", "Seen by Dr. Ruiz.", layers={"gold": [Span(12, 16, "DOCTOR")]})]
>>> write_corpus(docs, tmp / "xml", "i2b2-xml")
1
>>> detect_format(tmp / "xml")
'i2b2-xml'
>>> write_corpus(read_corpus(tmp / "xml"), tmp / "notes.jsonl")
1
>>> [(d.id, d.patient_id, [d.span_text(s) for s in d.layer("gold")]) for d in read_corpus(tmp / "notes.jsonl")]
[('110-01', '110', ['Ruiz'])]
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError, NotescrubError, UnknownFormatError
from notescrub.io.atomic import atomic_dir, atomic_file
from notescrub.io.base import FORMATS, Format, get_format
from notescrub.io.decode import check_encoding
from notescrub.io.detect import check_format_fits, detect_format, iter_files, output_format
from notescrub.types import Document

__all__ = [
    "FORMATS",
    "READ_FORMATS",
    "WRITE_FORMATS",
    "count_documents",
    "detect_format",
    "get_format",
    "input_files",
    "read_corpus",
    "write_corpus",
]

log = logging.getLogger(__name__)

READ_FORMATS = tuple(FORMATS)
WRITE_FORMATS = tuple(k for k, f in FORMATS.items() if f.writable)

OnSkip = Callable[[NotescrubError], None]


def _log_skip(err: NotescrubError) -> None:
    log.warning("skipped: %s", err)


def input_files(path: str | Path, fmt: str) -> list[Path]:
    """The files that hold the documents of ``path`` in format ``fmt``, sorted."""
    p = Path(path)
    f = get_format(fmt)
    if p.is_file():
        check_format_fits(p, fmt)
        if fmt == "brat" and p.suffix == ".ann":
            return [p.with_suffix(".txt")]
        return [p]
    if not p.is_dir():
        raise InputFormatError("no such file or directory", path=p)
    suffixes = {f.suffix} | ({".tsv"} if fmt == "csv" else set()) | ({".ndjson"} if fmt == "jsonl" else set())
    files = [x for x in iter_files(p) if x.suffix.lower() in suffixes]
    if fmt == "brat":
        have = set(files)
        orphans = [x for x in iter_files(p) if x.suffix == ".ann" and x.with_suffix(".txt") not in have]
        if orphans:
            raise InputFormatError("brat annotation file has no matching .txt file", path=orphans[0])
    if not files:
        raise InputFormatError(f"no {f.suffix} files of format {fmt} found", path=p)
    return files


def read_corpus(
    path: str | Path,
    format: str | None = None,
    *,
    encoding: str = "utf-8",
    skip_bad: bool = False,
    on_skip: OnSkip | None = None,
    **options: Any,
) -> Iterator[Document]:
    """Stream the documents of a file or directory.

    ``format`` is detected when omitted. Bad input raises a
    :class:`~notescrub.errors.NotescrubError` naming the file (and line); with
    ``skip_bad`` the bad file (or record, for JSONL/CSV) is reported to ``on_skip``
    (default: a logged warning) and reading goes on. Format-specific ``options``
    (e.g. ``text_column`` for tables) are passed to the reader.
    """
    check_encoding(encoding)
    fmt = format or detect_format(path)
    f = get_format(fmt)
    files = input_files(path, fmt)
    report = on_skip or _log_skip
    for file in files:
        if not skip_bad:
            yield from f.read(file, encoding=encoding, **options)
            continue
        try:
            yield from f.read(file, encoding=encoding, on_error=report, **options)
        except NotescrubError as exc:
            report(exc)


def count_documents(path: str | Path, format: str | None = None) -> int | None:
    """Cheap document count for progress bars (``None`` when it would mean parsing everything)."""
    fmt = format or detect_format(path)
    f = get_format(fmt)
    files = input_files(path, fmt)
    if f.per_document:
        return len(files)
    if fmt == "jsonl":
        n = 0
        for file in files:
            with open(file, "rb") as fh:
                n += sum(1 for line in fh if line.strip())
        return n
    return None


def write_corpus(
    docs: Iterable[Document],
    path: str | Path,
    format: str | None = None,
    *,
    layer: str = "gold",
    overwrite: bool = False,
    **options: Any,
) -> int:
    """Write ``docs`` (spans of ``layer``) atomically; return the number of documents written.

    One-file-per-document formats write a directory (built under a temporary name,
    then renamed; a non-empty existing directory is only replaced with
    ``overwrite``); the others write one file (temporary file + ``os.replace``).
    If anything fails, including reading ``docs``, the output is left untouched.
    Format-specific ``options`` go to the writer (tables: ``shape``, a
    :class:`~notescrub.io.table_shape.TableShape`).
    """
    out = Path(path)
    f = get_format(format or output_format(out))
    if not f.writable:
        raise UnknownFormatError(f"format {f.name} can be read but not written; writable: {', '.join(WRITE_FORMATS)}")
    f.require("writing")  # before anything is read or created
    if f.per_document:
        return _write_dir(f, docs, out, layer, overwrite)
    if out.is_dir():
        raise InputFormatError(f"format {f.name} writes one file, but the output is a directory", path=out)
    if f.name == "csv" and out.suffix.lower() == ".tsv":
        options.setdefault("delimiter", "\t")  # the temporary file's name does not end in .tsv
    with atomic_file(out) as tmp:
        return f.write_stream(docs, tmp, layer=layer, **options)


def _write_dir(f: Format, docs: Iterable[Document], out: Path, layer: str, overwrite: bool) -> int:
    seen: set[str] = set()
    with atomic_dir(out, overwrite=overwrite) as tmp:
        for doc in docs:
            if doc.id in seen:
                raise InputFormatError(f"two documents have the id {doc_ref(doc.id)}; one file per document needs unique ids")
            seen.add(doc.id)
            f.write_document(doc, tmp, layer=layer)
    return len(seen)
