"""The public evaluate() entry point: layout, schemes, labels, bad input."""

import json

import pytest

from notescrub.errors import ConfigError, LabelError
from notescrub.evaluate import SCHEMES, evaluate
from notescrub.evaluate.pairing import PairingError
from notescrub.types import Document, Span

TEXT = "Zyxwvut Quorble seen by Dr. Ann Lee on 2019-03-04 at Mercy Hospital."


def span(sub, label):
    i = TEXT.index(sub)
    return Span(i, i + len(sub), label)


GOLD = [
    Document("n1", TEXT, patient_id="P1", layers={"gold": [
        span("Zyxwvut Quorble", "PATIENT"), span("Ann Lee", "DOCTOR"), span("2019-03-04", "DATE"),
        span("Mercy Hospital", "HOSPITAL")]}),
    Document("n2", TEXT, patient_id="P2", layers={"gold": [span("2019-03-04", "DATE")]}),
]
PRED = [
    Document("n1", TEXT, layers={"sys": [
        span("Zyxwvut Quorble", "PATIENT"), span("Ann Lee", "PATIENT"), span("2019-03-0", "DATE")]}),
    Document("n2", TEXT, layers={"sys": [span("2019-03-04", "DATE")]}),
]


@pytest.fixture(scope="module")
def result():
    return evaluate(GOLD, PRED, pred_layer="sys")


def test_documented_layout(result):
    sec = result["i2b2_2014"]
    for m in ("strict", "relaxed", "token", "hipaa_strict", "hipaa_relaxed", "hipaa_token",
              "binary_strict", "binary_token"):
        for avg in ("micro", "macro"):
            assert {"precision", "recall", "f1"} <= set(sec[m][avg])
    for key in ("scheme", "labels", "compat_official", "documents", "spans", "headline", "error_analysis", "notes"):
        assert key in result
    assert result["notescrub_evaluation"] == 1
    json.dumps(result)  # JSON-ready


def test_hand_computed_numbers(result):
    strict = result["i2b2_2014"]["strict"]["micro"]
    # n1: PATIENT ok; DOCTOR typed PATIENT (fp+fn); DATE end 1 short (fp+fn); HOSPITAL missed. n2: DATE ok
    assert (strict["tp"], strict["fp"], strict["fn"]) == (2, 2, 3)
    relaxed = result["i2b2_2014"]["relaxed"]["micro"]
    assert (relaxed["tp"], relaxed["fp"], relaxed["fn"]) == (3, 1, 2)
    # HIPAA keeps PATIENT and DATE: the DOCTOR predicted as PATIENT becomes a HIPAA FP,
    # the gold DOCTOR is filtered out, the short DATE is FP + FN
    hipaa = result["i2b2_2014"]["hipaa_strict"]["micro"]
    assert (hipaa["tp"], hipaa["fp"], hipaa["fn"]) == (2, 2, 1)
    assert result["headline"]["measure"] == "i2b2_2014.strict.micro"
    assert result["headline"]["f1"] == pytest.approx(strict["f1"])
    lo, hi = result["headline"]["f1_ci95"]
    assert 0.0 <= lo <= hi <= 1.0
    t = result["error_analysis"]["totals"]
    assert (t["correct"], t["type"], t["extent_short"], t["missing"]) == (2, 1, 1, 1)


def test_no_note_text_in_result(result):
    assert "Zyxwvut" not in json.dumps(result) and "Quorble" not in json.dumps(result)


def test_missing_document_counted_or_skipped():
    r = evaluate(GOLD, PRED[:1], pred_layer="sys", bootstrap_resamples=0)
    assert r["documents"]["missing_predictions"] == 1 and r["documents"]["missing_ids"] == ["n2"]
    assert r["i2b2_2014"]["strict"]["micro"]["fn"] == 4
    assert any("scored as empty" in n for n in r["notes"])
    rc = evaluate(GOLD, PRED[:1], pred_layer="sys", compat_official=True, bootstrap_resamples=0)
    assert rc["documents"]["skipped_missing"] == 1 and rc["documents"]["scored"] == 1
    assert rc["i2b2_2014"]["strict"]["micro"]["fn"] == 3


def test_every_scheme_runs_and_names_its_section():
    sections = {"i2b2-2014": "i2b2_2014", "meddocan": "meddocan", "i2b2-2006": "i2b2_2006", "binary": "binary"}
    for scheme in SCHEMES:
        labels = "canonical" if scheme == "meddocan" else None
        r = evaluate(GOLD, GOLD, scheme=scheme, labels=labels, bootstrap_resamples=0)
        assert sections[scheme] in r and r["headline"]["f1"] == 1.0


def test_default_labels_per_scheme():
    assert evaluate(GOLD, GOLD, bootstrap_resamples=0)["labels"] == "canonical"
    assert evaluate(GOLD, GOLD, scheme="i2b2-2006", bootstrap_resamples=0)["labels"] == "native"
    # MEDDOCAN compares native MEDDOCAN labels: English labels are refused with a hint
    with pytest.raises(LabelError, match="--labels canonical"):
        evaluate(GOLD, GOLD, scheme="meddocan")


def test_canonical_labels_bridge_schemes():
    spanish = [Document("n2", TEXT, layers={"gold": [span("2019-03-04", "FECHAS")]})]
    english = [Document("n2", TEXT, layers={"gold": [span("2019-03-04", "DATE")]})]
    r = evaluate(spanish, english, bootstrap_resamples=0)
    assert r["i2b2_2014"]["strict"]["micro"]["f1"] == 1.0
    r = evaluate(spanish, english, labels="native", scheme="i2b2-2006", bootstrap_resamples=0)
    assert r["i2b2_2006"]["phrase"]["micro"]["f1"] == 0.0


def test_unscored_spans_reported():
    g = [Document("a", "H varon", layers={"gold": [Span(0, 1, "SEXO_SUJETO_ASISTENCIA")]})]
    r = evaluate(g, g, bootstrap_resamples=0)
    assert r["spans"]["unscored"]["gold"] == {"SEXO_SUJETO_ASISTENCIA": 1} and r["spans"]["gold"] == 0


def test_bad_arguments():
    with pytest.raises(ConfigError):
        evaluate(GOLD, GOLD, scheme="muc7")
    with pytest.raises(ConfigError):
        evaluate(GOLD, GOLD, labels="fancy")
    with pytest.raises(PairingError):
        evaluate(GOLD, [Document("n1", TEXT + " ")])
    with pytest.raises(LabelError, match="'n9'"):
        evaluate([Document("n9", TEXT, layers={"gold": [Span(0, 3, "NOPE")]})], [Document("n9", TEXT)])


def test_compare_systems_paired():
    from notescrub.evaluate.compare import compare_systems

    worse = [Document("n1", TEXT, layers={"gold": [span("Zyxwvut Quorble", "PATIENT")]}), GOLD[1]]
    c = compare_systems(GOLD, GOLD, worse, n_resamples=200)
    # a is perfect; b finds 2 of 5 gold spans: P 1, R .4, F .5714
    assert c["a"]["f1"] == 1.0 and c["b"]["f1"] == pytest.approx(2 * 0.4 / 1.4)
    assert c["f1_difference"]["estimate"] == pytest.approx(1 - 2 * 0.4 / 1.4)
    z = c["z_tests"]["phi_f1"]
    # PHI tokens in gold: n1 Zyxwvut Quorble Ann Lee 2019 - 03 - 04 Mercy Hospital (11), n2 2019 - 03 - 04 (5)
    assert z["n"] == 16 and z["f1_a"] == 1.0 and z["z"] > 0
    same = compare_systems(GOLD, GOLD, GOLD, n_resamples=50)
    assert same["f1_difference"]["estimate"] == 0.0 and same["z_tests"]["phi_f1"]["z"] == 0.0
