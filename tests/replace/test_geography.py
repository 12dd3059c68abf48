"""City, state and ZIP surrogates from one geography table: the parts of an address agree."""

import re

import pytest

from notescrub.replace import Replacer, SurrogateKey
from notescrub.replace.geography import (
    ZIP3,
    agree,
    cities_in,
    places,
    state_code,
    zip_state,
)
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))


def _in_ranges(state, zip3):
    for part in ZIP3[state].split(","):
        lo, _, hi = part.partition("-")
        if int(lo) <= int(zip3) <= int(hi or lo):
            return True
    return False


def _replace(text, parts, patient="P1", **kw):
    spans, pos = [], 0
    for value, label in parts:
        i = text.index(value, pos)
        spans.append(Span(i, i + len(value), label))
        pos = i + len(value)
    res = Replacer("surrogate", key=KEY, **kw).replace(Document("d", text, patient, layers={"phi": spans}))
    return [res.text[s.start:s.end] for s in res.spans]


def test_the_table_covers_every_state_and_its_zip_prefixes_are_the_states():
    assert {p.state for p in places()} == set(ZIP3)
    for p in places():
        assert re.fullmatch(r"\d{3}", p.zip3) and _in_ranges(p.state, p.zip3), p
    assert all(len(cities_in(s)) >= 1 for s in ZIP3)


@pytest.mark.parametrize("text, parts", [
    ("Home: Gainesville, FL 32601.", [("Gainesville", "CITY"), ("FL", "STATE"), ("32601", "ZIP")]),
    ("Home: Des Moines, Iowa 50309-1234.", [("Des Moines", "CITY"), ("Iowa", "STATE"), ("50309-1234", "ZIP")]),
    ("Home: CHEYENNE WY 82001", [("CHEYENNE", "CITY"), ("WY", "STATE"), ("82001", "ZIP")]),
    ("Lives in Wexley, MA\n  02139 with son", [("Wexley", "CITY"), ("MA", "STATE"), ("02139", "ZIP")]),
    ("moved to Springfield, IL", [("Springfield", "CITY"), ("IL", "STATE")]),
])
def test_city_state_and_zip_of_one_address_agree(text, parts):
    for patient in ("P1", "P2", "P3", "P4"):
        out = _replace(text, parts, patient)
        got = dict(zip((lab for _, lab in parts), out))
        assert agree(got.get("CITY"), got.get("STATE"), got.get("ZIP")), out
        for (orig, _), new in zip(parts, out):
            assert new != orig
            assert (new.isupper() == orig.isupper()) or not orig.isalpha()
        if "STATE" in got:
            assert (len(got["STATE"]) == 2) == (len(parts[1][0]) == 2)
        if "ZIP" in got:
            assert re.sub(r"\d", "d", got["ZIP"]) == re.sub(r"\d", "d", {lab: v for v, lab in parts}["ZIP"])


def test_a_state_maps_alike_as_code_or_name_and_a_lone_zip_stays_in_the_state():
    code, name, lone_zip, city, code2 = _replace(
        "OH. Ohio. ZIP 43215. Columbus, OH", [("OH", "STATE"), ("Ohio", "STATE"), ("43215", "ZIP"), ("Columbus", "CITY"),
                                             ("OH", "STATE")])
    assert state_code(name) == code == code2
    assert zip_state(lone_zip) == code
    assert agree(city, code, None)


def test_separate_notes_of_a_patient_agree_on_the_state():
    a = _replace("Lives in Toledo, OH 43604.", [("Toledo", "CITY"), ("OH", "STATE"), ("43604", "ZIP")])
    b = _replace("Moved from OH last year.", [("OH", "STATE")])
    c = _replace("Went to Toledo again.", [("Toledo", "CITY")])  # Toledo: the table knows it in Ohio only
    assert b[0] == a[1] and c[0] == a[0]


def test_non_us_values_keep_the_old_behaviour():
    out = _replace("Lives in Ontario, K1A 0B1.", [("Ontario", "STATE"), ("K1A 0B1", "ZIP")])
    assert out[0] != "Ontario" and re.sub(r"\d", "d", out[1]).replace("d", "").isupper()
    [es] = _replace("Vive en Madrid.", [("Madrid", "TERRITORIO")])
    assert es != "Madrid" and es[0].isupper()
