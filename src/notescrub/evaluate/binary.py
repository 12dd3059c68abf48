"""Token classification scores: PHI vs non-PHI (Stat De-id) and per-token labels.

Tokens come from :func:`notescrub.text.tokenize.tokenize` over the whole text
(punctuation tokens included). A token takes the label of the span that covers
most of its characters (ties: the earlier span in ``(start, end, label)`` order);
a token that no span touches is non-PHI. :func:`binary_token_prf` scores the PHI
class *and* the non-PHI class, as Uzuner et al. (2008) report both.

>>> from notescrub.evaluate.labels import Item
>>> text = "Seen by Dr. Ruiz today."
>>> gold = [Item(12, 16, "DOCTOR", "NAME", "DOCTOR", "DOCTOR")]
>>> pred = [Item(8, 16, "DOCTOR", "NAME", "DOCTOR", "DOCTOR")]
>>> r = binary_token_prf([("d", text, gold, pred)])
>>> r["phi"]["tp"], r["phi"]["fp"], r["non_phi"]["tp"], r["non_phi"]["fn"], r["tokens"]
(1, 2, 4, 2, 7)
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import Any

from notescrub.evaluate.counts import PRF
from notescrub.evaluate.labels import Item
from notescrub.text.tokenize import Token, tokenize

__all__ = ["TOKENIZER_NOTE", "binary_token_prf", "token_labels"]

TOKENIZER_NOTE = "tokens from notescrub.text.tokenize (fused=True), punctuation tokens included"

DocItems = tuple[str, str, Sequence[Item], Sequence[Item]]


def token_labels(tokens: Sequence[Token], items: Sequence[Item]) -> list[str | None]:
    """Label of each token (``None`` = not PHI), by largest character overlap."""
    ordered = sorted(items, key=lambda i: (i.start, i.end, i.label))
    starts = [i.start for i in ordered]
    max_len = max((i.end - i.start for i in ordered), default=0)
    out: list[str | None] = []
    for t in tokens:
        best: tuple[int, int] | None = None  # (overlap, -index)
        label = None
        lo = bisect_left(starts, t.start - max_len)
        for k in range(lo, len(ordered)):
            it = ordered[k]
            if it.start >= t.end:
                break
            ov = min(t.end, it.end) - max(t.start, it.start)
            if ov > 0 and (best is None or (ov, -k) > best):
                best, label = (ov, -k), it.label
        out.append(label)
    return out


def binary_token_prf(docs: Sequence[DocItems], *, fused: bool = True) -> dict[str, Any]:
    """PHI-class and non-PHI-class token P/R/F over paired documents."""
    phi = PRF()
    n_tokens = 0
    for _doc_id, text, gold, pred in docs:
        toks = tokenize(text, fused=fused)
        n_tokens += len(toks)
        g = token_labels(toks, gold)
        p = token_labels(toks, pred)
        tp = sum(1 for a, b in zip(g, p) if a is not None and b is not None)
        fp = sum(1 for a, b in zip(g, p) if a is None and b is not None)
        fn = sum(1 for a, b in zip(g, p) if a is not None and b is None)
        phi += PRF(tp, fp, fn)
    tn = n_tokens - phi.tp - phi.fp - phi.fn
    non_phi = PRF(tp=tn, fp=phi.fn, fn=phi.fp)
    return {"phi": phi.as_dict(), "non_phi": non_phi.as_dict(), "tokens": n_tokens, "note": TOKENIZER_NOTE}
