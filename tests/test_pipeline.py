"""Pipeline admission: oversize documents refused (fail closed), language warnings."""

import logging

import pytest

from notescrub.detect.base import Detector
from notescrub.docref import doc_ref
from notescrub.errors import ProcessingError
from notescrub.pipeline import Pipeline
from notescrub.types import Document, Span


class _Caps(Detector):
    name = "caps"

    def detect(self, doc):
        return [Span(0, 3, "PATIENT", 1.0, self.name)]


def test_oversize_document_is_refused_with_the_limit_named():
    pipe = Pipeline([_Caps()], max_chars=10)
    with pytest.raises(ProcessingError, match="limit of 10"):
        pipe(Document("big", "x" * 11))
    with pytest.raises(ProcessingError, match="limit of 10"):
        list(Pipeline([_Caps()], max_chars=10).run_group([Document("big", "x" * 11)]))


def test_non_english_text_is_processed_with_a_warning(caplog):
    pipe = Pipeline([_Caps()], metadata={"lang": "en"})
    text = ("Paciente de 70 años, minero jubilado, sin alergias medicamentosas conocidas, que presenta "
            "como antecedentes un accidente laboral con fracturas costales.")
    with caplog.at_level(logging.WARNING):
        doc = pipe(Document("es1", text))
    assert doc.layer("phi")
    assert doc_ref("es1") in caplog.text and "does not look like English" in caplog.text
    assert "Paciente" not in caplog.text  # never the note text


class _Fixed(Detector):
    def __init__(self, name, spans):
        self.name = name
        self._spans = spans

    def detect(self, doc):
        return list(self._spans)


def test_cover_resolution_trims_remainders_against_the_text():
    from notescrub.detect.spans.resolve import Cover

    # 'Ann Lee' (longest) wins; the losers' parts outside it are ', MD' (trimmed to 'MD') and
    # ', ' (no letter or digit: dropped, not redacted as a DOCTOR)
    text = "Dr. Ann Lee, MD saw him"
    win = Span(4, 11, "DOCTOR", 0.9, "a")
    tail = Span(9, 15, "DOCTOR", 0.5, "b")
    comma = Span(9, 13, "DOCTOR", 0.4, "c")
    doc = Pipeline([_Fixed("a", [win]), _Fixed("b", [tail]), _Fixed("c", [comma])], resolver=Cover())(Document("d", text))
    assert [text[s.start:s.end] for s in doc.layer("phi")] == ["Ann Lee", "MD"]
