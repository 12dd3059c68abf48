"""MEDDOCAN labels without an i2b2 type get a surrogate-mode treatment: never a tag mid-sentence."""

import re

from notescrub.replace import Replacer, SurrogateKey
from notescrub.taxonomy import scheme_labels
from notescrub.types import Document, Span

KEY = SurrogateKey(bytes(range(32)))


def _replace(text, parts):
    spans, pos = [], 0
    for value, label in parts:
        i = text.index(value, pos)
        spans.append(Span(i, i + len(value), label))
        pos = i + len(value)
    res = Replacer("surrogate", key=KEY).replace(Document("d", text, "P1", layers={"phi": spans}))
    return res


def test_sex_words_are_kept_and_details_read_as_words():
    res = _replace("Varón de 34 años, de raza negroide, natural de Madrid. Sexo: H.",
                   [("Varón", "SEXO_SUJETO_ASISTENCIA"), ("raza negroide", "OTROS_SUJETO_ASISTENCIA"),
                    ("Madrid", "TERRITORIO"), ("H", "SEXO_SUJETO_ASISTENCIA")])
    assert res.text.startswith("Varón de 34 años, de dato omitido, natural de ")
    assert res.text.endswith(". Sexo: H.") and "Madrid" not in res.text
    assert "[" not in res.text and not any(k.startswith("unknown_label") for k in res.report)


def test_every_meddocan_label_has_a_surrogate_mode_operator():
    rep = Replacer("surrogate", key=KEY)
    for label in scheme_labels("meddocan"):
        _op, _, fallback = rep.operator_for(Span(0, 1, label))
        assert not fallback, label
    text = " ".join(f"x{i}" for i, _ in enumerate(scheme_labels("meddocan")))
    parts = [(f"x{i}", label) for i, label in enumerate(scheme_labels("meddocan"))]
    res = _replace(text, parts)
    assert not re.search(r"\[\*\*|\*\*\]", res.text)
