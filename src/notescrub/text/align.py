"""Spans <-> token tags (IO, BIO, BILOU) over :func:`notescrub.text.views.token_view` tokens.

Sequence taggers see one tag per token; corpora give character spans. This module
converts both ways and *counts* every place where the conversion cannot be exact.

Conversion policy (spans -> tags), applied in this order and counted in :class:`AlignStats`:

1. **Overlapping or crossing gold spans** cannot both be encoded in one tag sequence.
   The longest span is kept (ties: earliest start, then label name) and every span
   overlapping a kept one is dropped (``overlap_dropped``). Nested spans therefore
   lose their inner span, crossing spans their shorter member.
2. **Boundaries inside a token** (``"52 añosingre"``): the span is widened to whole
   tokens (``expanded``); decoding then yields the token-aligned extent.
3. **Spans touching a token already taken** by an earlier span (both cover part of
   one fused token): the later span gives that token up (``token_conflicts``); a
   span left with no token is dropped (``no_tokens``), as is a span over whitespace only.

Decoding (tags -> spans) is lenient: an ``I-``/``L-`` tag that does not continue a span
of the same type starts a new one, so any tag sequence decodes.

>>> from notescrub.text.tokenize import tokenize
>>> toks = tokenize("Dr. Ana Ruiz, 3/18")
>>> spans = [Span(4, 12, "DOCTOR"), Span(14, 18, "DATE")]
>>> spans_to_tags(toks, spans, "BIO")
['O', 'O', 'B-DOCTOR', 'I-DOCTOR', 'O', 'B-DATE', 'I-DATE', 'I-DATE']
>>> spans_to_tags(toks, spans, "BILOU")[2:4]
['B-DOCTOR', 'L-DOCTOR']
>>> [(s.start, s.end, s.label) for s in tags_to_spans(spans_to_tags(toks, spans, "BIO"), toks)]
[(4, 12, 'DOCTOR'), (14, 18, 'DATE')]
>>> stats = AlignStats()
>>> _ = spans_to_tags(toks, [Span(4, 12, "DOCTOR"), Span(8, 12, "PATIENT")], "IO", stats)
>>> stats.overlap_dropped
1
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Protocol

from notescrub.errors import ConfigError
from notescrub.types import Span

__all__ = [
    "OUTSIDE",
    "SCHEMES",
    "AlignStats",
    "repair_tags",
    "resolve_overlaps",
    "scheme_tags",
    "spans_to_tags",
    "tag_prefix",
    "tag_type",
    "tags_to_spans",
]

SCHEMES = ("IO", "BIO", "BILOU")
OUTSIDE = "O"


class _Tok(Protocol):
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


@dataclass
class AlignStats:
    """Counts of what the span -> tag conversion had to change (summed over documents)."""

    spans: int = 0
    aligned: int = 0
    overlap_dropped: int = 0
    expanded: int = 0
    token_conflicts: int = 0
    no_tokens: int = 0

    def add(self, other: AlignStats) -> None:
        for k, v in asdict(other).items():
            setattr(self, k, getattr(self, k) + v)

    def as_dict(self) -> dict[str, int]:
        return asdict(self)


def check_scheme(scheme: str) -> str:
    if scheme not in SCHEMES:
        raise ConfigError(f"unknown tagging scheme {scheme!r}; known: {', '.join(SCHEMES)}")
    return scheme


def tag_type(tag: str) -> str | None:
    """Entity type of a tag (``None`` for ``O``). ``tag_type("B-DATE") == "DATE"``."""
    return None if tag == OUTSIDE else tag[2:]


def tag_prefix(tag: str) -> str:
    """``B``/``I``/``L``/``U`` (``O`` for outside)."""
    return tag[0]


def scheme_tags(types: Sequence[str], scheme: str) -> list[str]:
    """All tags of ``scheme`` for ``types`` (``O`` first).

    >>> scheme_tags(["AGE"], "BILOU")
    ['O', 'B-AGE', 'I-AGE', 'L-AGE', 'U-AGE']
    """
    prefixes = {"IO": "I", "BIO": "BI", "BILOU": "BILU"}[check_scheme(scheme)]
    return [OUTSIDE] + [f"{p}-{t}" for t in sorted(types) for p in prefixes]


def resolve_overlaps(spans: Sequence[Span]) -> tuple[list[Span], list[Span]]:
    """Split ``spans`` into (kept, dropped): longest first, then earliest, then label."""
    from notescrub.detect.spans.resolve import greedy

    order = sorted(spans, key=lambda s: (-s.length, s.start, s.label))
    rank = {id(s): i for i, s in enumerate(order)}
    kept = greedy(order, key=lambda s: (-rank[id(s)],))
    kept_ids = {id(s) for s in kept}
    dropped = [s for s in order if id(s) not in kept_ids]
    return kept, dropped


def _encode(n: int, scheme: str, typ: str) -> list[str]:
    if scheme == "IO":
        return [f"I-{typ}"] * n
    if scheme == "BIO":
        return [f"B-{typ}"] + [f"I-{typ}"] * (n - 1)
    if n == 1:
        return [f"U-{typ}"]
    return [f"B-{typ}"] + [f"I-{typ}"] * (n - 2) + [f"L-{typ}"]


def spans_to_tags(
    tokens: Sequence[_Tok],
    spans: Sequence[Span],
    scheme: str = "BIO",
    stats: AlignStats | None = None,
) -> list[str]:
    """One tag per token for ``spans`` (see the module docstring for the policy)."""
    check_scheme(scheme)
    st = stats if stats is not None else AlignStats()
    tags = [OUTSIDE] * len(tokens)
    starts = [t.start for t in tokens]
    ends = [t.end for t in tokens]
    kept, dropped = resolve_overlaps(spans)
    st.spans += len(spans)
    st.overlap_dropped += len(dropped)
    for s in kept:
        lo = bisect_right(ends, s.start)  # first token ending after the span start
        hi = bisect_left(starts, s.end)  # first token starting at/after the span end
        idx = [i for i in range(lo, hi) if tags[i] == OUTSIDE]
        if len(idx) < hi - lo:
            st.token_conflicts += 1
        if not idx:
            st.no_tokens += 1
            continue
        if tokens[lo].start != s.start or tokens[hi - 1].end != s.end:
            st.expanded += 1
        else:
            st.aligned += 1
        # a span that lost tokens in its middle is encoded on its first contiguous run
        run = [idx[0]]
        for i in idx[1:]:
            if i != run[-1] + 1:
                break
            run.append(i)
        for i, tag in zip(run, _encode(len(run), scheme, s.label)):
            tags[i] = tag
    return tags


def repair_tags(tags: Sequence[str], scheme: str) -> list[str]:
    """Make a tag sequence valid for ``scheme`` (after cutting a record into sentences).

    >>> repair_tags(["I-AGE", "I-AGE", "O", "U-AGE"], "BILOU")
    ['B-AGE', 'L-AGE', 'O', 'U-AGE']
    """
    spans = _segments(tags)
    out = [OUTSIDE] * len(tags)
    for a, b, typ in spans:
        out[a:b] = _encode(b - a, scheme, typ)
    return out


def _segments(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Lenient decoding to ``(first_token, end_token, type)`` triples."""
    out: list[tuple[int, int, str]] = []
    cur: list | None = None
    for i, tag in enumerate(tags):
        if tag == OUTSIDE:
            cur = None
            continue
        p, typ = tag[0], tag[2:]
        if cur is not None and cur[2] == typ and p in "IL" and cur[3]:
            cur[1] = i + 1
        else:
            cur = [i, i + 1, typ, True]
            out.append(cur)  # type: ignore[arg-type]
        if p in "LU":
            cur[3] = False  # closed: the next token cannot continue it
            cur = None
    return [(a, b, t) for a, b, t, _ in out]  # type: ignore[misc]


def tags_to_spans(
    tags: Sequence[str],
    tokens: Sequence[_Tok],
    *,
    source: str = "",
    scores: Sequence[float] | None = None,
) -> list[Span]:
    """Spans for a tag sequence (lenient: any sequence decodes).

    ``scores`` (one per decoded segment, in order) become :attr:`Span.score`.
    Tokens are token-level indices in ``meta["tokens"]`` as ``(first, end)``.
    """
    if len(tags) != len(tokens):
        raise ValueError(f"{len(tags)} tags for {len(tokens)} tokens")
    out = []
    for k, (a, b, typ) in enumerate(_segments(tags)):
        score = 1.0 if scores is None else float(scores[k])
        out.append(Span(tokens[a].start, tokens[b - 1].end, typ, score, source, meta={"tokens": (a, b)}))
    return out


def segments(tags: Sequence[str]) -> list[tuple[int, int, str]]:
    """Token segments ``(first, end, type)`` of a tag sequence (lenient decoding)."""
    return _segments(tags)
