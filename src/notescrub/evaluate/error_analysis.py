"""Error taxonomy (Wellner et al. 2007; He et al. 2015) and the confusion matrix.

Gold and predicted spans are aligned one-to-one (:func:`notescrub.evaluate.align.align`).
Each aligned pair or leftover span is one of

* ``correct``: same extent and label;
* ``type``: same extent, different label (also: different label *and* extent;
  the listing marks those with ``extent_differs``);
* ``extent_short``: same label, prediction strictly inside the gold span;
* ``extent_long``: same label, prediction strictly contains the gold span;
* ``extent_short_long``: same label, overlapping, neither contains the other;
* ``missing``: gold span with no overlapping prediction left;
* ``spurious``: prediction with no overlapping gold span left.

Counts are per gold type (per predicted type for ``spurious``). The confusion
matrix is gold type × predicted type over aligned pairs (extent errors lie on the
diagonal, as in Wellner Table 7), with a ``MISSING`` column and a ``SPURIOUS`` row.
:func:`error_listing` gives the errors with a little context: it contains note
text, so it is only for a developer's terminal (``--show-errors``), never logs.

>>> from notescrub.evaluate.labels import Item
>>> def it(a, b, lab): return Item(a, b, lab, "X", lab, lab)
>>> text = "Box Memorial Hospital Nursing Home, Dr. Niste Marhalt"
>>> g = [it(0, 34, "HOSPITAL"), it(40, 53, "DOCTOR")]
>>> p = [it(0, 21, "HOSPITAL"), it(36, 53, "DOCTOR")]
>>> a = analyse([("d", text, g, p)])
>>> a["counts"]["HOSPITAL"]["extent_short"], a["counts"]["DOCTOR"]["extent_long"]
(1, 1)
>>> a["confusion"]["matrix"]["HOSPITAL"]["HOSPITAL"], a["totals"]["extent_short"]
(1, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notescrub.evaluate.align import align
from notescrub.evaluate.binary import DocItems
from notescrub.evaluate.labels import Item

__all__ = ["KINDS", "analyse", "classify", "error_listing", "format_listing"]

KINDS = ("correct", "type", "extent_short", "extent_long", "extent_short_long", "missing", "spurious")
MISSING = "MISSING"
SPURIOUS = "SPURIOUS"


def classify(g: Item | None, p: Item | None) -> str:
    """Kind of one aligned pair (see module docstring)."""
    if g is None:
        return "spurious"
    if p is None:
        return "missing"
    if g.label != p.label:
        return "type"
    if (g.start, g.end) == (p.start, p.end):
        return "correct"
    if p.start >= g.start and p.end <= g.end:
        return "extent_short"
    if p.start <= g.start and p.end >= g.end:
        return "extent_long"
    return "extent_short_long"


def analyse(docs: Sequence[DocItems]) -> dict[str, Any]:
    """Per-type error counts, totals and the confusion matrix (no note text)."""
    counts: dict[str, dict[str, int]] = {}
    matrix: dict[str, dict[str, int]] = {}
    for _doc_id, _text, gold, pred in docs:
        for g, p in align(gold, pred):
            kind = classify(g, p)
            key = (g or p).label  # type: ignore[union-attr]
            counts.setdefault(key, dict.fromkeys(KINDS, 0))[kind] += 1
            row = g.label if g else SPURIOUS
            col = p.label if p else MISSING
            matrix.setdefault(row, {})[col] = matrix.setdefault(row, {}).get(col, 0) + 1
    labels = sorted({k for k in matrix if k != SPURIOUS} | {c for r in matrix.values() for c in r if c != MISSING})
    rows = [*labels, SPURIOUS]
    cols = [*labels, MISSING]
    full = {r: {c: matrix.get(r, {}).get(c, 0) for c in cols} for r in rows}
    totals = {k: sum(c[k] for c in counts.values()) for k in KINDS}
    return {
        "counts": {k: counts[k] for k in sorted(counts)},
        "totals": totals,
        "confusion": {"rows": rows, "columns": cols, "matrix": full},
    }


def _context(text: str, start: int, end: int, width: int) -> str:
    a = max(0, start - width)
    b = min(len(text), end + width)
    snippet = text[a:start] + "[" + text[start:end] + "]" + text[end:b]
    return snippet.replace("\n", " ").replace("\r", " ")


def error_listing(docs: Sequence[DocItems], *, context: int = 30) -> list[dict[str, Any]]:
    """Every non-correct aligned pair with context. CONTAINS NOTE TEXT: terminal use only."""
    out = []
    for doc_id, text, gold, pred in docs:
        for g, p in align(gold, pred):
            kind = classify(g, p)
            if kind == "correct":
                continue
            ref = g or p
            assert ref is not None
            a = min(x.start for x in (g, p) if x is not None)
            b = max(x.end for x in (g, p) if x is not None)
            out.append({
                "doc_id": doc_id,
                "kind": kind,
                "gold": None if g is None else {"start": g.start, "end": g.end, "label": g.label},
                "pred": None if p is None else {"start": p.start, "end": p.end, "label": p.label},
                "extent_differs": bool(g and p and (g.start, g.end) != (p.start, p.end)),
                "context": _context(text, a, b, context),
            })
    return out


def format_listing(errors: Sequence[dict[str, Any]]) -> list[str]:
    """One line per error: ``doc  kind  gold  pred  context``."""
    lines = []
    for e in errors:
        g = e["gold"]
        p = e["pred"]
        gs = f"{g['label']}[{g['start']}:{g['end']}]" if g else "-"
        ps = f"{p['label']}[{p['start']}:{p['end']}]" if p else "-"
        lines.append(f"{e['doc_id']}\t{e['kind']}\tgold={gs}\tpred={ps}\t{e['context']}")
    return lines
