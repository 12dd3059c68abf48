"""i2b2-2014 XML reader/writer."""

import re

import pytest

from notescrub.errors import InputFormatError, OffsetError
from notescrub.io import read_corpus, write_corpus
from notescrub.io.i2b2_xml import dumps, parse
from notescrub.taxonomy import native_category
from notescrub.types import Document, Span


def _raw_text(data: bytes) -> bytes:
    return data[data.index(b"<TEXT>") + 6 : data.index(b"</TEXT>")]


def test_reads_fixture(fixtures):
    docs = {d.id: d for d in read_corpus(fixtures / "i2b2")}
    d = docs["220-03"]
    assert d.patient_id == "220"
    assert d.metadata["xml_root"] == "deIdi2b2"
    assert "x[[1]]> ok & fine <none>" in d.text  # CDATA split around "]]>" joined back
    labels = [(s.label, d.span_text(s), s.meta["element"], s.meta["id"]) for s in d.layer("gold")]
    assert labels[1] == ("PATIENT", "Zephyrine Quillfeather", "NAME", "P1")
    assert d.layer("gold")[4].meta["comment"] == "double-checked"
    assert docs["220-04"].text == "Follow-up visit.\r\nNo PHI here ]]"  # CR kept, trailing ]] kept
    assert docs["220-04"].layer("gold") == []


def test_round_trip_same_text_and_tags(fixtures, tmp_path):
    write_corpus(read_corpus(fixtures / "i2b2"), tmp_path / "out", "i2b2-xml")
    for f in sorted((fixtures / "i2b2").glob("*.xml")):
        g = tmp_path / "out" / f.name
        a, b = parse(f.read_text(encoding="utf-8"), path=f), parse(g.read_text(encoding="utf-8"), path=g)
        assert a.text == b.text
        assert _raw_text(f.read_bytes()) == _raw_text(g.read_bytes())
        def tags(d: Document) -> list[tuple]:
            return [(s.start, s.end, s.label, s.meta["element"], s.meta["id"], s.meta.get("comment")) for s in d.layer("gold")]

        assert tags(a) == tags(b)


@pytest.mark.parametrize("text", ["]]>", "a]]>b]]>c", "]]]>", "ends with ]]", "]", "x]]", "<![CDATA[ nested", "&amp; <b>", ""])
def test_cdata_edge_cases(text):
    doc = Document("e", text, layers={"gold": [Span(0, len(text), "DATE")] if text else []})
    back = parse(dumps(doc), doc_id="e")
    assert back.text == text
    assert [(s.start, s.end) for s in back.layer("gold")] == [(s.start, s.end) for s in doc.layer("gold")]


def test_carriage_returns_and_newlines_in_attributes():
    text = "Name: Ada\r\nLovelace\r\n"
    doc = Document("d", text, layers={"gold": [Span(6, 19, "PATIENT")]})
    xml = dumps(doc)
    assert "&#13;&#10;" in xml
    back = parse(xml, doc_id="d")
    assert back.text == text and back.span_text(back.layer("gold")[0]) == "Ada\r\nLovelace"


def test_element_from_taxonomy_and_generated_ids():
    doc = Document("d", "Ana, 3/18, Madrid", layers={"gold": [Span(0, 3, "NOMBRE_SUJETO_ASISTENCIA"), Span(5, 9, "DATE"),
                                                         Span(11, 17, "TERRITORIO", meta={"id": "P0"})]})
    xml = dumps(doc)
    elements = re.findall(r"<(\w+) id=\"(\w+)\"", xml)
    assert [e for e, _ in elements] == [native_category("NOMBRE_SUJETO_ASISTENCIA"), "DATE", "LOCATION"]
    assert len({i for _, i in elements}) == 3  # generated ids avoid the existing P0


def test_xml_illegal_character_is_refused():
    with pytest.raises(InputFormatError, match="U\\+000C at offset 4"):
        dumps(Document("d", "page\x0cbreak"))


BAD = [
    ("<deIdi2b2><TEXT><![CDATA[abc]]></TEXT><TAGS><DATE start='0' end='2' TYPE='DATE'></TAGS></deIdi2b2>",
     InputFormatError, "malformed XML", 1),
    ("<deIdi2b2>\n<TEXT><![CDATA[abc]]></TEXT>\n<TAGS>\n<DATE start='0' end='9' text='abc' TYPE='DATE'/>\n</TAGS></deIdi2b2>",
     OffsetError, "outside the text", 4),
    ("<deIdi2b2>\n<TEXT><![CDATA[abc]]></TEXT>\n<TAGS>\n<DATE start='0' end='2' text='xy' TYPE='DATE'/>\n</TAGS></deIdi2b2>",
     OffsetError, "does not match", 4),
    ("<deIdi2b2>\n<TEXT><![CDATA[abc]]></TEXT>\n<TAGS>\n<DATE start='a' end='2' TYPE='DATE'/>\n</TAGS></deIdi2b2>",
     InputFormatError, "not an integer", 4),
    ("<deIdi2b2>\n<TEXT><![CDATA[abc]]></TEXT>\n<TAGS>\n<DATE TYPE='DATE'/>\n</TAGS></deIdi2b2>",
     InputFormatError, "no start/end", 4),
    ("<deIdi2b2><TAGS/></deIdi2b2>", InputFormatError, "no TEXT element", None),
    ("<deIdi2b2><TEXT>a<b/>c</TEXT></deIdi2b2>", InputFormatError, "inside TEXT", 1),
]


@pytest.mark.parametrize("xml,exc,reason,line", BAD)
def test_bad_input(tmp_path, xml, exc, reason, line):
    f = tmp_path / "secret-note.xml"
    f.write_text(xml, encoding="utf-8")
    with pytest.raises(exc) as info:
        list(read_corpus(f, "i2b2-xml"))
    err = info.value
    assert reason in str(err) and err.path == str(f) and err.line == line
    assert "abc" not in str(err)  # never the note text


def test_empty_file(tmp_path):
    (tmp_path / "e.xml").write_bytes(b"")
    with pytest.raises(InputFormatError, match="empty file"):
        list(read_corpus(tmp_path / "e.xml", "i2b2-xml"))
