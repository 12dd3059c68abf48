"""Ages: HIPAA 90+ rule, optional buckets."""

import pytest

from notescrub.errors import ConfigError
from notescrub.replace.ages import AgeSurrogate, words_to_number
from notescrub.replace.base import Context, ReplaceState
from notescrub.types import Document, Span


def age(text, bucket=None, state=None):
    ctx = Context(Document("d", text), Span(0, len(text), "AGE"), text, "AGE", "d", None, state or ReplaceState())
    return AgeSurrogate(bucket).replacement(ctx)


@pytest.mark.parametrize(
    "text, bucket, expected",
    [("92", None, "90+"), ("89", None, "89"), ("90", None, "90+"), ("47", None, "47"), ("47", 10, "40-49"),
     ("47", 5, "45-49"), ("104-year-old", None, "90+-year-old"), ("ninety-two", None, "90+"),
     ("sixty", None, "sixty"), ("3 months", None, "3 months"), ("unknown", None, "unknown")],
)
def test_ages(text, bucket, expected):
    assert age(text, bucket) == expected


def test_generalisation_counted():
    state = ReplaceState()
    age("95", state=state)
    assert state.report["age_generalised"] == 1


def test_words_to_number():
    assert words_to_number("one hundred and three") == 103
    assert words_to_number("seventy five") == 75


def test_bad_bucket():
    with pytest.raises(ConfigError):
        AgeSurrogate(1)
