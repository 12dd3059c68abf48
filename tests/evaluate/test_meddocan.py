"""Hand-computed MEDDOCAN figures."""

import pytest

from notescrub.evaluate.meddocan import merge_spans, score
from notescrub.text.segment import sentences

from .helpers import at, item

TEXT = "Vive en Calle Mayor, 5 de Madrid."
GOLD = [at(TEXT, "Calle Mayor, 5", "CALLE"), at(TEXT, "Madrid", "TERRITORIO")]
PRED = [at(TEXT, "Calle Mayor", "CALLE"), at(TEXT, "5", "CALLE"), at(TEXT, "Madrid", "TERRITORIO")]


def counts(d):
    return d["tp"], d["fp"], d["fn"]


def test_subtasks_hand_computed():
    r = score([("d", TEXT, GOLD, PRED)])
    # subtask 1: Madrid matches; the two CALLE pieces are FPs, the whole CALLE a FN
    assert counts(r["subtask1"]) == (1, 2, 1)
    assert r["subtask1"]["f1"] == pytest.approx(0.4)  # P 1/3, R 1/2
    assert counts(r["subtask2_strict"]) == (1, 2, 1)
    # merged: "Calle Mayor" + ", " + "5" -> the gold extent; "de" blocks merging with Madrid
    assert counts(r["subtask2_merged"]) == (2, 0, 0)
    assert r["subtask2_merged"]["precision"] == 1.0 and r["subtask2_merged"]["recall"] == 1.0
    assert counts(r["subtask1_by_type"]["CALLE"]) == (0, 2, 1)
    assert counts(r["subtask1_by_type"]["TERRITORIO"]) == (1, 0, 0)


def test_type_ignored_in_subtask2():
    pred = [at(TEXT, "Calle Mayor, 5", "TERRITORIO"), at(TEXT, "Madrid", "PAIS")]
    r = score([("d", TEXT, GOLD, pred)])
    assert counts(r["subtask1"]) == (0, 2, 2)
    assert counts(r["subtask2_strict"]) == (2, 0, 0)


def test_leak_uses_notescrub_sentences():
    text = "Vive en Madrid. Nació en 1960."
    assert len(sentences(text)) == 2
    gold = [at(text, "Madrid", "TERRITORIO"), at(text, "1960", "FECHAS")]
    r = score([("d", text, gold, [])])
    assert r["leak"]["micro"] == pytest.approx(2 / 2)
    r = score([("d", text, gold, [gold[0]])])
    assert r["leak"]["micro"] == pytest.approx(1 / 2)
    assert r["leak"]["sentences"] == 2 and "notescrub.text.segment.sentences" in r["leak"]["note"]
    assert r["per_document"]["d"]["leak"] == pytest.approx(0.5)


def test_unicode_letter_blocks_merging():
    text = "Madrid ñ España"
    gold = [item(0, 6, "TERRITORIO"), item(9, 15, "PAIS")]
    pred = [item(0, 15, "TERRITORIO")]
    r = score([("d", text, gold, pred)])
    assert counts(r["subtask2_merged"]) == (0, 1, 2)
    # with only punctuation between them the gold spans merge and match
    r = score([("d", "Madrid - España", gold, pred)])
    assert counts(r["subtask2_merged"]) == (1, 0, 0)


@pytest.mark.parametrize(
    "spans, text, expected",
    [
        ([(0, 3), (5, 8), (10, 12)], "abc, def x gh", [(0, 8), (10, 12)]),
        ([(5, 8), (0, 3)], "abc, def", [(0, 8)]),  # sorted first
        ([(0, 3), (3, 5)], "abcde", [(0, 5)]),  # adjacent: empty gap merges
        ([(0, 10), (2, 5)], "abcdefghij", [(0, 5)]),  # official quirk: contained span's end wins
        ([(0, 3), (0, 3)], "abc", [(0, 3)]),  # duplicates
        ([], "", []),
    ],
)
def test_merge_spans(spans, text, expected):
    assert merge_spans(spans, text) == expected


def test_empty_gold_and_prediction():
    r = score([("d", TEXT, [], [])])
    for k in ("subtask1", "subtask2_strict", "subtask2_merged"):
        assert counts(r[k]) == (0, 0, 0) and r[k]["f1"] == 0.0
    assert r["leak"]["micro"] == 0.0
    r = score([("d", TEXT, [], PRED)])
    assert counts(r["subtask1"]) == (0, 3, 0)
    assert counts(r["subtask2_merged"]) == (0, 3, 0)  # FPs are counted on the strict spans


def test_duplicates_collapse():
    r = score([("d", TEXT, GOLD + GOLD, PRED + PRED)])
    assert counts(r["subtask1"]) == (1, 2, 1)
