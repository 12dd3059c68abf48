"""Stacking: a CRF that sees what other detectors found, as features.

Rules and dictionaries are precise on what they cover but blind to context they were not
written for; a CRF is the opposite. A :class:`StackedCRF` runs *feeder* detectors first and
gives every token features describing the feeder spans around it (label, B/I position,
source, and the same for the neighbouring tokens), so the CRF learns from data when to
trust a rule, when to extend or trim its extent, and when to overrule it. Feeders are
ordinary pure detectors; their spans are not output by the stacked tagger itself (put them
in the pipeline too if they should also vote in the final resolution).

>>> from notescrub.types import Document, Span
>>> from notescrub.detect.base import Detector
>>> class Caps(Detector):
...     name = "caps"
...     def detect(self, doc):
...         return [Span(4, 8, "PATIENT", 0.9, self.name)]
>>> feats = stack_features(Document("d", "Mr. DIAZ came"), [Caps()])
>>> feats[2]
['stk=PATIENT', 'stk=B-PATIENT', 'stksrc=caps', '-1:stk=O', '1:stk=O']
>>> feats[3]
['stk=O', '-1:stk=PATIENT']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from notescrub.detect.base import Detector
from notescrub.detect.crf.posteriors import remember
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.estimator import Params
from notescrub.features.extract import TableGroup
from notescrub.text.tokenize import TokenizerMode
from notescrub.types import Document, Span

__all__ = ["StackedCRF", "stack_features", "stack_table"]


def stack_table(doc: Document, feeders: Sequence[Detector], fused: TokenizerMode = True) -> tuple[list[list[str]], list[int]]:
    """:func:`stack_features` as ``(table, ids)``: token ``i`` gets ``table[ids[i]]``.

    Tokens with no feeder span on themselves or their neighbours (most of them) share
    the rows ``["stk=O", "-1:stk=O", "1:stk=O"]`` (and its variants at the first and
    last token); the others get a row of their own.

    >>> from notescrub.types import Document, Span
    >>> class Caps(Detector):
    ...     name = "caps"
    ...     def detect(self, doc):
    ...         return [Span(4, 8, "PATIENT", 0.9, self.name)]
    >>> table, ids = stack_table(Document("d", "Mr. DIAZ came home"), [Caps()])
    >>> ids, table[0], table[ids[-1]]
    ([2, 4, 5, 6, 1], ['stk=O', '-1:stk=O', '1:stk=O'], ['stk=O', '-1:stk=O'])
    """
    from notescrub.text.views import token_view

    view = token_view(doc, fused=fused)
    n = len(view.tokens)
    # only tokens inside feeder spans have entries (most tokens have none: they get the
    # shared constant rows below)
    own: dict[int, list[str]] = {}
    labels: dict[int, set[str]] = {}
    for det in feeders:
        for s in det.detect(doc):
            idx = view.tokens_in(s.start, s.end)
            for k, i in enumerate(idx):
                pos = "B" if k == 0 else "I"
                own.setdefault(i, []).extend((f"stk={s.label}", f"stk={pos}-{s.label}", f"stksrc={det.name}"))
                labels.setdefault(i, set()).add(s.label)
    # rows 0..3: no feeder span around; middle, last, first, only token
    table: list[list[str]] = [["stk=O", "-1:stk=O", "1:stk=O"], ["stk=O", "-1:stk=O"], ["stk=O", "1:stk=O"],
                              ["stk=O"]]
    ids = [0] * n
    if n:
        ids[0] = 2 if n > 1 else 3
        if n > 1:
            ids[-1] = 1
    touched = set(own)
    for i in labels:
        touched.update((i - 1, i + 1))
    for i in sorted(touched):
        if not 0 <= i < n:
            continue
        mine = own.get(i)
        feats = list(dict.fromkeys(mine)) if mine else ["stk=O"]
        if i > 0:
            lab = labels.get(i - 1)
            feats += [f"-1:stk={x}" for x in sorted(lab)] if lab else ["-1:stk=O"]
        if i + 1 < n:
            lab = labels.get(i + 1)
            feats += [f"1:stk={x}" for x in sorted(lab)] if lab else ["1:stk=O"]
        ids[i] = len(table)
        table.append(feats)
    return table, ids


def stack_features(doc: Document, feeders: Sequence[Detector], fused: TokenizerMode = True) -> list[list[str]]:
    """Per-token features from the feeders' spans (see the module docstring)."""
    table, ids = stack_table(doc, feeders, fused)
    return [list(table[k]) for k in ids]


class StackedCRF(Params, Detector):
    """A :class:`~notescrub.detect.crf.tagger.CRFTagger` whose features include feeder detections.

    Parameters
    ----------
    crf:
        The CRF (its featurizer, scheme, bias and threshold apply as usual).
    feeders:
        Detectors run before the CRF; their spans become features.
    name:
        Layer name of the stacked tagger's output.
    """

    def __init__(self, crf: CRFTagger, feeders: Sequence[Detector], name: str = "crf") -> None:
        self.crf = crf
        self.feeders = list(feeders)
        self.name = name

    def _parts(self, doc: Document, table: tuple[list[list[str]], list[int]] | None = None):
        feat = self.crf._featurizer()
        if table is None:
            table = stack_table(doc, self.feeders, fused=feat.fused)
        return feat.parts(doc).with_extra(TableGroup(*table))

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> StackedCRF:
        docs = list(docs)
        self.crf.fit(docs, layer, attrs=[self._parts(d).join() for d in docs])
        return self

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_with_info(doc)[0]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        """Spans of ``doc`` and the record's confidence ``{"logprob", "tokens"}``."""
        table, ids = stack_table(doc, self.feeders, fused=self.crf._featurizer().fused)
        d = self.crf.decode(doc, parts=self._parts(doc, (table, ids)), marginals=True)
        # token posteriors and feeder hits, for notescrub.risk (kept in the document's cache)
        # (decided once per table row: most tokens share the first few rows)
        row_hit = np.array([any(f.startswith("stk=") and f != "stk=O" for f in row) for row in table], dtype=bool)
        hit = row_hit[np.asarray(ids, dtype=np.int64)] if ids else np.zeros(0, dtype=bool)
        remember(doc, self.name, self.crf.tags_, d.marginals, feeder=hit)
        return [s.with_(source=self.name) for s in d.spans], d.info()

    def final_attributes(self, doc: Document) -> tuple[CRFTagger, list[list[str]]]:
        """The inner CRF and the attributes it sees for ``doc``, feeder features included
        (what :func:`notescrub.detect.crf.explain.explainer` needs to explain a span)."""
        return self.crf, self._parts(doc).join()

    # the recall knob and confidence settings live on the inner CRF
    @property
    def bias(self) -> float:
        return self.crf.bias

    @bias.setter
    def bias(self, value: float) -> None:
        self.crf.bias = value

    @property
    def threshold(self) -> float | None:
        return self.crf.threshold

    @threshold.setter
    def threshold(self, value: float | None) -> None:
        self.crf.threshold = value

    def set_params(self, **params: Any) -> StackedCRF:
        """Set ``crf``, ``feeders``, ``name`` or nested ``crf__param``; any other name is the inner
        CRF's parameter (``set_params(bias=-1.0)`` is ``set_params(crf__bias=-1.0)``)."""
        own = self._param_names()
        inner = {k: v for k, v in params.items() if k.partition("__")[0] not in own}
        super().set_params(**{k: v for k, v in params.items() if k not in inner})
        if inner:
            self.crf.set_params(**inner)
        return self

    def save(self, directory: str | Path, **kw: Any) -> Path:
        """Save the inner CRF (feeders are described by the enclosing model's config)."""
        return self.crf.save(directory, **kw)
