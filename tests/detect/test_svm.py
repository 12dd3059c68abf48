"""Stat De-id SVM tagger and CRFD: training, span merging, persistence, bad models."""

from __future__ import annotations

import json

import numpy as np
import pytest

from notescrub.detect.crf.statdeid import StatDeidCRF
from notescrub.detect.svm import SVMTagger, _matrix, _vocabulary, featurizer_from_config
from notescrub.errors import ConfigError, ModelError
from notescrub.features import Featurizer
from notescrub.features.statdeid import StatDeidFeaturizer
from notescrub.registry import load_model
from notescrub.types import Document, Span

NAMES = ["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez", "Vidal", "Soler"]


def _doc(i: int, first: str, last: str) -> Document:
    text = f"Seen by Dr. {first} {last} on 3/{i + 10}.\nPlan: rest."
    a = text.index(first)
    d = text.index("3/")
    return Document(f"d{i}", text, layers={"gold": [Span(a, a + len(first) + 1 + len(last), "DOCTOR"),
                                                     Span(d, d + 4, "DATE")]})


@pytest.fixture(scope="module")
def docs() -> list[Document]:
    return [_doc(i, NAMES[i], NAMES[-1 - i]) for i in range(len(NAMES))]


@pytest.fixture(scope="module")
def feat() -> StatDeidFeaturizer:
    return StatDeidFeaturizer(groups=("lexical_bigrams", "medical_np", "section"), lang="en", np_source="heuristic")


@pytest.fixture(scope="module")
def svm(docs, feat) -> SVMTagger:
    return SVMTagger(feat, C=1.0).fit(docs)


def test_vectorizer_is_binary_and_prunes_rare_features():
    attrs = [["a", "b", "a"], ["a", "c"]]
    vocab = _vocabulary(attrs, min_freq=2)
    assert vocab == {"a": 0}
    X = _matrix(attrs, vocab)
    assert X.toarray().tolist() == [[1.0], [1.0]]
    X = _matrix([["zzz"]], _vocabulary(attrs, 1))
    assert X.nnz == 0


def test_merges_adjacent_same_type_tokens(svm):
    doc = Document("t", "Seen by Dr. Ana Sanz on 3/22.\nPlan: rest.")
    found = [(doc.text[s.start : s.end], s.label, s.source) for s in svm.detect(doc)]
    assert found == [("Ana Sanz", "DOCTOR", "svm"), ("3/22", "DATE", "svm")]
    assert all(0.5 < s.score <= 1.0 for s in svm.detect(doc))


def test_learned_state(svm, docs):
    assert svm.classes_ == ["DATE", "DOCTOR", "O"]
    assert svm.coef_.shape == (3, len(svm.vocabulary_))
    assert svm.training_["tokens"] == sum(len(svm.featurizer.view(d).tokens) for d in docs)


def test_binary_problem_keeps_two_hyperplanes(docs, feat):
    only_dates = [Document(d.id, d.text, layers={"gold": [s for s in d.layer("gold") if s.label == "DATE"]}) for d in docs]
    m = SVMTagger(feat).fit(only_dates)
    assert m.classes_ == ["DATE", "O"] and m.coef_.shape[0] == 2
    assert [s.label for s in m.detect(Document("t", "Seen on 3/30."))] == ["DATE"]


def test_bad_training_input(feat):
    with pytest.raises(ModelError):
        SVMTagger(feat).fit([Document("x", "nothing here")])
    with pytest.raises(ConfigError):
        SVMTagger(feat, C=0).fit([Document("x", "a")])
    with pytest.raises(ModelError):
        SVMTagger(feat).detect(Document("x", "a"))
    with pytest.raises(ConfigError):
        SVMTagger().set_params(gamma=1)


def test_save_load_roundtrip(svm, tmp_path):
    out = svm.save(tmp_path / "svm")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "svm"
    assert meta["features_on"]["groups"] == ["lexical_bigrams", "medical_np", "section"]
    assert meta["features_on"]["parser"] is None
    pipe = load_model(out)
    doc = Document("t", "Seen by Dr. Ana Sanz on 3/22.")
    again = pipe(doc).layer("phi")
    assert [(s.start, s.end, s.label) for s in again] == [(s.start, s.end, s.label) for s in svm.detect(doc)]
    np.testing.assert_allclose(pipe.detectors[0].inner.decision(doc), svm.decision(doc), rtol=1e-5)


def test_load_rejects_broken_model(svm, tmp_path):
    out = svm.save(tmp_path / "svm")
    np.savez_compressed(out / "weights.npz", coef=np.zeros((2, 2), dtype=np.float32), intercept=np.zeros(2))
    with pytest.raises(ModelError, match="do not match"):
        SVMTagger.load(out)
    (out / "features.json.gz").unlink()
    with pytest.raises(ModelError, match="missing"):
        SVMTagger.load(out)
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    meta["featurizer"]["groups"] = ["bogus"]
    meta["featurizer"]["shared_groups"] = ["bogus"]
    meta["featurizer"].pop("lang")
    meta["featurizer"]["nope"] = 1
    (out / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match="invalid"):
        SVMTagger.load(out)


def test_featurizer_from_config_dispatch(feat):
    assert isinstance(featurizer_from_config(feat.to_config()), StatDeidFeaturizer)
    assert isinstance(featurizer_from_config(Featurizer(groups=("lexical",)).to_config()), Featurizer)


def test_crfd_trains_on_the_same_features_and_roundtrips(docs, feat, tmp_path):
    crfd = StatDeidCRF(feat, max_iterations=30).fit(docs)
    doc = Document("t", "Seen by Dr. Ana Sanz on 3/22.\nPlan: rest.")
    found = [(doc.text[s.start : s.end], s.label) for s in crfd.detect(doc)]
    assert found == [("Ana Sanz", "DOCTOR"), ("3/22", "DATE")]
    out = crfd.save(tmp_path / "crfd")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "crfd" and meta["featurizer"]["featurizer"] == "stat-deid"
    pipe = load_model(out)
    assert isinstance(pipe.detectors[0].inner.featurizer, StatDeidFeaturizer)
    assert [(s.start, s.end, s.label) for s in pipe(Document("t", doc.text)).layer("phi")] == [
        (s.start, s.end, s.label) for s in crfd.detect(doc)
    ]
    meta["kind"] = "crf"
    with pytest.raises(ModelError, match="expected 'crfd'"):
        StatDeidCRF.from_meta(out, meta)


def test_bio_scheme_keeps_adjacent_same_type_spans_apart(feat):
    docs = []
    for i, (zip_code, town) in enumerate([("28016", "Madrid"), ("08001", "Barcelona"), ("46002", "Valencia"),
                                          ("41001", "Sevilla"), ("50001", "Zaragoza"), ("29001", "Malaga")]):
        text = f"Domicilio: {zip_code} {town}.\nPlan: rest."
        a, b = text.index(zip_code), text.index(town)
        docs.append(Document(str(i), text, layers={"gold": [Span(a, a + 5, "TERRITORIO"), Span(b, b + len(town), "TERRITORIO")]}))
    doc = Document("t", "Domicilio: 37001 Salamanca.\nPlan: rest.")
    io = SVMTagger(feat, C=1.0).fit(docs)
    assert [doc.span_text(s) for s in io.detect(doc)] == ["37001 Salamanca"]
    bio = SVMTagger(feat, C=1.0, scheme="BIO").fit(docs)
    assert bio.classes_ == ["B-TERRITORIO", "O"] and bio.types_ == ["TERRITORIO"]
    assert [doc.span_text(s) for s in bio.detect(doc)] == ["37001", "Salamanca"]
    with pytest.raises(ConfigError):
        SVMTagger(feat, scheme="BILOU").fit(docs)
