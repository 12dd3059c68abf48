"""Label consistency (Aramaki): majority tables, features, cross-fitted two-stage CRF."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from notescrub.detect.crf.consistency import (
    ConsistencyTagger,
    MajorityTable,
    consistency_features,
    fold_of,
)
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.errors import ConfigError, ModelError
from notescrub.features import Featurizer
from notescrub.registry import load_model
from notescrub.types import Document

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).with_name("crf_synth.py"))
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)


def test_token_majority_counts_every_tagged_occurrence():
    t = MajorityTable()
    t.add_record([["room"], ["dr", "room"], ["room"]], ["PATIENT", "DOCTOR", "PATIENT"])
    assert t.token_majority() == {"room": "PATIENT", "dr": "DOCTOR"}


def test_untagged_occurrences_count_as_outside():
    keys = ["ruiz", "x", "ruiz", "y", "ruiz", "z", "ruiz"]
    t = MajorityTable()
    t.add_record([["ruiz"]], ["DOCTOR"], keys, ["DOCTOR", "O", "O", "O", "O", "O", "O"])
    assert t.token_majority()["ruiz"] == "O"
    assert t.entry_majority()[("ruiz",)] == "O"


@pytest.mark.parametrize(
    "keys, tags, corpus_tokens, corpus_entries, expected",
    [
        # Aramaki's example: ROOM tagged twice as PATIENT, once as DOCTOR -> PATIENT everywhere
        (["dr", "room", "saw", "room", "and", "room"], ["O", "B-DOCTOR", "O", "B-PATIENT", "O", "B-PATIENT"], {}, {},
         {1: {"tokrec=PATIENT", "entrec=B-PATIENT"}, 0: set()}),
        # an entry tagged once is propagated to its untagged occurrence (ties favour the PHI type)
        (["ana", "ruiz", "and", "ana", "ruiz"], ["B-PATIENT", "I-PATIENT", "O", "O", "O"], {}, {},
         {3: {"entrec=B-PATIENT", "tokrec=PATIENT"}, 4: {"entrec=I-PATIENT"}, 2: set()}),
        # corpus tables apply even when the record has no tag
        (["seen", "madrid"], ["O", "O"], {"madrid": "TERRITORIO"}, {("madrid",): "TERRITORIO"},
         {1: {"tokcorp=TERRITORIO", "entcorp=B-TERRITORIO"}, 0: set()}),
    ],
)
def test_consistency_features(keys, tags, corpus_tokens, corpus_entries, expected):
    feats = consistency_features(keys, tags, corpus_tokens, corpus_entries)
    for i, want in expected.items():
        assert want <= set(feats[i]) if want else feats[i] == []


def test_fold_of_keeps_patients_together():
    a, b = Document("1", "x", patient_id="P1"), Document("2", "y", patient_id="P1")
    assert fold_of(a, 0, 5) == fold_of(b, 7, 5)
    assert fold_of(Document("3", "z"), 7, 5) == 2


@pytest.fixture(scope="module")
def two_stage():
    docs = crf_synth.corpus(36, seed=3)
    feat = Featurizer(groups=("lexical", "orthographic"), window=(2, 2))
    t = ConsistencyTagger(CRFTagger(feat, max_iterations=40), CRFTagger(feat, max_iterations=40), folds=3)
    return t.fit(docs[:28]), docs[28:]


def test_two_stage_fits_and_detects(two_stage):
    t, test = two_stage
    assert t.training_["folds"] == 3 and t.corpus_tokens_
    assert any(f.startswith(("tokrec=", "entrec=")) for f in t.second_.weights_.attr_index)
    g = {(d.id, s.start, s.end, s.label) for d in test for s in d.layer("gold")}
    p = {(d.id, s.start, s.end, s.label) for d in test for s in t.detect(d.copy(layers=False))}
    assert len(g & p) > 0.9 * len(g)


def test_bias_acts_on_second_stage(two_stage):
    t, test = two_stage
    t.bias = -3.0
    assert t.second_.bias == -3.0
    many = sum(len(t.detect(d)) for d in test)
    t.bias = 0.0
    assert many >= sum(len(t.detect(d)) for d in test)


def test_save_load_round_trip(two_stage, tmp_path):
    t, test = two_stage
    out = t.save(tmp_path / "m2")
    meta = json.loads((out / "model.json").read_text())
    assert meta["stages"] == 2 and meta["kind"] == "crf"
    pipe = load_model(out)
    d = test[0].copy(layers=False)
    assert [(s.start, s.end, s.label) for s in pipe(d).layer("phi")] == \
           [(s.start, s.end, s.label) for s in t.detect(test[0])]
    (out / "consistency.json").write_text("{}")
    with pytest.raises(ModelError, match="checksum"):
        load_model(out)
    (out / "stage2.crfsuite").unlink()
    with pytest.raises(ModelError, match="missing"):
        load_model(out)


def test_needs_enough_documents_and_folds():
    docs = crf_synth.corpus(3)
    with pytest.raises(ModelError, match="at least 5"):
        ConsistencyTagger().fit(docs)
    with pytest.raises(ConfigError, match="folds"):
        ConsistencyTagger(folds=1).fit(docs)
    with pytest.raises(ModelError, match="not fitted"):
        ConsistencyTagger().detect(docs[0])
