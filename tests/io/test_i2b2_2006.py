"""i2b2 2006 inline XML reader/writer (streaming)."""

import pytest

import notescrub.io.i2b2_2006 as m2006
from notescrub.errors import EncodingError, InputFormatError
from notescrub.io import read_corpus, write_corpus
from notescrub.types import Document, Span


def spans_of(doc):
    return [(s.start, s.end, s.label, s.fragments) for s in doc.layer("gold")]


def test_reads_fixture(fixtures):
    docs = list(read_corpus(fixtures / "i2b2_2006.xml"))
    assert [d.id for d in docs] == ["501", "502"]
    d = docs[0]
    assert d.text.startswith("\nAdmitted to Kestrel") and "& team; K < 3.5." in d.text
    assert [(s.label, d.span_text(s)) for s in d.layer("gold")] == [
        ("HOSPITAL", "Kestrel Valley Medical"), ("DATE", "11/04"), ("DOCTOR", "Perpetua Ashgrove")]
    assert docs[1].layer("gold")[1].phi == "IDNUM"  # 2006 ID -> IDNUM via the taxonomy


def test_round_trip(fixtures, tmp_path):
    docs = list(read_corpus(fixtures / "i2b2_2006.xml"))
    write_corpus(docs, tmp_path / "out.xml")  # .xml output = i2b2-2006
    back = list(read_corpus(tmp_path / "out.xml"))
    assert [(d.id, d.text, spans_of(d)) for d in back] == [(d.id, d.text, spans_of(d)) for d in docs]


def test_cr_and_patient_survive():
    doc = Document("r1", "a\r\nb <c> & d", "P9", layers={"gold": [Span(3, 4, "DOCTOR")]})
    (back,) = m2006.parse_string(m2006.dumps_records([doc]))
    assert back.text == doc.text and back.patient_id == "P9" and spans_of(back) == spans_of(doc)


def test_streams_across_small_chunks(tmp_path, monkeypatch):
    docs = [Document(str(i), f"Ñandú {i} señor Ruiz", layers={"gold": [Span(len(f"Ñandú {i} señor "), len(f"Ñandú {i} señor Ruiz"), "DOCTOR")]})
            for i in range(30)]
    write_corpus(docs, tmp_path / "x.xml", "i2b2-2006")
    monkeypatch.setattr(m2006, "_CHUNK", 7)  # split multi-byte characters and tags across chunks
    back = list(read_corpus(tmp_path / "x.xml", "i2b2-2006"))
    assert [(d.id, d.text, spans_of(d)) for d in back] == [(d.id, d.text, spans_of(d)) for d in docs]


def test_overlapping_spans_cannot_be_written(tmp_path):
    doc = Document("d", "abcdef", layers={"gold": [Span(0, 4, "A"), Span(2, 6, "B")]})
    with pytest.raises(InputFormatError, match="overlap"):
        write_corpus([doc], tmp_path / "x.xml", "i2b2-2006")
    assert not (tmp_path / "x.xml").exists()


BAD = [
    ("<ROOT><RECORD ID='1'><TEXT>a <PHI TYPE='X'>b</TEXT></RECORD></ROOT>", "malformed XML", 1),
    ("<ROOT>\n<RECORD ID='1'><TEXT>a <PHI TYPE='X'>b <PHI TYPE='Y'>c</PHI></PHI></TEXT></RECORD></ROOT>", "cannot nest", 2),
    ("<ROOT>\n<RECORD ID='1'><TEXT>a\n<PHI>b</PHI></TEXT></RECORD></ROOT>", "without a TYPE", 3),
    ("<ROOT></ROOT>", "no RECORD", None),
    ("", "empty file", None),
    ("<ROOT><RECORD ID='1'>stray<TEXT>a</TEXT></RECORD></ROOT>", "outside TEXT", 1),
]


@pytest.mark.parametrize("xml,reason,line", BAD)
def test_bad_input(tmp_path, xml, reason, line):
    f = tmp_path / "r.xml"
    f.write_text(xml, encoding="utf-8")
    with pytest.raises(InputFormatError) as info:
        list(read_corpus(f, "i2b2-2006"))
    assert reason in str(info.value) and info.value.line == line and info.value.path == str(f)


def test_undecodable_bytes(tmp_path):
    f = tmp_path / "r.xml"
    f.write_bytes(b"<ROOT>\n<RECORD ID='1'><TEXT>\nPe\xf1a</TEXT></RECORD></ROOT>\n")
    with pytest.raises(EncodingError) as info:
        list(read_corpus(f, "i2b2-2006"))
    assert info.value.line == 3
    (doc,) = read_corpus(f, "i2b2-2006", encoding="latin-1")
    assert doc.text == "\nPeña"
