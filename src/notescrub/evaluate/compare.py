"""Compare two systems on the same gold: paired bootstrap and the z-test.

:func:`compare_systems` scores both prediction sets against the same gold and
reports

* each system's headline precision, recall and F1 (the scheme's ranking measure);
* a paired bootstrap interval of the F1 difference ``a - b``: documents are
  resampled once per replicate and both systems are scored on the same resample;
* Stat De-id's significance test (Uzuner et al. 2008, eq. 6-7): the z-test for two
  proportions on the PHI-token F-measure and on the non-PHI-token F-measure, with
  ``n`` the number of gold tokens of that class (the same for both systems).

>>> from notescrub.types import Document, Span
>>> text = "Ann saw Bob on 3/4 in Rome."
>>> gold = [Document("d", text, layers={"gold": [Span(0, 3, "PATIENT"), Span(8, 11, "PATIENT"), Span(15, 18, "DATE")]})]
>>> a = [Document("d", text, layers={"gold": [Span(0, 3, "PATIENT"), Span(8, 11, "PATIENT"), Span(15, 18, "DATE")]})]
>>> b = [Document("d", text, layers={"gold": [Span(0, 3, "PATIENT")]})]
>>> c = compare_systems(gold, a, b, n_resamples=100)
>>> c["a"]["f1"], round(c["b"]["f1"], 4), c["f1_difference"]["estimate"] > 0
(1.0, 0.5, True)
>>> c["z_tests"]["phi_f1"]["n"]
5
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from notescrub.errors import ConfigError
from notescrub.evaluate.api import (
    DEFAULT_LABELS,
    HEADLINE,
    SCHEMES,
    per_document_headline,
    prepare,
)
from notescrub.evaluate.binary import binary_token_prf
from notescrub.evaluate.counts import PRF
from notescrub.evaluate.pairing import pair_documents
from notescrub.evaluate.stats import bootstrap_f1_ci, z_test_two_proportions
from notescrub.types import Document

__all__ = ["Z_NOTE", "compare_systems"]

Z_NOTE = ("z-test (Uzuner et al. 2008 eq. 6-7) on token F-measures, n = gold tokens of the class; "
          "two-sided, alpha 0.05")


def _z(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    n = a["tp"] + a["fn"]
    if n == 0:
        return {"n": 0, "z": None, "p_value": None, "significant": False}
    t = z_test_two_proportions(a["f1"], n, b["f1"], n)
    return {"n": n, "f1_a": a["f1"], "f1_b": b["f1"], "z": t.z, "p_value": t.p_value, "significant": t.significant}


def compare_systems(
    gold_docs: Iterable[Document],
    pred_a: Iterable[Document],
    pred_b: Iterable[Document],
    *,
    scheme: str = "i2b2-2014",
    gold_layer: str = "gold",
    pred_layer: str = "gold",
    labels: str | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
) -> dict[str, Any]:
    """Headline scores of systems ``a`` and ``b`` with significance (see module docstring)."""
    if scheme not in SCHEMES:
        raise ConfigError(f"unknown evaluation scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
    labels = labels or DEFAULT_LABELS[scheme]
    gold = list(gold_docs)
    prepared = []
    for pred in (pred_a, pred_b):
        pairing = pair_documents(gold, pred, gold_layer=gold_layer, pred_layer=pred_layer)
        prepared.append(prepare(pairing.examples, scheme, labels)[0])
    per_doc = [per_document_headline(docs, scheme) for docs in prepared]
    heads = []
    for counts in per_doc:
        total = PRF.total(counts)
        heads.append({"precision": total.precision, "recall": total.recall, "f1": total.f1,
                      "tp": total.tp, "fp": total.fp, "fn": total.fn})
    diff = bootstrap_f1_ci(per_doc[0], per_doc[1], n_resamples=n_resamples, seed=seed) if gold else None
    bin_a = binary_token_prf(prepared[0])
    bin_b = binary_token_prf(prepared[1])
    return {
        "scheme": scheme,
        "labels": labels,
        "measure": HEADLINE[scheme],
        "a": heads[0],
        "b": heads[1],
        "f1_difference": diff.as_dict() if diff else None,
        "z_tests": {"phi_f1": _z(bin_a["phi"], bin_b["phi"]), "non_phi_f1": _z(bin_a["non_phi"], bin_b["non_phi"])},
        "notes": [Z_NOTE],
    }
