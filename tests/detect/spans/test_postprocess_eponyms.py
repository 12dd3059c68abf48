"""The eponym drop rule and the after_pattern condition of the post-processor."""

import pytest

from notescrub.detect.spans.postprocess import PostProcessor
from notescrub.types import Document, Span

TEXT = "He has Parkinson's disease; Dr. Bell saw him. Foley catheter out. Graves' orbitopathy. Mr. Wilson came."


def _span(word, label):
    i = TEXT.index(word)
    return Span(i, i + len(word), label, 0.6, "crf")


@pytest.mark.parametrize("word,label,kept", [
    ("Parkinson's", "HOSPITAL", False),
    ("Foley", "PATIENT", False),
    ("Graves'", "PATIENT", False),
    ("Bell", "DOCTOR", True),      # an eponym word used as a name, no clinical head after it
    ("Wilson", "PATIENT", True),
])
def test_eponym_followed_by_its_clinical_term_is_dropped(word, label, kept):
    pp = PostProcessor(only=["drop-eponym-term"])
    out = pp.apply(Document("d", TEXT), [_span(word, label)])
    assert bool(out) is kept


def test_rule_does_not_touch_dates():
    pp = PostProcessor(only=["drop-eponym-term"])
    doc = Document("d", "Parkinson's disease since 2019")
    assert pp.apply(doc, [Span(26, 30, "DATE")]) == [Span(26, 30, "DATE")]
