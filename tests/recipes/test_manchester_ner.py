"""Manchester's organisation feeder (spaCy NER standing in for the paper's Stanford NER)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from notescrub.detect import ner
from notescrub.errors import ConfigError, ModelError
from notescrub.recipes.manchester import PRESETS, ManchesterRecipe
from notescrub.registry import load_model
from notescrub.types import Document

_spec = importlib.util.spec_from_file_location("manchester_corpus", Path(__file__).with_name("test_manchester.py"))
corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus)

needs_spacy = pytest.mark.skipif(not ner.available(), reason="spaCy English pipeline (syntax extra) not installed")
NOTE = "Seen by Dr. Osei on 03/14/2091.\nSocial history: he works at Boeing as a machinist."


def _fit(**kw) -> ManchesterRecipe:
    return ManchesterRecipe(max_iterations=5, n_jobs=1, **kw).fit(corpus.english(6))


@pytest.fixture(scope="module")
def with_ner() -> ManchesterRecipe:
    if not ner.available():
        pytest.skip("spaCy English pipeline (syntax extra) not installed")
    return _fit()


@needs_spacy
def test_feeder_adds_organisations_in_every_preset(with_ner, tmp_path):
    assert "ner" in {c.name for c in with_ner.model_.components}
    assert "ner" in with_ner.knowledge_quality_  # measured like the other knowledge taggers
    for preset in PRESETS:
        doc = with_ner.pipeline(preset)(Document("n", NOTE))
        assert ("Boeing", "ORGANIZATION") in [(doc.span_text(s), s.label) for s in doc.layer("phi")]
    out = with_ner.save(tmp_path / "m")
    again = load_model(out)(Document("n", NOTE))
    assert [(s.start, s.end, s.label) for s in again.layer("phi")] == \
        [(s.start, s.end, s.label) for s in with_ner.pipeline()(Document("n", NOTE)).layer("phi")]


@needs_spacy
def test_model_with_the_feeder_needs_spacy_to_load(with_ner, tmp_path, monkeypatch):
    out = with_ner.save(tmp_path / "m")

    def missing():
        raise ConfigError("the NER feeder needs spaCy: pip install 'notescrub[syntax]'")

    monkeypatch.setattr(ner, "_nlp", missing)
    with pytest.raises(ModelError, match=r"component 'ner'.*syntax"):
        load_model(out)


def test_left_out_cleanly_without_spacy(monkeypatch):
    monkeypatch.setattr(ner, "available", lambda: False)

    def missing():
        raise ConfigError("the NER feeder needs spaCy: pip install 'notescrub[syntax]'")

    monkeypatch.setattr(ner, "_nlp", missing)
    r = _fit()
    assert "ner" not in {c.name for c in r.model_.components}
    with pytest.raises(ConfigError, match="syntax"):
        _fit(ner=True)


def test_switched_off_and_english_only():
    assert not ManchesterRecipe(ner=False).use_ner()
    assert not ManchesterRecipe(lang="es").use_ner()
    with pytest.raises(ConfigError, match="English only"):
        ManchesterRecipe(lang="es", ner=True).use_ner()
