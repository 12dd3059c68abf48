"""Inline-tagged notes (en-dev style)."""

import pytest

from notescrub.errors import InputFormatError
from notescrub.io import read_corpus, write_corpus
from notescrub.io.inline import dumps, parse
from notescrub.types import Document, Span


def test_reads_fixture(fixtures):
    docs = {d.id: d for d in read_corpus(fixtures / "inline")}
    d = docs["P901-1"]
    assert d.patient_id == "P901" and docs["P902-1"].layer("gold") == []
    assert [(s.label, d.span_text(s)) for s in d.layer("gold")] == [
        ("MEDICALRECORD", "ZZ-0001234"), ("DATE", "01/02/2080"), ("AGE", "71"), ("PATIENT", "Wilhelmina\nFrobisher")]
    assert "<x4417>; BP < 90 & HR" in d.text  # other markup-like text is note text


def test_round_trip_bytes(fixtures, tmp_path):
    write_corpus(read_corpus(fixtures / "inline"), tmp_path / "out", "inline")
    for f in (fixtures / "inline").glob("*.txt"):
        assert (tmp_path / "out" / f.name).read_bytes() == f.read_bytes()


@pytest.mark.parametrize(
    "raw,reason,line",
    [
        ('a <PHI TYPE="X">b\n<PHI TYPE="Y">c</PHI></PHI>', "opened inside", 2),
        ("a\nb</PHI>", "without an opening", 2),
        ('a\n\n<PHI TYPE="X">b', "never closed", 3),
        ('<PHI TYPE="">b</PHI>', "empty TYPE", 1),
        ("a\n<PHI TYPE=X>b</PHI>", "malformed PHI tag", 2),
    ],
)
def test_bad_tags(raw, reason, line):
    with pytest.raises(InputFormatError) as info:
        parse(raw, doc_id="n", path="n.txt")
    assert reason in str(info.value) and info.value.line == line


def test_write_refuses_ambiguous_text_and_overlaps():
    with pytest.raises(InputFormatError, match="literal PHI tag"):
        dumps(Document("d", "see </PHI> here"))
    with pytest.raises(InputFormatError, match="overlap"):
        dumps(Document("d", "abcdef", layers={"gold": [Span(0, 3, "A"), Span(1, 4, "B")]}))
    with pytest.raises(InputFormatError, match="TYPE attribute"):
        dumps(Document("d", "abcdef", layers={"gold": [Span(0, 3, 'A"B')]}))
