"""The stat-deid, crfd and lingpipe recipes: configuration, registry, tiny end-to-end runs."""

from __future__ import annotations

import json

import pytest

from notescrub.detect.crf.statdeid import StatDeidCRF
from notescrub.detect.lingpipe.chunker import CharLmHmmChunker
from notescrub.detect.svm import SVMTagger
from notescrub.errors import ConfigError
from notescrub.features import syntax
from notescrub.recipes import RECIPES, get_recipe
from notescrub.registry import load_model
from notescrub.types import Document, Span


@pytest.mark.parametrize("name, cls", [("stat-deid", SVMTagger), ("crfd", StatDeidCRF), ("lingpipe", CharLmHmmChunker)])
def test_registered(name, cls):
    assert name in RECIPES
    assert isinstance(get_recipe(name)(lang="es"), cls)


@pytest.mark.parametrize(
    "lang, kwargs, groups, np_source",
    [
        ("es", {}, ("lexical_bigrams", "medical_np", "section"), "heuristic"),
        ("en", {}, ("lexical_bigrams", "pos", "syntactic_bigrams", "medical_np", "section"), "parser"),
        ("en", {"syntax": False}, ("lexical_bigrams", "medical_np", "section"), "heuristic"),
        ("en", {"syntax": False, "pos": True}, ("lexical_bigrams", "pos", "medical_np", "section"), "heuristic"),
    ],
)
def test_stat_deid_feature_configuration(lang, kwargs, groups, np_source):
    for name in ("stat-deid", "crfd"):
        feat = get_recipe(name)(lang=lang, **kwargs).featurizer
        assert feat.groups == groups and feat.np_source == np_source
        assert feat.shared_groups == ("lexical", "orthographic", "dictionary")


def test_spanish_syntax_is_refused():
    with pytest.raises(ConfigError, match="no dependency parser"):
        get_recipe("stat-deid")(lang="es", syntax=True)
    with pytest.raises(ConfigError):
        get_recipe("crfd")(lang="es", bogus=1)


def _docs() -> list[Document]:
    out = []
    for i, (name, date) in enumerate(zip(["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez"],
                                         ["3/18", "4/11", "5/02", "6/30", "7/07", "8/15"])):
        text = f"Paciente visto por el Dr. {name} el {date}.\nPlan: reposo."
        a, d = text.index(name), text.index(date)
        out.append(Document(str(i), text, layers={"gold": [Span(a, a + len(name), "NOMBRE_PERSONAL_SANITARIO"),
                                                           Span(d, d + len(date), "FECHAS")]}))
    return out


@pytest.mark.parametrize("name, overrides", [("stat-deid", {"C": 1.0}), ("crfd", {"max_iterations": 40}),
                                              ("lingpipe", {"order": 5})])
def test_tiny_training_end_to_end(name, overrides, tmp_path):
    model = get_recipe(name)(lang="es", **overrides).fit(_docs())
    assert model.types_ == ["FECHAS", "NOMBRE_PERSONAL_SANITARIO"]
    out = model.save(tmp_path / name, extra={"recipe": name})
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["recipe"] == name
    doc = Document("t", "Paciente visto por el Dr. Vega el 9/21.\nPlan: reposo.")
    found = [(doc.span_text(s), s.label) for s in load_model(out)(doc).layer("phi")]
    assert ("9/21", "FECHAS") in found


@pytest.mark.skipif(not syntax.available("en"), reason="spaCy English model not installed")
def test_english_stat_deid_records_parser(tmp_path):
    docs = [Document(d.id, d.text.replace("Paciente visto por el", "Patient seen by"), layers={
        "gold": [s.with_(start=s.start - 6, end=s.end - 6) for s in d.layer("gold")]}) for d in _docs()]
    assert docs[0].span_text(docs[0].layer("gold")[0]) == "Ruiz"
    model = get_recipe("stat-deid")(lang="en", C=1.0).fit(docs)
    meta = json.loads((model.save(tmp_path / "m") / "model.json").read_text(encoding="utf-8"))
    assert meta["features_on"]["parser"]["parser"] == "spacy"
    assert "syntactic_bigrams" in meta["features_on"]["groups"]
