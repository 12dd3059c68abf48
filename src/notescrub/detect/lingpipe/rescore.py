"""n-best rescoring for the LingPipe-style chunker (LingPipe's ``CharLmRescoringChunker``).

LingPipe re-scores the HMM's n best chunkings with a longer-range generative model
of the whole text: every chunk's characters come from a character LM of its type, and
the text *around* the chunks - with every chunk replaced by one symbol standing for
its type - from a single character LM that runs across tokens, spaces and entity
boundaries (``Dr.␣⟨DOCTOR⟩,␣de␣⟨AGE⟩``). That model sees the characters just
before and after an entity, which the token-level HMM cannot.

Re-scoring whole records with hundreds of full paths is costly in Python, and the
alternative paths of a record differ only where the HMM hesitates. So:

1. forward-backward posteriors (scaled, in probability space) give, per token, the
   probability of each class (an entity type or outside);
2. tokens whose most probable class has probability below ``1 - eps``, or differs from
   the Viterbi path's class, are *uncertain*; each uncertain stretch, widened by one
   token and to whole chunks, is a *region*;
3. in each region, the ``k`` best state sequences between the fixed states on either
   side (list Viterbi) are the candidates;
4. each candidate is scored by the rescoring model over the region's characters (plus
   the ``n - 1`` characters after it, whose probabilities depend on the region);
   the best one replaces the Viterbi path in that region.

>>> from notescrub.types import Document, Span
>>> from notescrub.detect.lingpipe.chunker import CharLmHmmChunker
>>> docs = [Document(str(i), f"Seen by Dr. {n} on {d}.",
...          layers={"gold": [Span(12, 12 + len(n), "DOCTOR"), Span(16 + len(n), 20 + len(n), "DATE")]})
...         for i, (n, d) in enumerate([("Ruiz", "3/18"), ("Diaz", "4/11"), ("Sanz", "5/02")] * 3)]
>>> chunker = CharLmHmmChunker(order=4, n_best=4).fit(docs)
>>> test = Document("t", "Seen by Dr. Paz on 6/12.")
>>> [(test.text[s.start:s.end], s.label) for s in chunker.detect(test)]
[('Paz', 'DOCTOR'), ('6/12', 'DATE')]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from notescrub.detect.bmewo import Chunk, Codec
from notescrub.detect.lingpipe.charlm import BOUNDARY, CharLmBank
from notescrub.detect.lingpipe.charlm_process import CharLm
from notescrub.errors import ModelError
from notescrub.text.tokenize import Token

__all__ = ["RescoringModel", "k_best", "posteriors", "rescore", "uncertain_regions"]

_SYMBOL_BASE = 0xE000  # Unicode private use area: one symbol per entity type
_MAX_REGION = 60  # tokens; longer hesitant stretches keep the Viterbi path
_PRUNE = 1e-6  # states below this posterior are left out of the k-best search


class RescoringModel:
    """Type LMs over chunk texts plus one LM over the text with chunks as type symbols."""

    def __init__(self, types: Sequence[str], order: int = 8, n_chars: int = 256, lambda_factor: float | None = None):
        self.types = list(types)
        self.index = {t: i for i, t in enumerate(self.types)}
        self.order = order
        self.out_lm = CharLm(order, n_chars, lambda_factor)
        self.type_lms = CharLmBank(len(self.types), order, n_chars, lambda_factor)

    def symbol(self, typ: str) -> str:
        return chr(_SYMBOL_BASE + self.index[typ])

    def out_string(self, text: str, spans: Sequence[tuple[int, int, str]], lo: int = 0, hi: int | None = None) -> str:
        """``text[lo:hi]`` with every (char) span inside it replaced by its type symbol."""
        hi = len(text) if hi is None else hi
        parts: list[str] = []
        pos = lo
        for a, b, typ in sorted(spans):
            if b <= lo or a >= hi:
                continue
            parts.append(text[pos:max(pos, a)])
            parts.append(self.symbol(typ))
            pos = max(pos, b)
        parts.append(text[pos:hi] if pos < hi else "")
        return "".join(parts)

    def fit(self, records: Sequence[tuple[str, list[tuple[int, int, str]]]]) -> RescoringModel:
        """Train on ``(text, char spans)`` records."""
        for text, spans in records:
            self.out_lm.add(self.out_string(text, spans))
            for a, b, typ in spans:
                self.type_lms.add(self.index[typ], text[a:b])
        self.out_lm.freeze()
        self.type_lms.freeze()
        return self

    def chunk_score(self, text: str, typ: str) -> float:
        """``log P_typ(⊢text⊣)`` (all types' scores of a text are cached together)."""
        cache = self.__dict__.setdefault("_chunk_cache", {})
        v = cache.get(text)
        if v is None:
            if len(cache) > 100_000:
                cache.clear()
            v = cache[text] = self.type_lms.log_probs(text)
        return float(v[self.index[typ]])

    def to_state(self) -> dict[str, Any]:
        return {"types": self.types, "order": self.order, "out_lm": self.out_lm.to_state(),
                "type_lms": self.type_lms.to_state()}

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> RescoringModel:
        try:
            m = cls(state["types"], int(state["order"]))
            m.out_lm = CharLm.from_state(state["out_lm"])
            m.type_lms = CharLmBank.from_state(state["type_lms"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ModelError(f"rescoring model state is malformed: {exc}") from None
        if m.type_lms.n_states != len(m.types):
            raise ModelError("rescoring model: type LMs do not match the types")
        return m


# -- posteriors and regions -------------------------------------------------------------------
def posteriors(log_start: np.ndarray, log_trans: np.ndarray, log_end: np.ndarray, em: np.ndarray) -> np.ndarray:
    """State posteriors ``(n, S)`` by scaled forward-backward in probability space."""
    n, S = em.shape
    A, At = _exp_transitions(log_trans)
    e = np.exp(em - em.max(axis=1, keepdims=True))
    alpha = np.empty((n, S))
    a = np.exp(log_start) * e[0]
    alpha[0] = a / a.sum()
    prior = np.empty(S)
    a = np.empty(S)
    dot, mul = np.dot, np.multiply
    for t in range(1, n):
        dot(At, alpha[t - 1], out=prior)
        mul(prior, e[t], out=a)
        s = a.sum()
        if not s > 0:  # every reachable state's emission underflowed: keep the prior
            mul(prior, 1.0 / prior.sum(), out=alpha[t])
        else:
            mul(a, 1.0 / s, out=alpha[t])
    beta = np.empty((n, S))
    b = np.exp(log_end)
    beta[n - 1] = b / b.max()
    eb = np.empty(S)
    for t in range(n - 2, -1, -1):
        mul(e[t + 1], beta[t + 1], out=eb)
        dot(A, eb, out=b)
        m = b.max()
        if m > 0:
            mul(b, 1.0 / m, out=beta[t])
        else:
            beta[t] = 1.0
    post = alpha * beta
    z = post.sum(axis=1, keepdims=True)
    z[z == 0] = 1.0
    return post / z


def _exp_transitions(log_trans: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``exp(log_trans)`` and its contiguous transpose (cached for the last matrix seen)."""
    global _EXP_CACHE
    key = _EXP_CACHE
    if key is not None and key[0] is log_trans:
        return key[1], key[2]
    A = np.exp(log_trans)
    At = np.ascontiguousarray(A.T)
    _EXP_CACHE = (log_trans, A, At)
    return A, At


_EXP_CACHE: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None


def state_classes(codec: Codec) -> tuple[np.ndarray, list[str]]:
    """Class index of every state (``0`` = outside, ``1 + i`` = type ``i``) and class names."""
    names = ["O", *codec.types]
    idx = {t: i + 1 for i, t in enumerate(codec.types)}
    cls = []
    for s in codec.states:
        kind, _, typ = s.partition("_")
        cls.append(idx[typ] if kind in ("B", "M", "E", "W") else 0)
    return np.asarray(cls), names


def _class_arrays(codec: Codec) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[bool], list[bool]]:
    """Per codec (cached on it): state classes, the states ordered by class and where each
    class starts in that order, and whether a state continues into the next token
    (``B_``/``M_``) or from the previous one (``M_``/``E_``)."""
    got = codec.__dict__.get("_rescore_classes")
    if got is None:
        cls, _ = state_classes(codec)  # every class has states: outside, and B/M/E/W per type
        order = np.argsort(cls, kind="stable")
        starts = np.flatnonzero(np.r_[True, np.diff(cls[order]) != 0])
        opens = [s[:2] in ("B_", "M_") for s in codec.states]
        continues = [s[:2] in ("M_", "E_") for s in codec.states]
        got = codec.__dict__["_rescore_classes"] = (cls, order, starts, opens, continues)
    return got


def uncertain_regions(post: np.ndarray, path: Sequence[int], codec: Codec, eps: float) -> list[tuple[int, int]]:
    """Token ranges ``[a, b]`` (inclusive) to re-decode (see the module docstring)."""
    cls, order, starts, opens, continues = _class_arrays(codec)
    n = post.shape[0]
    # class posteriors (n, classes): sums over each class's states; no BLAS product, whose
    # multi-threaded kernel costs more CPU than the sums and whose last bits depend on threads
    cp = np.add.reduceat(post[:, order], starts, axis=1)
    best = cp.argmax(axis=1)
    vit = cls[np.asarray(path)]
    unsure = np.flatnonzero((cp.max(axis=1) < 1.0 - eps) | (best != vit)).tolist()
    regions: list[list[int]] = []
    for t in unsure:
        a, b = max(0, t - 1), min(n - 1, t + 1)
        if regions and a <= regions[-1][1] + 1:
            regions[-1][1] = max(regions[-1][1], b)
        else:
            regions.append([a, b])
    out: list[tuple[int, int]] = []
    for a, b in regions:
        # widen to whole chunks: the fixed neighbours must not be inside an entity
        while a > 0 and opens[path[a - 1]]:
            a -= 1
        while b < n - 1 and continues[path[b + 1]]:
            b += 1
        if out and a <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return [(a, b) for a, b in out if b - a + 1 <= _MAX_REGION]


def k_best(
    em: np.ndarray,
    log_trans: np.ndarray,
    first: np.ndarray,
    last: np.ndarray,
    k: int,
    active: Sequence[np.ndarray] | None = None,
) -> list[tuple[float, list[int]]]:
    """The ``k`` best state sequences of ``em`` (list Viterbi); ``first``/``last`` score the
    first and last states (transition from/to the fixed neighbours, or start/end).
    ``active[t]`` restricts the states considered at token ``t`` (default: all)."""
    n, S = em.shape
    if active is None:
        active = [np.arange(S)] * n
    prev = np.asarray(active[0])
    score = np.full((len(prev), k), -np.inf)
    score[:, 0] = first[prev] + em[0, prev]
    back: list[tuple[np.ndarray, np.ndarray]] = []
    for t in range(1, n):
        cur = np.asarray(active[t])
        sub = log_trans[np.ix_(prev, cur)]
        cand = (score[:, :, None] + sub[:, None, :]).reshape(len(prev) * k, len(cur))
        kk = min(k, cand.shape[0])
        top = np.argpartition(-cand, kk - 1, axis=0)[:kk]
        vals = np.take_along_axis(cand, top, axis=0)
        order = np.argsort(-vals, axis=0, kind="stable")
        top = np.take_along_axis(top, order, axis=0)
        vals = np.take_along_axis(vals, order, axis=0)
        score = np.full((len(cur), k), -np.inf)
        score[:, :kk] = vals.T + em[t, cur][:, None]
        back.append((top.T // k, top.T % k))  # per (state, rank): previous local state and rank
        active_prev, prev = prev, cur
        del active_prev
    final = (score + last[prev][:, None]).ravel()
    out = []
    for flat in np.argsort(-final, kind="stable")[:k]:
        if not np.isfinite(final[flat]):
            break
        s, r = divmod(int(flat), k)
        seq = [int(active[n - 1][s])]
        for t in range(n - 1, 0, -1):
            ps, pr = back[t - 1]
            s, r = int(ps[s, r]), int(pr[s, r])
            seq.append(int(active[t - 1][s]))
        out.append((float(final[flat]), seq[::-1]))
    return out


def _char_chunks(codec: Codec, toks: Sequence[Token], path: Sequence[int], lo: int = 0) -> list[tuple[int, int, str]]:
    chunks: list[Chunk] = codec.decode([codec.states[s] for s in path])
    return [(toks[lo + a].start, toks[lo + b].end, t) for a, b, t in chunks]


def rescore(chunker: Any, text: str, toks: Sequence[Token], em: np.ndarray, path: list[int]) -> tuple[list[int], int]:
    """Re-decode the uncertain regions of ``path``; returns the new path and how many
    regions changed."""
    model: RescoringModel = chunker.rescorer_
    codec = chunker.codec_
    T = chunker.log_trans_
    post = posteriors(chunker.log_start_, T, chunker.log_end_, em)
    regions = uncertain_regions(post, path, codec, float(chunker.rescore_eps))
    if not regions:
        return path, 0
    path = list(path)
    fixed = _char_chunks(codec, toks, path)
    ctx = model.order - 1
    changed = 0
    n = len(toks)
    for a, b in regions:
        first = chunker.log_start_ if a == 0 else T[path[a - 1]]
        last = chunker.log_end_ if b == n - 1 else T[:, path[b + 1]]
        active = [np.union1d(np.flatnonzero(post[t] > _PRUNE), [path[t]]) for t in range(a, b + 1)]
        cands = k_best(em[a : b + 1], T, first, last, int(chunker.n_best), active)
        if len(cands) < 2:
            continue
        ca = toks[a].start if a > 0 else 0
        cb = toks[b].end if b < n - 1 else len(text)
        outside = [c for c in fixed if c[1] <= ca or c[0] >= cb]
        before = model.out_string(text, outside, max(0, ca - 4 * ctx - 8), ca)
        before = (BOUNDARY + before if ca - 4 * ctx - 8 <= 0 else before)[-ctx:] if ctx else ""
        after = model.out_string(text, outside, cb, min(len(text), cb + 4 * ctx + 8))
        after = (after + BOUNDARY if cb + 4 * ctx + 8 >= len(text) else after)[:ctx]
        best_score, best_seq = -np.inf, None
        for _, seq in cands:
            spans = _char_chunks(codec, toks, seq, a)
            mid = model.out_string(text, spans, ca, cb)
            s = _window_log_prob(model, before + mid + after, len(before), len(before) + len(mid) + len(after))
            s += sum(model.chunk_score(text[x:y], t) for x, y, t in spans)
            if s > best_score:
                best_score, best_seq = s, seq
        if best_seq is not None and best_seq != path[a : b + 1]:
            path[a : b + 1] = best_seq
            changed += 1
    return path, changed


def _window_log_prob(model: RescoringModel, x: str, start: int, end: int) -> float:
    """``model.out_lm.log_prob_window(x, start, end)``, with each conditional probability cached.

    ``log P(x[i] | x[:i])`` depends only on ``x[i - order + 1 : i + 1]`` (shorter at the start of
    ``x``), and the candidates of a region share most of their characters, so the terms are
    cached per n-gram and summed in the same order (identical floats).
    """
    lm = model.out_lm
    if not lm._frozen:
        raise ModelError("character LM must be frozen before scoring")
    cache = model.__dict__.setdefault("_cond_cache", {})
    if len(cache) > 500_000:
        cache.clear()
    span = lm.order - 1
    total = 0
    get = cache.get
    for i in range(start, end):
        key = x[i - span : i + 1] if i >= span else x[: i + 1]
        v = get(key)
        if v is None:
            v = cache[key] = lm._cond(x, i)
        total += v
    return float(total)


def train_rescorer(records: Sequence[tuple[str, list[tuple[int, int, str]]]], types: Sequence[str], order: int,
                   n_chars: int, lambda_factor: float | None) -> RescoringModel:
    """Fit a :class:`RescoringModel` on ``(text, char spans)`` training records."""
    return RescoringModel(types, order, n_chars, lambda_factor).fit(records)
