"""i2b2/UTHealth 2014 XML: one note per file, text in CDATA, stand-off tags.

::

    <?xml version='1.0' encoding='UTF-8'?>
    <deIdi2b2>
      <TEXT><![CDATA[Seen by Dr. Ruiz]]></TEXT>
      <TAGS>
        <NAME id="P0" start="12" end="16" text="Ruiz" TYPE="DOCTOR" comment=""/>
      </TAGS>
    </deIdi2b2>

The TEXT content is taken from the raw file (CDATA sections and character data
with entities), so carriage returns and ``]]>`` survive exactly; tags go to the
``gold`` layer with their native ``TYPE`` as label and the element name, ``id``
and ``comment`` in ``span.meta``. Writing what was read gives back the same TEXT
and the same tags.

>>> doc = parse(dumps(Document("110-01", "Seen by Dr. Ruiz ]]> ok", layers={"gold": [Span(12, 16, "DOCTOR")]})), doc_id="110-01")
>>> doc.text, [(s.label, s.meta["element"], doc.span_text(s)) for s in doc.layer("gold")]
('Seen by Dr. Ruiz ]]> ok', [('DOCTOR', 'NAME', 'Ruiz')])
>>> doc.patient_id
'110'
"""

from __future__ import annotations

import html
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from notescrub.docref import doc_ref
from notescrub.errors import InputFormatError
from notescrub.io.checks import make_span, parse_int, patient_from_stem, safe_filename
from notescrub.io.decode import read_text
from notescrub.taxonomy import native_category
from notescrub.types import Document, Span

__all__ = ["check_xml_chars", "dumps", "parse", "read", "write_document", "xml_attr"]

log = logging.getLogger(__name__)

DEFAULT_ROOT = "deIdi2b2"
_CDATA_OPEN = "<![CDATA["
_REF_RE = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z]+);")
# characters XML 1.0 forbids anywhere (even in CDATA)
_BAD_XML_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_META_KEYS = ("id", "comment")


def check_xml_chars(text: str, *, doc_id: str) -> None:
    """Refuse text that XML 1.0 cannot hold (control characters such as form feed)."""
    m = _BAD_XML_RE.search(text)
    if m:
        raise InputFormatError(
            f"{doc_ref(doc_id)}: character U+{ord(m.group()):04X} at offset {m.start()} cannot be written as XML 1.0"
        )


def xml_attr(value: str) -> str:
    """Escape an attribute value so that XML parsing gives it back exactly (newlines included).

    >>> xml_attr('a "b" & <c>\\n')
    'a &quot;b&quot; &amp; &lt;c&gt;&#10;'
    """
    return (
        value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
        .replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    )


def _cdata(text: str) -> str:
    # "]]>" cannot appear inside a CDATA section: close it after "]]" and reopen before ">"
    return _CDATA_OPEN + text.replace("]]>", "]]]]><![CDATA[>") + "]]>"


def _unescape_chars(raw: str) -> str:
    return _REF_RE.sub(lambda m: html.unescape(m.group()), raw)


def _text_content(raw: str) -> str:
    """Content of the TEXT element from its raw markup: CDATA verbatim, other data unescaped."""
    out: list[str] = []
    pos = 0
    while pos < len(raw):
        i = raw.find(_CDATA_OPEN, pos)
        if i < 0:
            out.append(_unescape_chars(raw[pos:]))
            break
        out.append(_unescape_chars(raw[pos:i]))
        j = raw.find("]]>", i + len(_CDATA_OPEN))
        out.append(raw[i + len(_CDATA_OPEN) : j])
        pos = j + 3
    return "".join(out)


def _refuse_entities(where: str | Path, parser: Any):
    """Entity declarations would be expanded by the parser but not in the raw TEXT we cut
    (wrong offsets), and can blow up in size: documents that declare any are refused."""
    def handler(*_: Any) -> None:
        raise InputFormatError("DTD entity declarations are not supported", path=where, line=parser.CurrentLineNumber)
    return handler


class _Handler:
    def __init__(self, parser: Any) -> None:
        self.p = parser
        self.depth = 0
        self.root: str | None = None
        self.stack: list[str] = []
        self.text_span: tuple[int, int] | None = None  # byte indexes of <TEXT ...> start and </TEXT>
        self.text_open: int | None = None
        self.tags: list[tuple[str, dict[str, str], int]] = []
        self.bad: tuple[str, int] | None = None

    def start(self, name: str, attrs: dict[str, str]) -> None:
        if not self.stack:
            self.root = name
        elif len(self.stack) == 1 and name == "TEXT":
            if self.text_span is not None or self.text_open is not None:
                self.bad = self.bad or ("more than one TEXT element", self.p.CurrentLineNumber)
            if attrs:  # the text is cut from the raw markup after the start tag's ">"
                self.bad = self.bad or ("TEXT element with attributes", self.p.CurrentLineNumber)
            self.text_open = self.p.CurrentByteIndex
        elif self.stack[-1] == "TEXT":
            self.bad = self.bad or ("element inside TEXT (use CDATA for the note text)", self.p.CurrentLineNumber)
        elif len(self.stack) == 2 and self.stack[-1] == "TAGS":
            self.tags.append((name, attrs, self.p.CurrentLineNumber))
        self.stack.append(name)

    def end(self, name: str) -> None:
        self.stack.pop()
        if name == "TEXT" and len(self.stack) == 1 and self.text_open is not None:
            self.text_span = (self.text_open, self.p.CurrentByteIndex)
            self.text_open = None


def parse(source: str, *, doc_id: str | None = None, path: str | Path | None = None) -> Document:
    """Parse one i2b2-2014 XML document given as text."""
    where = path or "<string>"
    data = source.encode("utf-8")
    parser = expat.ParserCreate("UTF-8")
    h = _Handler(parser)
    parser.StartElementHandler = h.start
    parser.EndElementHandler = h.end
    parser.EntityDeclHandler = _refuse_entities(where, parser)
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise InputFormatError(f"malformed XML: {expat.errors.messages[exc.code]}", path=where, line=exc.lineno) from None
    if h.bad:
        raise InputFormatError(h.bad[0], path=where, line=h.bad[1])
    if h.text_span is None:
        raise InputFormatError("no TEXT element under the root element", path=where)
    a, b = h.text_span
    open_end = data.index(b">", a) + 1
    text = _text_content(data[open_end:b].decode("utf-8")) if data[open_end - 2 : open_end] != b"/>" else ""
    stem = Path(path).stem if path else "document"
    did = doc_id or stem
    spans = [_tag_span(text, name, attrs, line, where) for name, attrs, line in h.tags]
    doc = Document(did, text, patient_from_stem(did), {"xml_root": h.root})
    doc.add_layer("gold", spans)
    return doc


def _tag_span(text: str, name: str, attrs: dict[str, str], line: int, where: str | Path) -> Span:
    if "start" not in attrs or "end" not in attrs:
        raise InputFormatError(f"tag {name} has no start/end attributes", path=where, line=line)
    start = parse_int(attrs["start"], f"start of tag {name}", path=where, line=line)
    end = parse_int(attrs["end"], f"end of tag {name}", path=where, line=line)
    label = attrs.get("TYPE") or name
    meta: dict[str, Any] = {"element": name}
    for k, v in attrs.items():
        if k not in ("start", "end", "text", "TYPE"):
            meta[k] = v
    return make_span(text, start, end, label, quoted=attrs.get("text"), meta=meta, path=where, line=line)


def dumps(doc: Document, *, layer: str = "gold") -> str:
    """Serialise one document (spans of ``layer``) as i2b2-2014 XML."""
    check_xml_chars(doc.text, doc_id=doc.id)
    root = str(doc.metadata.get("xml_root") or DEFAULT_ROOT)
    out = ["<?xml version='1.0' encoding='UTF-8'?>\n", f"<{root}>\n", "  <TEXT>", _cdata(doc.text), "</TEXT>\n"]
    spans = doc.layer(layer)
    if spans:
        out.append("  <TAGS>\n")
        used = {str(s.meta.get("id")) for s in spans if s.meta.get("id")}
        n = 0
        for s in spans:
            sid = s.meta.get("id")
            if not sid:
                while f"P{n}" in used:
                    n += 1
                sid = f"P{n}"
                used.add(sid)
            out.append(_tag(doc, s, str(sid)))
        out.append("  </TAGS>\n")
    else:
        out.append("  <TAGS/>\n")
    out.append(f"</{root}>\n")
    return "".join(out)


def _tag(doc: Document, s: Span, sid: str) -> str:
    if s.fragments:
        log.warning("%s: discontinuous span written as its whole extent [%d, %d)", doc_ref(doc.id), s.start, s.end,
                    extra={"summary": ("discontinuous span was written as its whole extent (i2b2 XML has no fragments)",
                                       "discontinuous spans were written as their whole extent (i2b2 XML has no fragments)")})
    text = doc.text[s.start : s.end]
    attrs = {"id": sid, "start": str(s.start), "end": str(s.end), "text": text, "TYPE": s.label,
             "comment": str(s.meta.get("comment", ""))}
    for k, v in s.meta.items():
        if k not in attrs and k != "element" and isinstance(v, (str, int, float)) and re.fullmatch(r"[A-Za-z_][\w.-]*", k):
            attrs[k] = str(v)
    body = " ".join(f'{k}="{xml_attr(v)}"' for k, v in attrs.items())
    return f"    <{native_category(s.label)} {body}/>\n"


def read(path: Path, *, encoding: str = "utf-8", **options: Any) -> Iterator[Document]:
    """Read one ``.xml`` file (one document, id = file stem)."""
    yield parse(read_text(path, encoding), path=path)


def write_document(doc: Document, folder: Path, *, layer: str = "gold") -> None:
    """Write ``doc`` as ``folder/<id>.xml`` (UTF-8)."""
    (folder / safe_filename(doc.id, ".xml")).write_text(dumps(doc, layer=layer), encoding="utf-8", newline="")
