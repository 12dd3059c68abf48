"""Every replacement operator, in every mode, passes one conformance suite (as every estimator
does in tests/test_estimator.py): for one value of every PHI subtype it returns text, never the
original value, the same text in any processing order and batch, and (keyed modes) a text that
depends on the key."""

from __future__ import annotations

import random

import pytest

from notescrub.errors import ConfigError
from notescrub.replace.engine import MODES, Replacer
from notescrub.replace.keys import SurrogateKey
from notescrub.taxonomy import subtypes
from notescrub.types import Document, Span

#: one realistic value per subtype (the age is over 89: younger ages are kept on purpose, as HIPAA allows)
VALUES = {
    "PATIENT": "Ana Ruiz", "DOCTOR": "Brendan Okafor", "USERNAME": "kfoley3", "PROFESSION": "welder",
    "HOSPITAL": "Mercy Hospital", "ORGANIZATION": "Acme Freight", "STREET": "12 Oak Street", "CITY": "Boston",
    "STATE": "Ohio", "COUNTRY": "Peru", "ZIP": "02118", "LOCATION-OTHER": "Lake Tahoe", "ROOM": "Room 412",
    "DEPARTMENT": "Cardiology West", "AGE": "93", "DATE": "03/18/2091", "PHONE": "(617) 555-0142",
    "FAX": "(617) 555-0199", "EMAIL": "ana.ruiz@example.org", "URL": "www.ruizfamily.example", "IPADDR": "192.0.2.44",
    "SSN": "999-12-3456", "MEDICALRECORD": "4482911", "HEALTHPLAN": "XJH442187", "ACCOUNT": "ACC-77120",
    "LICENSE": "D1234567", "VEHICLE": "7ABC123", "DEVICE": "SN-88231-X", "BIOID": "RS-449102", "IDNUM": "A7733219",
}
KEY, OTHER_KEY = SurrogateKey.from_seed("conformance"), SurrogateKey.from_seed("another key")


def _doc(doc_id: str, types: list[str], patient: str = "P1") -> Document:
    text, spans = "", []
    for t in types:
        text += f"{t.lower()}: "
        spans.append(Span(len(text), len(text) + len(VALUES[t]), t, 0.9, "test"))
        text += VALUES[t] + ".\n"
    return Document(doc_id, text, patient, layers={"phi": spans})


def _replaced(mode: str, doc: Document, key: SurrogateKey | None = KEY) -> dict[str, str]:
    out = Replacer(mode, key=key if mode in ("surrogate", "hash") else None).replace(doc)
    return {orig.label: out.text[new.start:new.end] for orig, new in zip(doc.layer("phi"), out.spans)}


def test_every_subtype_has_a_value():
    assert set(VALUES) == set(subtypes())


@pytest.mark.parametrize("mode", MODES)
def test_every_operator_replaces_every_subtype_with_other_text(mode):
    got = _replaced(mode, _doc("d1", list(VALUES)))
    assert set(got) == set(VALUES)
    for t, text in got.items():
        assert isinstance(text, str)
        assert VALUES[t] not in text, (mode, t)  # the original value never survives


@pytest.mark.parametrize("mode", MODES)
def test_the_same_value_gets_the_same_text_in_any_order_and_batch(mode):
    types = list(VALUES)
    whole = _replaced(mode, _doc("d1", types))
    shuffled = types[:]
    random.Random(7).shuffle(shuffled)
    assert _replaced(mode, _doc("d2", shuffled)) == whole  # other order, other document id, same patient
    for t in types:  # one value per document: no state carried from the others
        assert _replaced(mode, _doc(f"one-{t}", [t])) == {t: whole[t]}, (mode, t)


@pytest.mark.parametrize("mode", ["surrogate", "hash"])
def test_keyed_operators_depend_on_the_key_and_the_patient(mode):
    doc = _doc("d1", list(VALUES))
    a, b = _replaced(mode, doc), _replaced(mode, doc, OTHER_KEY)
    other_patient = _replaced(mode, _doc("d1", list(VALUES), patient="P2"))
    # most values change with the key and with the patient (a small type may collide by chance)
    assert sum(a[t] != b[t] for t in VALUES) >= len(VALUES) - 3
    assert sum(a[t] != other_patient[t] for t in VALUES) >= len(VALUES) - 6
    with pytest.raises(ConfigError, match="needs a surrogate key"):
        Replacer(mode, key=None).replace(doc)
