"""Property tests: every span of every reader maps back to its text; conversions keep offsets."""

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from notescrub.io import read_corpus, write_corpus
from notescrub.io.checks import same_text
from notescrub.types import Document, Span

# note-like characters plus everything that is special to one of the formats
ALPHABET = st.sampled_from(list("abzÑñéÁº0189 .,;:/-_'\"<>&[]]]>\t\n\r\u2028\x85#*T"))
LABELS = st.sampled_from(["DOCTOR", "DATE", "NOMBRE_SUJETO_ASISTENCIA", "HCPName", "LOCATION-OTHER", "X_1"])
OUTPUT = {"i2b2-xml": "out", "brat": "out", "inline": "out", "jsonl": "o.jsonl", "csv": "o.csv",
          "parquet": "o.parquet", "i2b2-2006": "o.xml"}
NESTING = {"inline", "i2b2-2006"}  # inline tags: no overlaps
EXTENT_ONLY = {"inline", "i2b2-2006", "i2b2-xml"}  # discontinuous spans are written as their extent


@st.composite
def documents(draw, overlapping=True, fragments=True):
    text = draw(st.text(ALPHABET, min_size=1, max_size=120).filter(lambda t: t.strip()))
    n = len(text)
    spans = []
    if overlapping:
        for _ in range(draw(st.integers(0, 6))):
            a = draw(st.integers(0, n - 1))
            b = draw(st.integers(a + 1, n))
            frags = ()
            if fragments and b - a >= 3 and draw(st.booleans()):
                cut = draw(st.integers(a + 1, b - 2))
                frags = ((a, cut), (cut + 1, b))
            spans.append(Span(a, b, draw(LABELS), fragments=frags))
    else:
        cuts = sorted(set(draw(st.lists(st.integers(0, n), max_size=8))))
        for a, b in zip(cuts[::2], cuts[1::2]):
            if b > a:
                spans.append(Span(a, b, draw(LABELS)))
    doc_id = draw(st.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,8}", fullmatch=True))
    patient = draw(st.none() | st.from_regex(r"P[0-9]{1,3}", fullmatch=True))
    return Document(doc_id, text, patient, layers={"gold": spans})


def _key(doc, extent_only=False):
    return sorted((s.start, s.end, s.label, () if extent_only else s.fragments) for s in doc.layer("gold"))


def _round_trip(docs, fmt):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / OUTPUT[fmt]
        write_corpus(docs, out, fmt)
        return list(read_corpus(out, fmt))


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet", "brat", "i2b2-xml"])
@SETTINGS
@given(doc=documents())
def test_standoff_formats_round_trip(fmt, doc):
    (back,) = _round_trip([doc], fmt)
    assert back.text == doc.text and back.id == doc.id
    assert _key(back, fmt in EXTENT_ONLY) == _key(doc, fmt in EXTENT_ONLY)
    for s in back.layer("gold"):  # every span maps back to its text
        expected = doc.text[s.start : s.end] if fmt in EXTENT_ONLY else doc.span_text(s)
        assert back.span_text(s) == expected


@pytest.mark.parametrize("fmt", ["inline", "i2b2-2006"])
@SETTINGS
@given(doc=documents(overlapping=False))
def test_inline_formats_round_trip(fmt, doc):
    (back,) = _round_trip([doc], fmt)
    assert back.text == doc.text and _key(back) == _key(doc)
    assert [back.span_text(s) for s in back.layer("gold")] == [doc.span_text(s) for s in doc.layer("gold")]


@SETTINGS
@given(docs=st.lists(documents(overlapping=False), min_size=1, max_size=3, unique_by=lambda d: d.id))
def test_conversion_chain_preserves_offsets(docs):
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        chain = [("jsonl", t / "a.jsonl"), ("brat", t / "b"), ("i2b2-xml", t / "c"), ("inline", t / "d"),
                 ("csv", t / "e.csv"), ("parquet", t / "f.parquet"), ("i2b2-2006", t / "g.xml"), ("jsonl", t / "h.jsonl")]
        current = docs
        for fmt, out in chain:
            write_corpus(current, out, fmt)
            current = list(read_corpus(out, fmt))
        by_id = {d.id: d for d in current}
        for d in docs:
            assert by_id[d.id].text == d.text and _key(by_id[d.id]) == _key(d)


@settings(max_examples=200, deadline=None)
@given(st.text(ALPHABET, max_size=30), st.text(ALPHABET, max_size=30))
def test_same_text_only_ignores_whitespace_layout(a, b):
    if same_text(a, b):
        assert a.split() == b.split()


@SETTINGS
@given(docs=st.lists(documents(fragments=False), min_size=1, max_size=3))
def test_physionet_reader_spans_map_back(docs):
    """Write PhysioNet files by hand from random notes; the reader must give back every span."""
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        notes, phrases, expected = [], [], set()
        for i, d in enumerate(docs, 1):
            text = d.text.replace("\r", " ").replace("\x85", " ").replace("\u2028", " ") + "\n"
            notes.append(f"START_OF_RECORD=7||||{i}||||\n{text}||||END_OF_RECORD\n")
            for s in d.layer("gold"):
                phrase = " ".join(text[s.start : s.end].split()) or "-"
                if phrase == "-":
                    continue
                phrases.append(f"7 {i} {s.start} {s.end} {s.label} {phrase}\n")
                expected.add((f"7-{i}", s.start, s.end, s.label, text[s.start : s.end]))
        (t / "id.text").write_text("".join(notes), encoding="utf-8", newline="")
        (t / "id-phi.phrase").write_text("".join(phrases), encoding="utf-8", newline="")
        back = list(read_corpus(t / "id.text"))
        assert [b.id for b in back] == [f"7-{i}" for i in range(1, len(docs) + 1)]
        got = {(b.id, s.start, s.end, s.label, b.span_text(s)) for b in back for s in b.layer("gold")}
        assert got == expected
