"""Hand-computed i2b2 2006 / Wellner / Stat De-id figures.

Text "Dr. Ruiz at Mercy Hospital." has 7 tokens: Dr . Ruiz at Mercy Hospital .
gold: DOCTOR Ruiz, HOSPITAL "Mercy Hospital"; prediction: PATIENT Ruiz, HOSPITAL Mercy.
"""

import pytest

from notescrub.evaluate.i2b2_2006 import muc_counts, score

from .helpers import at

TEXT = "Dr. Ruiz at Mercy Hospital."
GOLD = [at(TEXT, "Ruiz", "DOCTOR"), at(TEXT, "Mercy Hospital", "HOSPITAL")]
PRED = [at(TEXT, "Ruiz", "PATIENT"), at(TEXT, "Mercy", "HOSPITAL")]


def counts(d):
    return d["tp"], d["fp"], d["fn"]


@pytest.fixture(scope="module")
def result():
    return score([("d", TEXT, GOLD, PRED)])


def test_token_level(result):
    t = result["token"]
    assert counts(t["by_type"]["DOCTOR"]) == (0, 0, 1)
    assert counts(t["by_type"]["HOSPITAL"]) == (1, 0, 1)
    assert counts(t["by_type"]["PATIENT"]) == (0, 1, 0)
    assert counts(t["micro"]) == (1, 1, 2)  # the mistyped token is an FP and an FN
    assert t["micro"]["precision"] == 0.5 and t["micro"]["f1"] == pytest.approx(0.4)


def test_phrase_level(result):
    assert counts(result["phrase"]["micro"]) == (0, 2, 2)
    assert counts(result["phrase"]["by_type"]["HOSPITAL"]) == (0, 1, 1)


def test_muc_partial_credit(result):
    m = result["muc"]
    # Ruiz: TEXT right, TYPE wrong; Mercy: TYPE right, TEXT wrong -> 2 of 4 slots
    assert (m["correct"], m["possible"], m["actual"]) == (2, 4, 4)
    assert m["precision"] == 0.5 and m["recall"] == 0.5 and m["f1"] == 0.5
    assert m["slots"]["type"] == {"correct": 1, "incorrect": 1, "missing": 0, "spurious": 0}
    assert m["slots"]["text"] == {"correct": 1, "incorrect": 1, "missing": 0, "spurious": 0}


def test_muc_missing_and_spurious():
    text = "Ann saw Bob on 3/4 in Rome."
    gold = [at(text, "Ann", "PATIENT"), at(text, "3/4", "DATE"), at(text, "Rome", "LOCATION")]
    pred = [at(text, "Ann", "PATIENT"), at(text, "Bob", "DOCTOR"), at(text, "3/4", "DATE")]
    m = muc_counts([("d", text, gold, pred)])
    # Ann 2 slots + 3/4 2 slots correct; Rome missing both; Bob spurious both
    assert (m["correct"], m["possible"], m["actual"]) == (4, 6, 6)
    assert m["slots"]["type"]["missing"] == 1 and m["slots"]["text"]["spurious"] == 1
    assert m["precision"] == pytest.approx(4 / 6)


def test_binary_both_classes(result):
    b = result["binary"]
    # PHI tokens: gold Ruiz Mercy Hospital, predicted Ruiz Mercy
    assert counts(b["phi"]) == (2, 0, 1)
    # non-PHI: Dr . at . on both sides; Hospital predicted non-PHI but gold PHI
    assert counts(b["non_phi"]) == (4, 1, 0)
    assert b["non_phi"]["precision"] == pytest.approx(0.8)
    assert b["tokens"] == 7


def test_weighted_token_f_with_true_negatives(result):
    w = result["weighted_token_f_with_true_negatives"]
    # supports DOCTOR 1 (F 0), HOSPITAL 2 (F 2/3), PATIENT 0, non-PHI 4 (P .8 R 1 -> F 8/9)
    assert w["f1"] == pytest.approx((2 * 2 / 3 + 4 * 8 / 9) / 7)
    assert w["tokens"] == 7
    assert "true negatives" in w["note"]


def test_perfect_and_empty():
    r = score([("d", TEXT, GOLD, GOLD)])
    assert r["token"]["micro"]["f1"] == 1.0 and r["muc"]["f1"] == 1.0
    assert r["weighted_token_f_with_true_negatives"]["f1"] == 1.0
    r = score([("d", TEXT, [], [])])
    assert r["token"]["micro"]["f1"] == 0.0 and r["muc"]["f1"] == 0.0
    # only non-PHI tokens, all right
    assert r["weighted_token_f_with_true_negatives"]["f1"] == 1.0
    assert r["binary"]["non_phi"]["f1"] == 1.0 and r["binary"]["phi"]["f1"] == 0.0
