"""Derived, cached views of a document: tokens with their line, sentence and section.

Detectors and featurizers call :func:`token_view` rather than tokenizing again;
the result is cached on the document (keyed by tokenizer setting).

>>> from notescrub.types import Document
>>> v = token_view(Document("d", "HPI:\\nMr. Diaz, 67M."))
>>> [(t.text, v.line[i], v.section[i]) for i, t in enumerate(v.tokens)][:3]
[('HPI', 0, 'HPI'), (':', 0, 'HPI'), ('Mr', 1, 'HPI')]
>>> v.token_index_at(5)
2

Long runs of punctuation (separator lines such as ``-----`` or ``=====``, or hostile input
such as 100,000 dots) are not worth one CRF step per character: of a run of more than
``2 * INERT_KEEP`` consecutive one-character punctuation tokens only the first and last
:data:`INERT_KEEP` stay in the view (:func:`drop_inert_runs`). Such a run holds no PHI,
and what a kept token sees is unchanged: windows reach two tokens, context bags skip
punctuation, and a sentence with the run keeps more than 20 tokens (the top length bucket).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass

import numpy as np

from notescrub.text.segment import Heading, lines, sections, sentences
from notescrub.text.tokenize import Token, TokenizerMode, mode_key, tokenize
from notescrub.types import Document

__all__ = ["INERT_KEEP", "TokenView", "drop_inert_runs", "token_view"]

#: tokens kept at each end of a long run of one-character punctuation tokens
INERT_KEEP = 12


@dataclass(frozen=True)
class TokenView:
    """Tokens plus per-token attributes (parallel lists, index = token index).

    Attributes
    ----------
    tokens: the tokens (the middle of long punctuation runs left out, see the module doc).
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


def _inert(t: Token) -> bool:
    return len(t.text) == 1 and not t.text.isalnum()


def drop_inert_runs(tokens: list[Token], keep: int = INERT_KEEP) -> list[Token]:
    """``tokens`` without the middle of each run of more than ``2 * keep`` consecutive
    one-character punctuation tokens (the first and last ``keep`` of the run stay). Linear.

    >>> from notescrub.text.tokenize import tokenize
    >>> [t.text for t in drop_inert_runs(tokenize("Seen - - - - - - today"), keep=2)]
    ['Seen', '-', '-', '-', '-', 'today']
    """
    out: list[Token] = []
    run = 0  # length of the punctuation run that ends at the last token read
    for t in tokens:
        if _inert(t):
            run += 1
            if run > 2 * keep:  # the run is long: keep its first `keep` and a rolling last `keep`
                del out[-keep]
        else:
            run = 0
        out.append(t)
    return out


def _build(doc: Document, fused: TokenizerMode) -> TokenView:
    text = doc.text
    toks = drop_inert_runs(tokenize(text, fused=fused))
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
