import pytest

from notescrub.evaluate.binary import binary_token_prf, token_labels
from notescrub.text.tokenize import tokenize

from .helpers import item


@pytest.mark.parametrize(
    "text, items, expected",
    [
        ("Dr. Ruiz", [item(4, 8, "DOCTOR")], [None, None, "DOCTOR"]),
        # a span ending inside a token still marks it (largest overlap wins)
        ("Ruizes came", [item(0, 4, "DOCTOR")], ["DOCTOR", None]),
        # overlapping spans: the one covering more of the token
        ("Mercy Boston", [item(0, 8, "HOSPITAL"), item(6, 12, "CITY")], ["HOSPITAL", "CITY"]),
        # nested spans cover "Boston" equally: the earlier span (start 0) wins
        ("Mercy Boston", [item(0, 12, "HOSPITAL"), item(6, 12, "CITY")], ["HOSPITAL", "HOSPITAL"]),
        # equal overlap: the earlier span in (start, end, label) order
        ("Boston", [item(0, 6, "HOSPITAL"), item(0, 6, "CITY")], ["CITY"]),
        ("no phi here", [], [None, None, None]),
    ],
)
def test_token_labels(text, items, expected):
    assert token_labels(tokenize(text), items) == expected


def test_binary_counts_and_unicode():
    text = "Paciente José Muñoz, 44 años."
    gold = [item(9, 19, "PATIENT"), item(21, 28, "AGE")]
    pred = [item(9, 13, "PATIENT")]
    r = binary_token_prf([("d", text, gold, pred)])
    # tokens: Paciente José Muñoz , 44 años .  -> 7
    assert r["tokens"] == 7
    assert (r["phi"]["tp"], r["phi"]["fp"], r["phi"]["fn"]) == (1, 0, 3)
    assert (r["non_phi"]["tp"], r["non_phi"]["fp"], r["non_phi"]["fn"]) == (3, 3, 0)
    assert r["phi"]["recall"] == 0.25 and r["non_phi"]["precision"] == 0.5


def test_empty_documents():
    r = binary_token_prf([("d", "", [], [])])
    assert r["tokens"] == 0 and r["phi"]["f1"] == 0.0 and r["non_phi"]["f1"] == 0.0
