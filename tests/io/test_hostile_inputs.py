"""Inputs that once ended in a traceback or were accepted silently: each gets a clean error.

Every case names the file (and line) and never quotes the note text.
"""

import json

import pytest

from notescrub.cli.main import main
from notescrub.errors import InputFormatError, NotescrubError
from notescrub.io import read_corpus, write_corpus
from notescrub.types import Document, Span


def _err(path, fmt=None) -> NotescrubError:
    with pytest.raises(NotescrubError) as info:
        list(read_corpus(path, fmt))
    return info.value


@pytest.mark.parametrize("offset", ["²", "٣", "9" * 5000, "--1", "1.5"])
def test_bad_offsets_in_xml_brat_and_jsonl(tmp_path, offset):
    x = tmp_path / "x"
    x.mkdir()
    (x / "d.xml").write_text(f'<?xml version="1.0"?>\n<deIdi2b2><TEXT>Hi Bob</TEXT><TAGS><NAME start="{offset}" '
                             'end="6" TYPE="PATIENT"/></TAGS></deIdi2b2>', encoding="utf-8")
    assert "d.xml" in str(_err(x, "i2b2-xml"))
    b = tmp_path / "b"
    b.mkdir()
    (b / "d.txt").write_text("Hi Bob", encoding="utf-8")
    (b / "d.ann").write_text(f"T1\tPATIENT {offset} 6\tBob\n", encoding="utf-8")
    assert "d.ann" in str(_err(b, "brat"))
    j = tmp_path / "d.jsonl"
    j.write_text(f'{{"id": "a", "text": "Hi Bob", "spans": [{{"start": "{offset}", "end": 6, "type": "PATIENT"}}]}}\n',
                 encoding="utf-8")
    assert _err(j).line == 1


def test_physionet_double_minus(tmp_path):
    (tmp_path / "id.text").write_text("START_OF_RECORD=1||||1||||\nHi Bob\n||||END_OF_RECORD\n", encoding="utf-8")
    (tmp_path / "id.deid").write_text("Patient 1\tNote 1\n--1 --1 3\n", encoding="utf-8")
    assert isinstance(_err(tmp_path / "id.text", "physionet"), InputFormatError)


@pytest.mark.parametrize("line, reason", [
    ("[" * 100_000, "nested too deeply"),
    ('{"id": "a", "text": "x", "n": %s}' % ("9" * 5000), "number"),
    ('{"id": "a", "text": "x\\ud800y"}', "lone UTF-16 surrogate"),
    # found by the 3,000-case fuzz run: a surrogate in a span's extra key crashed the writer
    ('{"id": "a", "text": "hello", "spans": [{"start": 0, "end": 1, "type": "X", "te\\udfffxt": "h"}]}',
     "lone UTF-16 surrogate"),
    # upper-case hex and a low surrogate: the fast path that skips the string walk must see them
    ('{"id": "a", "text": "x\\uDBFFy"}', "lone UTF-16 surrogate"),
    ('{"id": "a", "text": "hello", "meta": {"k": ["\\uDc01"]}}', "lone UTF-16 surrogate"),
    ('{"id": null, "text": "x"}', '"id" must be'),
    ('{"id": true, "text": "x"}', '"id" must be'),
    ('{"id": {"a": 1}, "text": "x"}', '"id" must be'),
    ('{"id": "a", "text": "hello", "spans": [{"start": 0, "end": 1, "type": "X", "score": "nan"}]}', "score"),
    ('{"id": "a", "text": "hello", "meta": [1, 2]}', '"meta" must be'),
])
def test_jsonl_records(tmp_path, line, reason):
    f = tmp_path / "n.jsonl"
    f.write_text(line + "\n", encoding="utf-8")
    err = _err(f)
    assert reason in str(err) and err.line == 1 and "hello" not in str(err)


def test_lone_surrogate_skipped_with_skip_bad_instead_of_aborting_the_batch(tmp_path):
    f = tmp_path / "n.jsonl"
    f.write_text('{"id": "a", "text": "x\\ud800"}\n{"id": "b", "text": "fine"}\n', encoding="utf-8")
    out = tmp_path / "o.jsonl"
    assert main(["-q", "deid", str(f), "-o", str(out), "--model", "rules-en", "--mode", "tag", "--skip-bad"]) == 1
    assert [d.id for d in read_corpus(out)] == ["b"]


def test_csv_meta_must_be_an_object_and_quotes_must_close(tmp_path):
    f = tmp_path / "a.csv"
    f.write_text('id,text,spans\na,hello,"[{""start"":0,""end"":1,""type"":""X"",""meta"":""[1,2]""}]"\n',
                 encoding="utf-8")
    assert "spans.meta" in str(_err(f))
    h = tmp_path / "c.csv"
    h.write_text('id,text,spans\na,hello,"[{""start"":0,""end"":1,""type"":""X"",""t\\udfff"":1}]"\n',
                 encoding="utf-8")
    assert "lone UTF-16 surrogate" in str(_err(h))
    g = tmp_path / "b.csv"
    g.write_text('id,text\na,"unclosed\nb,more\n', encoding="utf-8")
    assert "malformed CSV" in str(_err(g))


def test_corrupt_parquet_pages(tmp_path):
    f = tmp_path / "a.parquet"
    write_corpus([Document("a", "Seen by Ruiz. " * 200)], f)
    data = bytearray(f.read_bytes())
    for i in range(200, min(len(data) - 200, 1200)):
        data[i] ^= 0x5A  # damage the column pages, keep header and footer
    f.write_bytes(bytes(data))
    assert isinstance(_err(f), InputFormatError)


def test_xml_entities_and_text_attributes(tmp_path):
    x = tmp_path / "x"
    x.mkdir()
    (x / "d.xml").write_text('<?xml version="1.0"?>\n<!DOCTYPE deIdi2b2 [<!ENTITY e "Bob Jones">]>\n<deIdi2b2>'
                             '<TEXT>Hi &e;</TEXT><TAGS/></deIdi2b2>', encoding="utf-8")
    assert "entity" in str(_err(x, "i2b2-xml"))
    (x / "d.xml").write_text('<?xml version="1.0"?>\n<deIdi2b2><TEXT a=">">Hi Bob</TEXT><TAGS/></deIdi2b2>',
                             encoding="utf-8")
    assert "TEXT element with attributes" in str(_err(x, "i2b2-xml"))


def test_id_too_long_for_a_file_name(tmp_path):
    doc = Document("a" * 300, "Seen by Ruiz.", layers={"gold": [Span(8, 12, "DOCTOR")]})
    with pytest.raises(InputFormatError, match="too long for a file name"):
        write_corpus([doc], tmp_path / "out", "brat")
    assert not (tmp_path / "out").exists()


def test_convert_with_every_record_bad_fails(tmp_path, capsys):
    f = tmp_path / "n.jsonl"
    f.write_text("{bad\n{worse\n", encoding="utf-8")
    out = tmp_path / "o.csv"
    assert main(["convert", str(f), "-o", str(out), "--skip-bad"]) == 2
    assert not out.exists() and "nothing was written" in capsys.readouterr().err
    json.dumps({})  # (json imported for the cases above)


def test_json_loads_refuses_a_raw_lone_surrogate_in_a_decoded_line():
    from notescrub.io.checks import json_loads

    with pytest.raises(InputFormatError, match="lone UTF-16 surrogate"):
        json_loads('{"text": "a\ud800b"}', "record", path="n.jsonl", line=3)


def test_json_loads_keeps_a_valid_surrogate_pair_escape():
    from notescrub.io.checks import json_loads

    assert json_loads('{"text": "\\ud83d\\ude00"}', "record", path="n.jsonl", line=1) == {"text": "\U0001f600"}
