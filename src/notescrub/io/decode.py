"""Strict decoding of input files: undecodable bytes are an error, never replaced.

>>> decode_bytes("Peña".encode("utf-8"), "utf-8", path="a.txt")
'Peña'
>>> decode_bytes(b"ok\\nPe\\xf1a", "utf-8", path="a.txt")
Traceback (most recent call last):
...
notescrub.errors.EncodingError: a.txt:2: bytes at offset 5 are not valid utf-8 (pass --encoding, e.g. --encoding latin-1)
>>> decode_bytes(b"ok\\nPe\\xf1a", "latin-1", path="a.txt")
'ok\\nPeña'
"""

from __future__ import annotations

import codecs
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO

from notescrub.errors import EncodingError, InputFormatError, NotescrubError

__all__ = ["check_encoding", "decode_bytes", "iter_lines", "read_text"]


def check_encoding(encoding: str) -> str:
    """Return the codec's canonical name, or raise for an unknown encoding."""
    try:
        return codecs.lookup(encoding).name
    except LookupError:
        raise EncodingError(f"unknown encoding {encoding!r}") from None


def decode_bytes(data: bytes, encoding: str, *, path: str | Path) -> str:
    """Decode ``data`` strictly; the error names the file, line and byte offset.

    A byte-order mark is kept as a character: corpora such as MEDDOCAN count it in
    their offsets.
    """
    try:
        return data.decode(encoding, errors="strict")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise EncodingError(
            f"bytes at offset {exc.start} are not valid {encoding} (pass --encoding, e.g. --encoding latin-1)",
            path=path, line=line,
        ) from None
    except LookupError:
        raise EncodingError(f"unknown encoding {encoding!r}", path=path) from None


def read_text(path: str | Path, encoding: str = "utf-8", *, allow_empty: bool = False) -> str:
    """Whole file as text, line endings untouched; empty files are an error unless allowed."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputFormatError(f"cannot read file: {exc.strerror or exc}", path=p) from None
    text = decode_bytes(data, encoding, path=p)
    if not allow_empty and not text.strip():
        raise InputFormatError("empty file", path=p)
    return text


def iter_lines(
    path: str | Path, encoding: str = "utf-8", *, on_error: Callable[[NotescrubError], None] | None = None
) -> Iterator[tuple[int, str]]:
    """Yield ``(line_number, line)`` one at a time (line endings kept), decoding strictly.

    With ``on_error``, a line that does not decode is reported to it and skipped
    (for ASCII-compatible encodings); otherwise it raises :class:`EncodingError`.
    """
    p = Path(path)
    enc = check_encoding(encoding)
    try:
        raw: IO[bytes] = open(p, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise InputFormatError(f"cannot read file: {exc.strerror or exc}", path=p) from None
    with raw:
        if "\n".encode(enc) != b"\n":  # UTF-16/32: let the codec find the lines
            yield from _iter_wide(raw, enc, p)
            return
        for n, bline in enumerate(raw, 1):
            if n == 1 and enc == "utf-8" and bline.startswith(codecs.BOM_UTF8):
                bline = bline[len(codecs.BOM_UTF8):]
            try:
                line = bline.decode(enc, errors="strict")
            except UnicodeDecodeError as exc:
                err = EncodingError(
                    f"bytes at column {exc.start + 1} are not valid {encoding} (pass --encoding, e.g. --encoding latin-1)",
                    path=p, line=n,
                )
                if on_error is None:
                    raise err from None
                on_error(err)
                continue
            yield n, line


def _iter_wide(raw: IO[bytes], encoding: str, p: Path) -> Iterator[tuple[int, str]]:
    stream = io.TextIOWrapper(raw, encoding=encoding, errors="strict", newline="")
    n = 0
    while True:
        try:
            line = stream.readline()
        except UnicodeDecodeError:
            raise EncodingError(f"bytes not valid {encoding} (pass --encoding)", path=p, line=n + 1) from None
        if not line:
            return
        n += 1
        yield n, line
