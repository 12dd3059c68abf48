import itertools

import pytest

from notescrub.detect.spans.resolve import Priority, get_resolver, highest_score, longest, union
from notescrub.errors import ConfigError
from notescrub.types import Span

A = Span(0, 5, "PATIENT", 0.6, "dict")
B = Span(3, 9, "DOCTOR", 0.9, "crf")
C = Span(20, 24, "DATE", 1.0, "rules")


@pytest.mark.parametrize(
    "policy,expected",
    [
        (longest, [(3, 9, "DOCTOR"), (20, 24, "DATE")]),
        (highest_score, [(3, 9, "DOCTOR"), (20, 24, "DATE")]),
        (Priority(["PATIENT", "DOCTOR"]), [(0, 5, "PATIENT"), (20, 24, "DATE")]),
        (union, [(0, 9, "DOCTOR"), (20, 24, "DATE")]),
    ],
)
def test_policies_give_non_overlapping_sorted_spans(policy, expected):
    out = policy([C, B, A])
    assert [(s.start, s.end, s.label) for s in out] == expected
    for x, y in itertools.pairwise(out):
        assert x.end <= y.start


def test_union_keeps_all_sources():
    assert union([A, B])[0].source == "crf+dict"


def test_priority_uses_canonical_subtype_for_native_labels():
    p = Priority(["AGE", "DATE"])
    out = p([Span(0, 10, "FECHAS"), Span(0, 7, "EDAD_SUJETO_ASISTENCIA")])
    assert [s.label for s in out] == ["EDAD_SUJETO_ASISTENCIA"]


def test_unknown_resolver_name():
    with pytest.raises(ConfigError):
        get_resolver("nope")


def test_cover_keeps_remainders_of_losers_trimmed_to_alphanumerics():
    from notescrub.detect.spans.resolve import Cover

    text = "Ann Lee-Smith, MD"
    spans = [Span(0, 7, "PATIENT", 0.5, "dict"), Span(4, 13, "DOCTOR", 0.9, "crf")]
    out = Cover(Priority(["DOCTOR"])).for_text(text)(spans)
    assert [(text[s.start:s.end], s.label) for s in out] == [("Ann", "PATIENT"), ("Lee-Smith", "DOCTOR")]
    # a loser entirely inside a winner leaves nothing behind
    out = Cover(longest).for_text(text)([Span(0, 13, "DOCTOR"), Span(4, 7, "PATIENT")])
    assert [(s.start, s.end) for s in out] == [(0, 13)]
    # remainders of punctuation only are dropped
    out = Cover(longest).for_text("A, B")([Span(0, 1, "DATE"), Span(0, 3, "AGE")])
    assert [(s.start, s.end, s.label) for s in out] == [(0, 3, "AGE")]
