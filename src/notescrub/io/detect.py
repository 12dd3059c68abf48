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

__all__ = ["check_format_fits", "detect_file", "detect_format", "detection_reason", "iter_files", "output_format"]

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


def detection_reason(path: str | Path) -> str:
    """Why :func:`detect_format` chose its answer for ``path``, in words (for messages).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "x.txt").write_text("Seen by Ruiz.", encoding="utf-8")
    >>> _ = (d / "x.ann").write_text("", encoding="utf-8")
    >>> detection_reason(d / "x.txt")
    'x.txt was treated as brat because x.ann exists next to it'
    """
    p = Path(path)
    if p.is_dir():
        return f"the files of {p.name or p} were read as {detect_format(p)}"
    fmt = detect_file(p)
    suffix = p.suffix.lower()
    if suffix == ".txt" and fmt == "brat":
        return f"{p.name} was treated as brat because {p.with_suffix('.ann').name} exists next to it"
    if suffix == ".txt" and fmt == "physionet":
        return f"{p.name} was treated as physionet because it starts with START_OF_RECORD="
    if suffix == ".txt" and fmt == "inline":
        return f"{p.name} was treated as inline because it holds <PHI TYPE=...> tags"
    if suffix == ".xml":
        return f"{p.name} was treated as {fmt} from its root element"
    return f"{p.name} was treated as {fmt} from its name ({suffix or 'no suffix'})"


def check_format_fits(path: str | Path, fmt: str) -> None:
    """Refuse an explicit ``--format`` that a file's name contradicts (a ``.jsonl`` read as brat...).

    >>> check_format_fits("notes.jsonl", "brat")
    Traceback (most recent call last):
    ...
    notescrub.errors.UnknownFormatError: notes.jsonl: --format brat does not fit this file: its name (.jsonl) says jsonl; brat is a folder of NAME.txt files with NAME.ann next to them; leave --format out to detect the format, or pass --format jsonl
    """
    p = Path(path)
    named = _BY_SUFFIX.get(p.suffix.lower())
    if named is not None and named != fmt and not (fmt == "brat" and p.suffix.lower() == ".txt"):
        hint = "; brat is a folder of NAME.txt files with NAME.ann next to them" if fmt == "brat" else ""
        raise UnknownFormatError(f"--format {fmt} does not fit this file: its name ({p.suffix}) says {named}{hint}; "
                                 f"leave --format out to detect the format, or pass --format {named}", path=p)


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
    """Format implied by an output name (``.jsonl``, ``.csv``/``.tsv``, ``.parquet``, ``.xml`` = i2b2-2006)."""
    suffix = Path(path).suffix.lower()
    table = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "csv", ".parquet": "parquet",
             ".xml": "i2b2-2006"}
    if suffix not in table:
        raise UnknownFormatError("cannot tell the output format from its name; pass --to FORMAT", path=path)
    return table[suffix]
