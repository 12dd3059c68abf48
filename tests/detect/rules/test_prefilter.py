"""The prefiltered scanner must find exactly what ``re.finditer`` finds."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.rules.detector import load_rules
from notescrub.detect.rules.prefilter import Scanner, first_char_class

PATTERNS = [
    (r"(?<![\w])(?i:dr|mr)\.?\s+(?P<phi>[A-Z][a-z]+)", 0, "word-start"),
    (r"(?i:\b(?:son|daughter|wife))\s+(?P<phi>\w+)", 0, "word-start"),
    (r"\bs\w*", re.IGNORECASE, "word-start"),  # matches ſ and the Kelvin sign case-insensitively
    (r"k+", re.IGNORECASE, "first-char"),
    (r"(?<![\d.])(?P<m>\d{1,2})/(?P<d>\d{1,2})(?!\d)", 0, "first-char"),
    (r"(?:x)?\by", 0, "first-char"),  # \b after an optional x: not a word start on every path
    (r",[ \t]*|(?<=[a-z])[ \t]+", 0, "first-char"),
    (r"\b[^\w\s]+", 0, "first-char"),  # \b before a non-word character: the previous one is a word
    (r"(?P<a>\d)-(?P=a)", 0, "plain"),  # a back-reference cannot sit in the lookbehind
    (r"(\d)\1", 0, "plain"),
    (r"x*", 0, "plain"),  # can match the empty string
    (r" a  b # comment", re.VERBOSE, "first-char"),
    (r"(?x) a  b # comment", 0, "plain"),  # an inline global flag cannot be scoped
    (r"^\s*(?:MRN|Unit\s+No)\s*:", re.MULTILINE, "first-char"),
    (r"\bé\w+", re.IGNORECASE, "word-start"),
    (r"(?:a|)b", 0, "first-char"),
]
ALPHABET = "aAbBsSkKyYxX ſKİıéÉ0123456789/.-,:;()#\n\t'’_@"


def spans(it, groups):
    return [(m.span(), tuple(m.span(g) for g in groups), m.groupdict()) for m in it]


@pytest.mark.parametrize(("src", "flags", "mode"), PATTERNS)
def test_mode(src, flags, mode):
    assert Scanner(re.compile(src, flags)).mode == mode


@pytest.mark.parametrize(("src", "flags", "mode"), PATTERNS)
@settings(max_examples=60, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=80), pos=st.integers(0, 5))
def test_same_matches_as_finditer(src, flags, mode, text, pos):
    rx = re.compile(src, flags)
    sc = Scanner(rx)
    groups = range(1, rx.groups + 1)
    assert spans(sc.finditer(text, pos), groups) == spans(rx.finditer(text, pos), groups)
    a, b = rx.search(text, pos), sc.search(text, pos)
    assert (a and a.span()) == (b and b.span())


def test_packaged_rules_on_mixed_text():
    text = ("Seen 03/18/2091 by Dr. Ruiz, MD (pager x4-5521); daughter Ngozi at 12 Elm St, Boston, MA 02139. "
            "MRN: 4482911. Parkinson's disease. ſ K İ 67 yo M, DOB 1/2/45, tel 617-555-0148 ext 12.\n" * 3)
    for rule in load_rules().rules:
        for rx in (rule.regex, rule.neg_doc, rule.before, rule.neg_after):
            if rx is None:
                continue
            groups = range(1, rx.groups + 1)
            assert spans(Scanner(rx).finditer(text), groups) == spans(rx.finditer(text), groups), rule.name


@pytest.mark.parametrize("src", [r"(a)?(?(1)b|c)", r"(a)?\1b", r"x*"])
def test_unanalysable_patterns_run_plain(src):
    rx = re.compile(src)
    assert first_char_class(rx) is None
    sc = Scanner(rx)
    assert sc.mode == "plain"
    assert [m.span() for m in sc.finditer("aab cb xx")] == [m.span() for m in rx.finditer("aab cb xx")]


PREFIX_PATTERNS = [
    (r"(?i:\b(?:son|sister|daughter|dad))\s+\w+", 0),
    (r"(?:a?b?)*c|st\w+", re.IGNORECASE),  # nullable repeated group
    (r"(?:ab){0,3}c", 0),
    (r"(?:x|y){5,}z", 0),  # more repetitions required than the prefix holds
    (r"(?<=x)(?i:k[sſ]t)", 0),
    (r"(?i:é\w|ß)", 0),
    (r"\d{1,2}/\d{1,2}|[A-Z]{2}\b", 0),
]


@pytest.mark.parametrize(("src", "flags"), PREFIX_PATTERNS)
@settings(max_examples=80, deadline=None)
@given(text=st.text(alphabet=ALPHABET + "cdtzé", max_size=40))
def test_prefix_filter_accepts_every_match_start(src, flags, text):
    from notescrub.detect.rules.prefilter import _prefix_filter

    rx = re.compile(src, flags)
    pre = _prefix_filter(rx, 3)
    assert pre is not None
    f = re.compile(pre)
    for i in range(len(text) + 1):
        if rx.match(text, i):
            assert f.match(text, i), (i, text)
