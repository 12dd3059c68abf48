"""`notescrub train` and `notescrub annotate` end to end on tiny synthetic data."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from notescrub.cli.main import main

_spec = importlib.util.spec_from_file_location("crf_synth", Path(__file__).parents[1] / "detect" / "crf" / "crf_synth.py")
crf_synth = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(crf_synth)


def _write_jsonl(path: Path, docs, with_spans: bool = True) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for d in docs:
            rec = {"id": d.id, "patient": d.patient_id, "text": d.text}
            if with_spans:
                rec["spans"] = [{"start": s.start, "end": s.end, "type": s.label, "text": d.span_text(s)}
                                for s in d.layer("gold")]
            fh.write(json.dumps(rec) + "\n")
    return path


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    docs = crf_synth.corpus(30, seed=5)
    train = _write_jsonl(root / "train.jsonl", docs[:22])
    dev = _write_jsonl(root / "dev.jsonl", docs[22:])
    raw = _write_jsonl(root / "raw.jsonl", docs[22:], with_spans=False)
    return root, train, dev, raw, docs[22:]


@pytest.fixture(scope="module")
def model(data):
    root, train, dev, _, _ = data
    out = root / "model"
    rc = main(["-q", "train", "--recipe", "carafe", "--train", str(train), "--dev", str(dev), "-o", str(out),
               "--set", "max_iterations=40", "--name", "tiny"])
    assert rc == 0
    return out


def test_train_writes_model_with_metadata(model):
    meta = json.loads((model / "model.json").read_text())
    assert meta["kind"] == "crf" and meta["recipe"] == "carafe" and meta["model_name"] == "tiny"
    assert meta["training"]["crfsuite"]["max_iterations"] == 40 and meta["pos"] is False
    dev = meta["metrics"]["dev"]
    assert dev["scheme"] == "i2b2-2014" and dev["strict_micro"]["f1"] > 0.8


def _read(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_annotate_output_format(data, model):
    root, _, _, raw, gold_docs = data
    out = root / "out.jsonl"
    assert main(["-q", "annotate", str(raw), "-o", str(out), "--model", str(model)]) == 0
    recs = _read(out)
    assert [r["id"] for r in recs] == [d.id for d in gold_docs]
    s = recs[0]["spans"][0]
    assert set(s) == {"start", "end", "type", "phi", "score", "source"} and recs[0]["logprob"] <= 0
    assert {x["phi"] for r in recs for x in r["spans"]} <= {"PATIENT", "DATE", "DOCTOR", "CITY", "PHONE"}
    assert "text" not in recs[0] and all("text" not in x for x in recs[0]["spans"])


def test_gold_spans_in_input_are_ignored(data, model):
    root, _, dev, raw, _ = data
    a, b = root / "a.jsonl", root / "b.jsonl"
    main(["-q", "annotate", str(dev), "-o", str(a), "--model", str(model)])
    main(["-q", "annotate", str(raw), "-o", str(b), "--model", str(model)])
    assert a.read_text() == b.read_text()


def test_bias_raises_the_number_of_spans(data, model):
    root, _, _, raw, _ = data
    counts = []
    for bias in ("3", "0", "-3", "-10"):
        out = root / f"bias{bias}.jsonl"
        assert main(["-q", "annotate", str(raw), "-o", str(out), "--model", str(model), "--recall-bias", str(-float(bias))]) == 0
        counts.append(sum(len(r["spans"]) for r in _read(out)))
    assert counts[0] <= counts[1] and counts[-1] >= counts[1] and counts[0] < counts[-1]


def test_threshold_labels_and_explain(data, model):
    root, _, _, raw, _ = data
    out = root / "t.jsonl"
    assert main(["-q", "annotate", str(raw), "-o", str(out), "--model", str(model), "--threshold", "0.5",
                 "--labels", "DOCTOR", "--explain"]) == 0
    spans = [x for r in _read(out) for x in r["spans"]]
    assert spans and {x["type"] for x in spans} == {"DOCTOR"}
    feats = [f for x in spans for f, _ in x["explain"]]
    assert feats and all("=<text>" in f or not f.split(":")[-1].startswith(("w=", "lw=")) for f in feats)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["annotate", "{raw}", "-o", "{root}/x.jsonl", "--model", "{model}", "--labels", "NOPE"], "NOPE"),
        (["annotate", "{raw}", "-o", "{root}/x.jsonl", "--model", "{root}/nomodel"], "no model named"),
        (["annotate", "{raw}", "-o", "{root}/x.jsonl", "--model", "{model}", "--threshold", "2"], "threshold"),
        (["train", "--recipe", "nope", "--train", "{raw}", "-o", "{root}/m2"], "unknown recipe"),
        (["train", "--recipe", "carafe", "--train", "{raw}", "-o", "{root}/m2"], "no annotated spans"),
        (["train", "--recipe", "carafe", "--train", "{raw}", "-o", "{root}/m2", "--set", "bogus"], "KEY=VALUE"),
        (["train", "--recipe", "carafe", "--train", "{train}", "-o", "{model}"], "not empty"),
    ],
)
def test_errors_exit_2_without_output(data, model, capsys, argv, message):
    root, train, _, raw, _ = data
    argv = [a.format(raw=raw, root=root, model=model, train=train) for a in argv]
    assert main(["-q", *argv]) == 2
    assert message in capsys.readouterr().err
    assert not (root / "x.jsonl").exists() and not (root / "m2").exists()


def test_empty_documents(data, model, tmp_path):
    src = tmp_path / "empty.jsonl"
    src.write_text(json.dumps({"id": "e1", "text": ""}) + "\n" + json.dumps({"id": "e2", "text": "   \n"}) + "\n")
    out = tmp_path / "o.jsonl"
    assert main(["-q", "annotate", str(src), "-o", str(out), "--model", str(model)]) == 0
    assert [r["spans"] for r in _read(out)] == [[], []]


def _packaged():
    from notescrub.registry import packaged_models

    if "es-meddocan" not in packaged_models():
        pytest.skip("es-meddocan is not packaged")


def test_packaged_es_meddocan_by_name(tmp_path):
    _packaged()
    src = tmp_path / "es.jsonl"
    text = ("Nombre: Ramiro Sotomayor Quesada.\nFecha de ingreso: 14/02/2019.\n"
            "Paciente de 63 años remitido al Hospital Clínico de Valdemoro.")
    src.write_text(json.dumps({"id": "es1", "text": text}) + "\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["-q", "annotate", str(src), "-o", str(out), "--model", "es-meddocan"]) == 0
    spans = {(text[s["start"]:s["end"]], s["type"]) for s in _read(out)[0]["spans"]}
    assert ("Ramiro Sotomayor Quesada", "NOMBRE_SUJETO_ASISTENCIA") in spans
    assert ("14/02/2019", "FECHAS") in spans


@pytest.mark.slow
def test_packaged_es_meddocan_on_meddocan(meddocan_dir):
    """Regression check on 15 dev notes (seen in training: not a held-out score)."""
    _packaged()
    from notescrub.io import read_corpus
    from notescrub.registry import load_model

    pipe = load_model("es-meddocan")
    docs = list(read_corpus(meddocan_dir / "dev" / "brat"))[:15]
    tp = fp = fn = 0
    for d in docs:
        gold = {(s.start, s.end, s.label) for s in d.layer("gold")}
        pred = {(s.start, s.end, s.label) for s in pipe(d.copy(layers=False)).layer("phi")}
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    assert 2 * tp / (2 * tp + fp + fn) > 0.95


def test_carafe_pp_trains_and_annotates(data, tmp_path):
    """`--set pp=true`: Carafe-ALL+PP is saved as a hybrid model that annotate loads; `es` is refused."""
    _, train, dev, raw, _ = data
    out = tmp_path / "pp"
    assert main(["-q", "train", "--recipe", "carafe", "--train", str(train), "--dev", str(dev), "-o", str(out),
                 "--set", "max_iterations=30", "--set", "pp=true"]) == 0
    meta = json.loads((out / "model.json").read_text())
    assert meta["kind"] == "hybrid" and meta["resolver"] == {"name": "union"}
    assert [c["kind"] for c in meta["components"]] == ["crf", "rules"]
    assert meta["metrics"]["dev"]["strict_micro"]["f1"] > 0.5
    ann = tmp_path / "ann.jsonl"
    assert main(["-q", "annotate", str(raw), "-o", str(ann), "--model", str(out)]) == 0
    assert any(r["spans"] for r in _read(ann))
    assert main(["-q", "train", "--recipe", "carafe", "--lang", "es", "--train", str(train), "-o",
                 str(tmp_path / "es"), "--set", "pp=true"]) != 0
