"""Telling a corpus format from file names and a peek at the content.

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.txt").write_text("Seen by Ruiz.", encoding="utf-8")
>>> _ = (d / "a.ann").write_text("T1\\tDOCTOR 8 12\\tRuiz\\n", encoding="utf-8")
>>> detect_format(d), detect_format(d / "a.txt")
('brat', 'brat')
>>> _ = (d / "b.jsonl").write_text('{"id": "b", "text": "x"}\\n', encoding="utf-8")
>>> detect_format(d)
Traceback (most recent call last):
...
notescrub.errors.UnknownFormatError: ...: directory mixes formats: brat (e.g. a...), jsonl (e.g. b.jsonl); convert one format at a time or pass --format
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from notescrub.errors import InputFormatError, UnknownFormatError

__all__ = ["detect_file", "detect_format", "iter_files", "output_format"]

_PEEK = 65536
_BY_SUFFIX = {
    ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "csv", ".parquet": "parquet", ".pq": "parquet",
    ".text": "physionet", ".phrase": "physionet", ".deid": "physionet", ".ann": "brat",
}
_INLINE_RE = re.compile(rb"<PHI TYPE=\"[^\"]*\">")
_RECORD_RE = re.compile(rb"<RECORD[\s>]")
_TEXT_RE = re.compile(rb"<TEXT[\s>/]")


def _peek(path: Path) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read(_PEEK)
    except OSError as exc:
        raise InputFormatError(f"cannot read file: {exc.strerror or exc}", path=path) from None


def detect_file(path: Path) -> str | None:
    """Format of one file, or ``None`` when it belongs to no known format."""
    suffix = path.suffix.lower()
    if suffix in _BY_SUFFIX:
        return _BY_SUFFIX[suffix]
    if suffix == ".xml":
        head = _peek(path)
        rec, txt = _RECORD_RE.search(head), _TEXT_RE.search(head)
        if rec and (not txt or rec.start() < txt.start()):
            return "i2b2-2006"
        return "i2b2-xml"
    if suffix == ".txt":
        if path.with_suffix(".ann").is_file():
            return "brat"
        head = _peek(path)
        if head.startswith(b"START_OF_RECORD="):
            return "physionet"
        return "inline" if _INLINE_RE.search(head) else "txt"
    return None


def iter_files(folder: Path) -> Iterator[Path]:
    """Files under ``folder`` (recursively, sorted, hidden names skipped)."""
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if p.is_file():
            yield p


def detect_format(path: str | Path) -> str:
    """Format name of a file or of a directory of files (all of one format)."""
    p = Path(path)
    if p.is_file():
        fmt = detect_file(p)
        if fmt is None:
            raise UnknownFormatError("cannot tell the format from the file name; pass --format", path=p)
        return fmt
    if not p.is_dir():
        raise InputFormatError("no such file or directory", path=p)
    found: dict[str, Path] = {}
    for f in iter_files(p):
        fmt = detect_file(f)
        if fmt is not None:
            found.setdefault(fmt, f)
    if "inline" in found:  # notes without any PHI tag look like plain text
        found.pop("txt", None)
    if not found:
        raise UnknownFormatError("directory holds no file of a known format", path=p)
    if len(found) > 1:
        kinds = ", ".join(f"{k} (e.g. {v.relative_to(p)})" for k, v in sorted(found.items()))
        raise UnknownFormatError(
            f"directory mixes formats: {kinds}; convert one format at a time or pass --format", path=p
        )
    return next(iter(found))


def output_format(path: str | Path) -> str:
    """Format implied by an output name (``.jsonl``, ``.csv``, ``.parquet``, ``.xml`` = i2b2-2006)."""
    suffix = Path(path).suffix.lower()
    table = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".parquet": "parquet", ".xml": "i2b2-2006"}
    if suffix not in table:
        raise UnknownFormatError("cannot tell the output format from its name; pass --to FORMAT", path=path)
    return table[suffix]
