"""Tests of the generic hybrid model format: validation, save/load, presets, components."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from notescrub.detect.crf import CRFTagger
from notescrub.detect.rules import RulesDetector
from notescrub.errors import ConfigError, ModelError
from notescrub.features import Featurizer
from notescrub.recipes.loader import (
    Component,
    ComponentSpec,
    HybridModel,
    load_pipeline,
    load_with_preset,
    save_pipeline,
    validate_meta,
)
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
    recall = load_with_preset(out, "recall")
    (c,) = [d for d in recall.detectors if d.name == "crf_patient"]
    assert c.bias == -2.0
    # the knob of one pipeline never leaks into another built from the same model
    model = HybridModel.load(out)
    a, b = model.pipeline("recall"), model.pipeline()
    assert a.detectors[1].bias == -2.0 and b.detectors[1].bias == 0.0
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


def test_save_pipeline_and_overwrite(tmp_path: Path, crf: CRFTagger):
    pipe = _model(crf).pipeline("no-crf")
    out = save_pipeline(pipe, tmp_path / "m", extra={"recipe": "x", "something": 1})
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["recipe"] == "x" and meta["meta"] == {"something": 1}
    assert (out / "crf_patient" / "model.json").is_file()  # disabled in the preset, still saved
    before = (out / "model.json").read_text(encoding="utf-8")
    with pytest.raises(ConfigError):
        save_pipeline(pipe, out)  # exists, no overwrite: untouched
    assert (out / "model.json").read_text(encoding="utf-8") == before
    save_pipeline(pipe, out, overwrite=True)
    with pytest.raises(ModelError, match="not built from a hybrid model"):
        save_pipeline(load_model("rules-en"), tmp_path / "x")


def test_component_relabel_types_and_knob_forwarding(crf: CRFTagger):
    c = Component(RulesDetector(), "r", types=["FECHAS"], relabel={"DATE": "FECHAS"})
    spans = c.detect(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
    assert [(s.label, s.source) for s in spans] == [("FECHAS", "r")]
    inner = copy.copy(crf)
    wrapped = Component(inner, "crf_patient")
    wrapped.bias = -1.5
    assert inner.bias == -1.5 and wrapped.types_ == crf.types_ and not wrapped.patient_level
    assert hasattr(wrapped, "final_attributes") and not hasattr(c, "bias")


def _valid() -> dict:
    return {"kind": "hybrid", "format": 1, "notescrub_version": "0.1.0",
            "components": [{"name": "rules", "kind": "rules", "options": {}},
                           {"name": "crf", "kind": "crf", "dir": "crf", "options": {}}],
            "resolver": {"name": "longest"}, "presets": {"p": {"components": {"crf": {"enabled": False}}}}}


def _mutate(path: str, value):
    def f(m: dict) -> dict:
        target = m
        keys = path.split(".")
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        if value is _DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
        return m
    return f


_DELETE = object()


@pytest.mark.parametrize("mutate, message", [
    (_mutate("colour", 1), "unknown keys \\['colour'\\]"),
    (_mutate("format", 7), "format 7 is not supported"),
    (_mutate("components", []), "non-empty list"),
    (_mutate("components.0.colour", 1), "components\\[0\\] has unknown keys"),
    (_mutate("components.0.kind", "magic"), "unknown kind 'magic'"),
    (_mutate("components.1.name", "rules"), "used twice"),
    (_mutate("components.1.dir", _DELETE), "needs 'dir'"),
    (_mutate("components.1.dir", "/abs"), "relative sub-directory"),
    (_mutate("components.1.dir", "../up"), "relative sub-directory"),
    (_mutate("components.0.dir", "x"), "takes no 'dir'"),
    (_mutate("components.0.options", {"bias": 1}), "unknown keys \\['bias'\\]"),
    (_mutate("components.1.options", {"threshold": 2}), "threshold"),
    (_mutate("components.0.options", {"types": "DATE"}), "list of non-empty strings"),
    (_mutate("components.0.options", {"enabled": "yes"}), "true or false"),
    (_mutate("resolver", {"name": "magic"}), "unknown resolver"),
    (_mutate("resolver", {"name": "priority"}), "order must be a list"),
    (_mutate("resolver", {"name": "priority", "order": ["A", "A"]}), "twice"),
    (_mutate("resolver", {"name": "longest", "order": ["A"]}), "only for the priority"),
    (_mutate("presets.p.components.ghost", {}), "unknown component 'ghost'"),
    (_mutate("presets.p.colour", 1), "preset 'p' has unknown keys"),
    (_mutate("default_preset", "q"), "default_preset 'q'"),
])
def test_invalid_model_json_is_refused_naming_the_file(tmp_path: Path, mutate, message):
    meta = mutate(_valid())
    d = tmp_path / "m"
    d.mkdir()
    (d / "model.json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(ModelError, match=message) as info:
        load_model(d)
    assert str(d / "model.json") in str(info.value) or str(d) in str(info.value)


def test_valid_meta_passes_and_targets_are_checked():
    validate_meta(_valid())
    with pytest.raises(ModelError, match="expected 'hybrid'"):
        validate_meta({**_valid(), "kind": "crf"}, "x/model.json")
    bad = _valid()
    bad["components"].append({"name": "post", "kind": "postprocess", "options": {"targets": ["nope"]}})
    with pytest.raises(ModelError, match="targets names 'nope'"):
        validate_meta(bad, "x/model.json")


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
        load_with_preset("rules-en", "recall")
    assert load_with_preset("rules-en", None).detectors  # no preset: plain registry load


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
    assert tp.lang == "en"
    pipe = model.pipeline(overrides={"two_pass": {"lang": "es"}})
    (tp,) = [d for d in pipe.detectors if d.name == "two_pass"]
    assert tp.lang == "es"
    with pytest.raises(ConfigError, match="'xx'"):
        model.pipeline(overrides={"two_pass": {"lang": "xx"}})
