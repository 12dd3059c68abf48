"""Score several CRFs that share one featurizer from one pass over a document's features.

A Manchester model (:mod:`notescrub.recipes.manchester`) runs seven or eight per-type CRFs
with the same feature configuration. They already read one featurisation of a document
(:class:`~notescrub.features.extract.FeatureParts`, cached on the document), but each
CRF looked its attribute strings up in its own index, built the bigram strings again and
ran its own sparse products. :func:`share_crf_scoring` groups the CRF taggers of a
pipeline by featurizer configuration and gives every member of a group a
:class:`MemberScorer`: the state scores of all members come from one
:class:`SharedScorer` over :class:`StackedWeights` -- the union of their attribute
indexes with their weight matrices side by side (attributes x all members' labels) --
computed once per document, and each member reads its own columns. Each member keeps its
own weights, kernel and transitions for decoding; the shared scorer owns the caches (its
:meth:`~notescrub.detect.crf.scorer.Scorer.clear` empties them, also through any member).

The scores are *identical* to each CRF's own (same floats, so same spans and scores):

* per-word and per-row feature lists are scored by sparse products whose rows keep the
  attribute order of the lists; a member's columns only receive the weights of its own
  attributes, so every sum is accumulated in the same order as in its own product;
* bigram attributes (whose sparse rows are sorted by attribute id, and ids differ between
  members) are looked up once in the union index, then multiplied per member with the
  member's own ids (:meth:`StackedWeights.add_pair_scores`).

``tests/recipes/test_shared_crf.py`` checks the equality against independent decoding.

>>> share_crf_scoring([object()])   # nothing to share: no CRF taggers
0
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import sparse

from notescrub.detect.crf.decode import CRFWeights
from notescrub.detect.crf.kernels import Kernel
from notescrub.detect.crf.scorer import Scorer

__all__ = ["MemberScorer", "SharedScorer", "StackedWeights", "share_crf_scoring"]

#: at most this many documents' stacked scores are kept; an entry is dropped as soon as every
#: member has read its columns (a patient's notes go through each CRF in turn)
KEEP_DOCS = 256


@dataclass(frozen=True, eq=False)
class StackedWeights(CRFWeights):
    """The weights of several CRFs side by side over the union of their attributes.

    ``labels`` are ``"<member>:<label>"``; member ``k``'s scores are the columns
    ``slices[k]``. Build with :meth:`stack`. Immutable, as every :class:`CRFWeights`.
    """

    members: tuple[CRFWeights, ...] = field(default=(), repr=False)
    slices: tuple[slice, ...] = field(default=(), repr=False)
    union_to_own: tuple[np.ndarray, ...] = field(default=(), repr=False)

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
            u2o.setflags(write=False)
            union_to_own.append(u2o)
            width += len(w.labels)
        state = sparse.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                                  shape=(n_attrs, width))
        return cls(tuple(labels), union, state, np.zeros((width, width)), members=tuple(members),
                   slices=tuple(slices), union_to_own=tuple(union_to_own))

    def add_pair_scores(self, S: np.ndarray, toks: Sequence[int], cols: Sequence[int]) -> None:
        """Bigram attributes (``cols`` in the union index), scored per member with its own
        attribute ids (the same sparse matrix as the member's own, so the same sums)."""
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


class SharedScorer(Scorer):
    """The scorer of a :class:`StackedWeights`: scores every member at once, per document.

    On top of the per-word and per-row caches of :class:`~notescrub.detect.crf.scorer.Scorer`
    it keeps the stacked scores of the last documents (at most ``keep_docs``) until every
    member has read its columns.
    """

    def __init__(self, weights: StackedWeights, kernel: Kernel | None = None, *, keep_docs: int | None = None,
                 **bounds: int) -> None:
        self.keep_docs = KEEP_DOCS if keep_docs is None else keep_docs
        super().__init__(weights, kernel, **bounds)

    def clear(self) -> None:
        super().clear()
        # (parts, stacked scores, members that have read them); matched by identity while held here
        self._recent: list[tuple[Any, np.ndarray, set[int]]] = []

    def cache_sizes(self) -> dict[str, int]:
        return {**super().cache_sizes(), "documents": len(self._recent)}

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "keep_docs": self.keep_docs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.keep_docs = state["keep_docs"]
        super().__setstate__(state)

    def member_scores(self, parts: Any, k: int) -> np.ndarray:
        """Member ``k``'s state scores for ``parts`` (all members are scored on first request;
        the scores are kept until every member has read its columns)."""
        weights: StackedWeights = self.weights  # type: ignore[assignment]
        recent = self._recent
        at = next((i for i in range(len(recent) - 1, -1, -1) if recent[i][0] is parts), -1)
        if at < 0:
            if len(recent) >= self.keep_docs:
                del recent[0]
            recent.append((parts, self.scores_from_parts(parts), set()))
            at = len(recent) - 1
        _, scores, readers = recent[at]
        out = np.ascontiguousarray(scores[:, weights.slices[k]])
        readers.add(k)
        if len(readers) == len(weights.members):
            del recent[at]
        return out


class MemberScorer(Scorer):
    """One CRF's scorer whose :meth:`scores_from_parts` reads its columns of a :class:`SharedScorer`.

    Decoding (kernel, transitions) and flat :meth:`state_scores` use the member's own weights.
    """

    def __init__(self, weights: CRFWeights, group: SharedScorer, member: int, kernel: Kernel | None = None) -> None:
        self.group = group
        self.member = member
        super().__init__(weights, kernel)

    def clear(self) -> None:
        super().clear()
        self.group.clear()

    def cache_sizes(self) -> dict[str, int]:
        return self.group.cache_sizes()

    def __getstate__(self) -> dict[str, Any]:
        return {**super().__getstate__(), "group": self.group, "member": self.member}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.group, self.member = state["group"], state["member"]
        super().__setstate__(state)

    def scores_from_parts(self, parts: Any) -> np.ndarray:
        return self.group.member_scores(parts, self.member)


def share_crf_scoring(detectors: Iterable[Any], stacks: dict[Any, SharedScorer] | None = None) -> int:
    """Let the plain CRF taggers among ``detectors`` that share a featurizer configuration
    score documents together (see the module docstring); returns how many were grouped.

    Taggers are changed in place (their ``scorer_`` becomes a :class:`MemberScorer`; their
    weights stay), so pass the pipeline's own copies. A group whose members already share a
    scorer keeps it; ``stacks`` (owned by the caller, e.g. a loaded hybrid model, keyed by
    the members' weights) reuses shared scorers between the pipelines built from one model.
    """
    from notescrub.detect.crf.tagger import CRFTagger

    groups: dict[str, list[tuple[Any, Scorer]]] = {}
    for det in detectors:
        if type(det) is not CRFTagger or det.featurizer is None or getattr(det, "weights_", None) is None:
            continue
        sc = det.scorer_
        if not hasattr(det.featurizer, "parts") or type(sc) not in (Scorer, MemberScorer):
            continue
        key = json.dumps(det.featurizer.to_config(), sort_keys=True)
        groups.setdefault(key, []).append((det, sc))
    grouped = 0
    for members in groups.values():
        if len(members) < 2:
            continue
        ws = tuple(sc.weights for _, sc in members)
        shared = _current_group(members, ws)
        if shared is None and stacks is not None:
            shared = stacks.get(ws)
        if shared is None:
            shared = SharedScorer(StackedWeights.stack(ws), members[0][1].kernel)
            if stacks is not None:
                stacks[ws] = shared
        for k, (det, sc) in enumerate(members):
            det.scorer_ = MemberScorer(sc.weights, shared, k, sc.kernel)
        grouped += len(members)
    return grouped


def _current_group(members: list[tuple[Any, Scorer]], ws: tuple[CRFWeights, ...]) -> SharedScorer | None:
    """The shared scorer that ``members`` already read from, in this order (``None`` if not)."""
    first = members[0][1]
    if not isinstance(first, MemberScorer):
        return None
    group = first.group
    st: StackedWeights = group.weights  # type: ignore[assignment]
    same = len(st.members) == len(ws) and all(a is b for a, b in zip(st.members, ws))
    if same and all(isinstance(sc, MemberScorer) and sc.group is group and sc.member == k
                    for k, (_, sc) in enumerate(members)):
        return group
    return None
