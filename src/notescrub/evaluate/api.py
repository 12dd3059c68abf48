"""``evaluate(gold_docs, pred_docs)``: pair, convert labels, score, analyse errors.

Returns one JSON-ready dict in the documented layout (docs/evaluation.md):
``scheme``, ``labels``, ``compat_official``, ``documents``, ``spans``, one
section named after the scheme (``i2b2_2014``, ``meddocan``, ``i2b2_2006`` or
``binary``), ``headline`` (the scheme's ranking figure with a 95 % paired-bootstrap
interval over documents), ``error_analysis`` and ``notes``. No note text is
ever put in the result.

>>> from notescrub.types import Document, Span
>>> g = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR"), Span(12, 16, "DATE")]})]
>>> p = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR")]})]
>>> r = evaluate(g, p)
>>> r["i2b2_2014"]["strict"]["micro"]["recall"], r["headline"]["f1"]
(0.5, 0.6666666666666666)
>>> evaluate(g, p, scheme="meddocan", labels="canonical")["meddocan"]["subtask1"]["precision"]
1.0
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from notescrub.errors import ConfigError
from notescrub.evaluate import binary, i2b2_2006, i2b2_2014, meddocan
from notescrub.evaluate.binary import DocItems
from notescrub.evaluate.counts import PRF
from notescrub.evaluate.error_analysis import analyse
from notescrub.evaluate.labels import LABEL_MODES, check_scheme_labels, to_items
from notescrub.evaluate.pairing import Example, Pairing, pair_documents
from notescrub.evaluate.stats import bootstrap_f1_ci
from notescrub.text.tokenize import tokenize
from notescrub.types import Document

__all__ = ["DEFAULT_LABELS", "HEADLINE", "RESULT_VERSION", "SCHEMES", "evaluate", "per_document_headline", "prepare"]

log = logging.getLogger(__name__)

SCHEMES = ("i2b2-2014", "meddocan", "i2b2-2006", "binary")
#: Label compared by default for each scheme (see notescrub.evaluate.labels).
DEFAULT_LABELS = {"i2b2-2014": "canonical", "meddocan": "native", "i2b2-2006": "native", "binary": "native"}
RESULT_VERSION = 1
_SECTION = {"i2b2-2014": "i2b2_2014", "meddocan": "meddocan", "i2b2-2006": "i2b2_2006", "binary": "binary"}
HEADLINE = {
    "i2b2-2014": "i2b2_2014.strict.micro",
    "meddocan": "meddocan.subtask1",
    "i2b2-2006": "i2b2_2006.phrase.micro",
    "binary": "binary.phi",
}


def prepare(examples: Iterable[Example], scheme: str, labels: str) -> tuple[list[DocItems], dict[str, Any]]:
    """Convert paired examples to scorer input; also return span counts and left-out labels."""
    docs: list[DocItems] = []
    dropped: dict[str, dict[str, int]] = {"gold": {}, "pred": {}}
    n = {"gold": 0, "pred": 0}
    for ex in examples:
        sides = {}
        for side, spans in (("gold", ex.gold), ("pred", ex.pred)):
            if scheme == "meddocan" and labels == "native":
                check_scheme_labels(spans, "meddocan", doc_id=ex.doc_id, side=side)
            items, left = to_items(spans, labels, doc_id=ex.doc_id, side=side)
            n[side] += len(items)
            for k, v in left.items():
                dropped[side][k] = dropped[side].get(k, 0) + v
            sides[side] = items
        docs.append((ex.doc_id, ex.text, sides["gold"], sides["pred"]))
    gold_labels = {i.label for d in docs for i in d[2]}
    unseen = sorted({i.label for d in docs for i in d[3]} - gold_labels)
    if unseen:
        log.warning("predicted labels never used in gold (all count as errors): %s", ", ".join(unseen))
    return docs, {"gold": n["gold"], "pred": n["pred"], "unscored": dropped}


def per_document_headline(docs: list[DocItems], scheme: str) -> list[PRF]:
    """Per-document counts of the scheme's headline measure (for bootstraps)."""
    out = []
    for _doc_id, text, gold, pred in docs:
        if scheme == "binary":
            r = binary.binary_token_prf([(_doc_id, text, gold, pred)])["phi"]
            out.append(PRF(r["tp"], r["fp"], r["fn"]))
            continue
        if scheme == "i2b2-2014":
            g = set(i2b2_2014.strict_keys(gold, text))
            p = set(i2b2_2014.strict_keys(pred, text))
        else:
            g = {(i.label, i.start, i.end) for i in gold}
            p = {(i.label, i.start, i.end) for i in pred}
        out.append(PRF(len(g & p), len(p - g), len(g - p)))
    return out


def _headline(result: dict[str, Any], docs: list[DocItems], scheme: str, n_resamples: int) -> dict[str, Any]:
    node: Any = result
    for part in HEADLINE[scheme].split("."):
        node = node[part]
    head = {"measure": HEADLINE[scheme], "precision": node["precision"], "recall": node["recall"], "f1": node["f1"]}
    if docs and n_resamples > 0:
        ci = bootstrap_f1_ci(per_document_headline(docs, scheme), n_resamples=n_resamples, seed=0)
        head["f1_ci95"] = [ci.low, ci.high]
        head["bootstrap_resamples"] = n_resamples
    return head


def _score(docs: list[DocItems], scheme: str, compat_official: bool) -> dict[str, Any]:
    if scheme == "i2b2-2014":
        return i2b2_2014.score(docs, compat_official=compat_official)
    if scheme == "meddocan":
        return meddocan.score(docs)
    if scheme == "i2b2-2006":
        return i2b2_2006.score(docs)
    return binary.binary_token_prf(docs)


def _notes(scheme: str, labels: str, pairing: Pairing, compat: bool) -> list[str]:
    notes = [f"labels compared: {labels}"]
    if pairing.missing_ids:
        notes.append(f"{len(pairing.missing_ids)} gold document(s) had no prediction and were scored as empty")
    if pairing.skipped_ids:
        notes.append(f"{len(pairing.skipped_ids)} gold document(s) had no prediction and were skipped "
                     "(compat-official)")
    if scheme == "meddocan":
        notes.append(meddocan.SENTENCE_SPLITTER_NOTE)
    if scheme in ("i2b2-2006", "binary"):
        notes.append(binary.TOKENIZER_NOTE)
    if scheme == "i2b2-2006":
        notes.append("weighted_token_f_with_true_negatives: " + i2b2_2006.WEIGHTED_F_NOTE)
    if compat and scheme == "i2b2-2014":
        notes.append("compat-official: IDNUM left out of the HIPAA filter; tags at offset 0 get an empty token")
    return notes


def evaluate(
    gold_docs: Iterable[Document],
    pred_docs: Iterable[Document],
    *,
    scheme: str = "i2b2-2014",
    gold_layer: str = "gold",
    pred_layer: str = "gold",
    compat_official: bool = False,
    labels: str | None = None,
    bootstrap_resamples: int = 1000,
) -> dict[str, Any]:
    """Score predictions against gold; see the module docstring and docs/evaluation.md."""
    if scheme not in SCHEMES:
        raise ConfigError(f"unknown evaluation scheme {scheme!r}; choose one of {', '.join(SCHEMES)}")
    labels = labels or DEFAULT_LABELS[scheme]
    if labels not in LABEL_MODES:
        raise ConfigError(f"unknown label mode {labels!r}; choose one of {', '.join(LABEL_MODES)}")
    gold_list = list(gold_docs)
    pairing = pair_documents(gold_list, pred_docs, gold_layer=gold_layer, pred_layer=pred_layer,
                             compat_official=compat_official)
    docs, spans = prepare(pairing.examples, scheme, labels)
    result: dict[str, Any] = {
        "notescrub_evaluation": RESULT_VERSION,
        "scheme": scheme,
        "labels": labels,
        "compat_official": compat_official,
        "layers": {"gold": gold_layer, "pred": pred_layer},
        "documents": {"gold": len(gold_list), **pairing.summary()},
        "spans": spans,
        _SECTION[scheme]: _score(docs, scheme, compat_official),
    }
    result["headline"] = _headline(result, docs, scheme, bootstrap_resamples)
    result["error_analysis"] = analyse(docs)
    result["notes"] = _notes(scheme, labels, pairing, compat_official)
    return result


def token_count(docs: Iterable[Document]) -> int:
    """Number of notescrub tokens in ``docs`` (the ``n`` of a token-level z-test)."""
    return sum(len(tokenize(d.text)) for d in docs)
