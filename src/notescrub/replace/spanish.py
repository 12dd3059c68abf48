"""Surrogate-mode handling of the MEDDOCAN labels that have no i2b2 equivalent.

* ``SEXO_SUJETO_ASISTENCIA`` (``Varón``, ``mujer``, ``H``, ``niña``): **kept as written.**
  Sex is not one of the HIPAA Safe Harbor identifiers, and a Spanish note agrees with it
  everywhere (``varón de 34 años, fumador``; ``mujer ... embarazada``; pronouns, anatomy):
  a surrogate of the other sex would contradict the rest of the note, and one of the
  same sex would change nothing. Use ``--types`` or ``--mode tag`` to remove it anyway.
* ``OTROS_SUJETO_ASISTENCIA`` (free-form identifying details: an occupation accident, a
  weapon, an ethnicity): no surrogate can be drawn for them, so they become the words
  ``dato omitido`` ("detail left out"), which read as part of the sentence instead of
  a bracket tag.

>>> from notescrub.replace.base import Context, ReplaceState
>>> doc = Document("d", "varón de 34 años.")
>>> ctx = Context(doc, Span(0, 5, "SEXO_SUJETO_ASISTENCIA"), "varón", "SEXO_SUJETO_ASISTENCIA", "d", None,
...               ReplaceState(), locale="es")
>>> KeepSex().replacement(ctx), OmittedDetail().replacement(ctx)
('varón', 'dato omitido')
"""

from __future__ import annotations

from notescrub.replace.base import Context, Operator
from notescrub.types import Document, Span  # noqa: F401  (used by the doctest)

__all__ = ["SPANISH_SURROGATES", "KeepSex", "OmittedDetail", "spanish_operators"]


class KeepSex(Operator):
    """A sex word stays as written (see the module doc for why)."""

    name = "keep-sex"

    def replacement(self, ctx: Context) -> str:
        ctx.state.count("kept:sex")
        return ctx.text


class OmittedDetail(Operator):
    """A free-form identifying detail becomes ``dato omitido`` (``detail omitted`` in English notes)."""

    name = "omitted"

    def replacement(self, ctx: Context) -> str:
        words = "dato omitido" if ctx.locale == "es" else "detail omitted"
        return words.capitalize() if ctx.text[:1].isupper() else words


#: native MEDDOCAN labels handled by their own operator in surrogate mode
SPANISH_SURROGATES = ("SEXO_SUJETO_ASISTENCIA", "OTROS_SUJETO_ASISTENCIA")


def spanish_operators() -> dict[str, Operator]:
    """``{native label: operator}`` for :data:`SPANISH_SURROGATES`."""
    return {"SEXO_SUJETO_ASISTENCIA": KeepSex(), "OTROS_SUJETO_ASISTENCIA": OmittedDetail()}
