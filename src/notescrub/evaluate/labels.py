"""Which label a scorer compares: canonical subtype, native label or category.

Spans keep the label their source wrote (``NOMBRE_SUJETO_ASISTENCIA``, ``DOCTOR``).
A scorer compares one of

* ``"canonical"`` - the i2b2-2014 subtype (:attr:`Span.phi`); the category is
  :func:`notescrub.taxonomy.category_of` of it. Spans whose label is known but has
  no i2b2-2014 equivalent (MEDDOCAN ``SEXO_SUJETO_ASISTENCIA``) are left out and
  counted; labels no scheme knows raise :class:`~notescrub.errors.LabelError`.
* ``"native"`` - the label exactly as written; the category is
  :func:`notescrub.taxonomy.native_category`.
* ``"category"`` - the i2b2-2014 category only (``NAME``, ``LOCATION``...).

>>> from notescrub.types import Span
>>> items, dropped = to_items([Span(0, 5, "NOMBRE_SUJETO_ASISTENCIA"), Span(6, 7, "SEXO_SUJETO_ASISTENCIA")],
...                           "canonical", doc_id="d1", side="gold")
>>> [(i.label, i.category) for i in items], dropped
([('PATIENT', 'NAME')], {'SEXO_SUJETO_ASISTENCIA': 1})
>>> to_items([Span(0, 5, "NOMBRE_SUJETO_ASISTENCIA")], "native", doc_id="d1", side="gold")[0][0].label
'NOMBRE_SUJETO_ASISTENCIA'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from notescrub.errors import LabelError
from notescrub.taxonomy import (
    canonical,
    category_of,
    native_category,
    require_label,
    scheme_labels,
)
from notescrub.types import Span

__all__ = ["LABEL_MODES", "Item", "check_scheme_labels", "to_items"]

LABEL_MODES = ("canonical", "native", "category")


@dataclass(frozen=True, slots=True, order=True)
class Item:
    """A span reduced to what scorers compare."""

    start: int
    end: int
    label: str  #: the compared label (depends on the mode)
    category: str  #: i2b2-2014-style category used in keys
    phi: str | None  #: canonical subtype (for the HIPAA filter), None if none
    native: str  #: the span's own label


def to_items(
    spans: Iterable[Span], mode: str, *, doc_id: str, side: str
) -> tuple[list[Item], dict[str, int]]:
    """Convert spans for ``mode``; return the items and ``{label: count}`` of spans left out."""
    if mode not in LABEL_MODES:
        raise LabelError(f"unknown label mode {mode!r}; choose one of {', '.join(LABEL_MODES)}")
    items: list[Item] = []
    dropped: dict[str, int] = {}
    for s in spans:
        sub = canonical(s.label)
        if mode == "native":
            items.append(Item(s.start, s.end, s.label, native_category(s.label), sub, s.label))
            continue
        if sub is None:
            try:
                require_label(s.label)
            except LabelError:
                raise LabelError(
                    f"document {doc_id!r}, {side} side: label {s.label!r} is in no known scheme "
                    f"(use --labels native to compare labels as written)"
                ) from None
            dropped[s.label] = dropped.get(s.label, 0) + 1
            continue
        cat = category_of(sub)
        items.append(Item(s.start, s.end, sub if mode == "canonical" else cat, cat, sub, s.label))
    return items, dropped


def check_scheme_labels(spans: Iterable[Span], scheme: str, *, doc_id: str, side: str) -> None:
    """Raise :class:`LabelError` for a label that is not part of ``scheme``'s native labels."""
    allowed = set(scheme_labels(scheme))
    for s in spans:
        if s.label not in allowed:
            raise LabelError(
                f"document {doc_id!r}, {side} side: label {s.label!r} is not a {scheme} label "
                f"(use --labels canonical to compare mapped subtypes)"
            )
