"""read_corpus / write_corpus: streaming, skip-bad, all-or-nothing writes."""

import pytest

from notescrub.errors import InputFormatError, OffsetError, UnknownFormatError
from notescrub.io import count_documents, read_corpus, write_corpus
from notescrub.types import Document, Span


def _bad_dir(tmp_path):
    d = tmp_path / "in"
    d.mkdir()
    for name, text, ann in [("a", "Seen by Ruiz.", "T1\tDOCTOR 8 12\tRuiz\n"),
                            ("b", "Seen by Diaz.", "T1\tDOCTOR 8 99\tDiaz\n"),
                            ("c", "Seen by Sanz.", "T1\tDOCTOR 8 12\tSanz\n")]:
        (d / f"{name}.txt").write_text(text, encoding="utf-8")
        (d / f"{name}.ann").write_text(ann, encoding="utf-8")
    (d / "e.txt").write_bytes(b"Pe\xf1a")
    (d / "e.ann").write_text("", encoding="utf-8")
    return d


def test_reading_is_lazy(tmp_path):
    d = _bad_dir(tmp_path)
    it = read_corpus(d)
    assert next(it).id == "a"  # the bad file b is not touched yet
    with pytest.raises(OffsetError) as info:
        next(it)
    assert info.value.path == str(d / "b.ann") and info.value.line == 1


def test_skip_bad_lists_every_skipped_file(tmp_path):
    d = _bad_dir(tmp_path)
    skipped = []
    docs = list(read_corpus(d, skip_bad=True, on_skip=skipped.append))
    assert [x.id for x in docs] == ["a", "c"]
    assert [e.path for e in skipped] == [str(d / "b.ann"), str(d / "e.txt")]


@pytest.mark.parametrize("target,fmt", [("out", "brat"), ("out.jsonl", "jsonl"), ("out.parquet", "parquet"),
                                        ("out.csv", "csv"), ("out.xml", "i2b2-2006"), ("xml", "i2b2-xml")])
def test_failed_conversion_leaves_output_untouched(tmp_path, target, fmt):
    d = _bad_dir(tmp_path)
    out = tmp_path / target
    with pytest.raises(OffsetError):
        write_corpus(read_corpus(d), out, fmt)
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in"]  # no temporary files left
    # an existing output stays as it was
    write_corpus([Document("old", "old text")], out, fmt)
    before = sorted(p.name for p in out.rglob("*")) if out.is_dir() else out.read_bytes()
    with pytest.raises(OffsetError):
        write_corpus(read_corpus(d), out, fmt, overwrite=True)
    after = sorted(p.name for p in out.rglob("*")) if out.is_dir() else out.read_bytes()
    assert before == after


def test_duplicate_and_unsafe_ids(tmp_path):
    with pytest.raises(InputFormatError, match="two documents have the id"):
        write_corpus([Document("a", "x"), Document("a", "y")], tmp_path / "o1", "txt")
    for bad in ("../evil", "a/b", ".hidden", ""):
        with pytest.raises(InputFormatError, match="cannot be used as a file name"):
            write_corpus([Document(bad, "x")], tmp_path / "o2", "i2b2-xml")
    assert not (tmp_path / "o1").exists() and not (tmp_path / "o2").exists()


def test_existing_directory_needs_overwrite(tmp_path):
    write_corpus([Document("a", "x")], tmp_path / "o", "txt")
    with pytest.raises(Exception, match="--force"):
        write_corpus([Document("b", "y")], tmp_path / "o", "txt")
    write_corpus([Document("b", "y")], tmp_path / "o", "txt", overwrite=True)
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == ["b.txt"]


def test_plain_txt_round_trip(fixtures, tmp_path):
    write_corpus(read_corpus(fixtures / "txt"), tmp_path / "o", "txt")
    for f in (fixtures / "txt").glob("*.txt"):
        assert (tmp_path / "o" / f.name).read_bytes() == f.read_bytes()


def test_count_documents(fixtures):
    assert count_documents(fixtures / "i2b2") == 2
    assert count_documents(fixtures / "notes.jsonl") == 2
    assert count_documents(fixtures / "notes.csv") is None


def test_unknown_format_and_empty_dir(tmp_path):
    with pytest.raises(UnknownFormatError, match="unknown format"):
        list(read_corpus(tmp_path, "docx"))
    with pytest.raises(InputFormatError, match=r"no \.xml files"):
        list(read_corpus(tmp_path, "i2b2-xml"))


def test_write_other_layer(tmp_path):
    doc = Document("d", "Ruiz", layers={"phi": [Span(0, 4, "DOCTOR")]})
    write_corpus([doc], tmp_path / "o", "brat", layer="phi")
    assert (tmp_path / "o" / "d.ann").read_text() == "T1\tDOCTOR 0 4\tRuiz\n"
