"""Audit: counts of leaked PHI strings and PHI-like patterns, never values."""

import json

from notescrub.audit import audit_output, audit_pair
from notescrub.replace import Replacer, SurrogateKey
from notescrub.types import Document, Span

TEXT = "Mr. Graves has Graves' disease. Seen by Dr. Ruiz on 03/18/2091, age 93. Call 617-555-0199."


def original():
    def sp(sub, label):
        i = TEXT.index(sub)
        return Span(i, i + len(sub), label)
    return Document("a", TEXT, "P1", layers={"gold": [sp("Graves", "PATIENT"), sp("Ruiz", "DOCTOR"),
                                                      sp("03/18/2091", "DATE"), sp("93", "AGE"),
                                                      sp("617-555-0199", "PHONE")]})


def test_leaks_are_counted_by_type():
    orig = original()
    partial = Replacer("tag", types="DATE,PHONE").apply(orig, layer="gold")
    rep = audit_pair([orig], [partial])
    assert rep.leaks == {"PATIENT": 1, "DOCTOR": 1}
    assert rep.leak_docs == {"PATIENT": ["a"], "DOCTOR": ["a"]}
    assert rep.not_checked["short"] == 1  # "93" is too short to search for
    assert rep.checked == 4


def test_eponym_in_the_original_is_not_a_leak():
    orig = original()
    out = Replacer("surrogate", key=SurrogateKey(bytes(32))).apply(orig, layer="gold")
    assert "Graves' disease" in out.text
    rep = audit_pair([orig], [out])
    assert rep.leaked == 0


def test_report_never_contains_values():
    orig = original()
    rep = audit_pair([orig], [Document("a", TEXT)])
    blob = json.dumps(rep.to_dict()) + rep.format()
    for value in ("Graves", "Ruiz", "03/18/2091", "617-555-0199"):
        assert value not in blob
    assert rep.leaked == 4


def test_patterns_and_annotated_surrogates_ignored():
    doc = Document("x", "Call 617-555-0199 or 781-555-0100, SSN 123-45-6789, seen 3/18/2091 by Okonkwo. ABG 7.41/38/92.")
    rep = audit_output([doc])
    assert rep.patterns["phone"] == 2 and rep.patterns["ssn"] == 1 and rep.patterns["date"] == 1
    assert rep.patterns["name_word"] == 1 and rep.pattern_docs["phone"] == ["x"]
    i = doc.text.index("617")
    annotated = Document("x", doc.text, layers={"gold": [Span(i, i + 12, "PHONE")]})
    assert audit_output([annotated]).patterns["phone"] == 1


def test_missing_documents_reported():
    rep = audit_pair([original()], [])
    assert rep.missing == ["a"] and rep.documents == 0
