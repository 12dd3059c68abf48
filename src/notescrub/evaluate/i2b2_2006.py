"""i2b2 2006 / Wellner / Stat De-id measures.

* **token**: each token (:mod:`notescrub.evaluate.binary` tokenization) gets a
  gold and a predicted label; per type T, TP = tokens labelled T on both sides,
  FP = tokens predicted T whose gold label is not T, FN = gold T tokens not
  predicted T (so a mistyped token is both an FP and an FN, as in Wellner et al.).
  Micro sums over types.
* **phrase**: exact extent and type, ``(label, start, end)`` sets per document.
* **muc**: MUC-style phrase scoring with partial credit: gold and predicted
  phrases are aligned one-to-one by overlap (:func:`notescrub.evaluate.align.align`);
  each phrase has a TYPE slot and a TEXT slot. An aligned pair earns TYPE when
  the labels agree and TEXT when the extents agree; unaligned gold phrases miss
  both slots, unaligned predictions are spurious in both. P = correct slots /
  (2 × predicted phrases), R = correct slots / (2 × gold phrases).
* **binary**: PHI vs non-PHI token classification, P/R/F for both classes.
* **weighted_token_f_with_true_negatives**: the 2006 challenge's headline style
  of figure (≈ 0.997 for good systems): the support-weighted mean of per-class
  token F1 over every PHI type *and* the non-PHI class, so true negatives count.
  It is dominated by non-PHI tokens; report it only beside the others.

>>> from notescrub.evaluate.labels import Item
>>> text = "Dr. Ruiz at Mercy Hospital."
>>> g = [Item(4, 8, "DOCTOR", "NAME", "DOCTOR", "DOCTOR"), Item(12, 26, "HOSPITAL", "LOCATION", "HOSPITAL", "HOSPITAL")]
>>> p = [Item(4, 8, "PATIENT", "NAME", "PATIENT", "PATIENT"), Item(12, 17, "HOSPITAL", "LOCATION", "HOSPITAL", "HOSPITAL")]
>>> r = score([("d", text, g, p)])
>>> r["token"]["micro"]["tp"], r["token"]["micro"]["fp"], r["token"]["micro"]["fn"]
(1, 1, 2)
>>> r["phrase"]["micro"]["tp"], r["muc"]["correct"], r["muc"]["precision"]
(0, 2, 0.5)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from notescrub.evaluate.align import align
from notescrub.evaluate.binary import (
    TOKENIZER_NOTE,
    DocItems,
    binary_token_prf,
    token_labels,
)
from notescrub.evaluate.counts import PRF, f_beta, ratio
from notescrub.text.tokenize import tokenize

__all__ = ["WEIGHTED_F_NOTE", "muc_counts", "score"]

WEIGHTED_F_NOTE = (
    "support-weighted mean of per-class token F1 over the PHI types and the non-PHI class "
    "(true negatives counted, as the 2006 challenge's headline figure); not comparable to the other F values"
)


def _token_scores(docs: Sequence[DocItems]) -> dict[str, Any]:
    pairs: Counter[tuple[str | None, str | None]] = Counter()
    for _doc_id, text, gold, pred in docs:
        toks = tokenize(text)
        pairs.update(zip(token_labels(toks, gold), token_labels(toks, pred)))
    classes = sorted({c for pair in pairs for c in pair if c is not None})
    by_type: dict[str, PRF] = {}
    for c in [*classes, None]:
        tp = sum(n for (g, p), n in pairs.items() if g == c and p == c)
        fp = sum(n for (g, p), n in pairs.items() if p == c and g != c)
        fn = sum(n for (g, p), n in pairs.items() if g == c and p != c)
        by_type["O" if c is None else c] = PRF(tp, fp, fn)
    non_phi = by_type.pop("O")
    micro = PRF.total(by_type.values())
    support = {k: v.support for k, v in by_type.items()}
    support["O"] = non_phi.support
    total = sum(support.values())
    weighted = ratio(sum(support[k] * (non_phi if k == "O" else by_type[k]).f1 for k in support), total)
    return {
        "token": {"micro": micro.as_dict(), "by_type": {k: v.as_dict() for k, v in by_type.items()},
                  "note": TOKENIZER_NOTE},
        "weighted_token_f_with_true_negatives": {"f1": weighted, "tokens": total, "note": WEIGHTED_F_NOTE},
    }


def _phrase_scores(docs: Sequence[DocItems]) -> dict[str, Any]:
    per_type: dict[str, PRF] = {}
    for _doc_id, _text, gold, pred in docs:
        g = {(i.label, i.start, i.end) for i in gold}
        p = {(i.label, i.start, i.end) for i in pred}
        for lab in {k[0] for k in g | p}:
            gl = {k for k in g if k[0] == lab}
            pl = {k for k in p if k[0] == lab}
            per_type[lab] = per_type.get(lab, PRF()) + PRF(len(gl & pl), len(pl - gl), len(gl - pl))
    return {"micro": PRF.total(per_type.values()).as_dict(),
            "by_type": {k: per_type[k].as_dict() for k in sorted(per_type)}}


def muc_counts(docs: Sequence[DocItems]) -> dict[str, Any]:
    """MUC TYPE/TEXT slot counts and the resulting P/R/F (see module docstring)."""
    slots: dict[str, Counter[str]] = {s: Counter() for s in ("type", "text")}
    n_gold = n_pred = 0
    for _doc_id, _text, gold, pred in docs:
        for g, p in align(gold, pred):
            n_gold += g is not None
            n_pred += p is not None
            if g is None:
                slots["type"]["spurious"] += 1
                slots["text"]["spurious"] += 1
            elif p is None:
                slots["type"]["missing"] += 1
                slots["text"]["missing"] += 1
            else:
                slots["type"]["correct" if g.label == p.label else "incorrect"] += 1
                slots["text"]["correct" if (g.start, g.end) == (p.start, p.end) else "incorrect"] += 1
    correct = slots["type"]["correct"] + slots["text"]["correct"]
    precision = ratio(correct, 2 * n_pred)
    recall = ratio(correct, 2 * n_gold)
    return {
        "precision": precision, "recall": recall, "f1": f_beta(precision, recall), "correct": correct,
        "possible": 2 * n_gold, "actual": 2 * n_pred,
        "slots": {k: {c: v[c] for c in ("correct", "incorrect", "missing", "spurious")} for k, v in slots.items()},
    }


def score(docs: Sequence[DocItems]) -> dict[str, Any]:
    """Token, phrase, MUC, binary and weighted-with-TN measures for paired documents."""
    out = _token_scores(docs)
    return {
        "token": out["token"],
        "phrase": _phrase_scores(docs),
        "muc": muc_counts(docs),
        "binary": binary_token_prf(docs),
        "weighted_token_f_with_true_negatives": out["weighted_token_f_with_true_negatives"],
    }
