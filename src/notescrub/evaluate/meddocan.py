"""MEDDOCAN 2019 metrics, as the official CodaLab script (``evaluate.py ner|spans``).

* **subtask1** (NER): per document, the set of ``(label, start, end)``; micro P/R/F1
  (``subtask1_by_type`` breaks it down per label; the official script has no such table).
* **leak**: the subtask-1 false negatives divided by the number of sentences
  (micro: summed over documents). The official script reads sentence counts
  from FreeLing splits that are not distributed; notescrub counts sentences with
  :func:`notescrub.text.segment.sentences` on the gold text, so leak values are
  comparable across notescrub runs, not to the published leak figures.
* **subtask2_strict**: the set of ``(start, end)`` (type ignored).
* **subtask2_merged**: spans sorted by ``(start, end)`` are merged left to right
  when the text between the previous merged span's end and the next span's start
  holds no alphanumeric character (:meth:`str.isalnum`, so Unicode letters count;
  an overlap leaves an empty gap and merges, keeping the *later* span's end, as
  the script does). TP is the union of strict and merged matches; strict FPs and
  FNs contained in a TP are forgiven.

>>> from notescrub.evaluate.labels import Item
>>> text = "Calle Mayor, 5. Madrid"
>>> g = [Item(0, 11, "CALLE", "LOCATION", "STREET", "CALLE"), Item(13, 14, "CALLE", "LOCATION", "STREET", "CALLE")]
>>> p = [Item(0, 14, "CALLE", "LOCATION", "STREET", "CALLE")]
>>> r = score([("d", text, g, p)])
>>> r["subtask1"]["tp"], r["subtask2_strict"]["tp"], r["subtask2_merged"]["tp"], r["subtask2_merged"]["fn"]
(0, 0, 1, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from notescrub.evaluate.counts import PRF, ratio
from notescrub.evaluate.i2b2_2014 import DocItems
from notescrub.text.segment import sentences

__all__ = ["SENTENCE_SPLITTER_NOTE", "merge_spans", "score"]

SENTENCE_SPLITTER_NOTE = (
    "leak = subtask-1 false negatives / sentences; sentences counted with notescrub.text.segment.sentences "
    "(the official script used FreeLing splits), so leak is not comparable to published figures"
)


def _no_alnum(s: str) -> bool:
    return not any(c.isalnum() for c in s)


def merge_spans(spans: Sequence[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    """Merge sorted spans separated only by non-alphanumeric characters.

    >>> merge_spans([(0, 3), (5, 8), (10, 12)], "abc, def x gh")
    [(0, 8), (10, 12)]
    """
    merged: list[tuple[int, int]] = []
    for y in sorted(spans):
        if merged and _no_alnum(text[merged[-1][1] : y[0]]):
            x = merged.pop()
            merged.append((x[0], y[1]))
        else:
            merged.append(y)
    return merged


def _contained(span: tuple[int, int], container: set[tuple[int, int]]) -> bool:
    return any(span[0] >= a and span[1] <= b for a, b in container)


def _merged_counts(text: str, gold: list[tuple[int, int]], pred: list[tuple[int, int]]) -> PRF:
    g_strict, p_strict = set(gold), set(pred)
    g_merged, p_merged = set(merge_spans(gold, text)), set(merge_spans(pred, text))
    tp = (g_strict & p_strict) | (g_merged & p_merged)
    fp = {s for s in p_strict - g_strict if not _contained(s, tp)}
    fn = {s for s in g_strict - p_strict if not _contained(s, tp)}
    return PRF(len(tp), len(fp), len(fn))


def score(docs: Sequence[DocItems]) -> dict[str, Any]:
    """Subtask 1, leak, subtask 2 strict and merged for already-paired documents."""
    sub1 = PRF()
    strict = PRF()
    merged = PRF()
    n_sentences = 0
    per_doc: dict[str, Any] = {}
    by_type: dict[str, PRF] = {}
    for doc_id, text, gold, pred in docs:
        g1 = {(i.label, i.start, i.end) for i in gold}
        p1 = {(i.label, i.start, i.end) for i in pred}
        c1 = PRF(len(g1 & p1), len(p1 - g1), len(g1 - p1))
        sub1 += c1
        for lab in {k[0] for k in g1 | p1}:
            gl = {k for k in g1 if k[0] == lab}
            pl = {k for k in p1 if k[0] == lab}
            by_type[lab] = by_type.get(lab, PRF()) + PRF(len(gl & pl), len(pl - gl), len(gl - pl))
        g2 = [(i.start, i.end) for i in gold]
        p2 = [(i.start, i.end) for i in pred]
        strict += PRF(len(set(g2) & set(p2)), len(set(p2) - set(g2)), len(set(g2) - set(p2)))
        merged += _merged_counts(text, g2, p2)
        n_sent = len(sentences(text))
        n_sentences += n_sent
        per_doc[doc_id] = {**c1.as_dict(), "sentences": n_sent, "leak": ratio(c1.fn, n_sent)}
    return {
        "subtask1": sub1.as_dict(),
        "subtask1_by_type": {k: by_type[k].as_dict() for k in sorted(by_type)},
        "leak": {"micro": ratio(sub1.fn, n_sentences), "false_negatives": sub1.fn, "sentences": n_sentences,
                 "note": SENTENCE_SPLITTER_NOTE},
        "subtask2_strict": strict.as_dict(),
        "subtask2_merged": merged.as_dict(),
        "per_document": per_doc,
    }
