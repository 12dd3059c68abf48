"""Clinical tokenizer: the generic fused-token splits (default) and the plain mode.

He et al.'s own Table 1 rules (``fused="he2015"``) are tested in test_he2015.py.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.text.tokenize import Token, Tokenizer, tokenize

FUSED = [
    # He et al.'s Table 1 example tokens, split by the *generic* rules (not the paper's:
    # the paper cuts 47798497-045-1949 as 47798 | 497-045-1949, see test_he2015.py)
    ("PEND01/26/2098", ["PEND", "01", "/", "26", "/", "2098"]),
    ("45-year-old", ["45", "-", "year", "-", "old"]),
    ("CABG6/95", ["CABG", "6", "/", "95"]),
    ("x76221", ["x", "76221"]),
    ("47798497-045-1949", ["47798497", "-", "045", "-", "1949"]),
    ("ALMarital", ["AL", "Marital"]),
    ("34712RadiologyExam", ["34712", "Radiology", "Exam"]),
    ("JaffreyMarital", ["Jaffrey", "Marital"]),
    # Spanish: accents and ñ stay inside words, also in capitals and camel splits
    ("Cuéllar", ["Cuéllar"]),
    ("MARÍA JOSÉ Peña", ["MARÍA", "JOSÉ", "Peña"]),
    ("Ñandú", ["Ñandú"]),
    ("ÁngelMarital", ["Ángel", "Marital"]),
    # ordinal indicators are letters: Nº is one token, digits split from them
    ("Nº 12", ["Nº", "12"]),
    ("NºCol: 28 28 70973", ["Nº", "Col", ":", "28", "28", "70973"]),
    ("2º dcha", ["2", "º", "dcha"]),
    # Spanish street abbreviation c/ (calle)
    ("c/ del Abedul 5-7", ["c", "/", "del", "Abedul", "5", "-", "7"]),
    # name particles are not camel-split
    ("McDonald DeLuca", ["McDonald", "DeLuca"]),
    # punctuation
    ("Dr.Smith, MD", ["Dr", ".", "Smith", ",", "MD"]),
    ("nnavcu@hotmail.com", ["nnavcu", "@", "hotmail", ".", "com"]),
    ("12:30h", ["12", ":", "30", "h"]),
    ("O'Brien", ["O", "'", "Brien"]),
    ("snake_case", ["snake", "_", "case"]),
    ("", []),
    ("   \n\t ", []),
]

PLAIN = [
    ("PEND01/26/2098", ["PEND01", "/", "26", "/", "2098"]),
    ("JaffreyMarital x76221", ["JaffreyMarital", "x76221"]),
    ("2º dcha", ["2º", "dcha"]),
    ("45-year-old", ["45", "-", "year", "-", "old"]),
]


@pytest.mark.parametrize("text,expected", FUSED)
def test_fused_splits(text, expected):
    toks = tokenize(text)
    assert [t.text for t in toks] == expected
    assert all(text[t.start : t.end] == t.text for t in toks)


@pytest.mark.parametrize("text,expected", PLAIN)
def test_plain_mode(text, expected):
    assert [t.text for t in tokenize(text, fused=False)] == expected
    assert Tokenizer(fused=False)(text) == tokenize(text, fused=False)


def test_offsets_are_exact():
    text = "MRN:4482911\nDOB 03/03/1946"
    assert tokenize(text)[:4] == [Token(0, 3, "MRN"), Token(3, 4, ":"), Token(4, 11, "4482911"), Token(12, 15, "DOB")]


def test_tokens_never_cross_line_breaks():
    text = "Ruiz\nMarital\r\nStatus"
    for t in tokenize(text):
        assert "\n" not in t.text and "\r" not in t.text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200), st.booleans())
def test_tokens_are_ordered_disjoint_nonspace_substrings(text, fused):
    toks = tokenize(text, fused=fused)
    prev = 0
    for t in toks:
        assert text[t.start : t.end] == t.text
        assert t.start >= prev and t.end > t.start
        assert not any(c.isspace() for c in t.text)
        prev = t.end
    # every non-space character is inside some token
    covered = {i for t in toks for i in range(t.start, t.end)}
    assert all(i in covered for i, c in enumerate(text) if not c.isspace())


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="abcXYZ09-/ .:\n", max_size=80))
def test_fused_is_a_refinement_of_plain(text):
    """Fused splitting only adds break points: each plain token is a run of fused tokens."""
    fused = tokenize(text)
    starts, ends = {t.start for t in fused}, {t.end for t in fused}
    for t in tokenize(text, fused=False):
        assert t.start in starts and t.end in ends
