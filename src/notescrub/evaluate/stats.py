"""Significance and confidence: z-test for two proportions, paired bootstrap, Spearman.

* :func:`z_test_two_proportions`: Uzuner et al. (2008) eq. 6-7,
  ``z = (p1 - p2) / sqrt(p̂ (1 - p̂) (1/n1 + 1/n2))`` with
  ``p̂ = (n1 p1 + n2 p2) / (n1 + n2)``; two-sided, significant when ``|z|`` exceeds
  the normal quantile for ``alpha`` (1.96 at 0.05).
* :func:`bootstrap_f1_ci`: resample *documents* with replacement, re-sum their
  TP/FP/FN and recompute micro F1 (percentile interval). Given a second system's
  per-document counts on the same documents, the same resamples give an interval
  for the F1 difference (paired bootstrap).
* :func:`spearman`: rank correlation with average ranks for ties (Wellner et al.
  rank records by model confidence and correlate with per-record F).

>>> r = z_test_two_proportions(0.9, 100, 0.8, 100)
>>> round(r.z, 4), r.significant
(1.9803, True)
>>> spearman([1, 2, 3, 4], [10, 20, 30, 45])
1.0
>>> ci = bootstrap_f1_ci([(5, 0, 0), (0, 5, 5)], n_resamples=200, seed=1)
>>> round(ci.estimate, 4), 0.0 <= ci.low <= ci.estimate <= ci.high <= 1.0
(0.5, True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

import numpy as np

from notescrub.errors import ConfigError
from notescrub.evaluate.counts import PRF

__all__ = ["BootstrapCI", "ZTest", "bootstrap_f1_ci", "rankdata", "spearman", "z_test_two_proportions"]

CountsLike = PRF | tuple[int, int, int] | Sequence[int]


@dataclass(frozen=True)
class ZTest:
    z: float
    p_value: float  #: two-sided
    significant: bool
    alpha: float


@dataclass(frozen=True)
class BootstrapCI:
    estimate: float  #: F1 (or F1 difference a - b) on the full set
    low: float
    high: float
    confidence: float
    n_resamples: int
    p_value: float | None = None  #: paired only: share of resamples with difference <= 0 (one-sided), doubled

    def as_dict(self) -> dict[str, float | int | None]:
        return {"estimate": self.estimate, "low": self.low, "high": self.high, "confidence": self.confidence,
                "n_resamples": self.n_resamples, "p_value": self.p_value}


def z_test_two_proportions(p1: float, n1: int, p2: float, n2: int, *, alpha: float = 0.05) -> ZTest:
    """Two-sided z-test that two proportions (e.g. two systems' F on PHI) are equal."""
    for p in (p1, p2):
        if not 0.0 <= p <= 1.0:
            raise ConfigError(f"proportions must lie in [0, 1], got {p}")
    if n1 <= 0 or n2 <= 0:
        raise ConfigError(f"sample sizes must be positive, got {n1} and {n2}")
    pooled = (n1 * p1 + n2 * p2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    if se == 0:
        z = 0.0 if p1 == p2 else math.copysign(math.inf, p1 - p2)
    else:
        z = (p1 - p2) / se
    p_value = math.erfc(abs(z) / math.sqrt(2)) if math.isfinite(z) else 0.0
    critical = NormalDist().inv_cdf(1 - alpha / 2)
    return ZTest(z=z, p_value=p_value, significant=abs(z) > critical, alpha=alpha)


def _as_array(counts: Sequence[CountsLike]) -> np.ndarray:
    rows = [(c.tp, c.fp, c.fn) if isinstance(c, PRF) else tuple(c)[:3] for c in counts]
    arr = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
    if arr.size and arr.min() < 0:
        raise ConfigError("counts must be non-negative")
    return arr


def _f1(sums: np.ndarray) -> np.ndarray:
    tp, fp, fn = sums[..., 0].astype(float), sums[..., 1].astype(float), sums[..., 2].astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tp + fp > 0, tp / (tp + fp), 0.0)
        r = np.where(tp + fn > 0, tp / (tp + fn), 0.0)
        f = np.where(p + r > 0, 2 * p * r / (p + r), 0.0)
    return f


def bootstrap_f1_ci(
    counts: Sequence[CountsLike],
    other: Sequence[CountsLike] | None = None,
    *,
    n_resamples: int = 1000,
    confidence: float = 0.95,
    seed: int = 0,
) -> BootstrapCI:
    """Percentile bootstrap interval of micro F1 over documents (paired when ``other`` is given).

    ``counts`` holds one ``(tp, fp, fn)`` (or :class:`PRF`) per document.
    """
    a = _as_array(counts)
    if len(a) == 0:
        raise ConfigError("bootstrap needs at least one document")
    if not 0 < confidence < 1 or n_resamples < 1:
        raise ConfigError("confidence must be in (0, 1) and n_resamples >= 1")
    b = None if other is None else _as_array(other)
    if b is not None and len(b) != len(a):
        raise ConfigError(f"paired bootstrap needs the same documents: {len(a)} vs {len(b)} count rows")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(a), size=(n_resamples, len(a)))
    stat = _f1(a[idx].sum(axis=1))
    estimate = float(_f1(a.sum(axis=0)))
    p_value = None
    if b is not None:
        stat = stat - _f1(b[idx].sum(axis=1))
        estimate -= float(_f1(b.sum(axis=0)))
        p_value = float(min(1.0, 2 * min(np.mean(stat <= 0), np.mean(stat >= 0))))
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(stat, [tail, 100 - tail])
    return BootstrapCI(estimate, float(low), float(high), confidence, n_resamples, p_value)


def rankdata(x: Sequence[float]) -> list[float]:
    """1-based ranks, ties get the average rank.

    >>> rankdata([10, 20, 20, 5])
    [2.0, 3.5, 3.5, 1.0]
    """
    order = sorted(range(len(x)), key=lambda i: x[i])
    ranks = [0.0] * len(x)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and x[order[j + 1]] == x[order[i]]:
            j += 1
        avg = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = avg
        i = j + 1
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson correlation of average ranks); nan if undefined."""
    if len(x) != len(y):
        raise ConfigError(f"spearman needs sequences of equal length, got {len(x)} and {len(y)}")
    if len(x) < 2:
        return math.nan
    rx, ry = rankdata(x), rankdata(y)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    if vx == 0 or vy == 0:
        return math.nan
    return cov / math.sqrt(vx * vy)
