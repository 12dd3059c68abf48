"""Place, facility, street and number surrogates."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notescrub.replace.base import Context, ReplaceState
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.places import (
    City,
    Country,
    Facility,
    Profession,
    StateSurrogate,
    Street,
)
from notescrub.replace.shapes import (
    EmailSurrogate,
    IPSurrogate,
    ShapeSurrogate,
    UrlSurrogate,
    same_shape,
    shape_of,
)
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(32))


def rep(op, text, label, state=None, doc_text=None, locale="en"):
    doc = Document("d", doc_text or text, "P1")
    i = doc.text.index(text)
    span = Span(i, i + len(text), label)
    state = state or ReplaceState()
    op.prepare(doc, [(span, text)], state, "P1", KEY)
    return op.replacement(Context(doc, span, text, label, "P1", KEY, state, locale=locale))


def test_facility_keeps_generic_words_and_case():
    out = rep(Facility(), "HALVORSEN MEMORIAL HOSPITAL", "HOSPITAL")
    assert out.endswith(" MEMORIAL HOSPITAL") and out.isupper() and not out.startswith("HALVORSEN")


def test_facility_word_consistency_and_acronym():
    state = ReplaceState()
    full = rep(Facility(), "Halvorsen Memorial Hospital", "HOSPITAL", state)
    assert rep(Facility(), "Halvorsen", "HOSPITAL", state) == full.split()[0]
    doc = "Halvorsen Memorial Hospital ... back at HMH"
    op = Facility()
    d = Document("d", doc, "P1")
    spans = [Span(0, 27, "HOSPITAL"), Span(40, 43, "HOSPITAL")]
    st_ = ReplaceState()
    op.prepare(d, [(s, d.span_text(s)) for s in spans], st_, "P1", KEY)
    outs = [op.replacement(Context(d, s, d.span_text(s), "HOSPITAL", "P1", KEY, st_)) for s in spans]
    assert outs[1] == "".join(w[0] for w in outs[0].split()).upper()


def test_all_generic_facility_is_changed():
    out = rep(Facility(), "Union River Family Medicine", "HOSPITAL")
    assert "Union River Family Medicine" not in out and out.endswith("Family Medicine")


def test_street():
    out = rep(Street(), "1142 Columbia Rd", "STREET")
    num, *_, suffix = out.split()
    assert len(num) == 4 and num.isdigit() and suffix == "Rd" and "Columbia" not in out


@pytest.mark.parametrize("text", ["MA", "Massachusetts"])
def test_state_form(text):
    out = rep(StateSurrogate(), text, "STATE")
    assert out != text and (len(out) == 2) == (len(text) == 2)


@pytest.mark.parametrize("op, text, label", [(City(), "BOSTON", "CITY"), (Country(), "Peru", "COUNTRY"),
                                             (Profession(), "teacher", "PROFESSION")])
def test_whole_value_replacements(op, text, label):
    out = rep(op, text, label)
    assert out != text
    if text.isupper():
        assert out.isupper()
    if text.islower():
        assert out.islower()


def test_postal_code_under_place_label_keeps_shape():
    assert shape_of(rep(City(), "28045", "CITY")) == "ddddd"


def test_email_url_ip():
    e = rep(EmailSurrogate(), "a.okonkwo57@example.org", "EMAIL")
    assert e.endswith(".org") and "@" in e and "okonkwo" not in e
    u = rep(UrlSurrogate(), "https://www.halvorsen-health.com/portal", "URL")
    assert u.startswith("https://www.") and u.endswith(".com" + u[u.index(".com") + 4:]) and "halvorsen" not in u
    ip = rep(IPSurrogate(), "192.168.10.7", "IPADDR")
    assert [len(p) for p in ip.split(".")] == [3, 3, 2, 1] and all(0 <= int(p) <= 255 for p in ip.split("."))


@given(st.text(st.sampled_from("0123456789ABCxyz-/ ()#."), min_size=1, max_size=20).filter(
    lambda t: any(c.isalnum() for c in t)))
def test_ids_keep_shape_and_change(text):
    ctx_out = rep(ShapeSurrogate(), text, "MEDICALRECORD")
    assert shape_of(ctx_out) == shape_of(text)
    assert ctx_out != text


def test_id_consistency_ignores_separators():
    assert rep(ShapeSurrogate(), "7730-1185", "MEDICALRECORD").replace("-", "") == \
        rep(ShapeSurrogate(), "77301185", "MEDICALRECORD")


def test_leading_digit_not_zero():
    import random

    for i in range(50):
        assert not same_shape("617-555-0199", random.Random(i)).startswith("0")
