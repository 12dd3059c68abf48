"""Tests of the Manchester hybrid recipe on tiny synthetic corpora (seconds) and a MEDDOCAN sample."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from notescrub.cli.main import main
from notescrub.errors import ConfigError, ModelError
from notescrub.recipes import get_recipe
from notescrub.recipes.manchester import ManchesterRecipe, group_of
from notescrub.registry import load_model
from notescrub.types import Document, Span

_FIRST = ["Adaeze", "Brannoc", "Celestyn", "Dovrik", "Eulalie", "Fenwick", "Gwendys", "Horatia"]
_LAST = ["Qolvanek", "Brisbee", "Tarnow", "Okafor", "Lindqvist", "Marchetti", "Osei", "Ferreira"]
_HOSP = ["Halvorsen Memorial Hospital", "Quillan General Hospital", "Ostrander Medical Center"]
_CITY = ["Boston", "Denver", "Portland", "Albany"]
_PROF = ["plumber", "teacher", "carpenter", "accountant"]


def _span(text: str, surface: str, label: str, start: int = 0) -> Span:
    i = text.index(surface, start)
    return Span(i, i + len(surface), label)


def english(n_patients: int, seed: int = 0) -> list[Document]:
    """Two notes per patient; the second names the patient by surname only."""
    rnd = random.Random(seed)
    docs = []
    for p in range(n_patients):
        first, last = rnd.choice(_FIRST), rnd.choice(_LAST)
        hosp, city, prof = rnd.choice(_HOSP), rnd.choice(_CITY), rnd.choice(_PROF)
        doc_last = rnd.choice([x for x in _LAST if x != last])
        m, d = rnd.randint(1, 12), rnd.randint(10, 28)
        t1 = (f"{first} {last} is a {rnd.randint(30, 89)} yo man admitted to {hosp} on {m:02d}/{d}/2091.\n"
              f"He lives in {city} and works as a {prof}.\nSeen by Dr. {doc_last}.")
        s1 = [_span(t1, f"{first} {last}", "PATIENT"), _span(t1, hosp, "HOSPITAL"),
              _span(t1, f"{m:02d}/{d}/2091", "DATE"), _span(t1, city, "CITY"), _span(t1, prof, "PROFESSION"),
              _span(t1, doc_last, "DOCTOR", t1.index("Dr."))]
        age = t1.split(" is a ")[1].split(" ")[0]
        s1.append(_span(t1, age, "AGE", t1.index(" is a ")))
        t2 = f"{last} returns on {m:02d}/{d + 1}/2091 feeling better.\nBP 120/80. Plan per Dr. {doc_last}."
        s2 = [_span(t2, last, "PATIENT"), _span(t2, f"{m:02d}/{d + 1}/2091", "DATE"),
              _span(t2, doc_last, "DOCTOR", t2.index("Dr."))]
        docs.append(Document(f"p{p}-1", t1, f"P{p}", layers={"gold": s1}))
        docs.append(Document(f"p{p}-2", t2, f"P{p}", layers={"gold": s2}))
    return docs


def spanish(n: int, seed: int = 0) -> list[Document]:
    """MEDDOCAN-style native labels, no Spanish rules needed."""
    rnd = random.Random(seed)
    docs = []
    for i in range(n):
        first, last, city = rnd.choice(_FIRST), rnd.choice(_LAST), rnd.choice(["Madrid", "Sevilla", "Lugo"])
        sex = rnd.choice(["Varón", "Mujer"])
        text = (f"Nombre: {first} {last}.\nSexo: {sex}.\nFecha de ingreso: {rnd.randint(10, 28)}/03/2019.\n"
                f"Domicilio en {city}.")
        date = text.split("ingreso: ")[1].split(".")[0]
        spans = [_span(text, f"{first} {last}", "NOMBRE_SUJETO_ASISTENCIA"), _span(text, sex, "SEXO_SUJETO_ASISTENCIA"),
                 _span(text, date, "FECHAS"), _span(text, city, "TERRITORIO")]
        docs.append(Document(f"e{i}", text, None, layers={"gold": spans}))
    return docs


@pytest.fixture(scope="module")
def fitted() -> ManchesterRecipe:
    return ManchesterRecipe(max_iterations=25, n_jobs=1).fit(english(14))


def test_group_of():
    assert [group_of(x) for x in ("FECHAS", "DATE", "CENTRO_SALUD", "OTROS_SUJETO_ASISTENCIA")] == \
        ["DATE", "DATE", "HOSPITAL", "OTROS_SUJETO_ASISTENCIA"]


def test_plan_follows_the_paper(fitted: ManchesterRecipe):
    plan = fitted.plan_
    # dates are well covered by the rules: knowledge only at the precision point, CRF added for recall and F1
    assert "rules" in plan["DATE"]["knowledge"] and plan["DATE"]["ml"] == "crf_date"
    assert plan["DATE"]["sources"]["precision"] == plan["DATE"]["knowledge"]
    assert "crf_date" in plan["DATE"]["sources"]["recall"] and "crf_date" in plan["DATE"]["sources"]["f1"]
    # Doctor's CRF only at the recall point (when the rules are usable for it)
    if plan["DOCTOR"]["knowledge"]:
        assert "crf_doctor" not in plan["DOCTOR"]["sources"]["f1"]
        assert "crf_doctor" in plan["DOCTOR"]["sources"]["recall"]
    # City, Hospital, Profession: CRF in every preset
    for g in ("CITY", "HOSPITAL", "PROFESSION"):
        assert all(plan[g]["ml"] in plan[g]["sources"][p] for p in ("precision", "recall", "f1"))
    # Age has no per-type CRF; with usable rules there is no residual CRF for it
    assert plan["AGE"]["ml"] in (None, "crf_rest")
    assert (plan["AGE"]["ml"] is None) == bool(plan["AGE"]["knowledge"])


def test_presets_differ_as_planned(fitted: ManchesterRecipe):
    presets = fitted.model_.presets
    assert presets["precision"]["components"]["crf_date"]["enabled"] is False
    assert presets["recall"]["components"]["crf_date"]["enabled"] is True
    assert presets["recall"]["resolver"]["name"] == "cover"
    names = [d.name for d in fitted.pipeline("precision").detectors]
    assert "crf_date" not in names and names[-1] == "two_pass"
    assert "two_pass" not in [d.name for d in fitted.pipeline("f1", second_pass=False).detectors]


def test_detects_and_round_trips(tmp_path: Path, fitted: ManchesterRecipe):
    test = english(4, seed=99)
    pred = [[(s.start, s.end, s.label) for s in fitted.detect(d)] for d in test]
    gold = [{(s.start, s.end, s.label) for s in d.layer("gold")} for d in test]
    tp = sum(len(set(p) & g) for p, g in zip(pred, gold))
    assert tp / sum(len(g) for g in gold) > 0.6  # a real signal even from 28 tiny notes
    out = fitted.save(tmp_path / "m")
    meta = json.loads((out / "model.json").read_text(encoding="utf-8"))
    assert meta["kind"] == "hybrid" and meta["default_preset"] == "f1"
    assert meta["training"]["plan"]["DATE"]["ml"] == "crf_date"
    loaded = load_model(out)
    again = [[(s.start, s.end, s.label) for s in loaded(d.copy(layers=False)).layer("phi")] for d in test]
    assert again == pred
    assert set(fitted.types_) >= {"DATE", "PATIENT", "DOCTOR", "SSN"}  # rule types beyond the training labels


def test_second_pass_uses_the_other_notes_of_the_patient(fitted: ManchesterRecipe):
    notes = [d.copy(layers=False) for d in english(1, seed=7)]
    with_two = fitted.pipeline("f1").pipe(notes)
    two_pass_spans = [s for d in with_two for s in d.layer("two_pass")]
    assert all(s.label in ("PATIENT", "DOCTOR", "CITY", "HOSPITAL") for s in two_pass_spans)


def test_native_labels_stay_native():
    train = spanish(16)
    r = get_recipe("manchester")(lang="es", max_iterations=20, n_jobs=1).fit(train)
    assert r.types_ == sorted({"NOMBRE_SUJETO_ASISTENCIA", "SEXO_SUJETO_ASISTENCIA", "FECHAS", "TERRITORIO"})
    assert r.plan_["SEXO_SUJETO_ASISTENCIA"]["ml"] == "crf_rest"  # no subtype, no rules: residual CRF
    assert r.plan_["CITY"]["labels"] == ["TERRITORIO"]
    rules = next(c for c in r.model_.components if c.name == "rules")
    assert rules.options["relabel"]["DATE"] == "FECHAS"
    labels = {s.label for d in spanish(4, seed=3) for s in r.detect(d)}
    assert labels and labels <= set(r.types_)


def test_bad_parameters():
    with pytest.raises(ConfigError, match="unknown preset"):
        ManchesterRecipe(preset="best").fit(english(2))
    with pytest.raises(ConfigError, match="min_precision"):
        ManchesterRecipe(min_precision=2).fit(english(2))
    with pytest.raises(ModelError, match="no annotated spans"):
        ManchesterRecipe().fit([Document("a", "nothing here")])
    with pytest.raises(ModelError, match="not fitted"):
        ManchesterRecipe().detect(Document("a", "x"))


def _jsonl(path: Path, docs: list[Document], spans: bool = True) -> Path:
    with open(path, "w", encoding="utf-8") as fh:
        for d in docs:
            rec = {"id": d.id, "patient": d.patient_id, "text": d.text}
            if spans:
                rec["spans"] = [{"start": s.start, "end": s.end, "type": s.label} for s in d.layer("gold")]
            fh.write(json.dumps(rec) + "\n")
    return path


def test_cli_train_and_annotate_with_presets(tmp_path: Path):
    train = _jsonl(tmp_path / "train.jsonl", english(10))
    raw = _jsonl(tmp_path / "raw.jsonl", english(3, seed=5), spans=False)
    model = tmp_path / "model"
    rc = main(["-q", "train", "--recipe", "manchester", "--train", str(train), "-o", str(model),
               "--set", "max_iterations=15", "--set", "n_jobs=1", "--name", "tiny-manchester"])
    assert rc == 0
    meta = json.loads((model / "model.json").read_text(encoding="utf-8"))
    assert meta["recipe"] == "manchester" and meta["model_name"] == "tiny-manchester"
    counts = {}
    for preset in ("precision", "f1", "recall"):
        out = tmp_path / f"{preset}.jsonl"
        assert main(["-q", "annotate", str(raw), "-o", str(out), "--model", str(model), "--preset", preset]) == 0
        recs = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
        assert len(recs) == 6 and all("text" not in r for r in recs)
        counts[preset] = sum(len(r["spans"]) for r in recs)
    assert counts["precision"] <= counts["recall"]
    assert main(["-q", "annotate", str(raw), "-o", str(tmp_path / "x.jsonl"), "--model", str(model),
                 "--preset", "nope"]) == 2


@pytest.mark.slow
def test_meddocan_sample(meddocan_dir: Path):
    from notescrub.evaluate import evaluate
    from notescrub.io import read_corpus

    train = list(read_corpus(meddocan_dir / "train" / "brat"))[:20]
    dev = list(read_corpus(meddocan_dir / "dev" / "brat"))[:8]
    r = ManchesterRecipe(lang="es", max_iterations=10, n_jobs=1).fit(train)
    preds = []
    for d in dev:
        p = d.copy(layers=False)
        p.add_layer("gold", r.detect(p))
        preds.append(p)
    res = evaluate(dev, preds, scheme="meddocan", bootstrap_resamples=0)  # refuses non-MEDDOCAN labels
    assert res["meddocan"]["subtask1"]["f1"] > 0.5


@pytest.mark.parametrize("text, spans, share", [
    ("28035 Madrid, Spain", [(0, 5), (6, 12)], 0.5),        # touching (whitespace only): IO would merge them
    ("Madrid, Spain", [(0, 6), (8, 13)], 0.0),              # a comma between: IO keeps them apart
    ("Madrid", [(0, 6)], 0.0),
])
def test_adjacency_share(text, spans, share):
    from notescrub.recipes.manchester import adjacency_share

    doc = Document("a", text, layers={"gold": [Span(a, b, "TERRITORIO") for a, b in spans]})
    assert adjacency_share([doc], "gold", ["TERRITORIO"]) == share
    assert adjacency_share([doc], "gold", ["FECHAS"]) == 0.0


def _with_zip(d: Document) -> Document:
    """Insert "28001 " before the city: two touching TERRITORIO spans."""
    i = d.text.index("Domicilio en ") + len("Domicilio en ")
    gold = [s.with_(start=s.start + 6, end=s.end + 6) if s.start >= i else s for s in d.layer("gold")]
    return Document(d.id, d.text[:i] + "28001 " + d.text[i:], None,
                    layers={"gold": [*gold, Span(i, i + 5, "TERRITORIO")]})


def test_scheme_is_io_unless_spans_touch():
    docs = [_with_zip(d) if k < 4 else d for k, d in enumerate(spanish(12))]
    r = ManchesterRecipe(lang="es", max_iterations=10, n_jobs=1).fit(docs)
    assert r.schemes_["crf_city"] == "BIO" and r.schemes_["crf_date"] == "IO"
    assert r.training_["schemes"] == r.schemes_
    with pytest.raises(ConfigError, match="scheme"):
        ManchesterRecipe(scheme="BILOU").fit(docs)


@pytest.mark.parametrize(("text", "surface", "label", "kept"), [
    ("Seen Mr. Foley today.", "Foley", "PATIENT", True),
    ("Foley, John was admitted.", "Foley", "PATIENT", True),
    ("Seen with John A. Foley today.", "Foley", "PATIENT", True),
    ("Dr. Foley reviewed the chart.", "Foley", "DOCTOR", True),
    ("Sra. Foley ingresa hoy.", "Foley", "PATIENT", True),
    ("He has a Foley catheter.", "Foley", "PATIENT", False),
    ("Foley catheter removed.", "Foley", "PATIENT", False),
    ("Mr. Foley catheter check.", "Foley", "PATIENT", False),   # the eponym rule still applies
    ("Meds: Lasix, Coumadin, aspirin.", "Lasix", "PATIENT", False),
    ("Pt stable. Started Lasix today.", "Lasix", "PATIENT", False),
    ("Transferred to ICU today.", "ICU", "HOSPITAL", False),
])
def test_post_rules_keep_surnames_that_are_medical_terms(fitted: ManchesterRecipe, text: str, surface: str,
                                                         label: str, kept: bool):
    # the Manchester CRFs' post-processing drops names made of medical terms ('Lasix'), but not a
    # patient called Foley when a title, a first name or 'Surname, First' shows it is a person
    post = next(d for d in fitted.pipeline().detectors if d.name == "crf_patient").post
    i = text.index(surface)
    out = post.apply(Document("x", text), [Span(i, i + len(surface), label, 0.9, "crf_patient")])
    assert bool(out) is kept


def test_rules_component_loads_only_the_rules_it_serves(fitted: ManchesterRecipe):
    # English (i2b2 scheme): every rule type is kept, so every rule is loaded
    rules = next(c for c in fitted.model_.components if c.kind == "rules")
    assert "labels" not in rules.options
    # a foreign scheme: only the rules of the types some preset takes from the rules component
    train = []
    for i, d in enumerate(spanish(16)):  # e-mail addresses the English rules find: usable for EMAIL
        text = d.text + (" Correo: ana.lopez@hospital.es" if i < 12 else "")
        spans = list(d.layer("gold")) + ([Span(len(text) - 21, len(text), "CORREO_ELECTRONICO")] if i < 12 else [])
        train.append(Document(d.id, text, None, layers={"gold": spans}))
    r = get_recipe("manchester")(lang="es", max_iterations=10, n_jobs=1).fit(train)
    rules = next(c for c in r.model_.components if c.kind == "rules")
    served = {t for p in r.model_.presets.values() for t in p["components"]["rules"]["types"]}
    assert served and rules.options["labels"] == sorted(served)
    doc = Document("x", "Nombre: Dovrik Osei. Correo: dovrik@clinica.es")
    assert ("dovrik@clinica.es", "CORREO_ELECTRONICO") in [
        (doc.span_text(s), s.label) for s in r.pipeline(second_pass=False)(doc).layer("rules")]


def test_second_pass_adds_a_span_the_first_pass_missed_on_a_later_note(fitted: ManchesterRecipe):
    # the first note names the patient with cues; the later note only by surname, mid-sentence
    t1 = "Adaeze Zarvinsky is a 45 yo man admitted to Quillan General Hospital on 03/14/2091.\nSeen by Dr. Brisbee."
    t2 = "Diet was advanced today and the daughter says Zarvinsky ate well.\nBP 120/80."

    def later_note(second_pass: bool) -> list[tuple[str, str]]:
        notes = [Document("z-1", t1, "PZ"), Document("z-2", t2, "PZ")]
        out = {d.id: d for d in fitted.pipeline("f1", second_pass=second_pass).pipe(notes)}
        return [(t2[s.start:s.end], s.label) for s in out["z-2"].layer("phi")]

    assert ("Zarvinsky", "PATIENT") not in later_note(False)
    assert ("Zarvinsky", "PATIENT") in later_note(True)
    # the harvest is per patient: the same later note of another patient gains nothing
    alone = fitted.pipeline("f1").pipe([Document("y-2", t2, "PY")])
    assert not [s for d in alone for s in d.layer("phi") if t2[s.start:s.end] == "Zarvinsky"]


def test_default_priority_follows_the_paper(fitted: ManchesterRecipe):
    from notescrub.detect.spans.resolve import Priority
    from notescrub.recipes.manchester import DEFAULT_PRIORITY

    order = list(DEFAULT_PRIORITY)
    # Dehghan et al., section 2.5: Doctor preferred over Patient, Age over Date
    assert order.index("DOCTOR") < order.index("PATIENT") and order.index("AGE") < order.index("DATE")
    # a facility wins over the person name it contains
    assert order.index("HOSPITAL") < order.index("PATIENT") and order.index("HOSPITAL") < order.index("DOCTOR")
    resolver = fitted._fitted().resolver
    assert resolver["name"] == "priority" and resolver["order"][:len(order)] == order
    pick = Priority(resolver["order"])
    assert [s.label for s in pick([Span(0, 5, "PATIENT"), Span(0, 5, "DOCTOR")])] == ["DOCTOR"]
    assert [s.label for s in pick([Span(0, 4, "DATE"), Span(0, 4, "AGE")])] == ["AGE"]
    assert [s.label for s in pick([Span(0, 16, "HOSPITAL"), Span(0, 6, "PATIENT")])] == ["HOSPITAL"]
