"""i2b2 2006 de-identification XML: many records per file, PHI tagged inline.

::

    <ROOT>
    <RECORD ID="1">
    <TEXT>
    Seen by Dr. <PHI TYPE="DOCTOR">Ruiz</PHI> on <PHI TYPE="DATE">3/18</PHI>.
    </TEXT>
    </RECORD>
    </ROOT>

The file is parsed incrementally (one record in memory at a time). The document
text is the character content of ``TEXT`` (entities resolved); each ``PHI``
element becomes a ``gold`` span labelled with its ``TYPE``. A ``PATIENT`` attribute
on ``RECORD`` (a notescrub extension, written when a document has a patient id)
gives ``patient_id``.

>>> from notescrub.types import Span
>>> xml = dumps_records([Document("1", "Seen by Dr. Ruiz & co.", layers={"gold": [Span(12, 16, "DOCTOR")]})])
>>> print(xml, end="")
<?xml version="1.0" encoding="UTF-8"?>
<ROOT>
<RECORD ID="1">
<TEXT>Seen by Dr. <PHI TYPE="DOCTOR">Ruiz</PHI> &amp; co.</TEXT>
</RECORD>
</ROOT>
>>> [(d.id, d.text, [d.span_text(s) for s in d.layer("gold")]) for d in parse_string(xml)]
[('1', 'Seen by Dr. Ruiz & co.', ['Ruiz'])]
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any
from xml.parsers import expat

from notescrub.errors import EncodingError, InputFormatError, NotescrubError
from notescrub.io.checks import make_span
from notescrub.io.i2b2_xml import check_xml_chars, xml_attr
from notescrub.io.inline import non_overlapping
from notescrub.types import Document

__all__ = ["dumps_records", "parse_string", "read", "write_stream"]

_CHUNK = 1 << 16


def _text_escape(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#13;")


class _Records:
    """expat handlers collecting finished records."""

    def __init__(self, parser: Any, where: str | Path) -> None:
        self.p, self.where = parser, where
        self.stack: list[str] = []
        self.done: list[Document] = []
        self.rec_id: str | None = None
        self.rec_line = 0
        self.rec_patient: str | None = None
        self.chars: list[str] = []
        self.length = 0
        self.spans: list[tuple[int, int, str, int]] = []
        self.phi: tuple[int, str, int] | None = None
        self.in_text = False
        self.n = 0

    def _err(self, reason: str) -> InputFormatError:
        return InputFormatError(reason, path=self.where, line=self.p.CurrentLineNumber)

    def start(self, name: str, attrs: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else None
        self.stack.append(name)
        if name == "RECORD":
            if parent is None or len(self.stack) != 2:
                raise self._err("RECORD must be a child of the root element")
            self.n += 1
            self.rec_id = attrs.get("ID") or str(self.n)
            self.rec_patient = attrs.get("PATIENT") or None
            self.rec_line = self.p.CurrentLineNumber
            self.chars, self.length, self.spans, self.phi = [], 0, [], None
        elif name == "TEXT" and parent == "RECORD":
            self.in_text = True
        elif name == "PHI" and parent == "TEXT":
            if not attrs.get("TYPE"):
                raise self._err("PHI element without a TYPE attribute")
            self.phi = (self.length, attrs["TYPE"], self.p.CurrentLineNumber)
        elif self.in_text:
            raise self._err(f"unexpected element {name} inside TEXT (PHI tags cannot nest)")

    def end(self, name: str) -> None:
        self.stack.pop()
        if name == "PHI" and self.phi is not None:
            start, label, line = self.phi
            self.spans.append((start, self.length, label, line))
            self.phi = None
        elif name == "TEXT" and self.in_text:
            self.in_text = False
        elif name == "RECORD":
            text = "".join(self.chars)
            doc = Document(str(self.rec_id), text, self.rec_patient)
            doc.add_layer("gold", [make_span(text, a, b, lab, path=self.where, line=ln) for a, b, lab, ln in self.spans])
            self.done.append(doc)

    def data(self, s: str) -> None:
        if self.in_text:
            self.chars.append(s)
            self.length += len(s)
        elif s.strip() and self.stack and self.stack[-1] in ("RECORD", "ROOT"):
            raise self._err(f"text outside TEXT in {self.stack[-1]}")


def _refuse_entities(where: str | Path, parser: Any):
    """Documents that declare entities are refused (expansion can blow up in size)."""
    def handler(*_: Any) -> None:
        raise InputFormatError("DTD entity declarations are not supported", path=where, line=parser.CurrentLineNumber)
    return handler


def _parse_chunks(chunks: Iterable[str], where: str | Path) -> Iterator[Document]:
    parser = expat.ParserCreate("UTF-8")
    parser.buffer_text = True
    h = _Records(parser, where)
    parser.StartElementHandler = h.start
    parser.EndElementHandler = h.end
    parser.CharacterDataHandler = h.data
    parser.EntityDeclHandler = _refuse_entities(where, parser)
    seen_any = False
    try:
        for chunk in chunks:
            if chunk.strip():
                seen_any = True
            parser.Parse(chunk.encode("utf-8"), False)
            yield from h.done
            h.done.clear()
        if not seen_any:
            raise InputFormatError("empty file", path=where)
        parser.Parse(b"", True)
    except expat.ExpatError as exc:
        raise InputFormatError(f"malformed XML: {expat.errors.messages[exc.code]}", path=where, line=exc.lineno) from None
    yield from h.done
    if h.n == 0:
        raise InputFormatError("no RECORD element found", path=where)


def parse_string(xml: str, *, path: str | Path | None = None) -> Iterator[Document]:
    """Documents of an i2b2-2006 XML string."""
    return _parse_chunks([xml], path or "<string>")


def _decoded_chunks(path: Path, encoding: str) -> Iterator[str]:
    dec = codecs.getincrementaldecoder(encoding)(errors="strict")
    lines = 0
    try:
        fh = open(path, "rb")  # noqa: SIM115 (closed by the with below)
    except OSError as exc:
        raise InputFormatError(f"cannot read file: {exc.strerror or exc}", path=path) from None
    with fh:
        while True:
            block = fh.read(_CHUNK)
            try:
                text = dec.decode(block, final=not block)
            except UnicodeDecodeError as exc:
                line = lines + block[: max(exc.start, 0)].count(b"\n") + 1
                raise EncodingError(f"bytes not valid {encoding} (pass --encoding, e.g. --encoding latin-1)",
                                    path=path, line=line) from None
            lines += block.count(b"\n")
            if text:
                yield text
            if not block:
                return


def read(path: Path, *, encoding: str = "utf-8", on_error: Callable[[NotescrubError], None] | None = None,
         **options: Any) -> Iterator[Document]:
    """Stream the records of one i2b2-2006 ``.xml`` file."""
    return _parse_chunks(_decoded_chunks(path, encoding), path)


def _record(doc: Document, layer: str) -> str:
    check_xml_chars(doc.text, doc_id=doc.id)
    patient = f' PATIENT="{xml_attr(doc.patient_id)}"' if doc.patient_id else ""
    out, pos = [f'<RECORD ID="{xml_attr(doc.id)}"{patient}>\n<TEXT>'], 0
    for s in non_overlapping(doc, layer, "i2b2-2006"):
        out.append(_text_escape(doc.text[pos : s.start]))
        out.append(f'<PHI TYPE="{xml_attr(s.label)}">{_text_escape(doc.text[s.start : s.end])}</PHI>')
        pos = s.end
    out.append(_text_escape(doc.text[pos:]))
    out.append("</TEXT>\n</RECORD>\n")
    return "".join(out)


def dumps_records(docs: Iterable[Document], *, layer: str = "gold") -> str:
    return '<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n' + "".join(_record(d, layer) for d in docs) + "</ROOT>\n"


def write_stream(docs: Iterable[Document], file: Path, *, layer: str = "gold") -> int:
    n = 0
    with open(file, "w", encoding="utf-8", newline="") as fh:
        fh.write('<?xml version="1.0" encoding="UTF-8"?>\n<ROOT>\n')
        for doc in docs:
            fh.write(_record(doc, layer))
            n += 1
        fh.write("</ROOT>\n")
    return n
