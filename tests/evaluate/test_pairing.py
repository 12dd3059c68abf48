import logging

import pytest

from notescrub.errors import NotescrubError, OffsetError
from notescrub.evaluate.pairing import PairingError, pair_documents
from notescrub.types import Document, Span

SECRET = "Patient Zyxwvut Quorble seen today."


def doc(id_, text=SECRET, spans=(), layer="gold", patient=None):
    return Document(id_, text, patient_id=patient, layers={layer: list(spans)})


def test_pairs_by_id_in_gold_order():
    gold = [doc("b", spans=[Span(8, 15, "PATIENT")]), doc("a")]
    pred = [doc("a"), doc("b", spans=[Span(8, 15, "PATIENT")])]
    p = pair_documents(gold, pred)
    assert [e.doc_id for e in p.examples] == ["b", "a"]
    assert p.examples[0].gold == p.examples[0].pred == (Span(8, 15, "PATIENT"),)
    assert p.missing_ids == [] and p.skipped_ids == [] and p.unknown_ids == []


def test_missing_prediction_scored_empty_by_default(caplog):
    with caplog.at_level(logging.WARNING):
        p = pair_documents([doc("a", spans=[Span(8, 15, "PATIENT")]), doc("b")], [doc("b")])
    assert p.missing_ids == ["a"]
    ex = p.examples[0]
    assert ex.missing and ex.pred == () and len(ex.gold) == 1
    assert "1 gold document(s) have no prediction" in caplog.text


def test_missing_prediction_skipped_under_compat():
    p = pair_documents([doc("a"), doc("b")], [doc("b")], compat_official=True)
    assert [e.doc_id for e in p.examples] == ["b"]
    assert p.skipped_ids == ["a"] and p.missing_ids == []


def test_unknown_prediction_is_an_error_or_ignored_under_compat():
    with pytest.raises(PairingError, match="'zz'"):
        pair_documents([doc("a")], [doc("a"), doc("zz")])
    p = pair_documents([doc("a")], [doc("a"), doc("zz")], compat_official=True)
    assert p.unknown_ids == ["zz"]


def test_text_mismatch_names_document_not_text():
    with pytest.raises(PairingError) as err:
        pair_documents([doc("n7")], [doc("n7", text=SECRET.replace("today", "tuday"))])
    msg = str(err.value)
    assert "n7" in msg and "offset 30" in msg
    assert "Zyxwvut" not in msg and "tuday" not in msg
    assert isinstance(err.value, NotescrubError)


def test_duplicate_ids_rejected():
    with pytest.raises(PairingError, match="twice"):
        pair_documents([doc("a"), doc("a")], [])


def test_span_past_text_end_rejected():
    bad = Document("a", "short")
    bad.add_layer("gold", [Span(0, 50, "DATE")], validate=False)
    with pytest.raises(OffsetError, match="'a'"):
        pair_documents([Document("a", "short")], [bad])


def test_layers_are_selectable():
    g = doc("a", spans=[Span(0, 7, "PATIENT")], layer="ref")
    p = doc("a", spans=[Span(8, 15, "PATIENT")], layer="crf")
    ex = pair_documents([g], [p], gold_layer="ref", pred_layer="crf").examples[0]
    assert ex.gold == (Span(0, 7, "PATIENT"),) and ex.pred == (Span(8, 15, "PATIENT"),)


def test_patient_id_kept():
    ex = pair_documents([doc("a", patient="P1")], [doc("a")]).examples[0]
    assert ex.patient_id == "P1"
