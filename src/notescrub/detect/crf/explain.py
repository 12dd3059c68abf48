"""Explanations of CRF spans: the strongest features behind a span's label.

For a span found by a CRF, :func:`explainer` returns the features of its first token
with the largest weights for the tag it received (for a stacked CRF, such as the one of
``en-default``, these include the feeder detections ``stk=...``/``stksrc=...``). Spans
of components that are not CRFs (rules, dictionaries, a patient-level second pass) have
no feature weights: their explanation is an empty list, and :func:`explainable` tells
which components can explain. Features whose value is text of the
note (the word, affixes, bigrams, neighbouring words, line heads, section names) are
masked (``"lw=<text>"``), so an explanation never carries PHI.

>>> mask("-1:lw=smith"), mask("shape=Xxxxx"), mask("dict=first_names")
('-1:lw=<text>', 'shape=Xxxxx', 'dict=first_names')
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from notescrub.detect.base import inner_detector
from notescrub.types import Document, Span

__all__ = ["explainable", "explainer", "mask", "top_features"]

_SAFE = re.compile(
    r"^(?:-?\d+:)?(?:shape|sshape|len|zipf|dict|pat|cshape|cpos|c:\w+|lpos|slen\[-?\d\]|line|pos"
    r"|tokrec|tokcorp|entrec|entcorp|stk|stksrc)(?:=|$)"
    r"|^(?:-?\d+:)?(?:[A-Z_]+|has_\w+|init_cap|all_caps|all_digits|alnum|digit_punct|line_first|glued|heading)$"
)


def mask(feature: str) -> str:
    """The feature name with its value masked when the value is note text."""
    if _SAFE.match(feature):
        return feature
    name, sep, _ = feature.partition("=")
    return f"{name}=<text>" if sep else "<text>"


def top_features(tagger: Any, attrs: list[str], tag: str, k: int = 5) -> list[list[Any]]:
    """``[[masked feature, weight], ...]`` of the ``k`` strongest features for ``tag``."""
    w = tagger.weights_
    col = w.labels.index(tag)
    scored = []
    for a in attrs:
        r = w.attr_index.get(a)
        if r is not None:
            v = float(w.state[r, col])
            if v:
                scored.append((v, a))
    scored.sort(key=lambda x: -abs(x[0]))
    return [[mask(a), round(v, 4)] for v, a in scored[:k]]


def explainable(pipeline: Any) -> list[str]:
    """Names of the detectors of ``pipeline`` whose spans can be explained (CRFs)."""
    return [d.name for d in pipeline.detectors if hasattr(inner_detector(d), "final_attributes")]


def explainer(pipeline: Any, k: int = 5) -> Callable[[Document, Span], list[list[Any]]]:
    """A function ``(doc, span) -> features`` for the CRF detectors of ``pipeline``."""
    crfs = {d.name: inner_detector(d) for d in pipeline.detectors if hasattr(inner_detector(d), "final_attributes")}
    cache: dict[str, Any] = {}

    def explain(doc: Document, span: Span) -> list[list[Any]]:
        det = crfs.get(span.source.split("+")[0])
        if det is None:
            return []
        key = f"{id(doc)}:{det.name}"
        if key not in cache:
            cache.clear()
            cache[key] = det.final_attributes(doc)
        tagger, attrs = cache[key]
        view = tagger._featurizer().view(doc)
        idx = view.tokens_in(span.start, span.end)
        if not len(idx):
            return []
        i = idx[0]
        tags = [t for t in tagger.weights_.labels if t != "O" and t[2:] == span.label]
        if not tags:
            return []
        S = tagger.weights_.state_scores([attrs[i]])[0]
        best = max(tags, key=lambda t: S[tagger.weights_.labels.index(t)])
        return top_features(tagger, attrs[i], best, k)

    return explain


