"""Which note to review first: the annotation record of a note and its priority.

:func:`annotation_record` turns a note the model has annotated into the record that
``notescrub annotate`` writes (``id``, ``logprob``, ``spans``) plus ``risk`` and
``suspects`` when the model provides them. :func:`note_priority` orders the queue
(higher = review first):

* the note's ``risk`` (expected number of PHI tokens the model left untagged) when
  the record has one;
* otherwise a proxy: the expected number of wrong predicted spans,
  ``sum(1 - score)`` over the spans, plus one for each span scored below
  :data:`LOW_SCORE`. It sends the reviewer to the notes whose detections the model
  was least sure of; it does not see PHI the model missed altogether (no span, no
  score), which is what ``risk`` adds.

>>> note_priority({"risk": 2.5, "spans": []})
2.5
>>> note_priority({"spans": [{"score": 0.5}, {"score": 0.99}]})
1.51
>>> note_priority({"spans": []})
0.0
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from notescrub.risk import packaged_risk
from notescrub.types import Document, Span

__all__ = ["LOW_SCORE", "annotation_record", "note_priority", "priority_source"]

#: spans scored below this count once more in the proxy priority
LOW_SCORE = 0.8


def note_priority(record: Mapping[str, Any]) -> float:
    """Review priority of one annotation record (higher first); see the module docstring."""
    risk = record.get("risk")
    if isinstance(risk, (int, float)) and not isinstance(risk, bool):
        return float(risk)
    total = 0.0
    for s in record.get("spans", ()):
        score = float(s.get("score") if s.get("score") is not None else 1.0)
        total += (1.0 - score) + (1.0 if score < LOW_SCORE else 0.0)
    return round(total, 6)


def priority_source(record: Mapping[str, Any]) -> str:
    """``"risk"`` or ``"proxy"``: what :func:`note_priority` used for ``record``."""
    risk = record.get("risk")
    return "risk" if isinstance(risk, (int, float)) and not isinstance(risk, bool) else "proxy"


def _from_metadata(doc: Document, name: str) -> Any:
    if name in doc.metadata:
        return doc.metadata[name]
    found = [v[name] for v in doc.metadata.values() if isinstance(v, dict) and name in v]
    return found[-1] if found else None


def annotation_record(doc: Document, spans: Iterable[Span], pipeline: Any = None) -> dict[str, Any]:
    """The annotation record of ``doc`` (annotated by ``pipeline``) with its predicted ``spans``.

    ``risk`` and ``suspects`` (``[{"start", "end", "score", "type"}]``) come from
    :func:`notescrub.risk.packaged_risk` when ``pipeline``'s model ships a risk calibration,
    or from what the model left in the document's metadata; they are absent otherwise (the
    queue then orders by the proxy).

    >>> doc = Document("n1", "Seen by Ruiz.")
    >>> rec = annotation_record(doc, [Span(8, 12, "DOCTOR", score=0.75, source="crf")])
    >>> rec["spans"][0]["type"], rec["spans"][0]["score"], "risk" in rec
    ('DOCTOR', 0.75, False)
    """
    rec: dict[str, Any] = {"id": doc.id, "spans": [
        {"start": s.start, "end": s.end, "type": s.phi or s.label, "label": s.label,
         "score": round(float(s.score), 6), "source": s.source} for s in spans]}
    logprob = _from_metadata(doc, "logprob")
    if isinstance(logprob, (int, float)):
        rec["logprob"] = float(logprob)
    scored = packaged_risk(doc, pipeline) if pipeline is not None else None
    if scored is not None:
        as_json = scored.to_json()
        risk, suspects = as_json["risk"], as_json["suspects"]
    else:
        risk, suspects = _from_metadata(doc, "risk"), _from_metadata(doc, "suspects")
    if isinstance(risk, (int, float)) and not isinstance(risk, bool):
        rec["risk"] = float(risk)
    if isinstance(suspects, list):
        rec["suspects"] = [{k: x[k] for k in ("start", "end", "score", "type") if k in x}
                           for x in suspects if isinstance(x, Mapping)]
    return rec
