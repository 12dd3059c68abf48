import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import OffsetError
from notescrub.synth.builder import NoteBuilder, hard_wrap, token_boundary, typo


def test_spans_recorded_where_appended():
    b = NoteBuilder(random.Random(0))
    b.text("Pt ")
    b.phi("PATIENT", "Ana Ruiz")
    b.text(" seen ")
    b.phi("DATE", "3/18/2091")
    text, spans = b.build()
    assert [text[s.start:s.end] for s in spans] == ["Ana Ruiz", "3/18/2091"]
    assert b.values == ["Ana Ruiz", "3/18/2091"]


@pytest.mark.parametrize(
    "left, value, fused",
    [
        ("Since ", "6/03/04", "Since6/03/04"),  # letter|digit: tokenizer splits
        ("MRN ", "4482911", "MRN4482911"),
        ("on ", "november", "on november"),  # lower|lower: would merge tokens, so not fused
        ("ID ", "ABC-123", "ID ABC-123"),  # UPPER|UPPER: not fused
    ],
)
def test_fuse_only_on_token_boundaries(left, value, fused):
    b = NoteBuilder(random.Random(0))
    b.text(left)
    b.phi("DATE", value, fuse=True)
    text, spans = b.build()
    assert text == fused
    assert text[spans[0].start:spans[0].end] == value


def test_fuse_after_drops_line_break_for_camel_case():
    b = NoteBuilder(random.Random(0))
    b.phi("PATIENT", "Jaffrey", fuse_after=True)
    b.text("\nMarital status: single")
    text, spans = b.build()
    assert text.startswith("JaffreyMarital") and text[spans[0].start:spans[0].end] == "Jaffrey"


def test_lower_and_upper_modes_keep_offsets():
    for mode in ("lower", "upper"):
        b = NoteBuilder(random.Random(0), **{mode: True})
        b.text("Dr. ")
        b.phi("DOCTOR", "Ruiz")
        text, spans = b.build()
        assert text[spans[0].start:spans[0].end].lower() == "ruiz"


def test_padded_or_empty_values_rejected():
    b = NoteBuilder(random.Random(0))
    with pytest.raises(OffsetError):
        b.phi("DATE", " 3/18")
    with pytest.raises(OffsetError):
        b.phi("DATE", "")


def test_token_boundary_table():
    assert token_boundary("Since", "6/03/04")
    assert token_boundary("Jaffrey", "Marital")
    assert not token_boundary("smoking", "march 2006")


@given(st.text(alphabet="ab \n", max_size=200), st.integers(min_value=5, max_value=40))
@settings(max_examples=200, deadline=None)
def test_hard_wrap_only_turns_spaces_into_newlines(text, width):
    out = hard_wrap(text, width)
    assert len(out) == len(text)
    assert all(a == b or (a == " " and b == "\n") for a, b in zip(text, out))


def test_hard_wrap_shortens_long_lines():
    words = " ".join(["alpha"] * 40)
    assert max(len(line) for line in hard_wrap(words, 30).split("\n")) <= 30


@given(st.integers(min_value=0, max_value=10_000))
@settings(max_examples=50, deadline=None)
def test_typo_changes_length_by_at_most_one(seed):
    out = typo("pneumonia", random.Random(seed))
    assert abs(len(out) - len("pneumonia")) <= 1
