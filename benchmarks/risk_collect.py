"""Run a model over gold notes and keep what the risk evaluation needs (no text kept).

Used by ``benchmarks/risk_eval.py``. One :class:`Note` per gold document: the leftover
features (:func:`notescrub.risk.leftover_features`, both sides by :func:`notescrub.risk.both_sides`) with a gold label per leftover token,
the leaked PHI tokens (``\\w+`` tokens of gold spans not fully covered by the output,
the project's leak definition, as in ``scripts/lowo_en_default.py``), the note's
binary-token counts and the CRF record log-probability, and the tagged tokens' features
(:func:`notescrub.risk.tagged_features`) with a gold label each (for the tagged-token
calibration behind ``expected_f``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from notescrub.risk import both_sides, expected_f1
from notescrub.text.views import token_view
from notescrub.types import Document

_WORD = re.compile(r"\w+")


@dataclass
class Note:
    """What one annotated gold note contributes to the risk evaluation (offsets, counts; no text)."""

    id: str
    group: str
    chars: int
    matrix: np.ndarray  # leftover tokens x FEATURES
    y: np.ndarray  # leftover token overlaps a gold span
    spans: list[tuple[int, int]]  # leftover token offsets
    types: list[str | None]
    leaked: list[tuple[int, int]]  # leaked \w+ gold tokens
    tp: int
    fp: int
    fn: int
    logprob: float
    tagged_matrix: np.ndarray | None = None  # tagged tokens x FEATURES
    tagged_y: np.ndarray | None = None  # tagged token overlaps a gold span

    @property
    def f(self) -> float:
        """Binary-token F of the note; 1.0 when it has no gold and no predicted PHI token (nothing to get wrong)."""
        return expected_f1(self.tp, self.fp, self.fn)


def _mask(n: int, spans: Any) -> np.ndarray:
    marks = np.zeros(n + 1, dtype=np.int32)
    for s in spans:
        for a, b in s.pieces:
            marks[a] += 1
            marks[b] -= 1
    return np.cumsum(marks)[:-1] > 0 if n else np.zeros(0, dtype=bool)


def _overlaps(mask: np.ndarray, a: int, b: int) -> bool:
    return bool(mask[a:b].any())


def note_of(gold: Document, pred: Document, group: str, lang: str) -> Note:
    """Compare ``pred`` (annotated by the model: its ``phi`` layer) with ``gold`` (its ``gold`` layer)."""
    n = len(gold.text)
    g = _mask(n, gold.layer("gold"))
    p = _mask(n, pred.layer("phi"))
    left, tagged = both_sides(pred, lang)
    y = np.array([_overlaps(g, t.start, t.end) for t in left.tokens], dtype=float)
    leaked = []
    for s in gold.layer("gold"):
        for m in _WORD.finditer(gold.text, s.start, s.end):
            if not p[m.start():m.end()].all():
                leaked.append((m.start(), m.end()))
    leaked = sorted(set(leaked))
    tp = fp = fn = 0
    for t in token_view(pred).tokens:  # word-like tokens: PHI when a span overlaps them
        if not any(c.isalnum() for c in t.text):
            continue
        gi, pi = _overlaps(g, t.start, t.end), _overlaps(p, t.start, t.end)
        tp += gi and pi
        fp += pi and not gi
        fn += gi and not pi
    conf = [v for v in pred.metadata.values() if isinstance(v, dict) and "logprob" in v]
    logprob = float(conf[-1]["logprob"]) if conf else 0.0
    ty = np.array([_overlaps(g, t.start, t.end) for t in tagged.tokens], dtype=float)
    return Note(gold.id, group, n, left.matrix, y, [(t.start, t.end) for t in left.tokens], list(left.types),
                leaked, tp, fp, fn, logprob, tagged.matrix, ty)


def collect(pipe: Any, golds: list[Document], group: str) -> list[Note]:
    """Annotate copies of ``golds`` with ``pipe`` and describe each (see :class:`Note`)."""
    lang = "es" if getattr(pipe, "lang", None) == "es" else "en"
    by_id = {d.id: d for d in golds}
    if len(by_id) != len(golds):
        raise ValueError(f"{group}: document ids are not unique")
    # patient-level models regroup the notes: match them back by id, keep the input order
    preds = {p.id: p for p in pipe.pipe([d.copy(layers=False) for d in golds])}
    return [note_of(g, preds[g.id], group, lang) for g in golds]
