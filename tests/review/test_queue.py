"""Review priority: risk when the model gives it, the documented proxy otherwise."""

from __future__ import annotations

from notescrub.review.queue import annotation_record, note_priority, priority_source
from notescrub.types import Document, Span


def test_risk_wins_over_proxy():
    rec = {"risk": 0.2, "spans": [{"score": 0.1}]}
    assert note_priority(rec) == 0.2 and priority_source(rec) == "risk"


def test_proxy_orders_uncertain_notes_first():
    sure = {"spans": [{"score": 0.99}, {"score": 0.98}]}
    unsure = {"spans": [{"score": 0.55}]}
    none = {"spans": []}
    ranked = sorted([("sure", sure), ("unsure", unsure), ("none", none)], key=lambda x: -note_priority(x[1]))
    assert [name for name, _ in ranked] == ["unsure", "sure", "none"]
    assert priority_source(unsure) == "proxy"
    assert note_priority({"spans": [{"score": None}]}) == 0.0  # no score: taken as certain


def test_record_takes_risk_and_suspects_from_metadata():
    doc = Document("n1", "Seen by Ruiz and Bo.", metadata={"crf": {"logprob": -3.5, "risk": 1.25,
                                                                  "suspects": [{"start": 17, "end": 19, "score": 0.4,
                                                                                "type": "DOCTOR", "extra": 1}]}})
    rec = annotation_record(doc, [Span(8, 12, "DOCTOR", score=0.9)])
    assert rec["logprob"] == -3.5 and rec["risk"] == 1.25
    assert rec["suspects"] == [{"start": 17, "end": 19, "score": 0.4, "type": "DOCTOR"}]
    assert rec["spans"][0]["type"] == "DOCTOR"


def test_records_of_a_model_with_a_risk_calibration_carry_risk_and_suspects():
    from notescrub.api import get_pipeline
    from notescrub.review.queue import annotation_record, priority_source
    from notescrub.types import Document

    pipe = get_pipeline("rules-en")
    doc = pipe(Document("n1", "Seen by Qolvanek Ymfgi at Briar Hill today with his wife Oduya."))
    rec = annotation_record(doc, doc.layer("phi"), pipe)
    assert priority_source(rec) == "risk" and rec["risk"] > 0
    assert rec["suspects"] and all(doc.text[s["start"]:s["end"]].strip() for s in rec["suspects"])
    assert "risk" not in annotation_record(doc, doc.layer("phi"))  # no pipeline: the proxy orders it
