"""Stacked CRF feeder features: the table form expands to the per-token lists."""

from __future__ import annotations

import pytest

from notescrub.detect.base import Detector
from notescrub.detect.crf.stacked import stack_features, stack_table
from notescrub.text.views import token_view
from notescrub.types import Document, Span

TEXT = "Mr. DIAZ came home with Dr. Ana Vega on 03/18/2091 ."


class Fixed(Detector):
    def __init__(self, name, spans):
        self.name = name
        self.spans = spans

    def detect(self, doc):
        return list(self.spans)


def _reference(doc, feeders):
    view = token_view(doc)
    n = len(view.tokens)
    own, labels = {}, {}
    for det in feeders:
        for s in det.detect(doc):
            for k, i in enumerate(view.tokens_in(s.start, s.end)):
                own.setdefault(i, []).extend((f"stk={s.label}", f"stk={'B' if k == 0 else 'I'}-{s.label}",
                                              f"stksrc={det.name}"))
                labels.setdefault(i, set()).add(s.label)
    out = []
    for i in range(n):
        feats = list(dict.fromkeys(own[i])) if i in own else ["stk=O"]
        if i > 0:
            feats += [f"-1:stk={x}" for x in sorted(labels[i - 1])] if i - 1 in labels else ["-1:stk=O"]
        if i + 1 < n:
            feats += [f"1:stk={x}" for x in sorted(labels[i + 1])] if i + 1 in labels else ["1:stk=O"]
        out.append(feats)
    return out


@pytest.mark.parametrize("text", [TEXT, "DIAZ", "", "DIAZ came"])
def test_stack_table_matches_per_token_features(text):
    doc = Document("d", text)
    feeders = [Fixed("a", [Span(4, 8, "PATIENT", 0.9, "a"), Span(28, 36, "DOCTOR", 0.8, "a")] if len(text) > 40
                     else [Span(0, 4, "PATIENT", 0.9, "a")] if text else []),
               Fixed("b", [Span(4, 8, "PATIENT", 0.5, "b"), Span(4, 13, "LOCATION", 0.5, "b")] if len(text) > 40 else [])]
    table, ids = stack_table(doc, feeders)
    assert len(ids) == len(token_view(doc).tokens)
    assert [table[k] for k in ids] == _reference(doc, feeders)
    assert stack_features(doc, feeders) == _reference(doc, feeders)
