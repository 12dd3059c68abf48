"""A shared start index must give every rule exactly the matches of a scan."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.rules.detector import RulesDetector, load_rules
from notescrub.detect.rules.prefilter import Scanner
from notescrub.detect.rules.start_index import StartIndex
from notescrub.types import Document

PATTERNS = [
    r"(?<![\w])(?i:dr|mr)\.?\s+(?P<phi>[A-Z][a-z]+)",
    r"(?i:\b(?:son|daughter|wife))\s+(?P<phi>\w+)",
    r"\bs\w*",  # with IGNORECASE below: matches ſ and the Kelvin sign
    r"(?<![\w/.-])(?:\(\d{3}\)[ \t]*|\d{3}[ \t.-])\d{3}[ \t.-]\d{4}",
    r"\bé\w+",
    r"(?<![\w])#\d+",
    r"(?<!\w)(?:[ \t]x|y)",  # may start with whitespace: not indexed, scans as before
]
ALPHABET = "aAbBsSkKyYxXdDmMrR ſKİıéÉ0123456789/.-,:;()#\n\t'’_@"


def _scanners():
    return [Scanner(re.compile(p, re.IGNORECASE if p == r"\bs\w*" else 0)) for p in PATTERNS]


def _spans(it):
    return [(m.span(), m.groupdict()) for m in it]


def test_only_word_start_scanners_without_leading_space_are_indexed():
    scanners = _scanners()
    assert StartIndex(scanners).indexed == frozenset(range(len(PATTERNS) - 1))
    assert Scanner(re.compile(r"\d+/\d+")).start_filter is None  # first-char mode


@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=ALPHABET, max_size=90))
def test_matches_from_the_index_equal_the_scan(text):
    scanners = _scanners()
    idx = StartIndex(scanners)
    starts = idx.starts(text)
    for k, sc in enumerate(scanners):
        if k in starts:
            assert _spans(sc.finditer_from(text, starts[k])) == _spans(sc.pattern.finditer(text)), PATTERNS[k]


def test_the_key_memo_is_shared_across_documents():
    idx = StartIndex(_scanners())
    idx.starts("Dr Vega")
    before = len(idx._memo)
    assert idx.starts("Dr Vega and Mr Lee") == idx.starts("Dr Vega and Mr Lee")
    assert len(idx._memo) > before  # new keys ('and', 'Mr ', 'Lee') learned, old ones reused


@pytest.mark.parametrize("case", [str, str.lower, str.upper])
def test_packaged_rules_find_the_same_spans_with_and_without_the_index(case):
    text = case("Seen 03/18/2091 by Dr. Ruiz, MD (pager x4-5521); daughter Ngozi at 12 Elm St, Boston, MA 02139. "
                "MRN: 4482911. Lives in Tacoma with his wife Ana. Works as a welder. Acct # 55-2231. "
                "e-mail ana.ruiz@example.org, www.clinic.example.com. Monday, 5 May 2090. Age 67. ſK İ\n" * 2)
    det = RulesDetector(load_rules())
    starts = det.start_index.starts(text)
    assert len(starts) > 30  # most rules are served by the index
    for k, rule in enumerate(det._positive):
        assert list(rule.matches(text, starts.get(k))) == list(rule.matches(text)), rule.name
    assert det.detect(Document("d", text))  # and the detector itself runs on them


def test_memo_is_bounded_in_the_number_of_keys_seen():
    """Every three-character key of a long run is remembered only up to the bound, then it starts over."""
    from notescrub.detect.rules import start_index

    scanner = Scanner(re.compile(r"\bDr\.? [A-Z]\w+"))
    assert scanner.start_filter is not None
    index = StartIndex([scanner])
    keys = (f"{chr(0x4E00 + i // 100)}{i % 100:02d}" for i in range(start_index._MEMO_MAX + 5_000))
    index.starts(" ".join(keys) + " Dr. Ruiz")
    assert len(index._memo) <= start_index._MEMO_MAX + 1
    assert index.starts("seen by Dr. Ruiz") == {0: [8]}
