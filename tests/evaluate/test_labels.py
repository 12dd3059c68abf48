import pytest

from notescrub.errors import LabelError
from notescrub.evaluate.labels import check_scheme_labels, to_items
from notescrub.types import Span


@pytest.mark.parametrize(
    "label, mode, expected",
    [
        ("NOMBRE_SUJETO_ASISTENCIA", "canonical", ("PATIENT", "NAME", "PATIENT")),
        ("NOMBRE_SUJETO_ASISTENCIA", "native", ("NOMBRE_SUJETO_ASISTENCIA", "NAME", "PATIENT")),
        ("NOMBRE_SUJETO_ASISTENCIA", "category", ("NAME", "NAME", "PATIENT")),
        ("FAMILIARES_SUJETO_ASISTENCIA", "native", ("FAMILIARES_SUJETO_ASISTENCIA", "OTHER", "PATIENT")),
        ("HCPName", "canonical", ("DOCTOR", "NAME", "DOCTOR")),
        ("ZIP", "canonical", ("ZIP", "LOCATION", "ZIP")),
        ("CUSTOM_THING", "native", ("CUSTOM_THING", "OTHER", None)),
    ],
)
def test_modes(label, mode, expected):
    items, dropped = to_items([Span(0, 3, label)], mode, doc_id="d", side="gold")
    assert (items[0].label, items[0].category, items[0].phi) == expected
    assert items[0].native == label and dropped == {}


def test_known_label_without_subtype_is_dropped_and_counted():
    spans = [Span(0, 1, "SEXO_SUJETO_ASISTENCIA"), Span(2, 3, "SEXO_SUJETO_ASISTENCIA"), Span(4, 5, "DATE")]
    items, dropped = to_items(spans, "canonical", doc_id="d", side="gold")
    assert [i.label for i in items] == ["DATE"]
    assert dropped == {"SEXO_SUJETO_ASISTENCIA": 2}


def test_unknown_label_is_an_error_naming_document_and_label():
    with pytest.raises(LabelError, match=r"'d9'.*'WHATEVER'"):
        to_items([Span(0, 1, "WHATEVER")], "canonical", doc_id="d9", side="pred")


def test_unknown_mode():
    with pytest.raises(LabelError):
        to_items([], "fancy", doc_id="d", side="gold")


def test_scheme_label_check():
    check_scheme_labels([Span(0, 1, "FECHAS")], "meddocan", doc_id="d", side="gold")
    with pytest.raises(LabelError, match="not a meddocan label"):
        check_scheme_labels([Span(0, 1, "DATE")], "meddocan", doc_id="d", side="pred")
