"""Line, sentence and section segmentation with character offsets.

Clinical notes are hard-wrapped at a fixed width, so a newline is not a sentence
boundary by itself: a line that reaches (close to) the document's wrap width and
does not end with terminal punctuation continues on the next line. Section headings
are lines in ALL CAPS (``HOSPITAL COURSE``), optionally ending with ``:``, or a short
title followed by a colon at the start of a line (``Social history: lives...``).

>>> text = "HPI:\\n71 yo woman with CHF. Seen in clinic\\ntoday.\\n\\nPLAN\\nDiuresis."
>>> [text[a:b] for a, b in sentences(text)]
['HPI:', '71 yo woman with CHF.', 'Seen in clinic\\ntoday.', 'PLAN', 'Diuresis.']
>>> [(h.name, text[h.start:h.end]) for h in sections(text)]
[('HPI', 'HPI:'), ('PLAN', 'PLAN')]
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import NamedTuple

__all__ = ["Heading", "lines", "section_at", "sections", "sentences", "wrap_width"]


class Heading(NamedTuple):
    """A section heading: its normalised name and the offsets of the heading text."""

    name: str
    start: int
    end: int


_LINE_RE = re.compile(r"[^\n]*")
_TERMINAL = frozenset(".?!:;")
_BULLET_RE = re.compile(r"\s*(?:[-*•·o]\s|\d{1,2}[.)]\s|\(?[a-z]\)\s|#)")
# starts only at the first mark of a run and never backtracks into it: linear on "....." x 100k
_SENT_END_RE = re.compile(r"(?<![.?!])[.?!]++[\"')\]]*+(?=\s+[\"'(\[]?[A-Z0-9ÁÉÍÓÚÑ¿¡])")
_CAPS_HEADING_RE = re.compile(r"^\s*+([A-Z][A-Z0-9 &/,()'\-]{2,60}?)\s*+:?\s*$")
_COLON_HEADING_RE = re.compile(r"^\s*+([A-Z][A-Za-z&/()' \-]{1,40}?)\s*+:(?!\d)")


def lines(text: str) -> list[tuple[int, int]]:
    """Offsets ``(start, end)`` of every line, without the newline character.

    >>> lines("a\\nbc\\n")
    [(0, 1), (2, 4), (5, 5)]
    """
    out = []
    pos = 0
    n = len(text)
    while True:
        nl = text.find("\n", pos)
        if nl < 0:
            out.append((pos, n))
            return out
        end = nl - 1 if nl > pos and text[nl - 1] == "\r" else nl
        out.append((pos, end))
        pos = nl + 1


def wrap_width(text: str, line_offsets: list[tuple[int, int]] | None = None) -> int:
    """Estimate the hard-wrap width: the 90th percentile of non-empty line lengths (≥ 40)."""
    ls = sorted(b - a for a, b in (line_offsets or lines(text)) if b > a)
    if not ls:
        return 80
    return max(40, ls[int(0.9 * (len(ls) - 1))])


def _is_heading_line(line: str) -> bool:
    m = _CAPS_HEADING_RE.match(line)
    return m is not None and sum(c.isalpha() for c in m.group(1)) >= 3


def _continues(line: str, nxt: str, width: int) -> bool:
    """Does ``line`` wrap onto ``nxt`` (same sentence)?"""
    stripped = line.rstrip()
    if not stripped or not nxt.strip():
        return False
    if stripped[-1] in _TERMINAL:
        return False
    if len(line) < 0.7 * width:
        return False
    if _BULLET_RE.match(nxt) or _is_heading_line(nxt) or _is_heading_line(line):
        return False
    return True


def sentences(text: str) -> list[tuple[int, int]]:
    """Sentence offsets, robust to hard line wraps (leading/trailing spaces trimmed)."""
    line_offs = lines(text)
    width = wrap_width(text, line_offs)
    # 1. group lines into blocks (a block ends unless the line wraps onto the next)
    blocks: list[tuple[int, int]] = []
    block_start: int | None = None
    for i, (a, b) in enumerate(line_offs):
        line = text[a:b]
        if not line.strip():
            if block_start is not None:
                blocks.append((block_start, line_offs[i - 1][1]))
                block_start = None
            continue
        if block_start is None:
            block_start = a
        nxt = text[line_offs[i + 1][0] : line_offs[i + 1][1]] if i + 1 < len(line_offs) else ""
        if not _continues(line, nxt, width):
            blocks.append((block_start, b))
            block_start = None
    # 2. split blocks at sentence-final punctuation followed by a capital or digit
    out: list[tuple[int, int]] = []
    for a, b in blocks:
        chunk = text[a:b]
        pos = 0
        for m in _SENT_END_RE.finditer(chunk):
            if _is_abbreviation(chunk, m.start()):
                continue
            out.append((a + pos, a + m.end()))
            pos = m.end()
        out.append((a + pos, b))
    return [_trim(text, s, e) for s, e in out if text[s:e].strip()]


_ABBREV = frozenset(
    ["dr", "mr", "mrs", "ms", "drs", "st", "vs", "pt", "pts", "no", "nº", "dra", "sr", "sra", "sres", "fig", "approx", "etc", "jr", "sr", "e.g", "i.e", "hx", "dx", "tx", "rx", "b.i.d", "t.i.d", "q.d", "p.o"]
)


def _is_abbreviation(chunk: str, dot: int) -> bool:
    j = dot
    while j > 0 and not chunk[j - 1].isspace():
        j -= 1
    word = chunk[j:dot].lower()
    return word in _ABBREV or (len(word) == 1 and word.isalpha())


def _trim(text: str, s: int, e: int) -> tuple[int, int]:
    while s < e and text[s].isspace():
        s += 1
    while e > s and text[e - 1].isspace():
        e -= 1
    return s, e


def sections(text: str) -> list[Heading]:
    """Section headings in document order (ALL-CAPS lines or ``Heading:`` line starts)."""
    out: list[Heading] = []
    for a, b in lines(text):
        line = text[a:b]
        m = _CAPS_HEADING_RE.match(line)
        if m and sum(c.isalpha() for c in m.group(1)) >= 3:
            name = m.group(1).strip()
            end = a + len(line.rstrip())
            out.append(Heading(_norm(name), a + m.start(1), end))
            continue
        m = _COLON_HEADING_RE.match(line)
        if m and len(m.group(1).split()) <= 4:
            out.append(Heading(_norm(m.group(1)), a + m.start(1), a + m.end()))
    return out


def _norm(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip(" :")).upper()


def section_at(headings: list[Heading], offset: int) -> str:
    """Name of the section containing ``offset`` (``""`` before the first heading)."""
    i = bisect_right([h.start for h in headings], offset) - 1
    return headings[i].name if i >= 0 else ""
