"""en-default's recipe: its training set receives added (reviewed) notes; a tiny build trains and loads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.assemble import build
from notescrub.cli.main import main
from notescrub.errors import ConfigError
from notescrub.recipes import get_recipe
from notescrub.recipes.en_default import EnDefaultTrainer
from notescrub.types import Document, Span

WRITER_NOTE = ('Seen by Dr. <PHI TYPE="DOCTOR">Hallworth</PHI> on <PHI TYPE="DATE">3/18/2024</PHI> at '
               '<PHI TYPE="HOSPITAL">Kestrel Valley Hospital</PHI>. Call <PHI TYPE="PHONE">555-201-3344</PHI>.\n')

ROOT = Path(__file__).resolve().parents[2]


def _script(name: str, folder: str = "scripts"):
    """The module of ``<folder>/<name>.py`` (scripts and benchmarks are not packages)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _result(name: str) -> dict:
    """The committed report ``benchmarks/results/<name>.json``."""
    return json.loads((ROOT / "benchmarks" / "results" / f"{name}.json").read_text(encoding="utf-8"))


def _sources(root: Path) -> tuple[Path, Path]:
    """A two-note writers' folder and a two-note en-dev file (fictional)."""
    writers = root / "writers"
    (writers / "w01").mkdir(parents=True)
    for i in (1, 2):
        (writers / "w01" / f"P90{i}-1.txt").write_text(WRITER_NOTE.replace("Hallworth", f"Hallworth{i}"))
    en_dev = root / "en-dev.jsonl"
    with open(en_dev, "w") as fh:
        for i in (1, 2):
            text = f"Mr. Pendleford{i} was seen on 04/0{i}/2024."
            fh.write(json.dumps({"id": f"d{i}", "patient": f"P{i}", "text": text, "spans": [
                {"start": 4, "end": 4 + len(f"Pendleford{i}"), "type": "PATIENT"},
                {"start": text.index("04/"), "end": text.index("04/") + 10, "type": "DATE"}]}) + "\n")
    return writers, en_dev


def _added() -> list[Document]:
    text = "Reviewed: the patient drives truck plate KLT-4471 to dialysis."
    start = text.index("KLT")
    return [Document(f"r{i}", text, layers={"gold": [Span(start, start + 8, "VEHICLE")]}) for i in range(3)]


def test_training_set_receives_the_added_notes(tmp_path):
    writers, en_dev = _sources(tmp_path)
    trainer = EnDefaultTrainer(synth_patients=0, recase=False, writers=writers, en_dev=en_dev)
    base, data = trainer.training_documents()
    docs, data_added = trainer.training_documents(_added())
    assert len(docs) == len(base) + 3 and [d.id for d in docs[-3:]] == ["r0", "r1", "r2"]
    assert data_added["added_notes"] == 3 and data_added["added_spans"] == 3 and "added_notes" not in data
    # the rest of the recipe is unchanged: 2 en-dev notes, 2 x 2 re-populated copies, 2 writers' notes
    assert (data["en_dev_notes"], data["repopulated_notes"], data["writer_notes"]) == (2, 4, 2)
    assert len(base) == 2 + 4 + 2


def test_repopulated_writer_copies_are_added_on_request(tmp_path):
    writers, en_dev = _sources(tmp_path)
    docs, data = EnDefaultTrainer(synth_patients=0, recase=False, writers=writers, en_dev=en_dev,
                                  repopulate_writers=1.0).training_documents()
    assert data["repopulated_writer_notes"] == 2 and len(docs) == 2 + 4 + 2 + 2
    copies = [d for d in docs if d.metadata.get("writer") and d.metadata.get("repopulated")]
    assert len(copies) == 2 and all("Hallworth" not in d.text for d in copies)
    assert all(len(d.layer("gold")) == 4 for d in copies)  # the same PHI, new values
    none, data0 = EnDefaultTrainer(synth_patients=0, recase=False, writers=writers,
                                   en_dev=en_dev).training_documents()
    assert data0["repopulated_writer_notes"] == 0 and len(none) == 8
    with pytest.raises(ConfigError, match="repopulate_writers"):
        EnDefaultTrainer(writers=writers, en_dev=en_dev, repopulate_writers=1.5).training_documents()


def test_missing_en_dev_is_named(tmp_path):
    trainer = EnDefaultTrainer(en_dev=tmp_path / "none.jsonl", writers=tmp_path)
    with pytest.raises(ConfigError, match="en-dev notes of the en-default recipe"):
        trainer.training_documents()


@pytest.mark.slow
def test_min_freq_drops_rare_features_and_is_recorded(tmp_path):
    writers, en_dev = _sources(tmp_path)
    sizes = {}
    for n in (1, 3):
        trainer = EnDefaultTrainer(synth_patients=0, recase=False, writers=writers, en_dev=en_dev, iterations=5,
                                   min_freq=n).fit()
        assert trainer.crf_.training_["crfsuite"]["feature.minfreq"] == float(n)
        sizes[n] = len(trainer.crf_.model_bytes_)
        meta = json.loads((trainer.save(tmp_path / f"m{n}") / "model.json").read_text())
        assert meta["training"]["min_freq"] == n
    assert sizes[3] < sizes[1]  # features seen once or twice in 8 notes are gone
    with pytest.raises(ConfigError, match="min_freq"):
        EnDefaultTrainer(min_freq=0)


def test_registered_as_a_recipe():
    assert isinstance(get_recipe("en-default")(lang="en", iterations=3), EnDefaultTrainer)


@pytest.mark.slow
def test_train_cli_en_default_with_added_notes(tmp_path):
    writers, en_dev = _sources(tmp_path)
    added = tmp_path / "reviewed.jsonl"
    with open(added, "w") as fh:
        for d in _added():
            s = d.layer("gold")[0]
            fh.write(json.dumps({"id": d.id, "text": d.text, "spans": [
                {"start": s.start, "end": s.end, "type": s.label}]}) + "\n")
    out = tmp_path / "model"
    rc = main(["-q", "train", "--recipe", "en-default", "--add", str(added), "-o", str(out),
               "--set", f"en_dev={en_dev}", "--set", f"writers={writers}", "--set", "synth_patients=0",
               "--set", "recase=false", "--set", "iterations=5"])
    assert rc == 0
    meta = json.loads((out / "model.json").read_text())
    assert meta["recipe"] == "en-default" and meta["data"]["added_notes"] == 3
    assert meta["training"]["documents"] == 2 + 4 + 2 + 3
    crf = json.loads((out / "crf" / "model.json").read_text())
    assert "VEHICLE" in crf["labels"]  # the label only the added notes carry was learned
    pipe = build(str(out), "max-recall")
    doc = pipe(Document("t", "Seen by Dr. Hallworth1 on 3/18/2024."))
    assert any(s.phi == "DATE" for s in doc.layer("phi"))


def test_recipe_post_rules_are_the_shipped_models():
    """`train --recipe en-default` must build the post-processing the shipped model runs."""
    from importlib import resources

    from notescrub.recipes.en_default import POST_RULES

    shipped = json.loads(resources.files("notescrub.models").joinpath("en-default", "model.json").read_text("utf-8"))
    post = next(c for c in shipped["components"] if c["name"] == "post")
    assert post["options"]["rules"] == POST_RULES


def test_the_unseen_test_wave_is_kept_out_by_default(tmp_path):
    """scripts/build_en_default.py holds out corpora/en-writers/TEST_WRITERS unless told otherwise."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    mod = _script("build_en_default")
    listed = mod.test_writers()
    assert listed and all((root / "corpora" / "en-writers" / w).is_dir() for w in listed)
    f = tmp_path / "TEST_WRITERS"
    f.write_text("# comment\nw90  # the newest\n\nw91\n", encoding="utf-8")
    assert mod.test_writers(f) == {"w90", "w91"}
    assert mod.test_writers(tmp_path / "absent") == set()


def test_lowo_scores_extra_folders_apart_from_the_pooled_writers(monkeypatch):
    """scripts/lowo_en_default.py reports an --extra folder (the hard negatives) on its own; the
    pooled figures stay those of the writers' notes."""
    mod = _script("lowo_en_default")

    def note(i: int, name: str) -> Document:
        d = Document(f"n{i}", f"Seen by {name} today.")
        d.add_layer("gold", [Span(8, 8 + len(name), "PATIENT")])
        return d

    def found_nothing(model, preset, golds, recall_bias=None):
        preds = []
        for g in golds:
            q = g.copy(layers=False)
            q.add_layer("gold", [])
            preds.append(q)
        return preds

    monkeypatch.setattr(mod, "predict", found_nothing)
    by_writer = {"w01": [note(1, "Ann Lee")], "hn": [note(2, "Bo"), note(3, "Cy")]}
    out = mod.evaluate_model("m", by_writer, ["w01", "hn"], presets=("balanced",), apart=frozenset({"hn"}))
    assert out["hn"]["balanced"]["notes"] == 2 and out["hn"]["balanced"]["leaked_tokens"] == 2
    assert out["pooled"]["balanced"]["notes"] == 1 and out["pooled"]["balanced"]["leaked_tokens"] == 2
    everything = mod.evaluate_model("m", by_writer, ["w01", "hn"], presets=("balanced",))
    assert everything["pooled"]["balanced"]["notes"] == 3


def test_lowo_sweep_scores_each_writer_with_its_model_at_each_bias(monkeypatch):
    """scripts/lowo_en_default.py --sweep: pooled scores per O-bias, each writer's notes run
    through its own model (a fold's, or the one --score model) at recall bias = -O-bias."""
    mod = _script("lowo_en_default")
    calls = []

    def finds_all_below(model, preset, golds, recall_bias=None):
        calls.append((model, recall_bias))
        preds = []
        for g in golds:
            q = g.copy(layers=False)
            q.add_layer("gold", list(g.layer("gold")) if recall_bias > 2 else [])
            preds.append(q)
        return preds

    monkeypatch.setattr(mod, "predict", finds_all_below)
    notes = []
    for i in (1, 2):
        d = Document(f"n{i}", "Seen by Ann Lee today.")
        d.add_layer("gold", [Span(8, 15, "PATIENT")])
        notes.append(d)
    out = mod.sweep({"w01": "fold-a", "w02": "fold-b"}, {"w01": notes[:1], "w02": notes[1:]}, [-1.0, -3.0])
    assert sorted(calls) == [("fold-a", 1.0), ("fold-a", 3.0), ("fold-b", 1.0), ("fold-b", 3.0)]
    assert out["-1.00"]["leaked_tokens"] == 4 and out["-3.00"]["leaked_tokens"] == 0
    assert out["-3.00"]["notes"] == 2


def test_lowo_set_passes_component_options_to_every_model(monkeypatch):
    """scripts/lowo_en_default.py --set two_pass.min_score=0.7 reaches build() as an override."""
    mod = _script("lowo_en_default")
    seen = []

    class NoPipe:
        def pipe(self, docs):
            return iter(docs)

    def fake_build(model, preset, overrides=None, recall_bias=None):
        seen.append(overrides)
        return NoPipe()

    monkeypatch.setattr(mod, "build", fake_build)
    monkeypatch.setattr(mod, "OVERRIDES", {"two_pass": {"min_score": 0.7}})
    mod.predict("m", "high-recall", [Document("n", "x")])
    assert seen == [{"two_pass": {"min_score": 0.7}}]


def test_lowo_hard_negative_halves_need_no_hand_made_folder():
    """--extra hn01-test / hn01-dev are the even / odd-numbered patients of en-hard-negatives/hn01."""

    root = Path(__file__).resolve().parents[2]
    mod = _script("lowo_en_default")
    test, dev = mod.extra_docs(Path("hn01-test")), mod.extra_docs(Path("hn01-dev"))
    assert test and dev and len(test) + len(dev) == len(list((root / "corpora" / "en-hard-negatives" / "hn01").glob("P*.txt")))
    assert all(int(d.patient_id[1:]) % 2 == 0 for d in test) and all(int(d.patient_id[1:]) % 2 == 1 for d in dev)


def test_lowo_leaks_lists_leaks_and_false_positives_of_the_fictional_corpora(monkeypatch, tmp_path) -> None:
    """scripts/lowo_en_default.py --leaks: one row per leaked gold span and per false-positive span
    (with context), written atomically; refused for folders outside the repository's corpora."""
    import json as _json
    import sys as _sys

    mod = _script("lowo_en_default")
    gold = Document("n1", "Seen by Ann Lee at Foley today.")
    gold.add_layer("gold", [Span(8, 15, "PATIENT")])

    def half_right(model, preset, golds, recall_bias=None):
        q = golds[0].copy(layers=False)
        q.add_layer("gold", [Span(12, 15, "PATIENT"), Span(19, 24, "DOCTOR")])
        return [q]

    monkeypatch.setattr(mod, "predict", half_right)
    monkeypatch.setattr(mod, "writer_docs", lambda extra=None, only=None: {"w01": [gold]})
    out, leaks = tmp_path / "scores.json", tmp_path / "leaks.jsonl"
    monkeypatch.setattr(_sys, "argv", ["lowo", "--score", "m", "--writers", "w01", "-o", str(out), "--leaks", str(leaks)])
    mod.main()
    rows = [_json.loads(line) for line in leaks.read_text(encoding="utf-8").splitlines()]
    assert [(r["kind"], r["type"], r["text"], r["tokens"]) for r in rows] == [
        ("LEAK", "PATIENT", "Ann Lee", ["Ann"]), ("FP", "DOCTOR", "Foley", ["Foley"])]
    assert rows[0]["context"] == "Seen by [[Ann Lee]] at Foley today." and rows[0]["model"] == "m"
    monkeypatch.setattr(_sys, "argv", ["lowo", "--score", "m", "--writers", "w01", "--extra", str(tmp_path),
                                       "-o", str(out), "--leaks", str(tmp_path / "other.jsonl")])
    with pytest.raises(SystemExit, match="fictional corpora"):
        mod.main()
    assert not (tmp_path / "other.jsonl").exists()


def test_ner_union_study_adds_only_the_chosen_entity_kinds(monkeypatch) -> None:
    """scripts/ner_union_study.py unites the model's spans with the NER entities of the kinds
    asked for (binary scores then see both), and refuses kinds it does not know."""
    import sys as _sys

    root = Path(__file__).resolve().parents[2]
    monkeypatch.syspath_prepend(str(root / "scripts"))
    mod = _script("ner_union_study")
    gold = Document("n1", "Ann Lee works at Acme Corp in Toledo.")
    gold.add_layer("gold", [Span(0, 7, "PATIENT"), Span(17, 26, "ORGANIZATION"), Span(30, 36, "CITY")])
    pred = gold.copy(layers=False)
    pred.add_layer("gold", [Span(0, 7, "PATIENT")])
    ents = [[(17, 26, "ORG"), (30, 36, "GPE"), (0, 3, "PERSON")]]
    (out,) = mod.united([gold], [pred], ents, {"ORG"})
    assert [(gold.span_text(s), s.label) for s in out.layer("gold")] == [("Ann Lee", "PATIENT"), ("Acme Corp", "ORGANIZATION")]
    monkeypatch.setattr(_sys, "argv", ["ner", "--writers", "w01", "--kinds", "ORG,NORP", "-o", "x.json"])
    with pytest.raises(SystemExit, match="NORP"):
        mod.main()


def test_release_rule_script_reproduces_the_w01_w92_decision() -> None:
    """scripts/release_rule.py applied to the committed w01-w92 choice run gives that release's
    bias (-1.9) and 'ship'; with no point at the shipped precision it says not to ship."""
    mod = _script("release_rule")
    report = _result("en-default-w01-w92-on-w93-w98")
    build = "/work/builds/en-default-w01-w92"
    decision = mod.choose(report, build, "en-default", -1.9)
    assert decision["bias"] == -1.9 and decision["ship"] is True
    worse = json.loads(json.dumps(report))
    for point in [worse["models"][build]["pooled"]["high-recall"], *worse["sweep"][build].values()]:
        point["binary_token"]["precision"] = 0.5
    assert mod.choose(worse, build, "en-default", -1.9) == {
        "bias": None, "ship": False, "point": None, "shipped": report["models"]["en-default"]["pooled"]["high-recall"]}


def test_release_rule_script_reproduces_the_w01_w110_decision() -> None:
    """On the committed w117-w122 choice run the rule picks O-bias -1.8 for the w01-w110 build
    (its -1.9 row loses precision against the w01-w92 release) and says ship; the packaged
    model's high-recall preset carries that bias."""
    mod = _script("release_rule")
    report = _result("en-default-w01-w110-on-w117-w122")
    decision = mod.choose(report, "/work/builds/en-default-w01-w110", "en-default", -1.9)
    assert decision["bias"] == -1.8 and decision["ship"] is True
    assert decision["point"]["leaked_tokens"] < decision["shipped"]["leaked_tokens"]


def test_release_rule_script_reproduces_the_w01_w122_decision() -> None:
    """On the committed w129-w134 choice run the w01-w122 build's most recall at the shipped
    precision is its -1.8 point, which leaks more tokens than the shipped model: not shipped."""
    mod = _script("release_rule")
    report = _result("en-default-w01-w122-on-w129-w134")
    decision = mod.choose(report, "/work/builds/en-default-w01-w122", "en-default", -1.8)
    assert decision["bias"] == -1.8 and decision["ship"] is False
    assert (decision["point"]["leaked_tokens"], decision["shipped"]["leaked_tokens"]) == (273, 267)


def test_release_rule_script_reproduces_the_w01_w128_decision() -> None:
    """On the committed w147-w152 choice run the w01-w128 build (min_freq 3) keeps the w01-w110
    release's precision up to O-bias -1.7 (its -1.8 row loses 0.002), and there it leaks fewer
    tokens: ship at -1.7. The packaged model is that build at that bias."""
    mod = _script("release_rule")
    report = _result("en-default-w01-w128-on-w147-w152")
    build = "/work/builds/en-default-w01-w128-mf3"
    decision = mod.choose(report, build, "en-default", -1.8)
    assert decision["bias"] == -1.7 and decision["ship"] is True
    assert (decision["point"]["leaked_tokens"], decision["shipped"]["leaked_tokens"]) == (239, 249)
    package = ROOT / "src" / "notescrub" / "models" / "en-default"
    assert mod.preset_bias(package) == -1.7
    meta = json.loads((package / "model.json").read_text(encoding="utf-8"))
    assert meta["training"]["documents"] == 6078 and meta["training"]["min_freq"] == 3


def test_lowo_score_reports_extra_folders_without_naming_them_in_writers():
    """--score --writers w111 --extra hn01-test scores the hard negatives too (they used to be
    dropped silently unless also named in --writers)."""
    mod = _script("lowo_en_default")
    assert mod.scored_writers("w111, w112", [Path("x/hn01-test")]) == ["w111", "w112", "hn01-test"]
    assert mod.scored_writers("w111,hn01-test", [Path("hn01-test")]) == ["w111", "hn01-test"]


def test_lowo_reads_only_the_writers_it_is_asked_for(monkeypatch, tmp_path) -> None:
    """writer_docs(only=...) never opens another writer's folder (one may be half written)."""
    mod = _script("lowo_en_default")
    for name, text in (("w01", 'Seen by <PHI TYPE="DOCTOR">Ann Lee</PHI>.'), ("w02", 'Broken <PHI TYPE="DOCTOR">markup')):
        (tmp_path / name).mkdir()
        (tmp_path / name / "P1-1.txt").write_text(text, encoding="utf-8")
    monkeypatch.setattr(mod, "WRITERS", tmp_path)
    monkeypatch.setattr(mod, "EN_DEV", tmp_path / "absent.jsonl")
    docs = mod.writer_docs(only=["w01"])
    assert list(docs) == ["w01"] and [s.label for s in docs["w01"][0].layer("gold")] == ["DOCTOR"]
    with pytest.raises(Exception, match="P1-1"):
        mod.writer_docs()


def test_label_bias_benchmark_finds_the_shipped_crf_and_checks_its_configs() -> None:
    """benchmarks/label_bias.py biases the one CRF tagger of en-default's pipeline (the stacked
    CRF's inner tagger) and refuses a malformed configuration."""
    from notescrub.assemble import build
    from notescrub.detect.crf.tagger import CRFTagger

    mod = _script("label_bias", folder="benchmarks")
    taggers = mod.crf_taggers(build("en-default", "high-recall"))
    assert len(taggers) == 1 and isinstance(taggers[0], CRFTagger) and "PROFESSION" in taggers[0].types_
    assert mod.parse_config('[-1.8, {"ORGANIZATION": 1}]') == (-1.8, {"ORGANIZATION": 1.0})
    with pytest.raises(SystemExit, match="give"):
        mod.parse_config("[-1.8]")
