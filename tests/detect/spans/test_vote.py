"""Tests of the Vote resolver."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notescrub.detect.spans.resolve import get_resolver
from notescrub.detect.spans.vote import Vote
from notescrub.errors import ConfigError
from notescrub.types import Span

A = Span(0, 5, "PATIENT", 0.9, "rules")
B = Span(0, 5, "PATIENT", 0.5, "dictionary")
C = Span(2, 9, "DOCTOR", 0.7, "crf")
D = Span(20, 24, "DATE", 0.8, "crf")


@pytest.mark.parametrize(
    "votes, spans, expected",
    [
        (1, [A, D], [(0, 5, "PATIENT", "rules"), (20, 24, "DATE", "crf")]),
        (2, [A, D], []),
        (2, [A, B, D], [(0, 5, "PATIENT", "dictionary+rules")]),
        (3, [A, B, C], [(0, 5, "PATIENT", "crf+dictionary+rules")]),
        (4, [A, B, C], []),
        (2, [A, Span(0, 5, "PATIENT", 0.4, "rules")], []),  # one detector twice is one vote
        (1, [], []),
    ],
)
def test_vote_table(votes: int, spans: list[Span], expected: list[tuple]) -> None:
    assert [(s.start, s.end, s.label, s.source) for s in Vote(votes)(spans)] == expected


def test_label_is_the_most_voted_then_best_scored() -> None:
    spans = [Span(0, 4, "DOCTOR", 0.9, "a"), Span(0, 4, "PATIENT", 0.6, "b"), Span(0, 4, "PATIENT", 0.6, "c")]
    (s,) = Vote(2)(spans)
    assert s.label == "PATIENT" and s.meta["votes"] == 3 and s.score == pytest.approx(0.7)


def test_union_extent() -> None:
    (s,) = Vote(2, extent="union")([A, C])
    assert (s.start, s.end) == (0, 9)


def test_registered_and_validated() -> None:
    assert isinstance(get_resolver("vote"), Vote)
    with pytest.raises(ConfigError):
        Vote(0)
    with pytest.raises(ConfigError):
        Vote(2, extent="widest")


spans_st = st.builds(
    lambda a, n, lab, sc, src: Span(a, a + n, lab, sc, src),
    st.integers(0, 50), st.integers(1, 10), st.sampled_from(["DATE", "PATIENT", "DOCTOR"]),
    st.floats(0, 1), st.sampled_from(["rules", "dict", "crf", "svm"]),
)


@given(st.lists(spans_st, max_size=20), st.integers(1, 4))
def test_output_is_disjoint_and_each_kept_span_has_enough_voters(spans: list[Span], k: int) -> None:
    out = Vote(k)(spans)
    for a, b in itertools.pairwise(out):
        assert a.end <= b.start
    for s in out:
        assert len(s.source.split("+")) >= k and 0 <= s.score <= 1
