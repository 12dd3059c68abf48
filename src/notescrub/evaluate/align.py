"""One-to-one alignment of gold and predicted spans by overlap.

Used by the error analysis and the MUC-style scorer. Exact duplicates (same
start, end and label) are collapsed first, as the set-based scorers do. Pairs
that share at least one character are then taken greedily in this order: same
extent and label, same extent (type error), then largest overlap, preferring
the same label, then the leftmost. Every gold and every predicted span ends up
in at most one pair; the rest are missing (gold) or spurious (predicted).

>>> from notescrub.evaluate.labels import Item
>>> def it(a, b, lab): return Item(a, b, lab, "X", lab, lab)
>>> pairs = align([it(0, 4, "A"), it(10, 15, "B")], [it(0, 4, "B"), it(11, 20, "B"), it(30, 32, "A")])
>>> [(g.start if g else None, p.start if p else None) for g, p in pairs]
[(0, 0), (10, 11), (None, 30)]
"""

from __future__ import annotations

from collections.abc import Sequence

from notescrub.evaluate.labels import Item

__all__ = ["align", "dedupe"]


def dedupe(items: Sequence[Item]) -> list[Item]:
    """Sorted items with exact ``(start, end, label)`` duplicates removed."""
    seen: set[tuple[int, int, str]] = set()
    out = []
    for i in sorted(items, key=lambda i: (i.start, i.end, i.label)):
        k = (i.start, i.end, i.label)
        if k not in seen:
            seen.add(k)
            out.append(i)
    return out


def align(gold: Sequence[Item], pred: Sequence[Item]) -> list[tuple[Item | None, Item | None]]:
    """Pairs ``(gold, pred)``; ``(g, None)`` is missing and ``(None, p)`` spurious.

    Output order: by gold start (missing and matched), then spurious by start.
    """
    g = dedupe(gold)
    p = dedupe(pred)
    cands = []
    j0 = 0
    for gi, a in enumerate(g):
        while j0 < len(p) and p[j0].end <= a.start and p[j0].start < a.start:
            j0 += 1
        for pi in range(j0, len(p)):
            b = p[pi]
            if b.start >= a.end:
                break
            ov = min(a.end, b.end) - max(a.start, b.start)
            if ov <= 0:
                continue
            same_extent = a.start == b.start and a.end == b.end
            same_label = a.label == b.label
            rank = 0 if same_extent and same_label else 1 if same_extent else 2
            cands.append((rank, -ov, 0 if same_label else 1, a.start, b.start, gi, pi))
    cands.sort()
    g_used: dict[int, int] = {}
    p_used: set[int] = set()
    for *_, gi, pi in cands:
        if gi in g_used or pi in p_used:
            continue
        g_used[gi] = pi
        p_used.add(pi)
    out: list[tuple[Item | None, Item | None]] = [(a, p[g_used[gi]] if gi in g_used else None) for gi, a in enumerate(g)]
    out.extend((None, b) for pi, b in enumerate(p) if pi not in p_used)
    return out
