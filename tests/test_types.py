import pytest

from notescrub.errors import OffsetError
from notescrub.types import Document, Span


def test_span_is_immutable_and_hashable():
    s = Span(0, 4, "DOCTOR", meta={"id": "T1"})
    with pytest.raises(AttributeError):
        s.start = 3  # type: ignore[misc]
    assert s == Span(0, 4, "DOCTOR", meta={"id": "T9"})  # meta is not part of equality
    assert len({s, Span(0, 4, "DOCTOR")}) == 1


@pytest.mark.parametrize("start,end", [(-1, 2), (5, 4)])
def test_span_rejects_bad_offsets(start, end):
    with pytest.raises(OffsetError):
        Span(start, end, "DATE")


def test_document_rejects_span_past_text_and_never_shows_text():
    doc = Document("d1", "secret name")
    with pytest.raises(OffsetError) as e:
        doc.add_layer("gold", [Span(0, 50, "PATIENT")])
    assert "secret" not in str(e.value)
    assert "secret" not in repr(doc)


def test_layers_are_sorted_and_discontinuous_text_joined():
    doc = Document("d", "Ana y Luis Pérez")
    doc.add_layer("gold", [Span(6, 16, "PATIENT"), Span(0, 16, "PATIENT", fragments=((0, 3), (11, 16)))])
    assert [s.start for s in doc.layer("gold")] == [0, 6]
    assert doc.span_text(doc.layer("gold")[0]) == "Ana Pérez"


def test_canonical_labels_from_every_scheme():
    assert Span(0, 1, "NOMBRE_PERSONAL_SANITARIO").phi == "DOCTOR"
    assert Span(0, 1, "RelativeProxyName").phi == "PATIENT"
    assert Span(0, 1, "SEXO_SUJETO_ASISTENCIA").phi is None
    assert Span(0, 1, "ZIP").category == "LOCATION"
