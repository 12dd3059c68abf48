"""Validation shared by the readers: span offsets and quoted span text.

Errors name the file, line and offsets, never the text itself.

>>> make_span("Seen by Ruiz.", 8, 12, "DOCTOR", quoted="Ruiz", path="a.xml", line=3).end
12
>>> make_span("Seen by Ruiz.", 8, 40, "DOCTOR", path="a.xml", line=3)
Traceback (most recent call last):
...
notescrub.errors.OffsetError: a.xml:3: span [8, 40) (DOCTOR) lies outside the text (length 13)
>>> make_span("Seen by Ruiz.", 8, 12, "DOCTOR", quoted="Diaz", path="a.xml", line=3)
Traceback (most recent call last):
...
notescrub.errors.OffsetError: a.xml:3: span [8, 12) (DOCTOR): its text attribute does not match the document text at those offsets
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError, OffsetError
from notescrub.types import Span

__all__ = ["make_span", "parse_int", "patient_from_stem", "safe_filename", "same_text"]

_WS_RE = re.compile(r"\s+")
_PATIENT_RE = re.compile(r"^([A-Za-z]?\d{1,6})-\d{1,4}$")


def same_text(quoted: str, actual: str) -> bool:
    """Compare a quoted span text with the document text, any whitespace run equal to one space.

    (XML attributes and brat ``.ann`` lines cannot hold raw newlines, so writers
    replace them.)
    """
    return quoted == actual or _WS_RE.sub(" ", quoted).strip() == _WS_RE.sub(" ", actual).strip()


def parse_int(value: Any, what: str, *, path: str | Path | None, line: int | None) -> int:
    """An offset as ``int``; anything else is an :class:`InputFormatError`."""
    if isinstance(value, bool):
        raise InputFormatError(f"{what} is not an integer offset", path=path, line=line)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    raise InputFormatError(f"{what} is not an integer offset", path=path, line=line)


def make_span(
    text: str,
    start: int,
    end: int,
    label: str,
    *,
    quoted: str | None = None,
    fragments: Sequence[tuple[int, int]] = (),
    source: str = "gold",
    meta: Mapping[str, Any] | None = None,
    path: str | Path | None = None,
    line: int | None = None,
) -> Span:
    """Build a span after checking it against ``text`` (offsets inside, quoted text equal)."""
    if not label:
        raise InputFormatError("span has an empty type", path=path, line=line)
    pieces = tuple(fragments) or ((start, end),)
    for a, b in pieces:
        if a < 0 or b < a or b > len(text):
            raise OffsetError(f"span [{a}, {b}) ({label}) lies outside the text (length {len(text)})", path=path, line=line)
    if quoted is not None:
        actual = " ".join(text[a:b] for a, b in pieces)
        if not same_text(quoted, actual):
            raise OffsetError(
                f"span [{start}, {end}) ({label}): its text attribute does not match the document text at those offsets",
                path=path, line=line,
            )
    frags = tuple(fragments) if len(fragments) > 1 else ()
    return Span(start, end, label, 1.0, source, frags, dict(meta or {}))


def patient_from_stem(stem: str) -> str | None:
    """Patient id from i2b2-2014 style names ``PPP-RR`` (``110-02`` -> ``110``, ``P301-2`` -> ``P301``).

    >>> patient_from_stem("110-02"), patient_from_stem("P301-2"), patient_from_stem("S0004-06142005000500011-1")
    ('110', 'P301', None)
    """
    m = _PATIENT_RE.match(stem)
    return m.group(1) if m else None


def safe_filename(doc_id: str, suffix: str) -> str:
    """File name for a document id; ids that could escape the output folder are refused.

    >>> safe_filename("110-02", ".xml")
    '110-02.xml'
    """
    if not doc_id or doc_id in (".", "..") or doc_id.startswith(".") or any(c in doc_id for c in '/\\\0:'):
        raise InputFormatError(f"document id {doc_ref(doc_id)} cannot be used as a file name")
    return doc_id + suffix
