"""The object a CRF decodes with: immutable weights, the chosen kernel, and every cache.

A :class:`Scorer` is built once per loaded (or fitted) CRF and owned by its tagger
(``CRFTagger.scorer_``). It holds

* the :class:`~notescrub.detect.crf.decode.CRFWeights` (immutable) and what is derived
  from them once (the Viterbi ``reach`` of the transition matrix);
* the :class:`~notescrub.detect.crf.kernels.Kernel` chosen when it was built (see
  :mod:`~notescrub.detect.crf.kernels`);
* the caches that make state scores cheap, each bounded and all emptied by :meth:`clear`:
  per-word score vectors (a word's own and window features, scored once per distinct word;
  at most ``max_words``), per-row score vectors of the table and list feature groups (at
  most ``max_rows``; sentence, position, chunk and feeder rows recur from note to note) and
  the bigram look-up tables (one per bigram prefix, bounded by the model's attributes) and
  the score vectors of context-bag attributes (``bagL=w``: one per word and side; at most
  ``max_words``).

The caches only save work: a score is the same float whether it was cached or not (each
row is summed in its attributes' order by the same sparse product), so what a scorer
decoded before never changes what it returns.

>>> import numpy as np
>>> from scipy import sparse
>>> from notescrub.detect.crf.decode import CRFWeights
>>> w = CRFWeights(("O", "B-X"), {"w=a": 0}, sparse.csr_matrix(np.array([[0.5, 1.0]])), np.zeros((2, 2)))
>>> sc = Scorer(w, crf_kernels.kernel("numpy"))
>>> S = sc.state_scores([["w=a"], ["w=b"]])
>>> sc.viterbi(S)[0].tolist(), sc.kernel.name
([1, 0], 'numpy')
>>> sc.clear(); sc.cache_sizes()
{'words': 0, 'rows': 0, 'pair_prefixes': 0, 'bag_attributes': 0}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from notescrub.detect.crf import kernels as crf_kernels
from notescrub.detect.crf.decode import CRFWeights, ForwardBackward, transition_reach
from notescrub.detect.crf.kernels import Kernel

__all__ = ["MAX_ROWS", "MAX_WORDS", "Scorer"]

#: word rows a scorer keeps (then it starts over). A word's entry is only valid while the
#: featurizer's memo holds its unit (``features.extract._CACHE_MAX``, 10,000 texts), so a larger
#: table mostly keeps stale units alive: 200,000 let en-default grow to 1.4 GB over 20,000 notes.
MAX_WORDS = 10_000
#: distinct feature rows whose score vectors a scorer keeps (then it starts over)
MAX_ROWS = 15_000


def _appended(buffer: np.ndarray | None, start: int, scores: np.ndarray, minimum: int, cap: int) -> np.ndarray:
    """``buffer`` with ``scores`` written at rows ``start...`` (grown by doubling when full, to
    no more than ``cap`` rows unless ``scores`` need more).

    >>> _appended(None, 0, np.ones((2, 3)), 4, 100).shape
    (4, 3)
    >>> _appended(np.zeros((60, 3)), 60, np.ones((2, 3)), 4, 100).shape
    (100, 3)
    """
    need = start + len(scores)
    if buffer is None or need > len(buffer):
        size = max(minimum, 2 * (0 if buffer is None else len(buffer)))
        grown = np.zeros((max(need, min(size, cap)), *scores.shape[1:]))
        if buffer is not None:
            grown[: len(buffer)] = buffer
        buffer = grown
    buffer[start:need] = scores
    return buffer


class Scorer:
    """State scores and decoding for one CRF's weights (see the module docstring).

    Parameters
    ----------
    weights: the CRF's immutable weights.
    kernel: the decoding kernel (default: :func:`~notescrub.detect.crf.kernels.kernel`, i.e. the
        ``NOTESCRUB_CRF_KERNEL`` setting, read now).
    max_words, max_rows: cache bounds; a full cache starts over.
    """

    def __init__(self, weights: CRFWeights, kernel: Kernel | None = None, *, max_words: int = MAX_WORDS,
                 max_rows: int = MAX_ROWS) -> None:
        self.weights = weights
        self.kernel = kernel if kernel is not None else crf_kernels.kernel()
        self.max_words = max_words
        self.max_rows = max_rows
        self.reach = transition_reach(weights.trans) if len(weights.labels) else None
        self.clear()

    def clear(self) -> None:
        """Forget every cached score (the next notes are scored from the weights again)."""
        self._words: dict[str, tuple[Any, int]] = {}  # word -> (its feature unit, row in _vecs)
        self._vecs: np.ndarray | None = None  # (row, 1 + offsets, labels)
        self._word_rows = 0  # rows of _vecs in use (stale words leave theirs behind: never reused)
        self._offsets: tuple[int, ...] = ()
        self._rows: dict[tuple[str, ...], int] = {}  # feature row -> row in _row_vecs
        self._bag: dict[str, int] = {}  # bag attribute ("bagL=w") -> row in _bag_vecs
        self._bag_vecs: np.ndarray | None = None
        self._row_vecs: np.ndarray | None = None
        self._pairs: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # bigram prefix -> _pair_table
        self._pair_vocab: dict[str, int] = {}  # word -> id, shared by all prefixes

    def cache_sizes(self) -> dict[str, int]:
        """How many entries each cache holds."""
        return {"words": len(self._words), "rows": len(self._rows), "pair_prefixes": len(self._pairs),
                "bag_attributes": len(self._bag)}

    def __getstate__(self) -> dict[str, Any]:  # pickles without its caches
        return {"weights": self.weights, "kernel": self.kernel, "max_words": self.max_words, "max_rows": self.max_rows}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["weights"], state["kernel"], max_words=state["max_words"],  # type: ignore[misc]
                      max_rows=state["max_rows"])

    # -- decoding ------------------------------------------------------------------------
    def viterbi(self, S: np.ndarray) -> tuple[np.ndarray, float]:
        """Best path and its score over state scores ``S`` (this CRF's transitions)."""
        return self.kernel.viterbi(S, self.weights.trans, self.reach)

    def forward_backward(self, S: np.ndarray) -> ForwardBackward:
        """Forward-backward over state scores ``S`` (this CRF's transitions)."""
        return self.kernel.forward_backward(S, self.weights.trans)

    # -- state scores --------------------------------------------------------------------
    def state_scores(self, attrs: Sequence[Sequence[str]]) -> np.ndarray:
        """``S[t, y]`` of flat per-token attribute lists (not cached)."""
        return self.weights.state_scores(attrs)

    def scores_from_parts(self, parts: Any) -> np.ndarray:
        """Same as ``state_scores(parts.join())``, with per-word and per-row scores cached.

        ``parts`` is a :class:`notescrub.features.extract.FeatureParts`; a word's own and
        window features are scored once per distinct word and reused across documents.
        """
        offsets = tuple(parts.offsets)
        if offsets != self._offsets or self._word_rows > self.max_words:
            self._words, self._vecs, self._offsets, self._word_rows = {}, None, offsets, 0
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
        vecs = self._vecs
        assert vecs is not None
        width = vecs.shape[1]
        # token i gets its own word's row, then the offset-o features of word i + o, in that order
        idx = np.full((n, 1 + len(offsets)), -1, dtype=np.int64)
        idx[:, 0] = rows * width
        for k, o in enumerate(offsets):
            if abs(o) >= n:
                continue
            if o > 0:
                idx[: n - o, 1 + k] = rows[o:] * width + 1 + k
            else:
                idx[-o:, 1 + k] = rows[: n + o] * width + 1 + k
        self.kernel.gather_add(S, vecs.reshape(-1, vecs.shape[2]), idx)
        return S

    def _add_words(self, new: dict[str, Any], offsets: tuple[int, ...]) -> None:
        """Score the own and window features of ``new`` words (one sparse product) and cache them."""
        blocks: list[Sequence[str]] = []
        for unit in new.values():
            blocks.append(unit[0])
            blocks.extend(unit[1][o] for o in offsets)
        width = 1 + len(offsets)
        scores = self.weights.state_scores(blocks).reshape(len(new), width, len(self.weights.labels))
        # new rows go after every row handed out so far: a word re-scored because its unit went
        # stale (the featurizer's memo started over) must not land on a row another word still uses
        start = self._word_rows
        self._vecs = _appended(self._vecs, start, scores, 1024, self.max_words)
        self._word_rows = start + len(new)
        for k, (word, unit) in enumerate(new.items()):
            self._words[word] = (unit, start + k)

    def group_scores(self, groups: Sequence[Any], n: int) -> np.ndarray:
        """``S[t, y]`` of the per-token feature groups of a :class:`FeatureParts` (``n`` tokens).

        A table or list group's feature lists (rows) are scored once per distinct row and
        the scores kept across documents; pair (bigram) features are only built for the
        word pairs that can name a known attribute (:meth:`_pair_hits`); a bag group adds one
        kept vector per (word, side) to each token near that word. The bags' scores are added
        first, then the other groups' in group order, each row summed in its attributes' order.
        """
        S = np.zeros((n, len(self.weights.labels)))
        # (group, first row in keys, its rows, token -> row; None: one row per token); rows < 0: pairs
        plan: list[tuple[Any, int, int, np.ndarray | None]] = []
        keys: list[tuple[str, ...]] = []
        bags: list[Any] = []
        for g in groups:
            kind = getattr(g, "kind", "lists")
            if kind == "pairs":
                plan.append((g, 0, -1, None))
            elif kind == "bag":
                bags.append(g)
            elif kind == "table":
                if g.table:
                    plan.append((g, len(keys), len(g.table), np.asarray(g.ids, dtype=np.intp)))
                    keys.extend(tuple(r) for r in g.table)
            else:
                plan.append((g, len(keys), n, None))
                keys.extend(tuple(r) for r in g.lists())
        for g in bags:
            self._add_bag_scores(S, g)
        if not plan:
            return S
        if len(self._rows) > self.max_rows:  # bound the cache (rows with rare words accumulate)
            self._rows, self._row_vecs = {}, None
        rows = self._rows
        new = list(dict.fromkeys(k for k in keys if k not in rows))
        if new:
            self._add_rows(new)
        vecs = self._row_vecs
        ids = np.fromiter((rows[k] for k in keys), dtype=np.int64, count=len(keys))
        columns: list[np.ndarray] = []  # token -> row, one per table/list group, added together

        def flush() -> None:
            if columns:
                self.kernel.gather_add(S, vecs, np.stack(columns, axis=1))  # type: ignore[arg-type]
                columns.clear()

        for g, first, count, tokens in plan:
            if count < 0:
                flush()  # (in group order: the pair scores come after the groups before them)
                toks, cols = self._pair_hits(g)
                if toks:
                    self.weights.add_pair_scores(S, toks, cols)
            elif count and n:  # (no rows or no tokens: nothing to add)
                own = ids[first : first + count]
                columns.append(own if tokens is None else own[tokens])
        flush()
        return S

    def _add_bag_scores(self, S: np.ndarray, g: Any) -> None:
        """Add a :class:`~notescrub.features.extract.BagGroup`'s scores to ``S``: each token gets
        the score vectors of its bag words' attributes, one vector per (word, side), scored once."""
        if not g.words or not len(S):
            return
        if len(self._bag) > self.max_words:
            self._bag, self._bag_vecs = {}, None
        cache = self._bag
        sides = []
        for prefix in g.prefixes:
            attrs = [prefix + w for w in g.words]
            new = list(dict.fromkeys(a for a in attrs if a not in cache))
            if new:
                start = len(cache)
                self._bag_vecs = _appended(self._bag_vecs, start, self.weights.state_scores([[a] for a in new]),
                                           256, self.max_words)
                for k, a in enumerate(new):
                    cache[a] = start + k
            sides.append(np.fromiter((cache[a] for a in attrs), dtype=np.int64, count=len(attrs)))
        # token -> kept vector of each bag place (left places, then right), -1: no word there
        idx = np.concatenate([np.where(at >= 0, rows[np.maximum(at, 0)], -1)
                              for rows, at in zip(sides, (g.left, g.right))], axis=1)
        self.kernel.gather_add(S, self._bag_vecs, idx)  # type: ignore[arg-type]

    def _add_rows(self, new: list[tuple[str, ...]]) -> None:
        """Score distinct feature rows (one sparse product) and keep their scores."""
        start = len(self._rows)
        self._row_vecs = _appended(self._row_vecs, start, self.weights.state_scores(new), 256, self.max_rows)
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
            for attr, col in self.weights.attr_index.items():
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
