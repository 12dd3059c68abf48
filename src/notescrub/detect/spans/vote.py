"""Voting resolver: keep a region only when enough distinct detectors found it.

:class:`Vote` complements the policies of :mod:`notescrub.detect.spans.resolve`
(longest, highest_score, Priority, union): spans from several detectors (their
``source``) are grouped by overlap; a group survives when at least ``min_votes``
distinct sources contributed to it. The kept span is the group's best member (or the
union extent with ``extent="union"``), its label the most voted label (ties: highest
summed score), its score the mean of the best score per source weighted by the vote
share, and its ``source`` the ``+``-joined voters, so explanations still say who
found it.

>>> from notescrub.types import Span
>>> spans = [Span(0, 4, "PATIENT", 0.9, "rules"), Span(0, 4, "PATIENT", 0.6, "dict"),
...          Span(10, 14, "DATE", 0.8, "crf")]
>>> [(s.start, s.end, s.label, s.source) for s in Vote(2)(spans)]
[(0, 4, 'PATIENT', 'dict+rules')]
>>> [(s.label, s.source) for s in Vote(1)(spans)]
[('PATIENT', 'dict+rules'), ('DATE', 'crf')]
"""

from __future__ import annotations

from collections import defaultdict

from notescrub.errors import ConfigError
from notescrub.types import Span

__all__ = ["Vote"]


class Vote:
    """Resolver ``(list[Span]) -> list[Span]`` requiring ``min_votes`` distinct sources.

    Parameters
    ----------
    min_votes:
        Minimum number of distinct detectors (``span.source`` parts) in an overlap group.
    extent:
        ``"best"`` keeps the extent of the highest-scored member with the winning label
        (longest on ties); ``"union"`` the union of the group's members.
    """

    def __init__(self, min_votes: int = 2, extent: str = "best") -> None:
        if not isinstance(min_votes, int) or min_votes < 1:
            raise ConfigError(f"min_votes must be a positive integer, got {min_votes!r}")
        if extent not in ("best", "union"):
            raise ConfigError(f"extent must be 'best' or 'union', got {extent!r}")
        self.min_votes = min_votes
        self.extent = extent

    def __repr__(self) -> str:
        return f"Vote(min_votes={self.min_votes}, extent={self.extent!r})"

    def __call__(self, spans: list[Span]) -> list[Span]:
        out = []
        for group in _overlap_groups(spans):
            voters = _sources(group)
            if len(voters) < self.min_votes:
                continue
            out.append(self._merge(group, voters))
        return sorted(out, key=Span.sort_key)

    def _merge(self, group: list[Span], voters: set[str]) -> Span:
        by_label: dict[str, set[str]] = defaultdict(set)
        score_sum: dict[str, float] = defaultdict(float)
        for s in group:
            key = s.phi or s.label
            by_label[key] |= _sources([s])
            score_sum[key] += s.score
        label_key = max(by_label, key=lambda k: (len(by_label[k]), score_sum[k]))
        members = [s for s in group if (s.phi or s.label) == label_key]
        best = max(members, key=lambda s: (s.score, s.length, -s.start))
        best_per_source: dict[str, float] = {}
        for s in group:
            for src in _sources([s]):
                best_per_source[src] = max(best_per_source.get(src, 0.0), s.score)
        score = sum(best_per_source.values()) / len(best_per_source)
        if self.extent == "union":
            start, end = min(s.start for s in group), max(s.end for s in group)
        else:
            start, end = best.start, best.end
        return Span(start, end, best.label, min(1.0, score), "+".join(sorted(voters)),
                    meta={**best.meta, "votes": len(voters)})


def _sources(spans: list[Span]) -> set[str]:
    return {p for s in spans for p in (s.source or "?").split("+") if p}


def _overlap_groups(spans: list[Span]) -> list[list[Span]]:
    groups: list[list[Span]] = []
    end = -1
    for s in sorted(spans, key=Span.sort_key):
        if groups and s.start < end:
            groups[-1].append(s)
            end = max(end, s.end)
        else:
            groups.append([s])
            end = s.end
    return groups
