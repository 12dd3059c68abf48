"""Progress, per-reviewer counts and inter-reviewer agreement of a review.

Counts come from the edit log, leaving out edits that were undone (and the undo
rows themselves). ``accepted`` counts explicit accepts plus the proposed spans a
reviewer left alone when marking the note reviewed.

Agreement: for every note that two reviewers both marked reviewed, each reviewer's
spans at the moment they marked it (their latest such edit not undone) are compared
as sets of ``(start, end, type)``; the figure is the **span-level F1** between the two
reviewers, ``2·|A∩B| / (|A| + |B|)`` summed over their common notes (symmetric, so
neither reviewer is the reference). Note that the second reviewer saw the first one's
work: this is a verification agreement, not a blind double annotation.

>>> span_f1([{(0, 4, "DATE"), (8, 12, "DOCTOR")}], [{(0, 4, "DATE")}])
0.666667
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from itertools import combinations
from typing import Any

from notescrub.review.edits import live_spans
from notescrub.review.store import ReviewStore

__all__ = ["format_stats", "review_stats", "span_f1"]

SpanKey = tuple[int, int, str]


def span_f1(a: list[set[SpanKey]], b: list[set[SpanKey]]) -> float:
    """Micro span-level F1 between two annotators over paired notes (1.0 when both are empty)."""
    inter = sum(len(x & y) for x, y in zip(a, b))
    total = sum(len(x) + len(y) for x, y in zip(a, b))
    return round(2 * inter / total, 6) if total else 1.0


def _effective(edits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    undone = {e["undoes"] for e in edits if e["undoes"] is not None}
    return [e for e in edits if e["action"] != "undo" and e["seq"] not in undone]


def review_stats(store: ReviewStore) -> dict[str, Any]:
    """``{"notes", "reviewed", "spans": {...}, "reviewers": {name: {...}}, "agreement": [...]}``."""
    edits = _effective(store.edits())
    per: dict[str, Counter] = defaultdict(Counter)
    snapshots: dict[tuple[int, str], set[SpanKey]] = {}
    for e in edits:
        c = per[e["reviewer"]]
        summary = json.loads(e["summary"])
        if e["action"] == "accept":
            c["accepted"] += 1
        elif e["action"] == "reject":
            c["rejected"] += 1
        elif e["action"] == "add":
            c["added"] += 1
        elif e["action"] == "retype":
            c["retyped"] += 1
        elif e["action"] == "extent":
            c["extent_changed"] += 1
        elif e["action"] == "reviewed":
            c["notes_reviewed"] += 1
            c["accepted"] += int(summary.get("accepted", 0))
            spans = json.loads(e["spans_after"])
            snapshots[(e["nid"], e["reviewer"])] = {(s["start"], s["end"], s["type"]) for s in live_spans(spans)}
    keys = ("notes_reviewed", "accepted", "rejected", "added", "retyped", "extent_changed")
    reviewers = {name: {k: int(c[k]) for k in keys} for name, c in sorted(per.items())}
    totals = {k: sum(r[k] for r in reviewers.values()) for k in keys}
    by_note: dict[int, dict[str, set[SpanKey]]] = defaultdict(dict)
    for (nid, name), spans in snapshots.items():
        by_note[nid][name] = spans
    agreement = []
    names = sorted({n for d in by_note.values() for n in d})
    for a, b in combinations(names, 2):
        common = sorted(nid for nid, d in by_note.items() if a in d and b in d)
        if common:
            agreement.append({"reviewers": [a, b], "notes": len(common),
                              "span_f1": span_f1([by_note[n][a] for n in common], [by_note[n][b] for n in common])})
    notes = list(store.queue())
    return {"notes": len(notes), "reviewed": sum(n["status"] == "reviewed" for n in notes), "spans": totals,
            "reviewers": reviewers, "agreement": agreement, "agreement_measure": "span-level F1 on (start, end, type)"}


def format_stats(stats: dict[str, Any]) -> str:
    """A plain-text table of :func:`review_stats` (no note text: counts and names only)."""
    lines = [f"notes reviewed: {stats['reviewed']} / {stats['notes']}", ""]
    cols = ("notes_reviewed", "accepted", "rejected", "added", "retyped", "extent_changed")
    head = ["reviewer", "notes", "accepted", "rejected", "added", "retyped", "extent"]
    rows = [[name, *(str(r[c]) for c in cols)] for name, r in stats["reviewers"].items()]
    rows.append(["all", *(str(stats["spans"][c]) for c in cols)])
    widths = [max(len(x) for x in col) for col in zip(head, *rows)]
    for row in (head, *rows):
        lines.append("  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(row, widths))))
    lines.append("")
    if stats["agreement"]:
        lines.append(f"agreement between reviewers, {stats['agreement_measure']}:")
        for a in stats["agreement"]:
            lines.append(f"  {a['reviewers'][0]} vs {a['reviewers'][1]}: {a['span_f1']:.3f} on {a['notes']} note(s)")
    else:
        lines.append("agreement: no note was marked reviewed by two reviewers")
    return "\n".join(lines)
