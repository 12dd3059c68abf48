"""The reviewer's actions on spans (notescrub.review.edits)."""

from __future__ import annotations

import pytest

from notescrub.review.edits import EditError, apply_action, live_spans, new_span

TEXT = "Seen by Dr. Ruiz on 3/18/2024 at Mercy Hospital."


def _spans():
    return [new_span(1, 12, 16, "DOCTOR", score=0.9, origin="model", state="proposed"),
            new_span(2, 20, 29, "DATE", score=0.6, origin="model", state="proposed")]


def test_accept_reject_leave_input_untouched():
    spans = _spans()
    out, status, summary = apply_action(TEXT, spans, "open", "reject", {"sid": 2})
    assert [s["state"] for s in out] == ["proposed", "rejected"]
    assert spans[1]["state"] == "proposed"  # pure: the input is not modified
    assert summary == {"sid": 2, "type": "DATE"} and status == "open"
    out, _, _ = apply_action(TEXT, out, "open", "accept", {"sid": 2})
    assert out[1]["state"] == "accepted"


def test_add_trims_blanks_and_refuses_overlap_and_bad_types():
    out, _, summary = apply_action(TEXT, _spans(), "open", "add", {"start": 32, "end": 47, "type": "HOSPITAL"})
    added = next(s for s in out if s["sid"] == 3)
    assert TEXT[added["start"]:added["end"]] == "Mercy Hospital"  # the blank before it was trimmed
    assert added["origin"] == "reviewer" and added["state"] == "accepted" and summary["sid"] == 3
    with pytest.raises(EditError, match="overlaps span 1"):
        apply_action(TEXT, _spans(), "open", "add", {"start": 8, "end": 14, "type": "DOCTOR"})
    with pytest.raises(EditError, match="unknown PHI type"):
        apply_action(TEXT, _spans(), "open", "add", {"start": 33, "end": 38, "type": "NOT-A-TYPE"})
    with pytest.raises(EditError, match="outside the note"):
        apply_action(TEXT, _spans(), "open", "add", {"start": 40, "end": 400, "type": "HOSPITAL"})
    with pytest.raises(EditError, match="white space"):
        apply_action(TEXT, _spans(), "open", "add", {"start": 29, "end": 30, "type": "DATE"})


def test_add_over_a_rejected_span_is_allowed():
    spans, _, _ = apply_action(TEXT, _spans(), "open", "reject", {"sid": 1})
    out, _, _ = apply_action(TEXT, spans, "open", "add", {"start": 8, "end": 16, "type": "DOCTOR"})
    assert [(s["start"], s["end"]) for s in live_spans(out)] == [(8, 16), (20, 29)]


def test_retype_extent_and_reviewed():
    out, _, summary = apply_action(TEXT, _spans(), "open", "retype", {"sid": 1, "type": "PATIENT"})
    assert out[0]["type"] == "PATIENT" and out[0]["orig_type"] == "DOCTOR"
    assert summary == {"sid": 1, "from": "DOCTOR", "to": "PATIENT"}
    out, _, summary = apply_action(TEXT, out, "open", "extent", {"sid": 1, "start": 8, "end": 16})
    assert TEXT[out[0]["start"]:out[0]["end"]] == "Dr. Ruiz" and summary["from"] == [12, 16]
    with pytest.raises(EditError, match="overlaps span 2"):
        apply_action(TEXT, out, "open", "extent", {"sid": 1, "start": 8, "end": 25})
    out, status, summary = apply_action(TEXT, out, "open", "reviewed", {})
    assert status == "reviewed" and summary == {"accepted": 1, "spans": 2}
    assert {s["state"] for s in out} == {"accepted"}


def test_unknown_span_and_action():
    with pytest.raises(EditError, match="no span 9"):
        apply_action(TEXT, _spans(), "open", "accept", {"sid": 9})
    with pytest.raises(EditError, match="unknown action"):
        apply_action(TEXT, _spans(), "open", "explode", {})
