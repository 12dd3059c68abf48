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
``numpy`` kernel); a :class:`~notescrub.detect.crf.CRFTagger` decodes with the kernel that
:func:`notescrub.detect.crf_kernels.kernel` chose when it got its weights (numpy or the
compiled numba recursions, see :mod:`~notescrub.detect.crf_kernels`).

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
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

__all__ = ["CRFWeights", "ForwardBackward", "forward_backward", "segment_probability", "sequence_score", "viterbi",
           "viterbi_shortcut_reach"]


def _appended(buffer: np.ndarray | None, start: int, scores: np.ndarray, minimum: int) -> np.ndarray:
    """``buffer`` with ``scores`` written at rows ``start...`` (grown by doubling when full).

    >>> _appended(None, 0, np.ones((2, 3)), 4).shape
    (4, 3)
    """
    need = start + len(scores)
    if buffer is None or need > len(buffer):
        grown = np.zeros((max(minimum, need, 2 * (0 if buffer is None else len(buffer))), *scores.shape[1:]))
        if buffer is not None:
            grown[: len(buffer)] = buffer
        buffer = grown
    buffer[start:need] = scores
    return buffer


#: distinct feature rows whose scores :meth:`CRFWeights.group_scores` keeps (then starts over)
_MAX_ROWS = 100_000


@dataclass
class CRFWeights:
    """A CRF's parameters as arrays: ``state`` (attributes x labels, sparse) and ``trans``."""

    labels: list[str]
    attr_index: dict[str, int]
    state: sparse.csr_matrix
    trans: np.ndarray
    _words: dict[str, tuple[Any, int]] = field(default_factory=dict, repr=False)
    _vecs: np.ndarray | None = field(default=None, repr=False)
    _offsets: tuple[int, ...] = field(default=(), repr=False)
    _pairs: dict[str, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)  # prefix -> _pair_table
    _pair_vocab: dict[str, int] = field(default_factory=dict, repr=False)  # word -> id, shared by all prefixes
    _rows: dict[tuple[str, ...], int] = field(default_factory=dict, repr=False)
    _row_vecs: np.ndarray | None = field(default=None, repr=False)

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
        return cls(labels, attr_index, state, trans)

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


    def _add_words(self, new: dict[str, Any], offsets: tuple[int, ...]) -> None:
        """Score the own and window features of ``new`` words (one sparse product) and cache them."""
        blocks: list[Sequence[str]] = []
        for unit in new.values():
            blocks.append(unit[0])
            blocks.extend(unit[1][o] for o in offsets)
        width = 1 + len(offsets)
        scores = self.state_scores(blocks).reshape(len(new), width, len(self.labels))
        start = len(self._words)
        self._vecs = _appended(self._vecs, start, scores, 1024)
        for k, (word, unit) in enumerate(new.items()):
            self._words[word] = (unit, start + k)

    def group_scores(self, groups: Sequence[Any], n: int) -> np.ndarray:
        """``S[t, y]`` of the per-token feature groups of a :class:`FeatureParts` (``n`` tokens).

        A table or list group's feature lists (rows) are scored once per distinct row and
        the scores kept across documents (most rows -- sentence, position, chunk and
        feeder features -- recur from note to note); pair (bigram) features are only built
        for the word pairs that can name a known attribute (:meth:`_add_pair_scores`).
        The groups' scores are added in group order, each row summed in its attributes'
        order: the same floats as scoring every group on its own.
        """
        S = np.zeros((n, len(self.labels)))
        # (group, first row in keys, its rows, token -> row; None: one row per token); rows None: pairs
        plan: list[tuple[Any, int, int, np.ndarray | None]] = []
        keys: list[tuple[str, ...]] = []
        for g in groups:
            kind = getattr(g, "kind", "lists")
            if kind == "pairs":
                plan.append((g, 0, -1, None))
            elif kind == "table":
                if g.table:
                    plan.append((g, len(keys), len(g.table), np.asarray(g.ids, dtype=np.intp)))
                    keys.extend(tuple(r) for r in g.table)
            else:
                plan.append((g, len(keys), n, None))
                keys.extend(tuple(r) for r in g.lists())
        if not plan:
            return S
        if len(self._rows) > _MAX_ROWS:  # bound the cache (rows with rare words accumulate)
            self._rows, self._row_vecs = {}, None
        rows = self._rows
        new = list(dict.fromkeys(k for k in keys if k not in rows))
        if new:
            self._add_rows(new)
        vecs = self._row_vecs
        ids = np.fromiter((rows[k] for k in keys), dtype=np.intp, count=len(keys))
        for g, first, count, tokens in plan:
            if count < 0:
                self._add_pair_scores(S, g)
            elif count and n:  # (no rows or no tokens: nothing to add)
                own = ids[first : first + count]
                S += vecs[own if tokens is None else own[tokens]]  # type: ignore[index]
        return S

    def _add_rows(self, new: list[tuple[str, ...]]) -> None:
        """Score distinct feature rows (one sparse product) and keep their scores."""
        start = len(self._rows)
        self._row_vecs = _appended(self._row_vecs, start, self.state_scores(new), 256)
        for k, row in enumerate(new):
            self._rows[row] = start + k

    def _pair_table(self, prefix: str) -> tuple[np.ndarray, np.ndarray]:
        """``(keys, ids)`` of every known attribute ``prefix + "x|y"``, sorted by key, where
        ``key = word_id(x) << 32 | word_id(y)`` over the word ids of ``_pair_vocab`` (shared by all prefixes).

        A ``|`` inside a word makes the split ambiguous: every split is entered, and all
        lead to the same attribute (the string ``prefix + x + "|" + y`` is the same).
        """
        got = self._pairs.get(prefix)
        if got is None:
            vocab = self._pair_vocab
            keys: list[int] = []
            cols: list[int] = []
            k = len(prefix)
            for attr, col in self.attr_index.items():
                if attr.startswith(prefix):
                    rest = attr[k:]
                    at = rest.find("|")
                    while at >= 0:
                        x = vocab.setdefault(rest[:at], len(vocab))
                        y = vocab.setdefault(rest[at + 1 :], len(vocab))
                        keys.append(x << 32 | y)
                        cols.append(col)
                        at = rest.find("|", at + 1)
            order = np.argsort(np.asarray(keys, dtype=np.int64), kind="stable")
            got = self._pairs[prefix] = (np.asarray(keys, dtype=np.int64)[order], np.asarray(cols, dtype=np.int64)[order])
        return got

    def _pair_hits(self, g: Any) -> tuple[list[int], list[int]]:
        """(token, attribute id) of every bigram attribute of ``g`` that the model knows, pair
        type by pair type (in ``g.ranges()`` order), tokens in increasing order."""
        ranges = list(g.ranges())
        tables = [self._pair_table(prefix) for *_, prefix in ranges]  # (may add words to the vocabulary)
        get = self._pair_vocab.get
        wid = np.fromiter((get(w, -1) for w in g.words), dtype=np.int64, count=len(g.words))
        toks: list[int] = []
        cols: list[int] = []
        for (a, b, lo, hi, _prefix), (keys, ids) in zip(ranges, tables):
            if not len(keys):
                continue
            x, y = wid[lo + a : hi + a], wid[lo + b : hi + b]
            both = np.flatnonzero((x >= 0) & (y >= 0))
            if not len(both):
                continue
            want = x[both] << 32 | y[both]
            at = np.minimum(np.searchsorted(keys, want), len(keys) - 1)
            found = keys[at] == want
            toks.extend((both[found] + lo).tolist())
            cols.extend(ids[at[found]].tolist())
        return toks, cols

    def _add_pair_scores(self, S: np.ndarray, g: Any) -> None:
        index = self.attr_index
        toks, cols = self._pair_hits(g)
        if toks:
            x = sparse.csr_matrix((np.ones(len(cols)), (np.asarray(toks, dtype=np.int64), np.asarray(cols, dtype=np.int64))),
                                  shape=(len(S), len(index)))
            S += (x @ self.state).toarray()

    def scores_from_parts(self, parts: Any) -> np.ndarray:
        """Same as ``state_scores(parts.join())``, with per-word scores cached.

        ``parts`` is a :class:`notescrub.features.extract.FeatureParts`; a word's own and
        window features are scored once per distinct word and reused across documents.
        """
        offsets = tuple(parts.offsets)
        if offsets != self._offsets or len(self._words) > 200_000:
            self._words, self._vecs, self._offsets = {}, None, offsets
        n = len(parts.words)
        S = self.group_scores(parts.groups, n)
        if n == 0:
            return S
        cache = self._words
        new: dict[str, Any] = {}
        for w, u in zip(parts.words, parts.units):
            hit = cache.get(w)
            if hit is None or hit[0] is not u:  # unseen word, or a reconfigured featurizer
                new[w] = u
        if new:
            for w in new:
                cache.pop(w, None)
            self._add_words(new, offsets)
        rows = np.fromiter((cache[w][1] for w in parts.words), dtype=np.int64, count=n)
        G = self._vecs[rows]  # type: ignore[index]
        S += G[:, 0]
        for k, o in enumerate(offsets):  # token i gets the offset-o features of word i + o
            if abs(o) >= n:
                continue
            if o > 0:
                S[: n - o] += G[o:, 1 + k]
            else:
                S[-o:] += G[: n + o, 1 + k]
        return S


def viterbi_shortcut_reach(S: np.ndarray, T: np.ndarray) -> np.ndarray:
    """``reach[s, a] + slack``: how far below the best label ``s`` a label ``a`` may lie and
    still win some column of a Viterbi step.

    ``reach[s, a] = max_y T[a, y] - T[s, y]`` is the largest gain of ``a`` over ``s``
    through a transition; ``slack`` is a margin (growing with the scores' size and the
    sequence length) so that a label judged hopeless is *strictly* worse after rounding.

    >>> viterbi_shortcut_reach(np.zeros((1, 2)), np.array([[0.0, 1.0], [0.0, 0.0]])).round(3).tolist()
    [[0.0, 0.0], [1.0, 0.0]]
    """
    reach, slack = _reach_and_slack(S, T)
    return reach + slack


#: (T, reach, max |T|) of the transition matrix seen last (a model's T never changes)
_REACH: list[tuple[np.ndarray, np.ndarray, float]] = []


def _reach_and_slack(S: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, float]:
    hit = next((r for r in _REACH if r[0] is T), None)
    if hit is None or not np.array_equal(hit[0], T):  # a new matrix, or one changed in place
        hit = (T, (T[None, :, :] - T[:, None, :]).max(2), float(np.abs(T).max()))  # reach[s, a] = max_y T[a, y] - T[s, y]
        _REACH[:] = [r for r in _REACH[-3:] if r[0] is not T] + [hit]
    slack = 1e-9 * (1.0 + (float(np.abs(S).max()) + hit[2]) * len(S))
    return hit[1], slack


def viterbi(S: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, float]:
    """Best path (label indices) and its unnormalised score.

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
    reach, slack = _reach_and_slack(S, T)
    reach_s = reach + slack  # reach_s[best, best] == slack: best is always kept
    o = int(np.bincount(S.argmax(1), minlength=L).argmax())  # the usual label (O)
    g = S + T[o]  # delta[t] - const after a single-label step from o
    others = g - g[:, o : o + 1] + reach[o][None, :]
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
    for t in range(a + 1, b):
        p *= fb.expT[path[t - 1], path[t]] * fb.expS[t, path[t]] / fb.scale[t]
    return min(1.0, p * float(fb.beta[b - 1, path[b - 1]]))


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
