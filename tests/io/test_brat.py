"""brat standoff reader/writer."""

import pytest

from notescrub.errors import InputFormatError, OffsetError
from notescrub.io import read_corpus, write_corpus
from notescrub.io.brat import dumps_ann, parse_ann
from notescrub.types import Document, Span


def test_reads_fixture(fixtures):
    (doc,) = read_corpus(fixtures / "brat")
    spans = {s.meta["id"]: s for s in doc.layer("gold")}
    assert doc.span_text(spans["T1"]) == "Hollis Brackenridge" and spans["T1"].meta["comment"] == "attending"
    fax = spans["T4"]
    assert fax.fragments and len(fax.fragments) == 2 and doc.span_text(fax) == "fax 555-0177"
    assert (fax.start, fax.end) == (fax.fragments[0][0], fax.fragments[1][1])
    assert doc.metadata["brat_other"] == ["R1\tLocated Arg1:T5 Arg2:T6"]


def test_round_trip_files(fixtures, tmp_path):
    write_corpus(read_corpus(fixtures / "brat"), tmp_path / "out", "brat")
    src, out = fixtures / "brat", tmp_path / "out"
    assert (out / "visit-7.txt").read_bytes() == (src / "visit-7.txt").read_bytes()
    assert sorted((out / "visit-7.ann").read_text().splitlines()) == sorted((src / "visit-7.ann").read_text().splitlines())


def test_ann_given_as_path(fixtures):
    assert [d.id for d in read_corpus(fixtures / "brat" / "visit-7.ann")] == ["visit-7"]


def test_span_across_newline_written_on_one_line():
    doc = Document("d", "Ada\nLovelace", layers={"gold": [Span(0, 12, "PATIENT")]})
    ann = dumps_ann(doc)
    assert ann == "T1\tPATIENT 0 12\tAda Lovelace\n"
    assert parse_ann(doc.text, ann, doc_id="d").layer("gold")[0].end == 12


BAD = [
    ("T1\tDATE 0 3\tabc\nT2 DATE 0 3 abc\n", InputFormatError, "cannot parse", 2),
    ("T1\tDATE 0 9\tabc\n", OffsetError, "outside the text", 1),
    ("T1\tDATE 0 2\tzz\n", OffsetError, "does not match", 1),
    ("T1\tDATE 0 3\tabc\nT1\tDATE 0 3\tabc\n", InputFormatError, "used twice", 2),
    ("#1\tAnnotatorNotes T7\tnote\n", InputFormatError, "unknown annotation T7", 1),
    ("hello\n", InputFormatError, "not a brat annotation", 1),
    ("T1\tDATE a b\tabc\n", InputFormatError, "cannot parse", 1),
]


@pytest.mark.parametrize("ann,exc,reason,line", BAD)
def test_bad_ann(tmp_path, ann, exc, reason, line):
    (tmp_path / "n.txt").write_text("abc def", encoding="utf-8")
    (tmp_path / "n.ann").write_text(ann, encoding="utf-8")
    with pytest.raises(exc) as info:
        list(read_corpus(tmp_path, "brat"))
    assert reason in str(info.value) and info.value.path == str(tmp_path / "n.ann") and info.value.line == line
    assert "abc" not in info.value.reason


def test_missing_partner_files(tmp_path):
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"no matching \.ann"):
        list(read_corpus(tmp_path / "a.txt", "brat"))
    (tmp_path / "a.ann").write_text("", encoding="utf-8")
    (tmp_path / "b.ann").write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match=r"no matching \.txt"):
        list(read_corpus(tmp_path, "brat"))


def test_empty_ann_is_fine_empty_txt_is_not(tmp_path):
    (tmp_path / "a.txt").write_text("note", encoding="utf-8")
    (tmp_path / "a.ann").write_text("", encoding="utf-8")
    assert [d.layer("gold") for d in read_corpus(tmp_path)] == [[]]
    (tmp_path / "a.txt").write_text("", encoding="utf-8")
    with pytest.raises(InputFormatError, match="empty file"):
        list(read_corpus(tmp_path))


def test_label_with_space_cannot_be_written():
    with pytest.raises(InputFormatError, match="whitespace"):
        dumps_ann(Document("d", "abc", layers={"gold": [Span(0, 1, "A B")]}))
