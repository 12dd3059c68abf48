"""The spaCy organisation feeder: ORG entities in sentences with an organisation cue."""

from __future__ import annotations

import pytest

from notescrub.detect import ner
from notescrub.errors import ConfigError
from notescrub.types import Document

needs_spacy = pytest.mark.skipif(not ner.available(), reason="spaCy English pipeline (syntax extra) not installed")

TEXT = ("Social history: he works at Boeing as a machinist.\n"
        "CT of the chest was read at Mercy Hospital by the Radiology Associates group.\n"
        "He goes to St. Mary Church on Sundays.")


@needs_spacy
def test_org_entities_in_cue_sentences_only():
    doc = Document("n", TEXT)
    found = [(doc.span_text(s), s.label, s.source) for s in ner.NerDetector().detect(doc)]
    assert ("Boeing", "ORGANIZATION", "ner") in found
    assert any(text.endswith("Church") for text, _, _ in found)
    second = TEXT.splitlines()[1]
    a = TEXT.index(second)
    assert not [s for s in ner.NerDetector().detect(doc) if a <= s.start < a + len(second)]  # no cue there
    everywhere = ner.NerDetector(cues=()).detect(doc)
    assert len(everywhere) > len(found)
    assert all(doc.text[s.start:s.end] == doc.span_text(s) and s.end <= len(doc.text) for s in everywhere)


@needs_spacy
def test_bad_options_are_refused():
    with pytest.raises(ConfigError, match="entity label"):
        ner.NerDetector(labels={})
    with pytest.raises(ConfigError, match="cues"):
        ner.NerDetector(cues=["works at", " "])


def test_missing_spacy_is_a_clear_error(monkeypatch):
    def missing():
        raise ConfigError("the NER feeder needs spaCy: pip install 'notescrub[syntax]'")

    monkeypatch.setattr(ner, "_nlp", missing)
    assert ner.available() is False
    with pytest.raises(ConfigError, match="syntax"):
        ner.NerDetector()
