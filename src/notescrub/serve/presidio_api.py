"""Presidio-compatible JSON: the analyzer's ``/analyze`` results and the anonymizer's ``/anonymize``.

``/analyze`` answers with Presidio's own shape, a list of
``{"analysis_explanation", "end", "entity_type", "score", "start"}`` per text (keys
sorted, as Presidio's service writes them), with notescrub's spans mapped to Presidio
entity names (:mod:`notescrub.integrations.entities`). ``/anonymize`` runs Presidio's
own :class:`AnonymizerEngine` (``presidio-anonymizer``, part of the ``serve`` extra) on
the request, so its operators, conflict handling and output are Presidio's exactly.

>>> from notescrub.types import Span
>>> text = "Dr. Ruiz saw her."
>>> analyzer_results(text, [Span(4, 8, "DOCTOR", 0.93, "crf")], {})
[{'analysis_explanation': None, 'end': 8, 'entity_type': 'PERSON', 'score': 0.93, 'start': 4}]
>>> analyzer_results(text, [Span(4, 8, "DOCTOR", 0.93)], {"entities": ["PHONE_NUMBER"]})
[]
>>> analyzer_results(text, [Span(4, 8, "DOCTOR", 0.93)], {"allow_list": ["Ruiz"]})
[]
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from notescrub.errors import NotescrubError
from notescrub.integrations.entities import entity_filter, presidio_entity
from notescrub.types import Span

__all__ = ["InvalidAnonymizerRequest", "analyzer_results", "anonymize", "explanation"]

RECOGNIZER_NAME = "NotescrubRecognizer"


class InvalidAnonymizerRequest(NotescrubError, ValueError):
    """A ``/anonymize`` request Presidio's anonymizer refuses (answered with 422, as Presidio does)."""


def explanation(span: Span) -> dict[str, Any]:
    """Presidio's ``AnalysisExplanation`` fields for a notescrub span (no note text in it).

    >>> explanation(Span(0, 4, "PATIENT", 0.5, "crf"))["textual_explanation"]
    'notescrub crf: PATIENT'
    """
    score = round(float(span.score), 6)
    return {"recognizer": RECOGNIZER_NAME, "pattern_name": None, "pattern": None, "original_score": score,
            "score": score, "textual_explanation": f"notescrub {span.source or 'model'}: {span.phi or span.label}",
            "score_context_improvement": 0, "supportive_context_word": "", "validation_result": None,
            "regex_flags": None}


def _allowed(value: str, allow: Sequence[str], match: str) -> bool:
    if match == "regex":
        return any(re.fullmatch(p, value) for p in allow)
    return value in allow


def analyzer_results(text: str, spans: Sequence[Span], options: dict[str, Any]) -> list[dict[str, Any]]:
    """One text's Presidio analyzer results from its notescrub spans.

    ``options``: ``entities`` (Presidio names to keep), ``score_threshold``,
    ``return_decision_process`` (fill ``analysis_explanation``), ``allow_list`` and
    ``allow_list_match`` (``exact`` or ``regex``: values never reported).
    """
    wanted = entity_filter(options.get("entities"))
    threshold = float(options.get("score_threshold") or 0.0)
    allow = list(options.get("allow_list") or [])
    match = options.get("allow_list_match") or "exact"
    out = []
    for s in spans:
        entity = presidio_entity(s.label)
        score = round(float(s.score), 6)
        if (wanted is not None and entity not in wanted) or score < threshold:
            continue
        if allow and _allowed(text[s.start:s.end], allow, match):
            continue
        out.append({"analysis_explanation": explanation(s) if options.get("return_decision_process") else None,
                    "end": s.end, "entity_type": entity, "score": score, "start": s.start})
    return out


_ENGINE: Any = None


def anonymize(payload: dict[str, Any]) -> dict[str, Any]:
    """Presidio's ``/anonymize`` on ``payload`` (``text``, ``anonymizers``, ``analyzer_results``).

    Returns ``{"text", "items": [{"start", "end", "entity_type", "text", "operator"}]}``.
    """
    global _ENGINE
    from presidio_anonymizer import AnonymizerEngine
    from presidio_anonymizer.entities import InvalidParamError
    from presidio_anonymizer.services.app_entities_convertor import AppEntitiesConvertor

    if _ENGINE is None:
        _ENGINE = AnonymizerEngine()
    text = payload.get("text")
    if not isinstance(text, str):
        raise InvalidAnonymizerRequest("Invalid input, text must be a string")
    try:
        # a missing key gives None, which presidio handles (no operators; a clear error for results)
        operators = AppEntitiesConvertor.operators_config_from_json(payload.get("anonymizers"))  # type: ignore[arg-type]
        if AppEntitiesConvertor.check_custom_operator(operators):
            raise InvalidAnonymizerRequest("Custom type anonymizer is not supported")
        results = AppEntitiesConvertor.analyzer_results_from_json(payload.get("analyzer_results"))  # type: ignore[arg-type]
        result = _ENGINE.anonymize(text=text, analyzer_results=results, operators=operators)
    except InvalidParamError as exc:
        raise InvalidAnonymizerRequest(exc.err_msg) from None
    return {"text": result.text,
            "items": [{"start": i.start, "end": i.end, "entity_type": i.entity_type, "text": i.text,
                       "operator": i.operator} for i in result.items]}
