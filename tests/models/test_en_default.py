"""The packaged default English model: present, small, loadable, sensible on a fictional note."""

from pathlib import Path

import pytest

from notescrub.recipes.loader import load_with_preset
from notescrub.registry import DEFAULT_MODEL, load_model, model_dir, packaged_models
from notescrub.types import Document

NOTE = (
    "DISCHARGE SUMMARY\n"
    "Patient: QUILLFEATHER, Brannoc     MRN: 5512-0098\n"
    "Admitted: 03/14/2091  Attending: Dr. Ysolde Marchetti, MD\n"
    "Mr. Quillfeather is a 58 yo welder from Tarrowby, NH. Call 603-555-0147.\n"
    "He has Parkinson's disease; Foley catheter removed. BP 132/78, ABG 7.41/38/92.\n"
)


def test_en_default_is_packaged_and_small():
    assert DEFAULT_MODEL == "en-default" and "en-default" in packaged_models()
    size = sum(p.stat().st_size for p in Path(model_dir("en-default")).rglob("*") if p.is_file())
    assert size < 20 * 1024 * 1024


@pytest.fixture(scope="module")
def annotated():
    doc = load_model()(Document("n1", NOTE, patient_id="P1"))
    return {(doc.span_text(s), s.phi) for s in doc.layer("phi")}


@pytest.mark.parametrize("text,phi", [
    ("QUILLFEATHER, Brannoc", "PATIENT"), ("5512-0098", "MEDICALRECORD"), ("03/14/2091", "DATE"),
    ("Ysolde Marchetti", "DOCTOR"), ("58", "AGE"), ("603-555-0147", "PHONE"),
])
def test_finds_phi_in_a_fictional_note(annotated, text, phi):
    assert (text, phi) in annotated


def test_leaves_eponyms_and_lab_values_alone(annotated):
    found = " ".join(t for t, _ in annotated)
    for word in ("Parkinson", "Foley", "132/78", "7.41/38/92"):
        assert word not in found


def test_presets_trade_precision_for_recall():
    counts = []
    for preset in ("precision", "balanced", "high-recall", "max-recall"):
        doc = load_with_preset(None, preset)(Document("n1", NOTE, patient_id="P1"))
        counts.append(sum(s.length for s in doc.layer("phi")))
    assert counts == sorted(counts)


def test_model_post_rules_fix_name_extents():
    """The model's own post.toml: column gaps and parentheses end names, initials join them."""
    text = ("PATIENT: Kalani Makoa         Date: 03/02/2091\n"
            "Noelani Makoa (proxy for Kalani Makoa) called. Surgery (G. Pendry) paged.\n"
            "MoCA 28/30. Urine grew E. coli.\n")
    doc = load_model()(Document("n2", text, patient_id="P2"))
    found = {doc.span_text(s) for s in doc.layer("phi")}
    assert {"Kalani Makoa", "Noelani Makoa", "G. Pendry"} <= found
    assert not any(t.endswith("Date") or "proxy" in t or t in ("28/30", "E.", "E") for t in found)


def test_header_keywords_are_not_names():
    doc = load_model()(Document("n3", "Pt: KOWALCZYK,Stanislaw   Acct#: 99887766   Unit No: 4455-66\n", patient_id="P3"))
    found = {(doc.span_text(s), s.phi) for s in doc.layer("phi")}
    assert ("99887766", "ACCOUNT") in found
    assert not any(t.lower().startswith(("acct", "unit")) for t, _ in found)
