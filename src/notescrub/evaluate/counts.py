"""Precision/recall/F counts: the one count object every scorer returns.

:class:`PRF` holds true positives, false positives and false negatives and derives
precision, recall and F1 exactly as the i2b2 2014 and MEDDOCAN scripts do: a
0/0 ratio is 0.0, and F1 is ``2 * ((p * r) / (p + r))`` (0.0 when ``p + r``
is 0). :func:`macro` averages per-document precision and recall the way the
i2b2 2014 script does (mean of per-document values, F from the two means).

>>> a = PRF(tp=3, fp=1, fn=2)
>>> round(a.precision, 4), round(a.recall, 4), round(a.f1, 4)
(0.75, 0.6, 0.6667)
>>> (a + PRF(tp=1)).as_dict()["tp"]
4
>>> PRF().f1
0.0
>>> m = macro([PRF(tp=1, fn=1), PRF()])
>>> m["precision"], m["recall"], round(m["f1"], 4)
(0.5, 0.25, 0.3333)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["PRF", "f_beta", "macro", "ratio"]


def ratio(num: float, den: float) -> float:
    """``num / den``, or 0.0 when ``den`` is 0 (the challenge scripts' convention)."""
    return num / float(den) if den else 0.0


def f_beta(p: float, r: float, beta: float = 1.0) -> float:
    """Weighted harmonic mean ``(1 + b²) p r / (b² p + r)``; 0.0 when both are 0.

    For ``beta == 1`` the value is computed as the official scripts write it,
    ``2 * ((p * r) / (p + r))``, so results agree to the last bit.

    >>> f_beta(1.0, 0.5)
    0.6666666666666666
    >>> round(f_beta(0.5, 1.0, beta=2), 4)
    0.8333
    """
    if beta == 1:
        return 0.0 if p + r == 0 else 2 * ((p * r) / (p + r))
    den = beta**2 * p + r
    return 0.0 if den == 0 else (1 + beta**2) * p * r / den


@dataclass(frozen=True, slots=True)
class PRF:
    """Counts of true positives, false positives and false negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def precision(self) -> float:
        return ratio(self.tp, self.tp + self.fp)

    @property
    def recall(self) -> float:
        return ratio(self.tp, self.tp + self.fn)

    @property
    def f1(self) -> float:
        return f_beta(self.precision, self.recall)

    @property
    def support(self) -> int:
        """Number of reference items (``tp + fn``)."""
        return self.tp + self.fn

    def __add__(self, other: PRF) -> PRF:
        if not isinstance(other, PRF):
            return NotImplemented
        return PRF(self.tp + other.tp, self.fp + other.fp, self.fn + other.fn)

    def as_dict(self) -> dict[str, float | int]:
        """``{"precision", "recall", "f1", "tp", "fp", "fn"}``."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1": self.f1,
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
        }

    @staticmethod
    def total(items: Iterable[PRF]) -> PRF:
        """Sum of many counts (micro-averaging)."""
        tp = fp = fn = 0
        for c in items:
            tp += c.tp
            fp += c.fp
            fn += c.fn
        return PRF(tp, fp, fn)


def macro(per_document: Iterable[PRF]) -> dict[str, float]:
    """Macro average over documents: mean per-document P and R (0/0 counts as 0),
    F from the mean P and R, plus the population standard deviations the i2b2
    2014 script prints. An empty input gives zeros.
    """
    ps: list[float] = []
    rs: list[float] = []
    for c in per_document:
        ps.append(c.precision)
        rs.append(c.recall)
    if not ps:
        return {"precision": 0.0, "recall": 0.0, "f1": 0.0, "precision_sd": 0.0, "recall_sd": 0.0, "documents": 0}
    mp = sum(ps) / len(ps)
    mr = sum(rs) / len(rs)
    return {
        "precision": mp,
        "recall": mr,
        "f1": f_beta(mp, mr),
        "precision_sd": math.sqrt(sum((p - mp) ** 2 for p in ps) / len(ps)),
        "recall_sd": math.sqrt(sum((r - mr) ** 2 for r in rs) / len(rs)),
        "documents": len(ps),
    }
