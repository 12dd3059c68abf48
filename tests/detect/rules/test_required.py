"""Required literals: a necessary condition of every match, so skipping a note never loses one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.detect.rules.detector import load_rules, packaged_rule_files
from notescrub.detect.rules.prefilter import Scanner
from notescrub.detect.rules.required import required_literals
from notescrub.io import read_corpus

WRITERS = Path(__file__).resolve().parents[3] / "corpora" / "en-writers"


@pytest.mark.parametrize(("pattern", "want"), [
    (r"[A-Z]\w+,? (?:Inc\.?|LLC|L\.L\.C\.)", ("Inc", "L.L.C.", "LLC")),
    (r"(?:US|Federal) (?:Department|Office) of \w+", ("Department", "Office")),  # the most selective set
    (r"\d+ (?:Department|Office)", ("Department", "Office")),
    (r"(?:Camp|FOB)+ \w+", ("Camp", "FOB")),  # repeated at least once
    (r"(?:Camp|FOB)* \w+", None),  # may be absent
    (r"(?i:church) of \w+", None),  # case-insensitive: no literal is certain, " of " too short
    (r"(?<!Bank )Street", ("Street",)),  # a lookbehind is not part of the match
    (r"[Cc]alle \w+", ("alle ",)),
    (r"\w+ (?:of|LLC)", None),  # an alternative shorter than three characters
])
def test_required_sets(pattern, want):
    assert required_literals(re.compile(pattern)) == want


def _all_rules():
    for f in packaged_rule_files():
        yield from load_rules([f]).rules


def test_every_packaged_match_contains_a_required_literal():
    # on real-looking notes: every match of every packaged rule holds one of its strings
    docs = [d.text for w in ("w01", "w17", "w33", "w49") for d in read_corpus(WRITERS / w, "inline")]
    checked = 0
    for r in _all_rules():
        req = required_literals(r.regex)
        if req is None:
            continue
        for text in docs:
            for m in r.regex.finditer(text):
                assert any(s in m.group() for s in req), (r.name, req)
                checked += 1
    assert checked > 100


_PIECES = ["Inc", "Inc.", "LLC", "Corp", " ", ",", "Acme", "Bolt", "of", "Department", "Dept.", "\n", "Co.", "x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30))
def test_scanner_finds_the_same_matches_with_and_without_the_check(pieces):
    text = "".join(pieces)
    for pattern in (r"(?<![\w])(?P<phi>[A-Z]\w*(?: [A-Z]\w*){0,3},? (?:Inc\.?|LLC|Corp\.?))",
                    r"[A-Z]\w+ (?:Department|Dept\.?) of [A-Z]\w+", r"\b(?:Co\.|LLC)\b"):
        rx = re.compile(pattern)
        sc, unchecked = Scanner(rx), Scanner(rx)
        unchecked.required = None
        assert sc.required is not None
        assert [m.span() for m in sc.finditer(text)] == [m.span() for m in rx.finditer(text)]
        starts = [m.start() for m in re.finditer(r"(?<!\w)\S", text)]
        assert [m.span() for m in sc.finditer_from(text, starts)] == [
            m.span() for m in unchecked.finditer_from(text, starts)]
