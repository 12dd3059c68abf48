"""Pair gold and predicted documents by id into :class:`Example` objects.

Scoring works on spans over one shared text, so pairing checks that both sides
agree on each document's text (the error names the document id and the first
differing offset, never the text) and that every span fits the text.

Documents missing from the prediction side are, by default, scored as predicting
nothing and counted in :attr:`Pairing.missing_ids`; with ``compat_official=True``
they are skipped, as the official i2b2 2014 and MEDDOCAN scripts silently do.
Predictions for documents that have no gold are an error (a warning, and
ignored, under ``compat_official``).

>>> from notescrub.types import Document, Span
>>> gold = [Document("a", "Dr. Ruiz", layers={"gold": [Span(4, 8, "DOCTOR")]}),
...         Document("b", "nothing")]
>>> pred = [Document("a", "Dr. Ruiz", layers={"crf": [Span(4, 8, "PATIENT")]})]
>>> p = pair_documents(gold, pred, pred_layer="crf")
>>> [(e.doc_id, len(e.gold), len(e.pred), e.missing) for e in p.examples]
[('a', 1, 1, False), ('b', 0, 0, True)]
>>> p.missing_ids
['b']
>>> pair_documents(gold, pred, pred_layer="crf", compat_official=True).skipped_ids
['b']
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from notescrub.errors import InputFormatError, OffsetError
from notescrub.types import Document, Span

__all__ = ["Example", "Pairing", "PairingError", "pair_documents"]

log = logging.getLogger(__name__)


class PairingError(InputFormatError):
    """Gold and prediction cannot be paired (text mismatch, duplicate or unknown ids)."""


@dataclass(frozen=True)
class Example:
    """One document's gold and predicted spans over the same text."""

    doc_id: str
    text: str
    gold: tuple[Span, ...]
    pred: tuple[Span, ...]
    patient_id: str | None = None
    missing: bool = False  #: no prediction document was given (scored as empty)


@dataclass
class Pairing:
    """Result of :func:`pair_documents`."""

    examples: list[Example] = field(default_factory=list)
    missing_ids: list[str] = field(default_factory=list)  #: scored as empty predictions
    skipped_ids: list[str] = field(default_factory=list)  #: not scored (compat_official)
    unknown_ids: list[str] = field(default_factory=list)  #: predictions without gold (compat_official)

    def summary(self) -> dict[str, object]:
        return {
            "scored": len(self.examples),
            "missing_predictions": len(self.missing_ids),
            "missing_ids": list(self.missing_ids),
            "skipped_missing": len(self.skipped_ids),
            "skipped_ids": list(self.skipped_ids),
            "unknown_predictions": len(self.unknown_ids),
            "unknown_ids": list(self.unknown_ids),
        }


def _index(docs: Iterable[Document], side: str) -> dict[str, Document]:
    out: dict[str, Document] = {}
    for d in docs:
        if not isinstance(d, Document):
            raise TypeError(f"{side} documents must be Document objects, got {type(d).__name__}")
        if d.id in out:
            raise PairingError(f"document id {d.id!r} appears twice on the {side} side")
        out[d.id] = d
    return out


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _checked(doc: Document, layer: str, side: str) -> tuple[Span, ...]:
    n = len(doc.text)
    spans = tuple(doc.layer(layer))
    for s in spans:
        if s.end > n:
            raise OffsetError(
                f"document {doc.id!r}, {side} layer {layer!r}: span [{s.start}, {s.end}) ({s.label}) "
                f"ends past the text length {n}"
            )
    return spans


def pair_documents(
    gold_docs: Iterable[Document],
    pred_docs: Iterable[Document],
    *,
    gold_layer: str = "gold",
    pred_layer: str = "gold",
    compat_official: bool = False,
) -> Pairing:
    """Pair documents by id (gold order kept); see the module docstring for the rules."""
    gold = _index(gold_docs, "gold")
    pred = _index(pred_docs, "prediction")
    result = Pairing()
    unknown = sorted(set(pred) - set(gold))
    if unknown:
        if not compat_official:
            shown = ", ".join(repr(u) for u in unknown[:5]) + (" ..." if len(unknown) > 5 else "")
            raise PairingError(f"{len(unknown)} predicted document(s) have no gold document: {shown}")
        log.warning("ignoring %d predicted document(s) without gold (compat-official)", len(unknown))
        result.unknown_ids = unknown
    for doc_id, g in gold.items():
        p = pred.get(doc_id)
        if p is None:
            if compat_official:
                result.skipped_ids.append(doc_id)
                continue
            result.missing_ids.append(doc_id)
            result.examples.append(
                Example(doc_id, g.text, _checked(g, gold_layer, "gold"), (), g.patient_id, missing=True)
            )
            continue
        if p.text != g.text:
            raise PairingError(
                f"document {doc_id!r}: gold and prediction texts differ "
                f"(lengths {len(g.text)} and {len(p.text)}, first difference at offset "
                f"{_first_difference(g.text, p.text)})"
            )
        result.examples.append(
            Example(doc_id, g.text, _checked(g, gold_layer, "gold"), _checked(p, pred_layer, "prediction"),
                    g.patient_id or p.patient_id)
        )
    if result.missing_ids:
        log.warning("%d gold document(s) have no prediction; scored as predicting nothing", len(result.missing_ids))
    if result.skipped_ids:
        log.warning("%d gold document(s) have no prediction; skipped (compat-official)", len(result.skipped_ids))
    return result
