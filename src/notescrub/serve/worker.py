"""What the service's worker processes run: the model is loaded once, by :func:`init_worker`.

Every task takes and returns plain JSON-ready data and never raises: a failure comes
back as ``{"error": reason, "status": code}`` with a reason that never quotes the note
(notescrub errors by their reason, anything else by its type only).

>>> init_worker("rules-en", None, None)
>>> r = deid_task([{"text": "Seen by Dr. Ruiz.", "id": "a"}], {"mode": "tag"})
>>> r["results"][0]["text"], r["results"][0]["spans"][0]["type"]
('Seen by Dr. [**DOCTOR**].', 'DOCTOR')
>>> deid_task([{"text": "x"}], {"mode": "surrogate", "preset": "nope"})["status"]
422
"""

from __future__ import annotations

import logging
import os
from typing import Any

from notescrub.errors import NotescrubError

__all__ = ["analyze_task", "annotate_task", "anonymize_task", "deid_task", "init_worker", "ping"]

log = logging.getLogger(__name__)

_WARM_UP_NOTE = ("Seen by Dr. Ann Lee at Mercy Hospital, 12 Oak St, Boston MA 02115 on 3/18/2024; "
                 "age 54, MRN 443322, call 617-555-0100 or ann.lee@example.org.")
#: set by init_worker: model name, default preset, the surrogate key
_STATE: dict[str, Any] = {}


def init_worker(model: str, preset: str | None, key: Any) -> None:
    """Process initializer: load the model (default preset) and keep the surrogate key in memory."""
    from notescrub.api import get_pipeline
    from notescrub.docref import set_ref_key
    from notescrub.replace.keys import SurrogateKey

    _STATE.update(model=model, preset=preset, key=key)
    set_ref_key((key or SurrogateKey.generate()).digest("DOC-REF", None, ""))
    get_pipeline(model, preset)
    # warm up: the first note loads word lists and compiles kernels; do it before /ready, not in a request
    deid_task([{"text": _WARM_UP_NOTE, "patient_id": "warm-up"}], {"mode": "surrogate" if key else "tag"})
    anonymize_task({"text": _WARM_UP_NOTE, "analyzer_results": []})


def ping() -> int:
    """The worker's process id (used at start to see every worker loaded)."""
    return os.getpid()


def _failure(exc: BaseException) -> dict[str, Any]:
    if isinstance(exc, NotescrubError):
        return {"error": exc.reason, "status": 422}
    log.error("worker failure: %s", type(exc).__name__)  # never the message: it may quote the note
    return {"error": f"internal error ({type(exc).__name__})", "status": 500}


def _pipeline(preset: str | None) -> Any:
    from notescrub.api import get_pipeline

    return get_pipeline(_STATE["model"], preset if preset is not None else _STATE["preset"])


def _documents(notes: list[dict[str, Any]]) -> list[Any]:
    from notescrub.types import Document

    # internal ids are input positions: patient-level models reorder notes by patient
    return [Document(str(i), n["text"], patient_id=n.get("patient_id")) for i, n in enumerate(notes)]


def _user_id(notes: list[dict[str, Any]], internal: str) -> str:
    i = int(internal)
    return notes[i].get("id") or str(i)


def deid_task(notes: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    """De-identify ``notes`` (``{"text", "id"?, "patient_id"?}``); fail closed for the whole request.

    Each result holds what the release policy allows only: the id, the new text and the
    replaced spans located in it.
    """
    try:
        from notescrub.replace.batch import deidentify
        from notescrub.replace.engine import Replacer

        replacer = Replacer(options.get("mode", "surrogate"), key=_STATE.get("key"), types=options.get("types"))
        docs = _documents(notes)
        batch = deidentify(docs, replacer, pipeline=_pipeline(options.get("preset")))
        results = []
        for res in sorted(batch.results, key=lambda r: int(r.doc_id)):
            spans = [{"start": s.start, "end": s.end, "type": s.phi or s.label, "label": s.label} for s in res.spans]
            results.append({"id": _user_id(notes, res.doc_id), "text": res.text, "spans": spans})
        return {"results": results}
    except Exception as exc:  # noqa: BLE001 - fail closed, and say why without the text
        return _failure(exc)


def _spans(doc: Any, pipe: Any) -> list[Any]:
    return doc.layer(getattr(pipe, "output_layer", "phi"))


def annotate_task(notes: list[dict[str, Any]], options: dict[str, Any]) -> dict[str, Any]:
    """PHI spans of ``notes`` (text never returned): ``{"id", "spans": [{start, end, type, phi, score, source}]}``."""
    try:
        from notescrub.replace.engine import parse_types
        from notescrub.risk import packaged_risk

        keep = parse_types(options.get("types"))
        pipe = _pipeline(options.get("preset"))
        results = []
        for doc in sorted(pipe.pipe(_documents(notes)), key=lambda d: int(d.id)):
            spans = [{"start": s.start, "end": s.end, "type": s.label, "phi": s.phi,
                      "score": round(float(s.score), 6), "source": s.source}
                     for s in _spans(doc, pipe) if keep is None or s.label in keep or (s.phi or "") in keep]
            item: dict[str, Any] = {"id": _user_id(notes, doc.id), "spans": spans}
            risk = packaged_risk(doc, pipe)  # of all the model's spans; absent without a calibration
            if risk is not None:
                item.update(risk.to_json())
            results.append(item)
        return {"results": results}
    except Exception as exc:  # noqa: BLE001
        return _failure(exc)


def analyze_task(texts: list[str], options: dict[str, Any]) -> dict[str, Any]:
    """Presidio analyzer results for each text (see :mod:`notescrub.serve.presidio_api`)."""
    try:
        from notescrub.serve.presidio_api import analyzer_results
        from notescrub.types import Document

        pipe = _pipeline(options.get("preset"))
        out = []
        for i, text in enumerate(texts):
            doc = pipe(Document(str(i), text))
            out.append(analyzer_results(text, _spans(doc, pipe), options))
        return {"results": out}
    except Exception as exc:  # noqa: BLE001
        return _failure(exc)


def anonymize_task(payload: dict[str, Any]) -> dict[str, Any]:
    """Presidio's anonymizer on a Presidio ``/anonymize`` request body."""
    try:
        from notescrub.serve.presidio_api import anonymize

        return {"result": anonymize(payload)}
    except Exception as exc:  # noqa: BLE001
        from notescrub.serve.presidio_api import InvalidAnonymizerRequest

        if isinstance(exc, InvalidAnonymizerRequest):
            return {"error": exc.reason, "status": 422}
        return _failure(exc)
