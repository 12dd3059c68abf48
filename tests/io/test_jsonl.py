"""JSONL reader/writer."""

import json

import pytest

from notescrub.errors import EncodingError, InputFormatError, OffsetError
from notescrub.io import read_corpus, write_corpus
from notescrub.io.jsonl import dumps, loads
from notescrub.types import Document, Span


def test_reads_fixture(fixtures):
    docs = list(read_corpus(fixtures / "notes.jsonl"))
    assert [(d.id, d.patient_id) for d in docs] == [("j-1", "P77"), ("j-2", None)]
    assert [docs[0].span_text(s) for s in docs[0].layer("gold")] == ["Ruiz", "3/18"]


def test_round_trip_keeps_fragments_scores_meta(tmp_path):
    doc = Document("d", "fax 555 0177 now", "P1", {"xml_root": "MEDDOCAN"},
                   {"gold": [Span(0, 12, "FAX", 0.5, "crf", ((0, 3), (4, 12)), {"id": "T4", "comment": "c"})]})
    back = loads(dumps(doc))
    (s,) = back.layer("gold")
    assert (s.start, s.end, s.label, s.score, s.source, s.fragments) == (0, 12, "FAX", 0.5, "crf", ((0, 3), (4, 12)))
    assert s.meta == {"id": "T4", "comment": "c"} and back.metadata == {"xml_root": "MEDDOCAN"}
    assert back.patient_id == "P1"


def test_writes_chosen_layer(tmp_path):
    doc = Document("d", "Ruiz", layers={"gold": [Span(0, 4, "DOCTOR")], "phi": [Span(0, 4, "PATIENT")]})
    write_corpus([doc], tmp_path / "x.jsonl", layer="phi")
    rec = json.loads((tmp_path / "x.jsonl").read_text(encoding="utf-8"))
    assert rec["spans"][0]["type"] == "PATIENT"


BAD = [
    ('{"id": "a", "text": "abc"}\n{"id": "b", "text": "abc"\n', InputFormatError, "invalid JSON", 2),
    ('{"id": "a"}\n', InputFormatError, 'no string "text"', 1),
    ('[1, 2]\n', InputFormatError, "not a JSON object", 1),
    ('{"text": "abc", "spans": [{"start": 0, "end": 7, "type": "DATE"}]}\n', OffsetError, "outside", 1),
    ('{"text": "abc", "spans": [{"start": 0, "end": 2, "type": "DATE", "text": "xy"}]}\n', OffsetError, "does not match", 1),
    ('{"text": "abc", "spans": [{"start": 0, "end": 2}]}\n', InputFormatError, 'no "type"', 1),
    ('{"text": "abc", "spans": [{"start": "x", "end": 2, "type": "A"}]}\n', InputFormatError, "not an integer", 1),
    ('{"text": "abc", "spans": {"start": 0}}\n', InputFormatError, "must be a list", 1),
]


@pytest.mark.parametrize("content,exc,reason,line", BAD)
def test_bad_lines(tmp_path, content, exc, reason, line):
    f = tmp_path / "n.jsonl"
    f.write_text(content, encoding="utf-8")
    with pytest.raises(exc) as info:
        list(read_corpus(f))
    assert reason in str(info.value) and info.value.line == line and info.value.path == str(f)
    assert "abc" not in info.value.reason


def test_skip_bad_records_continue(tmp_path):
    f = tmp_path / "n.jsonl"
    f.write_bytes(b'{"id": "a", "text": "x"}\nnot json\n{"id": "c", "text": "Pe\xf1a"}\n\n{"id": "d", "text": "y"}\n')
    skipped = []
    docs = list(read_corpus(f, skip_bad=True, on_skip=skipped.append))
    assert [d.id for d in docs] == ["a", "d"]
    assert [(e.line, type(e)) for e in skipped] == [(2, InputFormatError), (3, EncodingError)]


def test_empty_and_blank_files(tmp_path):
    for content in ("", "\n\n  \n"):
        (tmp_path / "e.jsonl").write_text(content, encoding="utf-8")
        with pytest.raises(InputFormatError, match="empty file"):
            list(read_corpus(tmp_path / "e.jsonl"))


def test_default_ids_and_bom(tmp_path):
    f = tmp_path / "n.jsonl"
    f.write_bytes(b'\xef\xbb\xbf{"text": "x"}\n{"text": "y"}\n')
    assert [d.id for d in read_corpus(f)] == ["n-1", "n-2"]
