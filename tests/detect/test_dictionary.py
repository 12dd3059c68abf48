"""Tests of the dictionary detector (examples written for the tests)."""

from __future__ import annotations

import pytest

from notescrub.detect.dictionary import DictionaryDetector, PhraseIndex
from notescrub.errors import ConfigError
from notescrub.types import Document

DET = DictionaryDetector()


def found(text: str, det: DictionaryDetector = DET) -> list[tuple[str, str]]:
    doc = Document("t", text)
    return [(doc.span_text(s), s.label) for s in det.detect(doc)]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Transferred from Saint Aldric Medical Center today.", [("Saint Aldric Medical Center", "HOSPITAL")]),
        ("discharged to Maple Grove Nursing Home.", [("Maple Grove Nursing Home", "HOSPITAL")]),
        ("She studies at the University of Vermont.", [("University of Vermont", "ORGANIZATION")]),
        ("Originally from Ireland, moved to Denver.", [("Ireland", "COUNTRY"), ("Denver", "CITY")]),
        ("Spoke with Oluwaseun Adeyemi about the plan.", [("Oluwaseun Adeyemi", "PATIENT")]),
        ("Plan discussed with Kowalczyk, MD.", [("Kowalczyk", "DOCTOR")]),
        ("PATIENT: HADDAD, KARIM", [("HADDAD, KARIM", "PATIENT")]),
        ("spoke with mother priya venkataraman at bedside", [("priya venkataraman", "PATIENT")]),
        ("He is a retired machinist.", [("machinist", "PROFESSION")]),
    ],
)
def test_examples(text: str, expected: list[tuple[str, str]]) -> None:
    assert found(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "History of Parkinson's disease and Graves' disease.",  # eponyms (negative cues)
        "Foley catheter removed; Bell's palsy resolved.",
        "We hope she will rest; she may go home.",             # names that are common words
        "the hospital and the clinic were busy",                # generic facility words
        "Lasix 40 mg and metoprolol.",                          # drugs
    ],
)
def test_negatives(text: str) -> None:
    assert found(text) == []


def test_common_word_names_need_a_partner() -> None:
    # "Rose" and "Baker" are common words; together as First Last they are a name
    assert found("Visited by Rose Baker yesterday.") == [("Rose Baker", "PATIENT")]
    assert found("A rose was on the table.") == []


def test_hd_mode_ignores_case_and_context() -> None:
    det = DictionaryDetector(mode="hd")
    assert found("okafor seen in boston", det) == [("okafor", "PATIENT"), ("boston", "CITY")]


def test_spanish() -> None:
    det = DictionaryDetector(lang="es", kinds=["names", "locations"])
    assert found("Paciente: Josefa Etxeberria, natural de Zaragoza.", det) == [
        ("Josefa Etxeberria", "PATIENT"), ("Zaragoza", "CITY")]


def test_bad_parameters() -> None:
    with pytest.raises(ConfigError, match="unknown dictionary kinds"):
        DictionaryDetector(kinds=["names", "pets"])
    with pytest.raises(ConfigError, match="unknown dictionary mode"):
        DictionaryDetector(mode="fuzzy")
    with pytest.raises(ConfigError, match="unsupported dictionary language"):
        DictionaryDetector(lang="xx")


def test_phrase_index_longest_match() -> None:
    idx = PhraseIndex(["st. louis", "louis", "new york city", "new york"])
    words = ["to", "st", ".", "louis", "and", "new", "york"]
    assert idx.longest(words, 1) == 3 and idx.longest(words, 3) == 1 and idx.longest(words, 5) == 2
    assert idx.longest(words, 0) == 0


def test_empty_document() -> None:
    assert DET.detect(Document("e", "")) == []
