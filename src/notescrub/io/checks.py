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

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError, OffsetError
from notescrub.types import Span

__all__ = ["check_unicode", "is_offset", "json_loads", "make_span", "parse_int", "patient_from_stem", "safe_filename", "same_text"]

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
    if isinstance(value, str) and is_offset(value.strip()):
        return int(value)
    raise InputFormatError(f"{what} is not an integer offset", path=path, line=line)


_OFFSET_RE = re.compile(r"-?[0-9]{1,15}")


def is_offset(text: str, *, signed: bool = False) -> bool:
    """ASCII digits only and at most 15 of them (``"²"``, ``"٣"``, ``"--1"`` and 5,000-digit strings are not offsets).

    >>> [is_offset(x) for x in ("12", "²", "٣", "--1", "-1", "9" * 16)], is_offset("-1", signed=True)
    ([True, False, False, False, False, False], True)
    """
    return bool(_OFFSET_RE.fullmatch(text)) and (signed or not text.startswith("-"))


def check_unicode(value: object, what: str, *, path: str | Path | None, line: int | None) -> None:
    r"""Refuse strings that cannot be written as UTF-8 (lone surrogates from ``\ud800`` escapes).

    >>> check_unicode("ok", "text", path="x.jsonl", line=1)
    >>> check_unicode("a\ud800", "text", path="x.jsonl", line=3)
    Traceback (most recent call last):
    ...
    notescrub.errors.InputFormatError: x.jsonl:3: text contains a lone UTF-16 surrogate (\ud800-\udfff), which is not a character
    """
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise InputFormatError(f"{what} contains a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character",
                                   path=path, line=line) from None


def json_loads(text: str | bytes, what: str, *, path: str | Path | None, line: int | None) -> Any:
    """``json.loads`` whose every failure is an :class:`InputFormatError` naming the place.

    Besides syntax errors: numbers too long to convert, nesting too deep for the parser, and
    lone UTF-16 surrogates (``"\\udfff"`` escapes) in any key or string value, which could be
    read but never written back as UTF-8.

    >>> json_loads('{"a": 1}', "record", path="x.jsonl", line=1)
    {'a': 1}
    >>> json_loads('{"spans": [{"te\\udfffxt": 1}]}', "record", path="x.jsonl", line=4)
    Traceback (most recent call last):
    ...
    notescrub.errors.InputFormatError: x.jsonl:4: record contains a lone UTF-16 surrogate (\\ud800-\\udfff), which is not a character
    >>> json_loads("[" * 100000, "record", path="x.jsonl", line=2)
    Traceback (most recent call last):
    ...
    notescrub.errors.InputFormatError: x.jsonl:2: record is nested too deeply to be read
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputFormatError(f"invalid JSON in {what} ({exc.msg} at column {exc.colno})", path=path,
                               line=line) from None
    except RecursionError:
        raise InputFormatError(f"{what} is nested too deeply to be read", path=path, line=line) from None
    except ValueError:  # e.g. an integer of thousands of digits
        raise InputFormatError(f"{what} holds a number that cannot be read", path=path, line=line) from None
    if _may_hold_lone_surrogate(text):
        _check_strings(value, what, path=path, line=line)
    return value


#: a JSON escape of a UTF-16 surrogate (``\ud800``-``\udfff``, either case of hex digit)
_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _may_hold_lone_surrogate(text: str | bytes) -> bool:
    r"""False only when parsing ``text`` cannot have produced a lone surrogate (skips the walk).

    A decoded string holds one only through a ``\udXXX`` escape or a raw one in ``text``
    itself; bytes are always walked.

    >>> _may_hold_lone_surrogate('{"a": "b"}'), _may_hold_lone_surrogate('{"a": "\\uDC00"}')
    (False, True)
    >>> _may_hold_lone_surrogate('{"a": "\ud800"}'), _may_hold_lone_surrogate(b'{}')
    (True, True)
    """
    if not isinstance(text, str) or _ESCAPED_SURROGATE.search(text):
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _check_strings(value: Any, what: str, *, path: str | Path | None, line: int | None) -> None:
    """:func:`check_unicode` on every key and string in a parsed JSON value (no recursion)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            check_unicode(item, what, path=path, line=line)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


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
    if len((doc_id + suffix).encode("utf-8", "surrogatepass")) > _MAX_NAME_BYTES:
        raise InputFormatError(f"document id {doc_ref(doc_id)} is too long for a file name "
                               f"(at most {_MAX_NAME_BYTES} bytes with its suffix); write JSONL, CSV or Parquet instead")
    return doc_id + suffix


#: longest file name most file systems accept (ext4, APFS, NTFS: 255)
_MAX_NAME_BYTES = 255
