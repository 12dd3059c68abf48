"""Organisations are replaced by organisations of the same kind: head words kept, proper words replaced."""

import pytest

from notescrub.replace import Replacer, SurrogateKey
from notescrub.replace.geography import state_code
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))


def _one(value, label="ORGANIZATION", patient="P1"):
    text = f"Works at {value} since May."
    span = Span(9, 9 + len(value), label)
    res = Replacer("surrogate", key=KEY).replace(Document("d", text, patient, layers={"phi": [span]}))
    return res.text[res.spans[0].start:res.spans[0].end]


@pytest.mark.parametrize("value, head", [
    ("Ridgeline Freight", " Freight"),                      # company -> company
    ("Hollis Street Bakery", " Street Bakery"),
    ("Stahlmann Fabrication", " Fabrication"),
    ("Granite Ridge Towing", " Towing"),
    ("Dunmore Institute of Technology", " Institute of Technology"),  # school -> school
    ("Fenwick Middle School", " Middle School"),
    ("Oakhurst Elementary", " Elementary"),
    ("Al-Noor Islamic Center", " Islamic Center"),            # religious
    ("Keaukaha Family Dental", " Family Dental"),             # health care
    ("Pemberly & Hsu CPAs", " CPAs"),
])
def test_organisations_keep_their_kind(value, head):
    for patient in ("P1", "P2", "P3"):
        out = _one(value, patient=patient)
        assert out.endswith(head) and out != value, out
        assert out[: -len(head)].strip() and value[: -len(head)] not in out


@pytest.mark.parametrize("value, head", [
    ("Wexley Family Practice", " Family Practice"),
    ("Maplecrest Behavioral Health", " Behavioral Health"),
    ("Lakeview Internal Medicine", " Internal Medicine"),
    ("Birchwood Hospice & Palliative Care", " Hospice & Palliative Care"),
    ("HALVORSEN MEMORIAL HOSPITAL", " MEMORIAL HOSPITAL"),
])
def test_hospitals_stay_hospitals_with_their_head_words(value, head):
    for patient in ("P1", "P2", "P3"):
        out = _one(value, "HOSPITAL", patient)
        assert out.endswith(head) and out != value, out


def test_proper_words_are_never_pieces_of_longer_names():
    # before: 'Fort Cruz Medical', 'Blanchard Street Corpus' (the first word of "Fort Worth", "Corpus Christi")
    firsts = {_one(f"Name{i} Systems", patient=f"P{i}").split()[0] for i in range(200)}
    assert not firsts & {"Fort", "Corpus", "Santa", "San", "New", "Salt", "El", "Las", "Los", "St.", "Saint"}


def test_a_state_code_in_an_organisation_name_becomes_a_state_code():
    out = _one("NH State Police")
    assert out.endswith(" State Police") and state_code(out.split()[0]) not in (None, "NH")
