"""Surrogates are a function of (key, patient, value, role): never of processing order or batch."""

import random

from notescrub.replace import Replacer, SurrogateKey
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))
NOTES = [
    ("a", "P1", "Mrs. Deanna Hendrix seen at Lakeshore General Hospital on 03/18/2091.",
     ["Deanna Hendrix", "Lakeshore General Hospital", "03/18/2091"]),
    ("b", "P1", "Ms. Hendrix called; D. Hendrix to return to LGH on 04/02/2091.",
     ["Hendrix", "D. Hendrix", "LGH", "04/02/2091"]),
    ("c", "P1", "Deanna Hendrix (Quinlan's mother), Dr. Vey, LGH.",
     ["Deanna Hendrix", "Quinlan", "Vey", "LGH"]),
    ("d", "P2", "Mr. Quinlan Vey, 67, Lakeshore General Hospital, 5/1/2090.",
     ["Quinlan Vey", "67", "Lakeshore General Hospital", "5/1/2090"]),
    ("e", "P2", "Q. Vey seen by Dr. Hendrix on Tuesday.", ["Q. Vey", "Hendrix", "Tuesday"]),
]
LABELS = {"Deanna Hendrix": "PATIENT", "Hendrix": "PATIENT", "D. Hendrix": "PATIENT", "Quinlan": "PATIENT",
          "Quinlan Vey": "PATIENT", "Q. Vey": "PATIENT", "Vey": "DOCTOR", "67": "AGE", "Tuesday": "DATE",
          "Lakeshore General Hospital": "HOSPITAL", "LGH": "HOSPITAL"}


def _docs():
    out = []
    for doc_id, patient, text, values in NOTES:
        spans, pos = [], 0
        for v in values:
            i = text.index(v, pos)
            spans.append(Span(i, i + len(v), LABELS.get(v, "DATE")))
            pos = i + len(v)
        out.append(Document(doc_id, text, patient, layers={"phi": spans}))
    return out


def _surrogates(docs):
    """{(doc id, span index): replacement} for one run over ``docs`` in the given order."""
    rep = Replacer("surrogate", key=KEY)
    out = {}
    for doc in docs:
        res = rep.replace(doc)
        for i, s in enumerate(res.spans):
            out[(doc.id, i)] = res.text[s.start:s.end]
    return out


def test_shuffled_subsets_and_supersets_give_the_same_surrogates():
    docs = _docs()
    reference = _surrogates(docs)
    rng = random.Random(7)
    for _ in range(20):
        order = docs[:]
        rng.shuffle(order)
        subset = order[: rng.randint(1, len(order))]
        got = _surrogates(subset)
        assert got == {k: v for k, v in reference.items() if k[0] in {d.id for d in subset}}


def test_a_value_gets_one_surrogate_per_patient_whatever_its_context():
    out = _surrogates(_docs())
    # "Deanna Hendrix" in note a (after "Mrs.") and note c (no title) of patient P1
    assert out[("a", 0)] == out[("c", 0)]
    # the lone surname after a title maps like the surname of the full name
    assert out[("b", 0)] == out[("a", 0)].split()[1]
