"""He et al. (2015) Table 1: WI-deId's fused-token rules, as split points on character offsets."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.text.he2015 import TABLE1, apply_rule, split_points, tokenize_he2015
from notescrub.text.tokenize import Tokenizer, tokenize
from notescrub.text.views import token_view
from notescrub.types import Document

#: every row of Table 1: (example, the paper's "after tokenization" column, WI-deId's final tokens)
ROWS = [
    ("PEND01/26/2098", "PEND 01/26/2098", ["PEND", "01", "/", "26", "/", "2098"]),
    ("45-year-old", "45 -year-old", ["45", "-", "year", "-", "old"]),
    ("CABG6/95", "CABG 6/95", ["CABG", "6", "/", "95"]),
    ("x76221", "x 76221", ["x", "76221"]),
    ("X1-1335", "X 1-1335", ["X", "1", "-", "1335"]),
    ("47798497-045-1949", "47798 497-045-1949", ["47798", "497", "-", "045", "-", "1949"]),
    ("ALMarital", "AL Marital", ["AL", "Marital"]),
    # the Table 1 row cuts the digits off; the [a-z][a-z]+[A-Z] row then cuts RadiologyExam too
    ("34712RadiologyExam", "34712 RadiologyExam", ["34712", "Radiology", "Exam"]),
    ("JaffreyMarital", "Jaffrey Marital", ["Jaffrey", "Marital"]),
]


def test_table1_has_the_papers_nine_rows_in_order():
    assert [r.example for r in TABLE1] == [row[0] for row in ROWS]


@pytest.mark.parametrize("rule,row", list(zip(TABLE1, ROWS)), ids=[r[0] for r in ROWS])
def test_each_rule_gives_the_papers_after_column(rule, row):
    example, after, _ = row
    assert apply_rule(rule, example) == after


@pytest.mark.parametrize("rule", TABLE1, ids=[r.example for r in TABLE1])
def test_each_cut_lies_inside_a_match_of_the_papers_regex(rule):
    """The cut is at or inside a match of the printed regex (rows 1 and 6 cut where the match starts)."""
    cuts = [m.start() for m in rule.pattern.finditer(rule.example)]
    assert len(cuts) == 1
    spans = [(m.start(), m.end()) for m in re.finditer(rule.paper, rule.example)]
    assert cuts[0] > 0 and any(a <= cuts[0] < b for a, b in spans)


@pytest.mark.parametrize("example,after,tokens", ROWS, ids=[r[0] for r in ROWS])
def test_wideid_tokens_of_every_table1_example(example, after, tokens):
    toks = tokenize_he2015(example)
    assert [t.text for t in toks] == tokens
    assert all(example[t.start : t.end] == t.text for t in toks)
    assert tokenize(example, fused="he2015") == toks


def test_the_phone_row_differs_from_the_generic_tokenizer():
    """The case the generic splits handle differently: the paper separates the phone number."""
    text = "47798497-045-1949"
    assert [t.text for t in tokenize(text)][:1] == ["47798497"]
    assert [t.text for t in tokenize(text, fused="he2015")][:2] == ["47798", "497"]


@pytest.mark.parametrize("text,expected", [
    ("MRN4482911", ["MRN4482911"]),  # no Table 1 rule: letters and digits stay together
    ("3x daily", ["3x", "daily"]),
    ("PEND01/26/2098 in x76221", ["PEND", "01", "/", "26", "/", "2098", "in", "x", "76221"]),
    ("Dr.Smith, MD", ["Dr", ".", "Smith", ",", "MD"]),  # punctuation on its own (step 3)
    ("McDonald", ["McDonald"]),
    ("", []),
])
def test_other_tokens(text, expected):
    assert [t.text for t in tokenize_he2015(text)] == expected


def test_split_points_are_offsets_in_the_original_text():
    text = "seen PEND01/26/2098\nJaffreyMarital"
    assert split_points(text) == [9, 27]
    assert text[9:19] == "01/26/2098" and text[27:34] == "Marital"


def test_token_view_and_tokenizer_carry_the_mode():
    doc = Document("d", "Call 47798497-045-1949")
    assert [t.text for t in token_view(doc, fused="he2015").tokens][1:3] == ["47798", "497"]
    assert [t.text for t in token_view(doc).tokens][1] == "47798497"  # cached separately
    assert Tokenizer(fused="he2015")("x76221") == tokenize_he2015("x76221")


def test_unknown_mode_is_refused():
    with pytest.raises(ConfigError, match="unknown tokenizer setting"):
        tokenize("a b", fused="opennlp")


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="abcXYZ0129-/ ,.\n", max_size=80))
def test_he2015_refines_plain_and_keeps_offsets(text):
    """Table 1 only adds break points to the plain tokenizer; tokens are exact substrings."""
    toks = tokenize_he2015(text)
    starts, ends = {t.start for t in toks}, {t.end for t in toks}
    for t in tokenize(text, fused=False):
        assert t.start in starts and t.end in ends
    covered = "".join(t.text for t in toks)
    assert covered == "".join(c for c in text if not c.isspace())
    for t in toks:
        assert text[t.start : t.end] == t.text and t.end > t.start
