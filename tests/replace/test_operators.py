"""Type-independent operators."""

import pytest

from notescrub.errors import ConfigError
from notescrub.replace.base import Context, ReplaceState
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.operators import Hash, Keep, Mask, Redact, Tag
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(32))


def ctx(text, label="PHONE", patient="P1"):
    doc = Document("d", text, patient)
    span = Span(0, len(text), label)
    return Context(doc, span, text, span.phi or label, patient, KEY, ReplaceState())


@pytest.mark.parametrize(
    "op, text, label, expected",
    [
        (Redact(), "617-555-0199", "PHONE", ""),
        (Tag(), "Ruiz", "DOCTOR", "[**DOCTOR**]"),
        (Tag("xml"), "Ruiz", "DOCTOR", "<DOCTOR>"),
        (Tag("[{category}:{label}]"), "Pérez", "NOMBRE_SUJETO_ASISTENCIA", "[NAME:NOMBRE_SUJETO_ASISTENCIA]"),
        (Tag(), "x", "SEXO_SUJETO_ASISTENCIA", "[**SEXO_SUJETO_ASISTENCIA**]"),
        (Mask(), "617-555-0199", "PHONE", "***-***-****"),
        (Mask("X"), "Ruiz,\nAna", "PATIENT", "XXXX,\nXXX"),
        (Mask(), "--", "DATE", "**"),
        (Keep(), "2091", "DATE", "2091"),
    ],
)
def test_operator_table(op, text, label, expected):
    assert op.replacement(ctx(text, label)) == expected


def test_mask_keeps_length_and_line_breaks():
    text = "NGUYEN, THI\r\n  HOA"
    out = Mask().replacement(ctx(text, "PATIENT"))
    assert len(out) == len(text)
    assert [i for i, c in enumerate(out) if c in "\r\n "] == [i for i, c in enumerate(text) if c in "\r\n "]


def test_hash_is_keyed_and_normalised():
    a = Hash().replacement(ctx("617-555-0199"))
    assert a == Hash().replacement(ctx("(617) 555 0199"))
    assert a != Hash().replacement(ctx("617-555-0199", patient="P2"))
    assert Hash(per_patient=False).replacement(ctx("617-555-0199", patient="P1")) == \
        Hash(per_patient=False).replacement(ctx("617-555-0199", patient="P2"))
    assert a.startswith("PHONE-") and len(a) == len("PHONE-") + 10


@pytest.mark.parametrize("bad", [lambda: Tag("{nope}"), lambda: Mask(""), lambda: Mask(" "), lambda: Hash(2)])
def test_bad_options(bad):
    with pytest.raises(ConfigError):
        bad()
