"""Character n-gram language models with Witten-Bell interpolation, many at once.

LingPipe's ``CharLmHmmChunker`` (Wellner et al. 2007, second system) gives every HMM
state its own *bounded* character language model: a token ``w`` is scored as
``P(⊢ w ⊣)``, one character at a time, each conditioned on up to ``n - 1`` previous
characters (the boundary ``⊢`` included). The estimate interpolates the maximum-
likelihood estimate of every context length with the next shorter one, Witten-Bell
style, down to a uniform distribution over ``n_chars`` characters::

    P(c | h) = λ(h) · count(h c) / count(h) + (1 - λ(h)) · P(c | h[1:])
    λ(h)     = count(h) / (count(h) + L · types(h))

where ``types(h)`` is the number of distinct characters seen after ``h`` and ``L`` the
interpolation factor (LingPipe's default: ``L = n``).

:class:`CharLmBank` holds one such model per *state* and scores a string under all of
them at once (a vector of log-probabilities): n-gram counts are shared keys that map to
the few states in which they occur, so scoring costs one dictionary look-up per
character and context length, whatever the number of states.

>>> bank = CharLmBank(n_states=2, order=3)
>>> bank.add(0, "Ruiz", 3); bank.add(1, "the", 5)
>>> bank.freeze()
>>> lp = bank.log_probs("Ruiz")
>>> bool(lp[0] > lp[1]), bool(bank.log_probs("the")[1] > bank.log_probs("the")[0])
(True, True)
>>> round(float(np.exp(bank.log_probs("x")[0])), 6) > 0
True
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import numpy as np

from notescrub.errors import ModelError

__all__ = ["BOUNDARY", "CharLmBank"]

#: The boundary character put before and after every scored string.
BOUNDARY = "\x02"


class CharLmBank:
    """One bounded character n-gram LM per state, trained by counting, scored jointly.

    Parameters
    ----------
    n_states: number of models.
    order: maximum n-gram length ``n`` (context of ``n - 1`` characters).
    n_chars: size of the alphabet of the uniform base distribution.
    lambda_factor: Witten-Bell interpolation factor ``L`` (``None``: ``order``).
    """

    def __init__(self, n_states: int, order: int = 8, n_chars: int = 256, lambda_factor: float | None = None) -> None:
        if n_states < 1 or order < 1 or n_chars < 2:
            raise ModelError(f"invalid character LM shape: states={n_states} order={order} n_chars={n_chars}")
        self.n_states = n_states
        self.order = order
        self.n_chars = n_chars
        self.lambda_factor = float(order if lambda_factor is None else lambda_factor)
        # n-gram string -> {state: count}; built by add(), compiled by freeze()
        self._raw: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        self._ngram: dict[str, tuple[Any, Any]] = {}
        self._counts: dict[str, dict[int, float]] = {}
        self._ctx: dict[str, tuple[Any, Any]] = {}
        self._frozen = False

    # -- training ---------------------------------------------------------------------
    def add(self, state: int, text: str, count: float = 1.0) -> None:
        """Count ``text`` (``count`` times) as emitted by ``state``."""
        if self._frozen:
            raise ModelError("character LM bank is frozen; create a new one to train again")
        x = BOUNDARY + text + BOUNDARY
        raw = self._raw
        for i in range(1, len(x)):
            lo = max(0, i - self.order + 1)
            for j in range(lo, i + 1):
                raw[x[j : i + 1]][state] += count

    def freeze(self) -> None:
        """Compile the counts into per-key sparse state vectors (required before scoring).

        A key seen in one state only (most of them) stores a plain ``(int, float)`` pair,
        which numpy indexes faster than one-element arrays.
        """
        ctx_tot: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        ctx_typ: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
        for gram, per_state in self._raw.items():
            h = gram[:-1]
            tot_h, typ_h = ctx_tot[h], ctx_typ[h]
            for st, c in per_state.items():
                tot_h[st] += c
                typ_h[st] += 1.0
        L = self.lambda_factor
        # context h -> (states, 1 - λ(h)); per state λ(h) / count(h) scales the ML counts
        self._ctx = {}
        scale: dict[str, dict[int, float]] = {}
        for h, tot in ctx_tot.items():
            typ = ctx_typ[h]
            lam = {st: t / (t + L * typ[st]) for st, t in tot.items()}
            self._ctx[h] = _compact({st: 1.0 - v for st, v in lam.items()})
            scale[h] = {st: lam[st] / tot[st] for st in tot}
        # n-gram h·c -> (states, λ(h) · count(h·c) / count(h)): its interpolated ML term
        self._ngram = {}
        self._counts = {}
        for g, per_state in self._raw.items():
            sc = scale[g[:-1]]
            self._ngram[g] = _compact({st: c * sc[st] for st, c in per_state.items()})
            self._counts[g] = per_state
        self._raw = defaultdict(lambda: defaultdict(float))
        self._frozen = True

    # -- scoring ----------------------------------------------------------------------
    def log_probs(self, text: str) -> np.ndarray:
        """``log P_s(⊢ text ⊣)`` for every state ``s`` (natural log, shape ``(n_states,)``)."""
        if not self._frozen:
            raise ModelError("character LM bank must be frozen before scoring")
        x = BOUNDARY + text + BOUNDARY
        probs = np.full((len(x) - 1, self.n_states), 1.0 / self.n_chars)
        ctx, ngram, order = self._ctx, self._ngram, self.order
        for i in range(1, len(x)):
            c = x[i]
            p = probs[i - 1]
            for k in range(min(order - 1, i) + 1):
                h = x[i - k : i]
                entry = ctx.get(h)
                if entry is None:
                    break  # longer contexts are unseen too
                idx, one_minus = entry
                p[idx] *= one_minus
                hit = ngram.get(h + c)
                if hit is not None:
                    p[hit[0]] += hit[1]
        return np.log(probs).sum(axis=0)

    # -- persistence ------------------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        """Plain-data form (JSON-serialisable) of the frozen counts."""
        if not self._frozen:
            raise ModelError("only a frozen character LM bank can be saved")
        return {
            "n_states": self.n_states,
            "order": self.order,
            "n_chars": self.n_chars,
            "lambda_factor": self.lambda_factor,
            "ngrams": {g: [list(d), list(d.values())] for g, d in self._counts.items()},
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> CharLmBank:
        """Rebuild a frozen bank from :meth:`to_state` output."""
        try:
            bank = cls(int(state["n_states"]), int(state["order"]), int(state["n_chars"]), float(state["lambda_factor"]))
            for g, (idx, cnt) in state["ngrams"].items():
                d = bank._raw[g]
                for s, c in zip(idx, cnt):
                    if not 0 <= int(s) < bank.n_states:
                        raise ValueError(f"state index {s} out of range")
                    d[int(s)] += float(c)
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"character LM state is malformed: {exc}") from None
        bank.freeze()
        return bank

    def __repr__(self) -> str:
        return f"CharLmBank(n_states={self.n_states}, order={self.order}, ngrams={len(self._ngram)})"


def _compact(d: dict[int, float]) -> tuple[Any, Any]:
    """``(state, value)`` for one state, else ``(index array, value array)``."""
    if len(d) == 1:
        ((k, v),) = d.items()
        return k, v
    keys = sorted(d)
    return np.asarray(keys, dtype=np.intp), np.asarray([d[k] for k in keys], dtype=float)


def log_prob_reference(counts: dict[str, float], text: str, order: int, n_chars: int, lambda_factor: float) -> float:
    """Slow, single-model reference implementation (used by the tests)."""
    grams: dict[str, float] = defaultdict(float)
    for w, c in counts.items():
        x = BOUNDARY + w + BOUNDARY
        for i in range(1, len(x)):
            for j in range(max(0, i - order + 1), i + 1):
                grams[x[j : i + 1]] += c
    tot: dict[str, float] = defaultdict(float)
    typ: dict[str, int] = defaultdict(int)
    for g, c in grams.items():
        tot[g[:-1]] += c
        typ[g[:-1]] += 1
    x = BOUNDARY + text + BOUNDARY
    lp = 0.0
    for i in range(1, len(x)):
        p = 1.0 / n_chars
        for k in range(min(order - 1, i) + 1):
            h = x[i - k : i]
            if h not in tot:
                break
            lam = tot[h] / (tot[h] + lambda_factor * typ[h])
            p = lam * grams.get(h + x[i], 0.0) / tot[h] + (1 - lam) * p
        lp += math.log(p)
    return lp
