"""Resolvers: the sorted-interval implementations agree with the quadratic definitions, and scale."""

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.spans.resolve import Cover, Priority, greedy, highest_score, longest
from notescrub.types import Span


def naive_greedy(spans, key):
    kept = []
    for s in sorted(spans, key=key, reverse=True):
        if not any(s.overlaps(k) for k in kept):
            kept.append(s)
    return sorted(kept, key=Span.sort_key)


def naive_cover(base, spans, text):
    kept = base(spans)
    kept_set = set(kept)
    extra = []
    for s in sorted(spans, key=lambda x: (-x.score, -x.length, x.start)):
        if s in kept_set:
            continue
        pieces = [(s.start, s.end)]
        for k in kept + extra:
            nxt = []
            for a, b in pieces:
                if k.end <= a or k.start >= b:
                    nxt.append((a, b))
                    continue
                if a < k.start:
                    nxt.append((a, k.start))
                if k.end < b:
                    nxt.append((k.end, b))
            pieces = nxt
        for a, b in pieces:
            while a < b and not text[a].isalnum():
                a += 1
            while b > a and not text[b - 1].isalnum():
                b -= 1
            if b > a:
                extra.append(Span(a, b, s.label, s.score, s.source))
    return sorted(kept + extra, key=Span.sort_key)


@st.composite
def span_lists(draw, allow_empty=True):
    n = draw(st.integers(0, 30))
    out = []
    for _ in range(n):
        a = draw(st.integers(0, 60))
        b = draw(st.integers(a if allow_empty else a + 1, a + 15))
        out.append(Span(a, b, draw(st.sampled_from(["PATIENT", "DATE", "HOSPITAL"])),
                        draw(st.sampled_from([0.3, 0.5, 0.9])), draw(st.sampled_from(["crf", "rules"]))))
    return out


def _key(spans):
    return [(s.start, s.end, s.label, s.score, s.source) for s in spans]


@settings(max_examples=300, deadline=None)
@given(span_lists())
def test_greedy_matches_the_quadratic_definition(spans):
    for key in (lambda s: (s.length, s.score, -s.start), lambda s: (s.score, s.length, -s.start)):
        assert _key(greedy(spans, key)) == _key(naive_greedy(spans, key))


@settings(max_examples=300, deadline=None)
@given(span_lists(allow_empty=False), st.text(alphabet="ab -.", min_size=80, max_size=80))
def test_cover_matches_the_quadratic_definition(spans, text):
    for base in (longest, highest_score, Priority(["DATE", "PATIENT"])):
        assert _key(Cover(base, text)(spans)) == _key(naive_cover(base, spans, text))


def test_many_overlapping_spans_resolve_in_n_log_n():
    # 60k spans, each overlapping its neighbours: the quadratic version needed ~10^9 checks
    spans = [Span(i * 3, i * 3 + 5, "PATIENT", 0.5 + (i % 7) / 20, "crf") for i in range(60_000)]
    kept = Cover(longest, "x" * 200_000)(spans)
    assert len(kept) >= 30_000 and all(a.end <= b.start for a, b in itertools.pairwise(kept))
