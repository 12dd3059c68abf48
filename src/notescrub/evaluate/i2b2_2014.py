"""i2b2/UTHealth 2014 de-identification metrics, as the official ``evaluate.py phi``.

Per document, gold and system tags become *sets of keys*; TP is the intersection,
FP system minus gold, FN gold minus system (duplicate keys collapse):

* **strict**: key ``(category, start, end, subtype)``;
* **relaxed**: as strict, but two keys are equal when the ends differ by at most
  2 characters. Like the official script this is Python set semantics with an
  end-tolerant ``__eq__`` and an end-blind ``__hash__`` (so two gold tags of the
  same category, start and type whose ends are within 2 collapse into one);
* **token**: each tag's text is split into ``[a-zA-Z0-9]+`` runs (ASCII, as the
  official tokenizer: ``España`` gives ``Espa`` and ``a``); each run is a key
  ``(category, subtype, start, end)``;
* **hipaa_***: tags of both sides are first filtered to the HIPAA subset
  (:func:`notescrub.taxonomy.hipaa_eval_subtypes`);
* **binary_strict** / **binary_token**: keys without category and type.

Micro ("primary") sums counts over documents; macro averages per-document P and
R (0/0 counts as 0, so a document with no gold and no predicted PHI lowers the
macro scores, as in the official script). ``compat_official=True`` reproduces the
script's quirks: IDNUM is missing from the HIPAA filter, and a tag that starts at
offset 0 gets an extra empty token ``(0, 0)``. (Skipping documents missing from
the system side is handled by :mod:`notescrub.evaluate.pairing`.)

>>> from notescrub.evaluate.labels import Item
>>> g = [Item(4, 8, "DOCTOR", "NAME", "DOCTOR", "DOCTOR"), Item(12, 22, "DATE", "DATE", "DATE", "DATE")]
>>> p = [Item(4, 8, "PATIENT", "NAME", "PATIENT", "PATIENT"), Item(12, 20, "DATE", "DATE", "DATE", "DATE")]
>>> text = "Dr. Ruiz on 2016-03-18."
>>> r = score([("d1", text, g, p)])
>>> r["strict"]["micro"]["tp"], r["relaxed"]["micro"]["tp"], r["binary_strict"]["micro"]["tp"]
(0, 1, 1)
>>> r["token"]["micro"]["tp"], r["token"]["micro"]["fn"]
(2, 2)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from notescrub.evaluate.counts import PRF, macro
from notescrub.evaluate.labels import Item
from notescrub.taxonomy import hipaa_eval_subtypes

__all__ = [
    "MEASURES",
    "RELAXED_END_TOLERANCE",
    "RelaxedKey",
    "relaxed_keys",
    "score",
    "set_counts",
    "strict_keys",
    "token_keys",
]

#: The measures reported, in report order.
MEASURES = ("strict", "relaxed", "token", "hipaa_strict", "hipaa_relaxed", "hipaa_token",
            "binary_strict", "binary_token")
RELAXED_END_TOLERANCE = 2
_TOKEN_RE = re.compile(r"[a-zA-Z0-9]+")

#: One document to score: (doc_id, text, gold items, predicted items).
DocItems = tuple[str, str, Sequence[Item], Sequence[Item]]
KeyFn = Callable[[Sequence[Item], str], list[Hashable]]


class RelaxedKey:
    """Key equal to another when category, start and type match and ends differ by ≤ 2."""

    __slots__ = ("category", "end", "label", "start")

    def __init__(self, category: str, start: int, end: int, label: str) -> None:
        self.category, self.start, self.end, self.label = category, start, end, label

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RelaxedKey):
            return NotImplemented
        return (
            self.category == other.category
            and self.start == other.start
            and self.label == other.label
            and abs(self.end - other.end) <= RELAXED_END_TOLERANCE
        )

    def __hash__(self) -> int:
        return hash((self.category, self.start, self.label))

    def __repr__(self) -> str:
        return f"RelaxedKey({self.category}, {self.start}, {self.end}, {self.label})"


def strict_keys(items: Sequence[Item], text: str) -> list[Hashable]:
    return [(i.category, i.start, i.end, i.label) for i in items]


def relaxed_keys(items: Sequence[Item], text: str) -> list[Hashable]:
    return [RelaxedKey(i.category, i.start, i.end, i.label) for i in items]


def _tokens(item: Item, text: str, compat: bool) -> Iterable[tuple[int, int]]:
    if compat and item.start == 0:
        yield (0, 0)  # the official tokenizer's leading dummy token when a tag starts the text
    for m in _TOKEN_RE.finditer(text, item.start, item.end):
        yield (m.start(), m.end())


def token_keys(items: Sequence[Item], text: str, compat: bool = False) -> list[Hashable]:
    return [(i.category, i.label, a, b) for i in items for a, b in _tokens(i, text, compat)]


def _binary_strict(items: Sequence[Item], text: str) -> list[Hashable]:
    return [(i.start, i.end) for i in items]


def _binary_token(items: Sequence[Item], text: str, compat: bool = False) -> list[Hashable]:
    return [t for i in items for t in _tokens(i, text, compat)]


def set_counts(gold_keys: Iterable[Hashable], sys_keys: Iterable[Hashable]) -> PRF:
    """TP/FP/FN of two key collections with set semantics (duplicates collapse)."""
    g = set(gold_keys)
    s = set(sys_keys)
    return PRF(tp=len(g & s), fp=len(s - g), fn=len(g - s))


def _per_doc(docs: Sequence[DocItems], keyfn: KeyFn, keep: Callable[[Item], bool] | None) -> list[PRF]:
    out = []
    for _doc_id, text, gold, pred in docs:
        if keep is not None:
            gold = [i for i in gold if keep(i)]
            pred = [i for i in pred if keep(i)]
        out.append(set_counts(keyfn(gold, text), keyfn(pred, text)))
    return out


def _summary(per_doc: list[PRF]) -> dict[str, Any]:
    return {"micro": PRF.total(per_doc).as_dict(), "macro": macro(per_doc)}


def _breakdown(docs: Sequence[DocItems], keyfn: KeyFn, attr: str) -> dict[str, Any]:
    values = sorted({getattr(i, attr) for _, _, g, p in docs for i in (*g, *p)})

    def has(v: Any) -> Callable[[Item], bool]:
        return lambda i: getattr(i, attr) == v

    return {v: PRF.total(_per_doc(docs, keyfn, has(v))).as_dict() for v in values}


def score(docs: Sequence[DocItems], *, compat_official: bool = False) -> dict[str, Any]:
    """Every i2b2 2014 measure (see module docstring) for already-paired documents."""
    hipaa = hipaa_eval_subtypes(compat_official)

    def in_hipaa(i: Item) -> bool:
        return i.phi in hipaa

    def tok(items: Sequence[Item], text: str) -> list[Hashable]:
        return token_keys(items, text, compat_official)

    def btok(items: Sequence[Item], text: str) -> list[Hashable]:
        return _binary_token(items, text, compat_official)

    plan: dict[str, tuple[KeyFn, Callable[[Item], bool] | None]] = {
        "strict": (strict_keys, None),
        "relaxed": (relaxed_keys, None),
        "token": (tok, None),
        "hipaa_strict": (strict_keys, in_hipaa),
        "hipaa_relaxed": (relaxed_keys, in_hipaa),
        "hipaa_token": (tok, in_hipaa),
        "binary_strict": (_binary_strict, None),
        "binary_token": (btok, None),
    }
    result: dict[str, Any] = {}
    for name in MEASURES:
        keyfn, keep = plan[name]
        per_doc = _per_doc(docs, keyfn, keep)
        entry = _summary(per_doc)
        if name in ("strict", "relaxed", "token"):
            entry["by_category"] = _breakdown(docs, keyfn, "category")
            entry["by_subtype"] = _breakdown(docs, keyfn, "label")
        if name == "strict":
            entry["per_document"] = {d[0]: c.as_dict() for d, c in zip(docs, per_doc)}
        result[name] = entry
    result["hipaa_subtypes"] = sorted(hipaa)
    return result
