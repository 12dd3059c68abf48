"""OffsetMap: positions outside replaced regions map exactly, both ways."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notescrub.errors import OffsetError
from notescrub.replace.offsets import Edit, OffsetMap
from notescrub.types import Span


@pytest.mark.parametrize(
    "edits, old, new",
    [
        ([], 5, 5),
        ([Edit(4, 8, 4, 9)], 2, 2),
        ([Edit(4, 8, 4, 9)], 8, 9),
        ([Edit(4, 8, 4, 9)], 10, 11),
        ([Edit(0, 3, 0, 0), Edit(3, 5, 0, 7)], 6, 8),
    ],
)
def test_to_new_and_back(edits, old, new):
    m = OffsetMap(edits)
    assert m.to_new(old) == new
    assert m.to_old(new) == old


def test_map_and_unmap_span():
    m = OffsetMap([Edit(4, 8, 4, 9), Edit(12, 13, 13, 20)])
    s = Span(12, 13, "DATE")
    assert m.map_span(s) == Span(13, 20, "DATE")
    assert m.unmap_span(m.map_span(s)) == s


def test_json_round_trip():
    m = OffsetMap([Edit(4, 8, 4, 9)])
    assert OffsetMap.from_json(m.to_json()).edits == m.edits


@pytest.mark.parametrize("edits", [[Edit(4, 8, 4, 9), Edit(6, 9, 9, 10)], [Edit(4, 8, 5, 9)]])
def test_inconsistent_edits_rejected(edits):
    with pytest.raises(OffsetError):
        OffsetMap(edits)


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(1, 5), st.integers(0, 6)), max_size=8))
def test_untouched_positions_round_trip(raw):
    edits, old, new = [], 0, 0
    for gap, length, new_len in raw:
        old += gap
        new += gap
        edits.append(Edit(old, old + length, new, new + new_len))
        old += length
        new += new_len
    m = OffsetMap(edits)
    replaced = {p for e in edits for p in range(e.old_start, e.old_end)}
    for p in range(old + 3):
        if p not in replaced:
            assert m.to_old(m.to_new(p)) == p
