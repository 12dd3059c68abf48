"""Derived, cached views of a document: tokens with their line, sentence and section.

Detectors and featurizers call :func:`token_view` rather than tokenizing again;
the result is cached on the document (keyed by tokenizer setting).

>>> from notescrub.types import Document
>>> v = token_view(Document("d", "HPI:\\nMr. Diaz, 67M."))
>>> [(t.text, v.line[i], v.section[i]) for i, t in enumerate(v.tokens)][:3]
[('HPI', 0, 'HPI'), (':', 0, 'HPI'), ('Mr', 1, 'HPI')]
>>> v.token_index_at(5)
2
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from notescrub.text.segment import Heading, lines, sections, sentences
from notescrub.text.tokenize import Token, tokenize
from notescrub.types import Document

__all__ = ["TokenView", "token_view"]


@dataclass(frozen=True)
class TokenView:
    """Tokens plus per-token attributes (parallel lists, index = token index).

    Attributes
    ----------
    tokens: the tokens.
    line: 0-based line index of each token.
    n_lines: number of lines in the document.
    sentence: sentence index of each token (-1 if outside every sentence).
    sentence_offsets: ``(start, end)`` of each sentence.
    section: normalised name of the enclosing section heading (``""`` if none).
    is_heading: the token lies inside a heading.
    space_after: whitespace (or end of text) follows the token.
    """

    tokens: list[Token]
    line: list[int]
    n_lines: int
    sentence: list[int]
    sentence_offsets: list[tuple[int, int]]
    section: list[str]
    is_heading: list[bool]
    space_after: list[bool]
    headings: list[Heading]
    _starts: list[int]

    def token_index_at(self, offset: int) -> int:
        """Index of the token containing ``offset`` (or the next token after it)."""
        i = bisect_right(self._starts, offset) - 1
        if i >= 0 and self.tokens[i].end > offset:
            return i
        return i + 1

    def tokens_in(self, start: int, end: int) -> range:
        """Indices of the tokens overlapping ``[start, end)``."""
        lo = bisect_right(self._starts, start) - 1
        if lo < 0 or self.tokens[lo].end <= start:
            lo += 1
        hi = bisect_left(self._starts, end)
        return range(lo, hi)


def _build(doc: Document, fused: bool) -> TokenView:
    text = doc.text
    toks = tokenize(text, fused=fused)
    line_offs = lines(text)
    line_starts = [a for a, _ in line_offs]
    sents = sentences(text)
    sent_starts = [a for a, _ in sents]
    heads = sections(text)
    head_starts = [h.start for h in heads]
    n = len(text)
    line_idx, sent_idx, sect, is_head, space_after = [], [], [], [], []
    for t in toks:
        line_idx.append(bisect_right(line_starts, t.start) - 1)
        si = bisect_right(sent_starts, t.start) - 1
        sent_idx.append(si if si >= 0 and t.start < sents[si][1] else -1)
        hi = bisect_right(head_starts, t.start) - 1
        sect.append(heads[hi].name if hi >= 0 else "")  # == section_at(heads, t.start), without rebuilding the starts
        is_head.append(hi >= 0 and heads[hi].start <= t.start < heads[hi].end)
        space_after.append(t.end >= n or text[t.end].isspace())
    return TokenView(toks, line_idx, len(line_offs), sent_idx, sents, sect, is_head, space_after, heads, [t.start for t in toks])


def token_view(doc: Document, *, fused: bool = True) -> TokenView:
    """The document's :class:`TokenView` (computed once, then cached on ``doc``)."""
    return doc.cached(f"token_view:{int(fused)}", lambda d: _build(d, fused))
