"""Score several CRFs that share one featurizer from one pass over a document's features.

A Manchester model (:mod:`notescrub.recipes.manchester`) runs seven or eight per-type CRFs
with the same feature configuration. They already read one featurisation of a document
(:class:`~notescrub.features.extract.FeatureParts`, cached on the document), but each
CRF looked its attribute strings up in its own index, built the bigram strings again and
ran its own sparse products. :func:`share_crf_scoring` groups the CRF taggers of a
pipeline by featurizer configuration and gives every member of a group a
:class:`MemberWeights`: the state scores of all members come from one
:class:`StackedWeights` -- the union of their attribute indexes with their weight
matrices side by side (attributes x all members' labels) -- computed once per document,
and each member reads its own columns.

The scores are *identical* to each CRF's own (same floats, so same spans and scores):

* per-word and per-row feature lists are scored by sparse products whose rows keep the
  attribute order of the lists; a member's columns only receive the weights of its own
  attributes, so every sum is accumulated in the same order as in its own product;
* bigram attributes (whose sparse rows are sorted by attribute id, and ids differ between
  members) are looked up once in the union index, then multiplied per member with the
  member's own ids (:meth:`StackedWeights._add_pair_scores`).

``tests/recipes/test_shared_crf.py`` checks the equality against independent decoding.

>>> share_crf_scoring([object()])   # nothing to share: no CRF taggers
0
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from notescrub.detect.crf_decode import CRFWeights

__all__ = ["MemberWeights", "StackedWeights", "share_crf_scoring"]

#: at most this many documents' stacked scores are kept; an entry is dropped as soon as every
#: member has read its columns (a patient's notes go through each CRF in turn)
_KEEP_DOCS = 256


@dataclass(eq=False)
class StackedWeights(CRFWeights):
    """The weights of several CRFs side by side over the union of their attributes.

    ``labels`` are ``"<member>:<label>"``; member ``k``'s scores are the columns
    ``slices[k]``. Build with :meth:`stack`.
    """

    members: list[CRFWeights] = field(default_factory=list, repr=False)
    slices: list[slice] = field(default_factory=list, repr=False)
    union_to_own: list[np.ndarray] = field(default_factory=list, repr=False)
    _recent: dict[int, tuple[Any, np.ndarray, set[int]]] = field(default_factory=dict, repr=False)

    @classmethod
    def stack(cls, members: Sequence[CRFWeights]) -> StackedWeights:
        """Stack ``members`` (their attribute indexes merged in first-seen order)."""
        union: dict[str, int] = {}
        own_to_union: list[np.ndarray] = []
        for w in members:
            setdefault = union.setdefault
            own_to_union.append(np.fromiter((setdefault(a, len(union)) for a in w.attr_index), dtype=np.int64,
                                            count=len(w.attr_index)))
        n_attrs = len(union)
        rows, cols, vals, slices, union_to_own = [], [], [], [], []
        labels: list[str] = []
        width = 0
        for k, (w, o2u) in enumerate(zip(members, own_to_union)):
            coo = w.state.tocoo()
            rows.append(o2u[coo.row])
            cols.append(coo.col.astype(np.int64) + width)
            vals.append(coo.data)
            labels.extend(f"{k}:{lab}" for lab in w.labels)
            slices.append(slice(width, width + len(w.labels)))
            u2o = np.full(n_attrs, -1, dtype=np.int64)
            u2o[o2u] = np.arange(len(o2u), dtype=np.int64)
            union_to_own.append(u2o)
            width += len(w.labels)
        state = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                                  shape=(n_attrs, width))
        return cls(labels, union, state, np.zeros((width, width)), members=list(members), slices=slices,
                   union_to_own=union_to_own)

    def _add_pair_scores(self, S: np.ndarray, g: Any) -> None:
        """Bigram attributes: looked up once in the union index, scored per member with its own
        attribute ids (the same sparse matrix as the member's own, so the same sums)."""
        toks, cols = self._pair_hits(g)
        if not toks:
            return
        tok_arr = np.asarray(toks, dtype=np.int64)
        col_arr = np.asarray(cols, dtype=np.int64)
        for w, sl, u2o in zip(self.members, self.slices, self.union_to_own):
            own = u2o[col_arr]
            keep = own >= 0
            n_keep = int(keep.sum())
            if not n_keep:
                continue
            x = sparse.csr_matrix((np.ones(n_keep), (tok_arr[keep], own[keep])), shape=(len(S), len(w.attr_index)))
            S[:, sl] += (x @ w.state).toarray()

    def member_scores(self, parts: Any, k: int) -> np.ndarray:
        """Member ``k``'s state scores for ``parts`` (all members are scored on first request;
        the scores are kept until every member has read its columns)."""
        key = id(parts)
        hit = self._recent.get(key)
        if hit is None or hit[0] is not parts:
            if len(self._recent) >= _KEEP_DOCS:
                self._recent.pop(next(iter(self._recent)))
            hit = self._recent[key] = (parts, self.scores_from_parts(parts), set())
        out = np.ascontiguousarray(hit[1][:, self.slices[k]])
        hit[2].add(k)
        if len(hit[2]) == len(self.members):
            del self._recent[key]
        return out


@dataclass(eq=False)
class MemberWeights(CRFWeights):
    """One CRF's weights whose :meth:`scores_from_parts` reads its columns of a :class:`StackedWeights`."""

    group: StackedWeights | None = field(default=None, repr=False)
    member: int = 0

    def scores_from_parts(self, parts: Any) -> np.ndarray:
        assert self.group is not None
        return self.group.member_scores(parts, self.member)


_STACKS: weakref.WeakValueDictionary[tuple[int, ...], StackedWeights] = weakref.WeakValueDictionary()


def share_crf_scoring(detectors: Iterable[Any]) -> int:
    """Let the plain CRF taggers among ``detectors`` that share a featurizer configuration
    score documents together (see the module docstring); returns how many were grouped.

    Taggers are changed in place (their ``weights_`` become :class:`MemberWeights`), so pass
    the pipeline's own copies. Stacks are reused while the same loaded weights are in use.
    """
    from notescrub.detect.crf import CRFTagger

    groups: dict[str, list[Any]] = {}
    for det in detectors:
        if type(det) is not CRFTagger or det.featurizer is None:
            continue
        w = getattr(det, "weights_", None)
        if type(w) is MemberWeights:
            w = w.group.members[w.member] if w.group is not None else None
        if type(w) is not CRFWeights or not hasattr(det.featurizer, "parts"):
            continue
        key = json.dumps(det.featurizer.to_config(), sort_keys=True)
        groups.setdefault(key, []).append((det, w))
    grouped = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        ws = [w for _, w in members]
        ids = tuple(id(w) for w in ws)
        stacked = _STACKS.get(ids)
        if stacked is None or any(a is not b for a, b in zip(stacked.members, ws)):
            stacked = StackedWeights.stack(ws)
            _STACKS[ids] = stacked
        for k, (det, w) in enumerate(members):
            det.weights_ = MemberWeights(w.labels, w.attr_index, w.state, w.trans, group=stacked, member=k)
        grouped += len(members)
    return grouped
