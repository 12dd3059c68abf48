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

import numpy as np

from notescrub.text.segment import Heading, lines, sections, sentences
from notescrub.text.tokenize import Token, TokenizerMode, mode_key, tokenize
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


def _build(doc: Document, fused: TokenizerMode) -> TokenView:
    text = doc.text
    toks = tokenize(text, fused=fused)
    line_offs = lines(text)
    sents = sentences(text)
    heads = sections(text)
    starts = [t.start for t in toks]
    n = len(text)
    # the enclosing line, sentence and heading of every token: sorted starts, one search each
    at = np.asarray(starts, dtype=np.int64)
    line_idx = (np.searchsorted(np.asarray([a for a, _ in line_offs], dtype=np.int64), at, "right") - 1).tolist()
    si = np.searchsorted(np.asarray([a for a, _ in sents], dtype=np.int64), at, "right") - 1
    if sents:
        inside = (si >= 0) & (at < np.asarray([b for _, b in sents], dtype=np.int64)[np.maximum(si, 0)])
        sent_idx = np.where(inside, si, -1).tolist()
    else:
        sent_idx = [-1] * len(toks)
    hi = (np.searchsorted(np.asarray([h.start for h in heads], dtype=np.int64), at, "right") - 1).tolist()
    names = [h.name for h in heads] + [""]  # index -1: before the first heading
    sect = [names[k] for k in hi]  # == section_at(heads, t.start), without rebuilding the starts
    ends = [h.end for h in heads]
    is_head = [k >= 0 and s < ends[k] for k, s in zip(hi, starts)]  # heads[k].start <= s holds
    space_after = [t.end >= n or text[t.end].isspace() for t in toks]
    return TokenView(toks, line_idx, len(line_offs), sent_idx, sents, sect, is_head, space_after, heads, starts)


def token_view(doc: Document, *, fused: TokenizerMode = True) -> TokenView:
    """The document's :class:`TokenView` for tokenizer setting ``fused`` (computed once, then cached on ``doc``)."""
    return doc.cached(f"token_view:{mode_key(fused)}", lambda d: _build(d, fused))
