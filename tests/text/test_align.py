"""Spans <-> tags: schemes, round trips, and the counted overlap/misalignment policy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.text.align import (
    AlignStats,
    repair_tags,
    resolve_overlaps,
    scheme_tags,
    spans_to_tags,
    tags_to_spans,
)
from notescrub.text.tokenize import tokenize
from notescrub.types import Span

TEXT = "Dr. Ana Ruiz saw Pedro on 3/18/2020 in Madrid"
TOKS = tokenize(TEXT)  # Dr . Ana Ruiz saw Pedro on 3 / 18 / 2020 in Madrid
SPANS = [Span(4, 12, "DOCTOR"), Span(17, 22, "PATIENT"), Span(26, 35, "DATE")]


@pytest.mark.parametrize(
    "scheme, expected",
    [
        ("IO", ["O", "O", "I-DOCTOR", "I-DOCTOR", "O", "I-PATIENT", "O"] + ["I-DATE"] * 5 + ["O", "O"]),
        ("BIO", ["O", "O", "B-DOCTOR", "I-DOCTOR", "O", "B-PATIENT", "O", "B-DATE"] + ["I-DATE"] * 4 + ["O", "O"]),
        ("BILOU", ["O", "O", "B-DOCTOR", "L-DOCTOR", "O", "U-PATIENT", "O", "B-DATE"] + ["I-DATE"] * 3
         + ["L-DATE", "O", "O"]),
    ],
)
def test_encode_schemes(scheme, expected):
    assert spans_to_tags(TOKS, SPANS, scheme) == expected


@pytest.mark.parametrize("scheme", ["IO", "BIO", "BILOU"])
def test_round_trip(scheme):
    back = tags_to_spans(spans_to_tags(TOKS, SPANS, scheme), TOKS, source="t")
    assert [(s.start, s.end, s.label) for s in back] == [(s.start, s.end, s.label) for s in SPANS]
    assert all(s.source == "t" for s in back)


def test_unknown_scheme():
    with pytest.raises(ConfigError, match="unknown tagging scheme"):
        spans_to_tags(TOKS, SPANS, "BIOES")


@pytest.mark.parametrize(
    "spans, kept, field",
    [
        # nested: the longer outer span wins
        ([Span(4, 12, "DOCTOR"), Span(8, 12, "PATIENT")], [(4, 12, "DOCTOR")], "overlap_dropped"),
        # crossing: the longer one wins
        ([Span(4, 12, "DOCTOR"), Span(8, 22, "PATIENT")], [(8, 22, "PATIENT")], "overlap_dropped"),
        # identical extents, different labels: label order decides, deterministic
        ([Span(4, 12, "PATIENT"), Span(4, 12, "DOCTOR")], [(4, 12, "DOCTOR")], "overlap_dropped"),
    ],
)
def test_overlap_policy_is_counted(spans, kept, field):
    stats = AlignStats()
    tags = spans_to_tags(TOKS, spans, "BIO", stats)
    assert [(s.start, s.end, s.label) for s in tags_to_spans(tags, TOKS)] == kept
    assert getattr(stats, field) == 1
    assert stats.spans == 2


def test_boundary_inside_token_is_expanded_and_counted():
    toks = tokenize("edad 52 añosingreso")  # 'añosingreso' is one token
    stats = AlignStats()
    tags = spans_to_tags(toks, [Span(5, 12, "AGE")], "BIO", stats)  # ends inside the token
    assert tags == ["O", "B-AGE", "I-AGE"]
    assert stats.expanded == 1 and stats.aligned == 0


def test_two_spans_in_one_token_conflict_is_counted():
    toks = tokenize("x AnaRuiz y", fused=False)
    stats = AlignStats()
    tags = spans_to_tags(toks, [Span(2, 5, "PATIENT"), Span(5, 9, "DOCTOR")], "BIO", stats)
    assert tags == ["O", "B-PATIENT", "O"]
    assert stats.token_conflicts == 1 and stats.no_tokens == 1


def test_whitespace_only_span_has_no_tokens():
    stats = AlignStats()
    assert spans_to_tags(tokenize("a  b"), [Span(1, 3, "X")], "BIO", stats) == ["O", "O"]
    assert stats.no_tokens == 1


def test_resolve_overlaps_returns_both_sides():
    kept, dropped = resolve_overlaps([Span(0, 5, "A"), Span(2, 3, "B"), Span(6, 8, "C")])
    assert [s.label for s in kept] == ["A", "C"] and [s.label for s in dropped] == ["B"]


@pytest.mark.parametrize(
    "tags, expected",
    [
        (["I-A", "I-A"], [(0, 2, "A")]),  # I without B starts a span
        (["B-A", "I-B"], [(0, 1, "A"), (1, 2, "B")]),  # type change splits
        (["U-A", "I-A"], [(0, 1, "A"), (1, 2, "A")]),  # closed spans are not continued
        (["B-A", "L-A", "L-A"], [(0, 2, "A"), (2, 3, "A")]),
        (["O", "O"], []),
    ],
)
def test_lenient_decoding(tags, expected):
    toks = tokenize(" ".join("w" for _ in tags))
    assert [(s.meta["tokens"][0], s.meta["tokens"][1], s.label) for s in tags_to_spans(tags, toks)] == expected


def test_repair_after_cut():
    assert repair_tags(["I-X", "O", "B-X", "I-X"], "BILOU") == ["U-X", "O", "B-X", "L-X"]
    assert repair_tags(["I-X", "I-X"], "BIO") == ["B-X", "I-X"]


def test_scheme_tags():
    assert scheme_tags(["B", "A"], "BIO") == ["O", "B-A", "I-A", "B-B", "I-B"]


WORDS = ["Ana", "Ruiz", "saw", "3", "/", "18", "in", "Madrid", "."]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=25),
    st.lists(st.tuples(st.integers(0, 24), st.integers(1, 4), st.sampled_from(["A", "B"])), max_size=6),
    st.sampled_from(["BIO", "BILOU"]),
)
def test_property_token_aligned_spans_round_trip(words, raw, scheme):
    text = " ".join(words)
    toks = tokenize(text)
    spans, used = [], set()
    for i, n, lab in raw:
        idx = set(range(i, min(i + n, len(toks))))
        if not idx or idx & used:
            continue
        used |= idx
        spans.append(Span(toks[min(idx)].start, toks[max(idx)].end, lab))
    stats = AlignStats()
    back = tags_to_spans(spans_to_tags(toks, spans, scheme, stats), toks)
    assert sorted((s.start, s.end, s.label) for s in back) == sorted((s.start, s.end, s.label) for s in spans)
    assert stats.aligned == len(spans) and stats.overlap_dropped == 0
