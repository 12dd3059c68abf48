"""Our own linear-chain CRF inference (numpy) over the weights of a CRFsuite model.

CRFsuite's tagger cannot shift a label's score before decoding, so the weights are read
once (``Tagger.info()``: state features and transitions) and inference is done here:

* :meth:`CRFWeights.state_scores` -- the per-position label scores ``S[t, y]``;
  a bias added to the ``O`` column is Wellner et al.'s (2007) recall knob (negative
  bias: fewer ``O`` labels, higher recall; the number of non-``O`` tokens on the
  Viterbi path can only grow as the bias decreases, see :func:`viterbi`).
* :func:`viterbi` -- the best label sequence and its score.
* :func:`forward_backward` -- scaled forward-backward: token marginals ``P(y_t | x)``,
  ``log Z`` and what :func:`segment_probability` needs for the exact probability
  that a span's tokens carry the decoded labels.

CRFsuite's linear-chain model has no start/end transitions, so these match its own
Viterbi and marginals (up to the 6 decimals of the weight dump).

:func:`viterbi` and :func:`forward_backward` are always the numpy recursions (the
``numpy`` kernel); a :class:`~notescrub.detect.crf.tagger.CRFTagger` decodes with the kernel that
:func:`notescrub.detect.crf.kernels.kernel` chose when it got its weights (numpy or the
compiled numba recursions, see :mod:`~notescrub.detect.crf.kernels`).

>>> import numpy as np
>>> S = np.array([[2.0, 0.0], [0.0, 1.0], [1.0, 0.5]])   # 3 tokens, labels O, X
>>> T = np.zeros((2, 2))
>>> viterbi(S, T)[0].tolist()
[0, 1, 0]
>>> viterbi(S + np.array([-1.0, 0]), T)[0].tolist()        # bias -1 on O
[0, 1, 1]
>>> fb = forward_backward(S, T)
>>> np.allclose(fb.marginals.sum(1), 1.0), round(float(fb.marginals[1, 1]), 3)
(True, 0.731)
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import sparse

__all__ = ["CRFWeights", "ForwardBackward", "Reach", "forward_backward", "segment_probability", "sequence_score",
           "transition_reach", "viterbi", "viterbi_shortcut_reach"]


@dataclass(frozen=True, eq=False)
class CRFWeights:
    """A CRF's parameters as arrays: ``state`` (attributes x labels, sparse) and ``trans``.

    Immutable once built (``trans`` and the sparse data are read-only, ``labels`` a tuple;
    ``attr_index`` is not to be changed): every cache built from them lives in a
    :class:`notescrub.detect.crf.scorer.Scorer`. Equality is identity.

    >>> w = CRFWeights(("O", "B-X"), {"w=a": 0}, sparse.csr_matrix(np.array([[0.5, 1.0]])), np.zeros((2, 2)))
    >>> w.state_scores([["w=a", "w=unknown"], []]).tolist()
    [[0.5, 1.0], [0.0, 0.0]]
    >>> w.trans.flags.writeable
    False
    """

    labels: tuple[str, ...]
    attr_index: dict[str, int]
    state: sparse.csr_matrix
    trans: np.ndarray

    def __post_init__(self) -> None:
        object.__setattr__(self, "labels", tuple(self.labels))
        trans = np.array(self.trans, dtype=np.float64)  # an own copy, then read-only
        trans.setflags(write=False)
        object.__setattr__(self, "trans", trans)
        self.state.data.setflags(write=False)

    @classmethod
    def from_tagger(cls, tagger: Any) -> CRFWeights:
        """Read the weights of an opened :class:`pycrfsuite.Tagger`."""
        labels = list(tagger.labels())
        lab = {name: k for k, name in enumerate(labels)}
        dumped = _dumped_weights(tagger)
        if dumped is None:  # an unexpected dump layout: CRFsuite's own (slower) parser
            info = tagger.info()
            state_items = [(a, b, w) for (a, b), w in info.state_features.items()]
            trans_items = [(a, b, w) for (a, b), w in info.transitions.items()]
        else:
            state_items, trans_items = dumped
        attr_index: dict[str, int] = {}
        rows, cols, vals = [], [], []
        for attr, label, w in state_items:
            r = attr_index.setdefault(attr, len(attr_index))
            rows.append(r)
            cols.append(lab[label])
            vals.append(w)
        state = sparse.csr_matrix(
            (np.asarray(vals, dtype=np.float64), (np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
            shape=(len(attr_index), len(labels)),
        )
        trans = np.zeros((len(labels), len(labels)))
        for a, b, w in trans_items:
            trans[lab[a], lab[b]] = w
        return cls(tuple(labels), attr_index, state, trans)

    def state_scores(self, attrs: Sequence[Sequence[str]]) -> np.ndarray:
        """``S[t, y]``: sum of the weights of token ``t``'s attributes for label ``y``."""
        index = self.attr_index
        cols: list[int] = []
        indptr = [0]
        for feats in attrs:
            for a in feats:
                k = index.get(a)
                if k is not None:
                    cols.append(k)
            indptr.append(len(cols))
        x = sparse.csr_matrix(
            (np.ones(len(cols)), np.asarray(cols, dtype=np.int64), np.asarray(indptr, dtype=np.int64)),
            shape=(len(attrs), len(index)),
        )
        return np.asarray((x @ self.state).todense())

    def add_pair_scores(self, S: np.ndarray, toks: Sequence[int], cols: Sequence[int]) -> None:
        """Add to ``S`` the weights of attribute ``cols[k]`` at token ``toks[k]`` (bigram hits)."""
        x = sparse.csr_matrix((np.ones(len(cols)), (np.asarray(toks, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
                              shape=(len(S), len(self.attr_index)))
        S += (x @ self.state).toarray()


Reach = tuple[np.ndarray, float]


def transition_reach(T: np.ndarray) -> Reach:
    """``(reach, max |T|)`` of a transition matrix: ``reach[s, a] = max_y T[a, y] - T[s, y]``
    (see :func:`viterbi_shortcut_reach`); a model computes it once (its ``T`` never changes).

    >>> transition_reach(np.array([[0.0, 1.0], [0.0, 0.0]]))[0].tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    return (T[None, :, :] - T[:, None, :]).max(2), float(np.abs(T).max())


def _slack(S: np.ndarray, t_max: float) -> float:
    return 1e-9 * (1.0 + (float(np.abs(S).max()) + t_max) * len(S))


def viterbi_shortcut_reach(S: np.ndarray, T: np.ndarray, reach: Reach | None = None) -> np.ndarray:
    """``reach[s, a] + slack``: how far below the best label ``s`` a label ``a`` may lie and
    still win some column of a Viterbi step.

    ``reach[s, a] = max_y T[a, y] - T[s, y]`` is the largest gain of ``a`` over ``s``
    through a transition (``reach``: :func:`transition_reach` of ``T``, computed when not
    given); ``slack`` is a margin (growing with the scores' size and the sequence length) so
    that a label judged hopeless is *strictly* worse after rounding.

    >>> viterbi_shortcut_reach(np.zeros((1, 2)), np.array([[0.0, 1.0], [0.0, 0.0]])).round(3).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    r, t_max = reach if reach is not None else transition_reach(T)
    return r + _slack(S, t_max)


def viterbi(S: np.ndarray, T: np.ndarray, reach: Reach | None = None) -> tuple[np.ndarray, float]:
    """Best path (label indices) and its unnormalised score (``reach``: :func:`transition_reach`
    of ``T``, computed when not given).

    Same result as the textbook recursion ``delta[t] = max_a(delta[t-1][a] + T[a]) + S[t]``
    (first index on ties), with two exact shortcuts:

    * a label ``a`` with ``delta[a] < max(delta) - reach[best, a]`` (``reach[s, a]``: the
      largest gain ``T[a, y] - T[s, y]`` of ``a`` over ``s`` in any column) never beats the
      best one; when every other label is in that case, the step is a single-label step
      (``delta[t] = delta[best] + T[best] + S[t]``, back-pointers ``best``), otherwise a full
      step (dropping hopeless labels changes neither the maxima nor their tie-breaking);
    * when a single label ``s`` is left and the next positions keep it alone and best
      (checked for all positions at once, with a safety margin for rounding), the run is
      skipped: back-pointers are ``s`` and only the scalar score of ``s`` is carried, with
      the same floating-point operations as the full recursion.
    """
    n, L = S.shape
    if n == 0:
        return np.zeros(0, dtype=np.int64), 0.0
    gain, t_max = reach if reach is not None else transition_reach(T)
    slack = _slack(S, t_max)
    reach_s = gain + slack  # reach_s[best, best] == slack: best is always kept
    o = int(np.bincount(S.argmax(1), minlength=L).argmax())  # the usual label (O)
    g = S + T[o]  # delta[t] - const after a single-label step from o
    others = g - g[:, o : o + 1] + gain[o][None, :]
    others[:, o] = -np.inf
    stays = others.max(1) < -2 * slack  # o alone and best at t: the next step keeps only o
    # run_end[t]: first position >= t where o does not stay (n if none)
    idx = np.where(stays, n, np.arange(n))
    run_end = np.minimum.accumulate(idx[::-1])[::-1]
    t_oo, s_o = float(T[o, o]), S[:, o].tolist()
    back = np.empty((n, L), dtype=np.int64)
    cols = np.arange(L)
    delta = S[0].copy()
    rows, trows = list(S), list(T)  # row views made once, not per step
    TT = np.ascontiguousarray(T.T)
    count_nonzero = np.count_nonzero
    t = 1
    while t < n:
        best = int(delta.argmax())
        top = delta[best]
        if count_nonzero(delta >= top - reach_s[best]) > 1:
            # several labels may win some column: a full step (the labels that were not kept
            # are strictly worse everywhere, so maxima and first-index ties are the same)
            cand = TT + delta  # cand[y, a] = delta[a] + T[a, y]
            arg = cand.argmax(1)
            back[t] = arg
            delta = cand[cols, arg] + rows[t]
            t += 1
            continue
        back[t] = best
        if best != o or not stays[t]:
            delta = (top + trows[best]) + rows[t]
            t += 1
            continue
        # positions t .. r-1 are single-label steps from o that leave o alone and best
        r = min(int(run_end[t]), n - 1)
        back[t : r + 1] = o
        top = float(top)
        for u in range(t, r):
            top = (top + t_oo) + s_o[u]
        delta = (top + T[o]) + S[r]
        t = r + 1
    path = np.empty(n, dtype=np.int64)
    p = int(delta.argmax())
    path[-1] = p
    for t in range(n - 1, 0, -1):
        p = int(back[t, p])
        path[t - 1] = p
    return path, float(delta.max())


@dataclass
class ForwardBackward:
    """Scaled forward-backward results (``alpha[t]`` sums to 1; ``c[t]`` its scale)."""

    alpha: np.ndarray
    beta: np.ndarray
    scale: np.ndarray
    shift: np.ndarray
    expS: np.ndarray
    expT: np.ndarray
    log_z: float

    @property
    def marginals(self) -> np.ndarray:
        """``P(y_t = y | x)`` for every position and label."""
        return self.alpha * self.beta


def forward_backward(S: np.ndarray, T: np.ndarray) -> ForwardBackward:
    """Forward-backward in probability space with per-position scaling (stable).

    The recursions run unnormalised (``u[t] = (u[t-1] @ E) * P[t]`` and
    ``v[t] = E @ (P[t+1] * v[t+1])``), rescaled only every few steps (as often as needed
    to stay far from overflow and underflow); the per-position scaling of the classic
    algorithm -- ``alpha[t]`` summing to 1, ``scale[t]`` its normaliser and
    ``alpha[t] @ beta[t] == 1`` -- is then applied to all positions at once. Same values
    up to rounding, half the array operations per token.
    """
    n, L = S.shape
    shift = S.max(1) if n else np.zeros(0)
    P = np.exp(S - shift[:, None])
    E = np.exp(T)
    if n == 0:
        return ForwardBackward(np.empty((0, L)), np.empty((0, L)), np.empty(0), shift, P, E, 0.0)
    # one step multiplies a vector's total by at most L * e^max|T| (and P <= 1, max P == 1)
    every = max(1, int(600 // (np.log(max(L, 2)) + float(np.abs(T).max()) + 1.0)))
    # Both recursions advance in one loop, as one vector-matrix product of length 2L:
    # the first half is forward (u[k] = (u[k-1] @ E) * P[k]), the second half backward
    # at t = n-1-k (v[t] = E @ z[t+1] with z[t] = P[t] * v[t]): X[k] = Y[k] * (P[k], P[n-1-k])
    # where Y[k] = X[k-1] @ diag(E, E^T). Both rescale at the same steps (k % every == 0).
    EB = np.zeros((2 * L, 2 * L))
    EB[:L, :L] = E
    EB[L:, L:] = E.T
    PP = np.empty((n, 2 * L))
    PP[:, :L] = P
    PP[:, L:] = P[::-1]
    X = np.empty((n, 2 * L))
    Y = np.empty((n, 2 * L))
    X[0] = PP[0]  # u[0] = P[0]; z[n-1] = P[n-1] * v[n-1], v[n-1] = 1
    Y[0] = 1.0
    pre = np.ones(n)  # total of u[t] before a rescaling at t (1: not rescaled)
    xs, ys, ps = list(X), list(Y), list(PP)
    dot, multiply = np.dot, np.multiply
    for k in range(1, n):
        yk = ys[k]
        dot(xs[k - 1], EB, out=yk)
        if k % every:
            multiply(yk, ps[k], out=xs[k])
            continue
        vk = yk[L:]
        vk /= vk.sum()
        xk = xs[k]
        multiply(yk, ps[k], out=xk)
        uk = xk[:L]
        pre[k] = total = uk.sum()
        uk /= total
    u = X[:, :L]
    v = Y[::-1, L:]
    totals = u.sum(1)
    alpha = u / totals[:, None]
    c = np.empty(n)
    c[0] = totals[0]
    c[1:] = totals[1:] * pre[1:] / totals[:-1]
    beta = v / np.einsum("ij,ij->i", alpha, v)[:, None]
    log_z = float(np.log(c).sum() + shift.sum())
    return ForwardBackward(alpha, beta, c, shift, P, E, log_z)


def sequence_score(S: np.ndarray, T: np.ndarray, path: Sequence[int] | np.ndarray) -> float:
    """Unnormalised score of a label path; ``score - log_z`` is its log-probability."""
    p = np.asarray(path, dtype=np.int64)
    if len(p) == 0:
        return 0.0
    return float(S[np.arange(len(p)), p].sum() + T[p[:-1], p[1:]].sum())


def segment_probability(fb: ForwardBackward, path: Sequence[int] | np.ndarray, a: int, b: int) -> float:
    """``P(y_a..y_{b-1} = path[a:b] | x)``: the probability of a decoded span's labels."""
    p = float(fb.alpha[a, path[a]])
    if b - a > _LONG_SPAN:  # one array expression instead of a Python step per token
        y = np.asarray(path[a:b], dtype=np.int64)
        steps = np.arange(a + 1, b)
        factors = fb.expT[y[:-1], y[1:]] * fb.expS[steps, y[1:]] / fb.scale[steps]
        p *= float(np.prod(factors))
    else:
        for t in range(a + 1, b):
            p *= fb.expT[path[t - 1], path[t]] * fb.expS[t, path[t]] / fb.scale[t]
    return min(1.0, p * float(fb.beta[b - 1, path[b - 1]]))


#: spans longer than this (tokens) are scored with array operations (same value up to rounding)
_LONG_SPAN = 32


# one weight line of a CRFsuite dump, as pycrfsuite's own parser reads it ("(k) x --> y: w")
_DUMP_LINE = re.compile(r"^[ \t]*\(\d+\) (.+) --> (.+): ([+-]?\d+\.\d+)", re.MULTILINE)


def _dumped_weights(tagger: Any) -> tuple[list[tuple[str, str, float]], list[tuple[str, str, float]]] | None:
    """``(state features, transitions)`` as ``(from, to, weight)`` in file order, read from the
    model's text dump in one pass (``Tagger.info()`` parses it line by line: 3x slower);
    ``None`` when the dump does not look as expected."""
    fd, name = tempfile.mkstemp(suffix=".crfdump")
    os.close(fd)
    try:
        tagger.dump(name)
        with open(name, encoding="utf-8") as f:  # universal newlines, as pycrfsuite reads it
            text = f.read()
    except (OSError, UnicodeDecodeError):
        return None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)
    out = []
    for section in ("TRANSITIONS", "STATE_FEATURES"):
        head = f"\n{section} = {{\n"
        a = text.find(head)
        b = text.find("\n}\n", a + 1)
        if a < 0 or b < 0:
            return None
        body = text[a + len(head) : b + 1]
        items = [(x, y, float(w)) for x, y, w in _DUMP_LINE.findall(body)]
        if len(items) != sum(1 for line in body.split("\n") if line.strip()):
            return None  # a line the pattern did not read: let pycrfsuite parse the dump
        out.append(items)
    return out[1], out[0]
