"""Named, injectable policies that merge competing spans into one non-overlapping set.

Every policy is a callable ``(list[Span]) -> list[Span]`` whose output has no two
overlapping spans, sorted by offset. Which detector produced each kept span stays
in ``span.source`` (merged sources are joined with ``+``) for explanations.

* :func:`longest` — longest span wins, then highest score (spaCy ``filter_spans``).
* :func:`highest_score` — highest score wins, then longest.
* :class:`Priority` — a per-type priority order decides (Manchester's integration:
  ``Doctor`` over ``Patient``, ``Age`` over ``Date`` ...), then length, then score.
* :func:`union` — recall first: overlapping spans are fused into their union extent,
  labelled by the best-scored, longest member.
* :class:`Cover` — recall first without blurring extents: a base policy decides the
  conflicts, then any alphanumeric text covered only by a losing span is kept as a
  remainder span of the loser's label, so no detected character is ever dropped.

>>> a, b = Span(0, 5, "PATIENT", 0.6, "dict"), Span(3, 9, "DOCTOR", 0.9, "crf")
>>> [(s.start, s.end, s.label) for s in longest([a, b])]
[(3, 9, 'DOCTOR')]
>>> [(s.start, s.end, s.label, s.source) for s in union([a, b])]
[(0, 9, 'DOCTOR', 'crf+dict')]
>>> [(s.label) for s in Priority(["PATIENT", "DOCTOR"])([a, b])]
['PATIENT']
>>> [(s.start, s.end, s.label) for s in Cover(Priority(["PATIENT", "DOCTOR"]))([a, b])]
[(0, 5, 'PATIENT'), (5, 9, 'DOCTOR')]
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence

from sortedcontainers import SortedList

from notescrub.errors import ConfigError
from notescrub.types import Span

__all__ = [
    "RESOLVERS",
    "Blocks",
    "Cover",
    "Priority",
    "Resolver",
    "get_resolver",
    "greedy",
    "highest_score",
    "longest",
    "union",
]

Resolver = Callable[[list[Span]], list[Span]]


class _Disjoint:
    """Non-overlapping non-empty intervals kept sorted, for O(log n) overlap queries.

    Ends grow with starts (the intervals are disjoint), so the intervals meeting
    ``[a, b)`` are the run that ends at the last one starting before ``b``.
    """

    def __init__(self) -> None:
        self._items: SortedList = SortedList()

    def add(self, a: int, b: int) -> None:
        if b > a:
            self._items.add((a, b))

    def meeting(self, a: int, b: int) -> list[tuple[int, int]]:
        """Intervals that share a character with ``[a, b)`` (an empty ``[a, a)``: strictly inside), in order."""
        items = self._items
        i = items.bisect_left((b, b)) - 1
        out = []
        while i >= 0:
            x, y = items[i]
            if y <= a or (a == b and not x < a):
                break
            out.append((x, y))
            i -= 1
        return out[::-1]

    def overlaps(self, a: int, b: int) -> bool:
        return bool(self.meeting(a, b))


class Blocks:
    """Ranges (possibly overlapping) merged once, then asked "does ``[a, b)`` meet any?" in O(log n).

    >>> b = Blocks([(10, 20), (15, 30), (50, 60)])
    >>> b.hits(0, 10), b.hits(29, 31), b.hits(30, 50), b.hits(55, 56)
    (False, True, False, True)
    """

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for a, b in sorted(r for r in ranges if r[1] > r[0]):
            if merged and a <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self._starts = [a for a, _ in merged]
        self._ends = [b for _, b in merged]

    def __bool__(self) -> bool:
        return bool(self._starts)

    def hits(self, a: int, b: int) -> bool:
        """True when some range shares a character with ``[a, b)``."""
        i = bisect_left(self._starts, b) - 1
        return i >= 0 and self._ends[i] > a


def greedy(spans: Iterable[Span], key: Callable[[Span], tuple]) -> list[Span]:
    """Keep spans in order of decreasing ``key`` while they overlap nothing kept (O(n log n)).

    An empty span overlaps a kept span only strictly inside it, and is kept at most once
    at a given offset (as :meth:`Span.overlaps` decides).
    """
    kept: list[Span] = []
    taken = _Disjoint()
    empties: set[int] = set()
    for s in sorted(spans, key=key, reverse=True):
        if s.end > s.start:
            if taken.overlaps(s.start, s.end) or _has_empty_inside(empties, s.start, s.end):
                continue
            taken.add(s.start, s.end)
        elif taken.overlaps(s.start, s.start):
            continue
        else:
            empties.add(s.start)
        kept.append(s)
    return sorted(kept, key=Span.sort_key)


def _has_empty_inside(empties: set[int], a: int, b: int) -> bool:
    """Is a kept empty span strictly inside ``[a, b)``? (rare: checked only when some exist)."""
    if not empties:
        return False
    if b - a - 1 < len(empties):
        return any(x in empties for x in range(a + 1, b))
    return any(a < x < b for x in empties)


def longest(spans: list[Span]) -> list[Span]:
    """Longest first, then highest score, then earliest."""
    return greedy(spans, key=lambda s: (s.length, s.score, -s.start))


def highest_score(spans: list[Span]) -> list[Span]:
    """Highest score first, then longest, then earliest."""
    return greedy(spans, key=lambda s: (s.score, s.length, -s.start))


class Priority:
    """Resolve conflicts by a type priority list (earlier = stronger).

    Types are compared by canonical subtype when they have one (so native labels of
    any scheme work); types not listed rank below every listed type.
    """

    def __init__(self, order: Sequence[str]) -> None:
        if len(set(order)) != len(order):
            raise ConfigError("priority order lists a type twice")
        self.order = list(order)
        self._rank = {t: len(order) - i for i, t in enumerate(order)}

    def rank(self, s: Span) -> int:
        return self._rank.get(s.label, self._rank.get(s.phi or "", 0))

    def __call__(self, spans: list[Span]) -> list[Span]:
        return greedy(spans, key=lambda s: (self.rank(s), s.length, s.score, -s.start))

    def __repr__(self) -> str:
        return f"Priority({self.order!r})"


def union(spans: list[Span]) -> list[Span]:
    """Fuse overlapping spans into their union; the label comes from the strongest member."""
    out: list[Span] = []
    group: list[Span] = []
    end = -1
    for s in sorted(spans, key=Span.sort_key):
        if group and s.start < end:
            group.append(s)
            end = max(end, s.end)
            continue
        if group:
            out.append(_fuse(group))
        group, end = [s], s.end
    if group:
        out.append(_fuse(group))
    return out


def _fuse(group: list[Span]) -> Span:
    if len(group) == 1:
        return group[0]
    best = max(group, key=lambda s: (s.score, s.length))
    sources = "+".join(sorted({p for s in group for p in s.source.split("+") if p}))
    return Span(
        min(s.start for s in group),
        max(s.end for s in group),
        best.label,
        max(s.score for s in group),
        sources,
        meta={**best.meta, "merged": len(group)},
    )


class Cover:
    """Resolve with ``base``, then keep the uncovered remainders of the losing spans.

    A remainder is the part of a losing span outside every kept span, trimmed of
    non-alphanumeric characters at its ends; remainders with no letter or digit are
    dropped. Remainders carry the loser's label, score and source (meta ``remainder``).
    Needs the document text only through offsets, so it works on spans alone: the
    ``text`` argument is optional and, when given, enables trimming.
    """

    def __init__(self, base: Resolver = longest, text: str | None = None) -> None:
        self.base = base
        self.text = text

    def for_text(self, text: str) -> Cover:
        """A copy that trims remainders against ``text``."""
        return Cover(self.base, text)

    def __call__(self, spans: list[Span]) -> list[Span]:
        kept = self.base(spans)
        kept_set = set(kept)
        covered = _Disjoint()
        for k in kept:
            covered.add(k.start, k.end)
        extra: list[Span] = []
        for s in sorted(spans, key=lambda x: (-x.score, -x.length, x.start)):
            if s in kept_set:
                continue
            for a, b in _gaps(s.start, s.end, covered.meeting(s.start, s.end)):
                a, b = self._trim(a, b)
                if b > a:
                    extra.append(Span(a, b, s.label, s.score, s.source, meta={**s.meta, "remainder": True}))
                    covered.add(a, b)
        return sorted(kept + extra, key=Span.sort_key)

    def _trim(self, a: int, b: int) -> tuple[int, int]:
        t = self.text
        if t is None:
            return a, b
        while a < b and not t[a].isalnum():
            a += 1
        while b > a and not t[b - 1].isalnum():
            b -= 1
        return a, b

    def __repr__(self) -> str:
        return f"Cover({self.base!r})"


def _gaps(start: int, end: int, covering: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Parts of ``[start, end)`` outside ``covering`` (sorted, disjoint intervals)."""
    pieces, pos = [], start
    for a, b in covering:
        if a > pos:
            pieces.append((pos, min(a, end)))
        pos = max(pos, b)
    if pos < end:
        pieces.append((pos, end))
    return [(a, b) for a, b in pieces if b > a]


RESOLVERS: dict[str, Resolver] = {"longest": longest, "highest_score": highest_score, "union": union}

from notescrub.detect.spans.vote import Vote  # noqa: E402  (vote depends only on types)

RESOLVERS["vote"] = Vote(2)


def get_resolver(name: str) -> Resolver:
    """Look up a resolver by name (``longest``, ``highest_score``, ``union``, ``vote`` with two votes).

    ``priority`` and ``cover`` take options: build them with
    :func:`notescrub.assemble.resolver_from_spec`.
    """
    try:
        return RESOLVERS[name]
    except KeyError:
        raise ConfigError(f"unknown resolver {name!r}; known: {', '.join(RESOLVERS)}") from None
