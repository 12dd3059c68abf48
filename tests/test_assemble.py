"""Tests of assembly (notescrub.assemble) and model directories (notescrub.modeldir): save/load, presets,
knobs applied at build time, components."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from notescrub.assemble import Component, build, load_pipeline
from notescrub.config import ComponentSpec
from notescrub.detect.base import inner_detector
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.detect.rules.detector import RulesDetector
from notescrub.errors import ConfigError, ModelError
from notescrub.features import Featurizer
from notescrub.modeldir import HybridModel
from notescrub.registry import load_model
from notescrub.types import Document, Span

_NAMES = ["Qolvanek", "Brisbee", "Tarnow", "Okafor", "Lindqvist", "Marchetti", "Osei", "Ferreira"]


def _docs(n: int, seed: int = 0) -> list[Document]:
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        name = rnd.choice(_NAMES)
        pre = rnd.choice(["Patient", "Pt", "Ms.", "Mr."])
        text = f"{pre} {name} was seen on 03/1{i % 10}/2091.\n{name} is stable."
        a = text.index(name)
        out.append(Document(f"d{i}", text, f"P{i % 4}", layers={"gold": [Span(a, a + len(name), "PATIENT")]}))
    return out


@pytest.fixture(scope="module")
def crf() -> CRFTagger:
    feat = Featurizer(groups=("lexical", "orthographic"), window=(1, 1))
    return CRFTagger(feat, scheme="IO", max_iterations=30, name="crf_patient").fit(_docs(16))


def _model(crf: CRFTagger) -> HybridModel:
    comps = [
        ComponentSpec("rules", "rules", options={"types": ["DATE"]}),
        ComponentSpec("crf_patient", "crf", "crf_patient", {"types": ["PATIENT"]}),
        ComponentSpec("post", "postprocess", options={"targets": ["crf_patient"]}),
        ComponentSpec("two_pass", "two_pass", options={"harvest_types": ["PATIENT"], "min_score": 0.5}),
    ]
    presets = {
        "no-crf": {"components": {"crf_patient": {"enabled": False}}, "description": "rules only"},
        "recall": {"components": {"crf_patient": {"bias": -2.0}},
                   "resolver": {"name": "cover", "base": {"name": "priority", "order": ["DATE", "PATIENT"]}}},
    }
    return HybridModel(comps, {"crf_patient": crf}, {"name": "priority", "order": ["DATE", "PATIENT"]}, presets,
                       meta={"name": "tiny", "lang": "en"})


def _run(pipe, docs):
    out = list(pipe.pipe(d.copy(layers=False) for d in docs))
    return [[(s.start, s.end, s.label, s.source) for s in d.layer("phi")] for d in out]


def test_save_load_round_trip_gives_the_same_output(tmp_path: Path, crf: CRFTagger):
    model = _model(crf)
    out = model.save(tmp_path / "m")
    assert sorted(p.name for p in out.iterdir()) == ["crf_patient", "model.json"]
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "hybrid" and meta["format"] == 1 and meta["components"][1]["dir"] == "crf_patient"
    test = _docs(6, seed=9)
    loaded = load_model(out)  # through the registry (kind "hybrid")
    assert [d.name for d in loaded.detectors] == ["rules", "crf_patient", "two_pass"]
    assert _run(loaded, test) == _run(model.pipeline(), test)
    labels = {lab for doc in _run(loaded, test) for _, _, lab, _ in doc}
    assert labels == {"DATE", "PATIENT"}


def test_presets_switch_components_and_knobs(tmp_path: Path, crf: CRFTagger):
    out = _model(crf).save(tmp_path / "m")
    no_crf = load_pipeline(out, preset="no-crf")
    assert [d.name for d in no_crf.detectors] == ["rules", "two_pass"]
    recall = build(out, "recall")
    (c,) = [d for d in recall.detectors if d.name == "crf_patient"]
    assert c.inner.bias == -2.0
    # the knob of one pipeline never leaks into another built from the same model
    model = HybridModel.load(out)
    a, b = model.pipeline("recall"), model.pipeline()
    assert a.detectors[1].inner.bias == -2.0 and b.detectors[1].inner.bias == 0.0
    with pytest.raises(ModelError, match="unknown preset 'nope'"):
        load_pipeline(out, preset="nope")


def test_second_pass_can_be_switched_off(crf: CRFTagger):
    pipe = _model(crf).pipeline(overrides={"two_pass": {"enabled": False}})
    assert [d.name for d in pipe.detectors] == ["rules", "crf_patient"]


def test_two_pass_finds_a_repeat_in_another_note(crf: CRFTagger):
    notes = [Document("a", "Ms. Brisbee was seen on 03/18/2091.", "P1"),
             Document("b", "brisbee called back.", "P1")]
    out = _model(crf).pipeline().pipe(notes)
    second = next(d for d in out if d.id == "b")
    assert [(second.span_text(s), s.source) for s in second.layer("phi")] == [("brisbee", "two_pass")]


def test_save_and_overwrite(tmp_path: Path, crf: CRFTagger):
    model = _model(crf)
    out = model.save(tmp_path / "m", extra={"recipe": "x", "something": 1})
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["recipe"] == "x" and meta["meta"] == {"something": 1}
    assert (out / "crf_patient" / "model.json").is_file()
    before = (out / "model.json").read_text(encoding="utf-8")
    with pytest.raises(ConfigError):
        model.save(out)  # exists, no overwrite: untouched
    assert (out / "model.json").read_text(encoding="utf-8") == before
    model.save(out, overwrite=True)


def test_knobs_are_set_at_build_time_on_the_components_that_take_them(tmp_path: Path, crf: CRFTagger):
    out = _model(crf).save(tmp_path / "m")
    pipe = build(out, "recall", recall_bias=0.5, threshold=0.7)
    crf_det = inner_detector(pipe.detectors[1])
    assert (crf_det.bias, crf_det.threshold) == (-0.5, 0.7)  # the flag wins over the preset's bias
    assert build(out).detectors[1].inner.bias == 0.0  # and stays in that pipeline
    with pytest.raises(ConfigError, match="no CRF detector to bias"):
        build(out, "no-crf", recall_bias=1.0)
    with pytest.raises(ConfigError, match="--threshold needs a CRF model"):
        build("rules-en", threshold=0.5)
    single = build("rules-en")
    assert single.detectors and not hasattr(single.detectors[0], "bias")


def test_component_relabel_types_and_no_forwarding(crf: CRFTagger):
    c = Component(RulesDetector(), "r", types=["FECHAS"], relabel={"DATE": "FECHAS"})
    spans = c.detect(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
    assert [(s.label, s.source) for s in spans] == [("FECHAS", "r")]
    wrapped = Component(copy.copy(crf), "crf_patient")
    assert inner_detector(wrapped).types_ == crf.types_ and not wrapped.patient_level
    assert not hasattr(wrapped, "bias") and not hasattr(wrapped, "final_attributes")  # no forwarding
    with pytest.raises(AttributeError):
        wrapped.bias = -1.5  # type: ignore[attr-defined]  # a built component is not changed afterwards


def test_missing_or_wrong_sub_model(tmp_path: Path, crf: CRFTagger):
    out = _model(crf).save(tmp_path / "m")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    meta["components"][1]["dir"] = "elsewhere"
    (out / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match="sub-directory 'elsewhere' is missing"):
        load_model(out)
    meta["components"][1]["dir"] = "crf_patient"
    sub = json.loads((out / "crf_patient" / "model.json").read_text(encoding="utf-8"))
    sub["kind"] = "svm"
    (out / "crf_patient" / "model.json").write_text(json.dumps(sub), encoding="utf-8")
    (out / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match="has kind 'svm'"):
        load_model(out)


def test_other_version_is_refused(tmp_path: Path, crf: CRFTagger):
    out = _model(crf).save(tmp_path / "m")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    meta["notescrub_version"] = "9.9.0"
    (out / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match="retrain"):
        load_model(out)


def test_preset_on_a_non_hybrid_model():
    with pytest.raises(ModelError, match="needs a hybrid model"):
        build("rules-en", "recall")
    assert build("rules-en", None).detectors  # no preset: plain registry load


def test_all_components_disabled_is_an_error(crf: CRFTagger):
    model = _model(crf)
    with pytest.raises(ModelError, match="every component is disabled"):
        model.pipeline(overrides={n: {"enabled": False} for n in ("rules", "crf_patient", "two_pass")})


def test_crfs_with_one_feature_configuration_share_the_featurisation(crf: CRFTagger):
    twin = copy.copy(crf)
    twin.name = "crf_twin"
    model = HybridModel([ComponentSpec("crf_patient", "crf", "crf_patient"), ComponentSpec("crf_twin", "crf", "crf_twin")],
                        {"crf_patient": crf, "crf_twin": twin})
    doc = _docs(1, seed=3)[0].copy(layers=False)
    model.pipeline()(doc)
    keys = [k for k in doc._cache if k.startswith("notescrub.hybrid.")]
    assert len(keys) == 1  # computed once, used by both CRFs
    assert [(s.start, s.end, s.label) for s in doc.layer("crf_twin")] == \
        [(s.start, s.end, s.label) for s in crf.detect(doc.copy(layers=False))]
    assert doc.metadata["crf_patient"]["tokens"] > 0


def test_save_writes_extra_files_inside_the_atomic_directory(tmp_path: Path, crf: CRFTagger):
    out = _model(crf).save(tmp_path / "m", files={"post.toml": b"# rules\n"})
    assert (out / "post.toml").read_bytes() == b"# rules\n"
    for bad in ("../x.toml", "model.json"):
        with pytest.raises(ModelError, match="plain file name"):
            _model(crf).save(tmp_path / "bad", files={bad: b""})
    assert not (tmp_path / "bad").exists()


def test_two_pass_language_comes_from_its_option_only(crf: CRFTagger):
    model = _model(crf)
    model.meta["lang"] = "es"  # the model's language does not switch an existing second pass
    (tp,) = [d for d in model.pipeline().detectors if d.name == "two_pass"]
    assert tp.inner.lang == "en"
    pipe = model.pipeline(overrides={"two_pass": {"lang": "es"}})
    (tp,) = [d for d in pipe.detectors if d.name == "two_pass"]
    assert tp.inner.lang == "es"
    with pytest.raises(ConfigError, match="'xx'"):
        model.pipeline(overrides={"two_pass": {"lang": "xx"}})
