"""Issue 20 §4: name surrogates a reader would believe (credentials, case, gender, hash links)."""

import pytest

from notescrub.replace import Replacer, SurrogateKey
from notescrub.replace.names import split_name
from notescrub.replace.vocabulary import gender_of_name
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))


def _replace(mode, text, values, label="DOCTOR", patient="P1"):
    spans, pos = [], 0
    for v in values:
        i = text.index(v, pos)
        spans.append(Span(i, i + len(v), label))
        pos = i + len(v)
    res = Replacer(mode, key=KEY).replace(Document("d", text, patient, layers={"phi": spans}))
    return [res.text[s.start:s.end] for s in res.spans]


@pytest.mark.parametrize("name, credential", [
    ("KATHERINE NGUYEN, M.D.", ", M.D."),
    ("Katherine Nguyen, MD", ", MD"),
    ("Nguyen, Katherine, M.D.", ", M.D."),
    ("Jane Doe, PhD", ", PhD"),
    ("Jane Doe, Ph.D.", ", Ph.D."),
    ("John Smith RN", " RN"),
    ("Smith, John, MD, FACP", ", MD, FACP"),
])
def test_credentials_are_kept_and_not_replaced(name, credential):
    [out] = _replace("surrogate", f"Signed: {name} on arrival", [name])
    assert out.endswith(credential)
    body, orig = out[: -len(credential)], name[: -len(credential)]
    assert not set(body.replace(",", " ").split()) & set(orig.replace(",", " ").split())


def test_credential_is_not_read_as_a_given_name():
    assert [w.role for w in split_name("KATHERINE NGUYEN, M.D.")] == ["given", "family", "title", "title"]
    assert [w.role for w in split_name("Katherine Nguyen, MD")] == ["given", "family", "title"]
    # a real "Last, First" form still reads as such
    assert [w.role for w in split_name("Nguyen, Katherine")] == ["family", "given"]


def test_all_caps_stays_all_caps_and_the_full_name_matches_its_parts():
    full, last = _replace("surrogate", "KATHERINE NGUYEN, M.D. and later Dr. Nguyen", ["KATHERINE NGUYEN, M.D.", "Nguyen"])
    given, family = full.split(",")[0].split()
    assert given.isupper() and family.isupper()
    assert last == family.capitalize() or last == family.title()


@pytest.mark.parametrize("name, gender", [("Fatima", "F"), ("Aisha", "F"), ("Priya", "F"), ("Siobhan", "F"),
                                          ("Tomasz", "M"), ("Mohammed", "M")])
def test_gender_is_known_for_names_beyond_the_english_lists(name, gender):
    assert gender_of_name(name) == gender


def test_a_mother_keeps_a_female_given_name():
    for patient in ("P1", "P2", "P3", "P4", "P5", "P6"):
        [out] = _replace("surrogate", "Her mother Fatima Haddad is at the bedside", ["Fatima Haddad"], "PATIENT", patient)
        assert gender_of_name(out.split()[0]) == "F", out


def test_hash_mode_links_a_lone_surname_to_the_full_name():
    full, alone, titled, inverted = _replace(
        "hash", "Thomas Whitfield seen; Whitfield called; Mr. Whitfield came; Whitfield, Thomas left",
        ["Thomas Whitfield", "Whitfield", "Mr. Whitfield", "Whitfield, Thomas"], "PATIENT")
    given_token, family_token = full.split()
    assert alone == family_token
    assert titled == f"Mr. {family_token}"
    assert inverted == f"{family_token}, {given_token}"
    assert given_token != family_token and "Whitfield" not in full + alone


def test_hash_mode_keeps_credentials_and_hashes_a_hyphenated_surname_once():
    [out] = _replace("hash", "by Helena Marsh-Whitaker, M.D. today", ["Helena Marsh-Whitaker, M.D."])
    assert out.endswith(", M.D.") and out.count("DOCTOR-") == 2
    [alone] = _replace("hash", "by Marsh-Whitaker today", ["Marsh-Whitaker"])
    assert alone == out.split()[1].rstrip(",")
