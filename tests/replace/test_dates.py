"""Date shifting: one offset per patient, written format kept, intervals exact."""

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.replace.base import Context, ReplaceState
from notescrub.replace.datefmt import parse_dates
from notescrub.replace.dates import DateShift, holiday_date, patient_offset
from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(32))


def shift(text, op=None, patient="P1", locale="en", order="MDY", state=None, doc_text=None):
    op = op or DateShift((-10, -10))
    doc = Document("d", doc_text or text, patient)
    start = doc.text.index(text)
    span = Span(start, start + len(text), "DATE")
    state = state or ReplaceState()
    op.prepare(doc, [(span, text)], state, patient, KEY)
    return op.replacement(Context(doc, span, text, "DATE", patient, KEY, state, locale=locale, date_order=order))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("03/18/2091", "03/08/2091"),
        ("3/18/2091", "3/8/2091"),
        ("3/18", "3/8"),
        ("3/1/91", "2/19/91"),
        ("2091-03-18", "2091-03-08"),
        ("20910318", "20910308"),
        ("March 18th", "March 8th"),
        ("March 1st, 2091", "February 19th, 2091"),
        ("MARCH 3RD", "FEBRUARY 22ND"),
        ("march 18, 2091", "march 8, 2091"),
        ("18 March 2091", "8 March 2091"),
        ("18-Mar-91", "8-Mar-91"),
        ("Sept. 5, 2090", "Aug. 26, 2090"),
        ("Mon 3/18/2091", "Thu 3/8/2091"),
        ("Monday, March 18, 2091", "Thursday, March 8, 2091"),
        ("11/02/2084 03:17", "10/23/2084 03:17"),
        ("3/18-3/20", "3/8-3/10"),
        ("Christmas 2090", "December 15, 2090"),
        ("the 7th", "the 28th"),
    ],
)
def test_formats_kept(text, expected):
    assert shift(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [("12/03/2019", "02/03/2019"), ("12 de marzo de 2019", "2 de marzo de 2019"), ("Navidad", "15 de diciembre")],
)
def test_spanish(text, expected):
    assert shift(text, locale="es", order="DMY") == expected


def test_partial_dates_stay_partial():
    op = DateShift((-40, -40))
    assert shift("08/2084", op) == "07/2084"
    assert shift("2091", op) == "2091"
    assert shift("March", op) == "February"
    assert shift("Saturday", op) == "Monday"  # 40 days = 5 weeks + 5 days earlier


def test_weekday_alone_moves_by_offset_mod_7():
    for off in range(-20, -1):
        expected = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"][off % 7]
        assert shift("Monday", DateShift((off, off))) == expected


def test_unparseable_falls_back_to_shape_and_is_reported():
    state = ReplaceState()
    out = shift("the 80s", state=state)
    assert out != "the 80s" and len(out) == len("the 80s") and out.startswith("the ")
    assert state.report["date_fallback"] == 1


def test_holidays():
    assert holiday_date("Thanksgiving", 2024)[0] == dt.date(2024, 11, 28)
    assert holiday_date("Easter", 2024)[0] == dt.date(2024, 3, 31)
    assert holiday_date("Memorial Day", 2024)[0] == dt.date(2024, 5, 27)
    assert holiday_date("Diwali", 2024) is None


def test_offset_range_and_patient_independence():
    offs = {p: patient_offset(KEY, p, -365, -30) for p in (f"P{i}" for i in range(200))}
    assert all(-365 <= o <= -30 for o in offs.values())
    assert len(set(offs.values())) > 50
    assert patient_offset(KEY, "P1", -5, 5) != 0
    with pytest.raises(ConfigError):
        DateShift((5, -5))
    with pytest.raises(ConfigError):
        DateShift((0, 0))


FORMATS = [
    ("{m:02d}/{d:02d}/{y}", "MDY"),
    ("{m}/{d}/{y}", "MDY"),
    ("{d:02d}/{m:02d}/{y}", "DMY"),
    ("{y}-{m:02d}-{d:02d}", "MDY"),
    ("{mn} {d}, {y}", "MDY"),
    ("{d} {mn} {y}", "MDY"),
]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]


@settings(max_examples=150, deadline=None)
@given(
    st.dates(dt.date(1900, 3, 1), dt.date(2150, 12, 31)),
    st.dates(dt.date(1900, 3, 1), dt.date(2150, 12, 31)),
    st.sampled_from(FORMATS),
    st.integers(-400, -1),
)
def test_intervals_exact_and_valid(d1, d2, fmt_order, off):
    fmt, order = fmt_order
    op = DateShift((off, off))
    state = ReplaceState()
    outs = []
    for d in (d1, d2):
        text = fmt.format(m=d.month, d=d.day, y=d.year, mn=MONTHS[d.month - 1])
        new = shift(text, op, order=order, state=state)
        assert new != text
        (m,) = parse_dates(new, order=order)
        new_date = dt.date(m.year, m.month, m.day)  # a valid calendar date, same format
        assert new_date == d + dt.timedelta(days=off)
        assert len(new) == len(text) or "{m}" in fmt or "{d}" in fmt or "{mn}" in fmt
        outs.append(new_date)
    assert (outs[1] - outs[0]) == (d2 - d1)


def test_same_patient_same_offset_across_documents_and_runs():
    a = shift("03/18/2091", DateShift(), patient="P7")
    b = shift("03/18/2091", DateShift(), patient="P7", doc_text="Seen 03/18/2091.")
    assert a == b
    other_key = SurrogateKey(b"\x07" * 32)
    assert [patient_offset(KEY, f"P{i}", -365, -30) for i in range(20)] != \
        [patient_offset(other_key, f"P{i}", -365, -30) for i in range(20)]
