"""A single character n-gram language model over long texts (a "process" LM).

LingPipe's rescoring chunker models the text *between* entities with one long
character model that runs across token and entity boundaries. :class:`CharLm` is that
model: the same Witten-Bell interpolation as :class:`~notescrub.detect.lingpipe.charlm.CharLmBank`,
for one model, with plain dictionaries (millions of n-grams stay affordable), and a
scorer for any window of a string given its preceding context.

>>> lm = CharLm(order=3)
>>> lm.add("the cat sat on the mat")
>>> lm.freeze()
>>> lm.log_prob("the mat") > lm.log_prob("xqz jvk")
True
>>> round(lm.log_prob_window("on the", 3, 6) - lm.log_prob_window("on the", 0, 6) + lm.log_prob_window("on the", 0, 3), 9)
0.0
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from functools import lru_cache
from typing import Any

from notescrub.detect.lingpipe.charlm import BOUNDARY
from notescrub.errors import ModelError

__all__ = ["CharLm"]


@lru_cache(maxsize=16)
def _kgrams(k: int) -> re.Pattern[str]:
    return re.compile(f"(?=(.{{{k}}}))", re.DOTALL)


class CharLm:
    """Witten-Bell interpolated character n-gram model (see the module docstring)."""

    def __init__(self, order: int = 8, n_chars: int = 256, lambda_factor: float | None = None) -> None:
        if order < 1 or n_chars < 2:
            raise ModelError(f"invalid character LM: order={order} n_chars={n_chars}")
        self.order = order
        self.n_chars = n_chars
        self.lambda_factor = float(order if lambda_factor is None else lambda_factor)
        self._counts: dict[str, float] = defaultdict(float)
        self._frozen = False

    def add(self, text: str, count: float = 1.0) -> None:
        """Count the n-grams of ``⊢ text ⊣``."""
        if self._frozen:
            raise ModelError("character LM is frozen")
        x = BOUNDARY + text + BOUNDARY
        grams: Counter[str] = Counter(x[1:])  # unigrams (the leading boundary is context only)
        for k in range(2, self.order + 1):
            grams.update(_kgrams(k).findall(x))  # every k-gram, overlapping, found in C
        counts = self._counts
        for g, c in grams.items():
            counts[g] += c * count

    def freeze(self) -> None:
        """Precompute ``1 - λ(h)`` per context and each n-gram's interpolated ML term."""
        tot: dict[str, float] = defaultdict(float)
        typ: dict[str, int] = defaultdict(int)
        for g, c in self._counts.items():
            tot[g[:-1]] += c
            typ[g[:-1]] += 1
        L = self.lambda_factor
        lam = {h: t / (t + L * typ[h]) for h, t in tot.items()}
        self._one_minus = {h: 1.0 - v for h, v in lam.items()}
        self._term = {g: lam[g[:-1]] * c / tot[g[:-1]] for g, c in self._counts.items()}
        self._frozen = True

    def _cond(self, x: str, i: int) -> float:
        """``log P(x[i] | x[:i])`` (contexts of up to ``order - 1`` characters)."""
        p = 1.0 / self.n_chars
        c = x[i]
        one_minus, term = self._one_minus, self._term
        for k in range(min(self.order - 1, i) + 1):
            h = x[i - k : i]
            om = one_minus.get(h)
            if om is None:
                break
            p = p * om + term.get(h + c, 0.0)
        return math.log(p)

    def log_prob_window(self, x: str, start: int, end: int) -> float:
        """``Σ log P(x[i] | x[:i])`` for ``start <= i < end`` (``x`` as given, no boundaries added)."""
        if not self._frozen:
            raise ModelError("character LM must be frozen before scoring")
        return sum(self._cond(x, i) for i in range(start, end))

    def log_prob(self, text: str) -> float:
        """``log P(⊢ text ⊣)``."""
        x = BOUNDARY + text + BOUNDARY
        return self.log_prob_window(x, 1, len(x))

    def to_state(self) -> dict[str, Any]:
        return {"order": self.order, "n_chars": self.n_chars, "lambda_factor": self.lambda_factor,
                "counts": dict(self._counts)}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> CharLm:
        try:
            lm = cls(int(state["order"]), int(state["n_chars"]), float(state["lambda_factor"]))
            lm._counts.update({str(k): float(v) for k, v in state["counts"].items()})
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ModelError(f"character LM state is malformed: {exc}") from None
        lm.freeze()
        return lm
