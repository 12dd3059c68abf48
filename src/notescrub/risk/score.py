"""Note risk and suspicious leftovers of a document the model has annotated.

``risk`` is the expected number of PHI tokens the model left untagged: the sum, over the
word-like tokens outside every output span, of their calibrated probability of being
PHI (:mod:`notescrub.risk.calibration`). ``suspects`` are those tokens ranked by that
probability, the ``top_k`` most likely first, with their character offsets into the
text that was scored, the probability (``score``) and the PHI type the CRF found most
likely for them (``None`` without a CRF). Both are what ``notescrub annotate`` writes
(``"risk"``, ``"suspects"``).

``expected_f`` (when the calibration has a ``tagged`` part): the note's expected
binary-token F, from the expected true and false positives among the tagged tokens (their
calibrated probability of being PHI) and the expected misses (``risk``):
``2 E[TP] / (2 E[TP] + E[FP] + risk)``, 1.0 for a note with nothing tagged and nothing
expected missed. ``risk`` ranks notes by what they probably leak; ``expected_f`` by how good
their whole annotation probably is (false alarms included), which is what note-level F
measures (docs/review-risk.md).

Models with a CRF are scored from its token marginals plus the other signals; models
without one (``rules-en``) only from feeder-free signals (shape, lexicons, rarity,
proximity to tagged PHI), a weaker estimate (see docs/review-risk.md).

>>> from notescrub.api import get_pipeline
>>> pipe = get_pipeline("rules-en")
>>> doc = pipe(Document("a", "Zebulon Quackenbush was seen on 03/18/2091."))
>>> [doc.span_text(s) for s in doc.layer("phi")]
['03/18/2091']
>>> r = assess(doc, pipe)
>>> [(doc.text[s.start:s.end], s.type) for s in r.suspects[:2]]
[('Quackenbush', None), ('Zebulon', None)]
>>> r.risk > 0.0 and r.to_json()["suspects"][0]["score"] == round(r.suspects[0].score, 4)
True
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from notescrub.errors import ConfigError
from notescrub.risk.calibration import Calibration, fitted_with_other_crf, packaged_calibration
from notescrub.risk.features import both_sides, leftover_features
from notescrub.types import PHI, Document

__all__ = ["DEFAULT_TOP_K", "NoteRisk", "Suspect", "assess", "calibration_for", "expected_f1", "packaged_risk",
           "scorer", "shift_suspects", "warn_if_other_crf"]

log = logging.getLogger(__name__)

#: Suspects kept per note unless told otherwise.
DEFAULT_TOP_K = 20


@dataclass(frozen=True)
class Suspect:
    """An untagged token that may be PHI: ``[start, end)`` in the scored text."""

    start: int
    end: int
    score: float
    type: str | None

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "score": round(self.score, 4), "type": self.type}


@dataclass(frozen=True)
class NoteRisk:
    """``risk``: expected missed PHI tokens; ``suspects``: the likeliest leftovers, best first;
    ``expected_f``: the expected binary-token F of the note (``None`` without a tagged calibration)."""

    risk: float
    suspects: list[Suspect] = field(default_factory=list)
    expected_f: float | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"risk": float, "suspects": [{"start", "end", "score", "type"}]}`` plus ``"expected_f"``
        when there is one (stable format)."""
        out: dict[str, Any] = {"risk": round(self.risk, 4), "suspects": [s.to_json() for s in self.suspects]}
        if self.expected_f is not None:
            out["expected_f"] = round(self.expected_f, 4)
        return out


def _model_name(pipeline: Any) -> str:
    meta = getattr(pipeline, "metadata", {}) or {}
    return str(meta.get("model_name") or meta.get("name") or getattr(pipeline, "name", "") or "")


def calibration_for(pipeline: Any) -> Calibration:
    """The packaged calibration of ``pipeline``'s model (by its ``model_name``).

    A model without one (a model you trained) is refused: pass a calibration fitted for it
    (``benchmarks/risk_eval.py`` shows how) rather than borrow another model's silently.
    """
    name = _model_name(pipeline)
    cal = packaged_calibration(name)
    if cal is None:
        raise ConfigError(f"no risk calibration ships for model {name or '(unnamed)'!r}: fit one on held-out notes "
                          "(see docs/review-risk.md) and pass it as calibration=")
    return cal


_WARNED: set[tuple[str, str]] = set()


def warn_if_other_crf(calibration: Calibration, pipeline: Any) -> bool:
    """Log a warning (once per calibration and CRF in a process) when ``calibration`` was fitted
    with another CRF than ``pipeline``'s (its metadata's ``crf_sha256``); whether it was.

    A model retrained from the same recipe keeps the packaged model's name and so finds its
    calibration; its risk and suspects are then only approximate.
    """
    meta = getattr(pipeline, "metadata", {}) or {}
    fingerprint = meta.get("crf_sha256") if isinstance(meta.get("crf_sha256"), str) else None
    if not fitted_with_other_crf(calibration, fingerprint):
        return False
    key = (calibration.model, str(fingerprint))
    if key not in _WARNED:
        _WARNED.add(key)
        log.warning("the risk calibration %r was fitted with another CRF than this model's (a retrained "
                    "model?): risk and suspects are approximate; fit a calibration for this model "
                    "(docs/review-risk.md)", calibration.model)
    return True


def _lang(pipeline: Any) -> str:
    lang = getattr(pipeline, "lang", None)
    return "es" if lang == "es" else "en"


def assess(doc: Document, pipeline: Any, calibration: Calibration | None = None, top_k: int = DEFAULT_TOP_K,
           layer: str | None = None) -> NoteRisk:
    """Risk and suspects of ``doc``, already annotated by ``pipeline`` (its ``phi`` layer).

    ``calibration`` defaults to the model's packaged one (:func:`calibration_for`).
    """
    if top_k < 0:
        raise ConfigError(f"top_k must be >= 0, got {top_k}")
    cal = calibration if calibration is not None else calibration_for(pipeline)
    warn_if_other_crf(cal, pipeline)
    out_layer = str(layer or getattr(pipeline, "output_layer", None) or PHI)
    # the tagged side too when the calibration scores it (one pass over the tokens)
    left, tagged = (both_sides(doc, _lang(pipeline), out_layer) if cal.tagged is not None
                    else (leftover_features(doc, _lang(pipeline), out_layer), None))
    if cal.uses_crf and len(left.matrix) and not left.matrix[:, 1].any():
        raise ConfigError(f"risk calibration for {cal.model!r} needs CRF posteriors, but no CRF decoded this "
                          "document: use the calibration of a model without a CRF")
    p = cal.probability(left.matrix)
    order = np.argsort(-p, kind="stable")[:top_k]
    suspects = [Suspect(left.tokens[k].start, left.tokens[k].end, float(p[k]), left.types[k]) for k in order]
    risk = float(p.sum())
    expected_f = None
    if cal.tagged is not None and tagged is not None:
        q = cal.tagged.probability(tagged.matrix)
        expected_f = expected_f1(float(q.sum()), float((1.0 - q).sum()), risk)
    return NoteRisk(risk, suspects, expected_f)


def expected_f1(tp: float, fp: float, fn: float) -> float:
    """``2 tp / (2 tp + fp + fn)`` of expected counts; 1.0 when all three are 0 (nothing to get wrong).

    >>> expected_f1(9.0, 1.0, 1.0), expected_f1(0.0, 0.0, 0.0)
    (0.9, 1.0)
    """
    den = 2.0 * tp + fp + fn
    return 1.0 if den <= 0.0 else 2.0 * tp / den


def shift_suspects(risk: NoteRisk, offset_map: Any) -> NoteRisk:
    """``risk`` with its suspects' offsets moved into the de-identified text.

    ``offset_map(position) -> new position`` maps an original offset; suspects lie outside
    every replaced span, so their text is unchanged and only moves.
    """
    moved = [Suspect(offset_map(s.start), offset_map(s.start) + (s.end - s.start), s.score, s.type)
             for s in risk.suspects]
    return NoteRisk(risk.risk, moved, risk.expected_f)


def scorer(pipeline: Any, calibration: Calibration | None = None, top_k: int = DEFAULT_TOP_K
           ) -> Callable[[Document], NoteRisk]:
    """``doc -> NoteRisk`` for documents annotated by ``pipeline`` (calibration resolved once).

    >>> from notescrub.api import get_pipeline
    >>> pipe = get_pipeline("rules-en")
    >>> score = scorer(pipe, top_k=1)
    >>> len(score(pipe(Document("a", "Seen by Ruiz."))).suspects)
    1
    """
    if top_k < 0:
        raise ConfigError(f"top_k must be >= 0, got {top_k}")
    cal = calibration if calibration is not None else calibration_for(pipeline)
    return partial(_score, pipeline=pipeline, calibration=cal, top_k=top_k)


def _score(doc: Document, pipeline: Any, calibration: Calibration, top_k: int) -> NoteRisk:
    return assess(doc, pipeline, calibration, top_k)


def packaged_risk(doc: Document, pipeline: Any, top_k: int = DEFAULT_TOP_K) -> NoteRisk | None:
    """:func:`assess` with the model's packaged calibration, ``None`` when it ships none."""
    cal = packaged_calibration(_model_name(pipeline))
    return None if cal is None else assess(doc, pipeline, cal, top_k)
