import collections

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.synth import generate_corpus, generate_notes
from notescrub.synth.generate import _rng, compose_note
from notescrub.synth.notes import NOTE_TYPES
from notescrub.synth.world import PatientWorld
from notescrub.taxonomy import subtypes
from notescrub.text.tokenize import tokenize

#: The 28 subtypes of the English (i2b2/UTHealth 2014) scheme the generator must cover.
REQUIRED = {"PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "HOSPITAL", "ORGANIZATION", "STREET", "CITY", "STATE", "COUNTRY",
            "ZIP", "LOCATION-OTHER", "AGE", "DATE", "PHONE", "FAX", "EMAIL", "URL", "IPADDR", "SSN", "MEDICALRECORD",
            "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE", "DEVICE", "BIOID", "IDNUM"}
ALL_TYPES = set(subtypes())


def _check_note(text, spans, values):
    starts = {t.start for t in tokenize(text)}
    ends = {t.end for t in tokenize(text)}
    prev_end = -1
    for span, value in zip(spans, values):
        got = text[span.start:span.end]
        # exact up to the case mode of the note and hard wraps (a space became a newline)
        assert got.replace("\n", " ").lower() == value.replace("\n", " ").lower()
        assert got == got.strip() and got
        assert span.label in REQUIRED
        assert span.start >= prev_end, "gold spans never overlap"
        assert span.start in starts and span.end in ends, "spans fall on token boundaries"
        prev_end = span.end


@given(st.integers(min_value=0, max_value=2**31))
@example(1526)  # a rendered name with blanks at its edge (OffsetError before the fix)
@settings(max_examples=60, deadline=None)
def test_every_note_type_has_exact_offsets(seed):
    world = PatientWorld.sample("SYN0001", _rng(seed, "p"))
    for note_type in NOTE_TYPES:
        note = compose_note(world, note_type, _rng(seed, note_type), note_date=world.anchor)
        assert len(note.spans) == len(note.values) > 0
        _check_note(note.text, note.spans, note.values)


@pytest.mark.slow
def test_thousands_of_notes_exact():
    n = 0
    for doc in generate_corpus(700, (2, 4), seed=11):
        spans = doc.layer("gold")
        assert all(doc.text[s.start:s.end].strip() == doc.text[s.start:s.end] for s in spans)
        n += 1
    assert n >= 1400


def test_every_phi_type_appears():
    counts = collections.Counter(s.label for d in generate_notes(400, seed=2) for s in d.layer("gold"))
    assert set(counts) >= REQUIRED, sorted(REQUIRED - set(counts))
    assert set(counts) <= ALL_TYPES


def test_every_note_type_is_drawn():
    seen = {d.metadata["note_type"] for d in generate_notes(400, seed=3)}
    assert seen == set(NOTE_TYPES)


def test_deterministic_by_seed():
    a = [(d.id, d.text, d.layer("gold")) for d in generate_corpus(5, 2, seed=4)]
    b = [(d.id, d.text, d.layer("gold")) for d in generate_corpus(5, 2, seed=4)]
    c = [d.text for d in generate_corpus(5, 2, seed=5)]
    assert a == b
    assert [x[1] for x in a] != c


def test_prefix_stable_when_more_patients_requested():
    few = [d.text for d in generate_corpus(3, 2, seed=9)]
    many = [d.text for d in generate_corpus(6, 2, seed=9)][: len(few)]
    assert few == many


def test_ids_and_patients():
    docs = list(generate_corpus(3, (2, 3), seed=1))
    for d in docs:
        assert d.id.startswith(d.patient_id + "-")
        assert d.metadata["synthetic"] is True
    assert docs[0].id == "SYN0001-1"


def test_generate_notes_exact_count():
    assert len(list(generate_notes(17, seed=0))) == 17
    assert list(generate_notes(0)) == []


def test_patient_consistency_across_notes():
    """The same patient and providers recur: each patient's surname appears in several of their notes."""
    recurring = 0
    patients = 0
    by_patient = collections.defaultdict(list)
    for d in generate_corpus(40, 4, seed=6):
        by_patient[d.patient_id].append(d)
    for docs in by_patient.values():
        patients += 1
        surnames = collections.Counter()
        for d in docs:
            names = {d.text[s.start:s.end].lower() for s in d.layer("gold") if s.label in ("PATIENT", "DOCTOR")}
            words = {w.strip(",.") for n in names for w in n.split()}
            surnames.update(words)
        if any(c >= 3 for c in surnames.values()):
            recurring += 1
    assert recurring >= 0.8 * patients


def test_surrogate_and_recent_years_both_present():
    years = set()
    for d in generate_corpus(60, 1, seed=8):
        for s in d.layer("gold"):
            t = d.text[s.start:s.end]
            if s.label == "DATE" and t.isdigit() and len(t) == 4:
                years.add(int(t))
    assert any(y >= 2070 for y in years) and any(y <= 2030 for y in years)


def test_hard_negatives_present_and_unlabelled():
    negatives = ("Foley", "Parkinson", "Baker's cyst", "Bell's palsy", "Graves' disease", "GCS")
    found = collections.Counter()
    for d in generate_notes(300, seed=12):
        covered = [(s.start, s.end) for s in d.layer("gold")]
        for word in negatives:
            i = d.text.find(word)
            while i >= 0:
                if not any(a <= i < b for a, b in covered):
                    found[word] += 1
                i = d.text.find(word, i + 1)
    assert sum(found.values()) > 50 and len(found) >= 4, found


@pytest.mark.parametrize("kwargs", [{"n_patients": -1}, {"n_patients": 1, "notes_per_patient": 0},
                                    {"n_patients": 1, "note_types": ["nope"]}])
def test_bad_arguments(kwargs):
    with pytest.raises(ConfigError):
        list(generate_corpus(**kwargs))
