"""Audit de-identified output for leftover PHI, without ever showing a PHI value.

Two checks, reported as counts by kind with the ids of the documents concerned:

* **leaks** (:func:`audit_pair`): how many PHI strings of the original documents
  (gold spans, or a model's predictions *on the original*) still occur in the
  de-identified document with the same id, more often than the original has them
  outside PHI (so the patient "Graves" is not a leak because of "Graves' disease").
  A string is searched in three forms: as written (spacing aside), normalised
  (case-folded, accents dropped, runs of spaces and punctuation made one space:
  "RUIZ-LOPEZ" finds "ruiz lopez"), and, for numbers, by their digits alone
  ("617-555-0199" finds "6175550199"); the words of a person's name are also searched
  one by one ("Maria Gonzalez" finds "GONZALEZ"). Each leftover is reported with its type,
  document and offsets in the de-identified text (:class:`Leftover`); its text only
  when asked (``show_text``). Values that cannot identify anyone on their own are not checked
  and are counted apart: strings shorter than 3 characters, ages up to 89 (kept by
  the HIPAA rule), lone years, and lone weekday or month names.
* **patterns** (:func:`audit_output`): PHI-like shapes left in the output text — dates,
  phone numbers, SSNs, long ID numbers, e-mails, URLs, IP addresses, and capitalised
  words found in the name lists (not common words, medical terms or place words).
  Hits inside spans the de-identified corpus still annotates (re-located surrogates)
  are ignored. Surrogates look like PHI on purpose, so on unannotated surrogate output
  these counts are an upper bound to review, not leaks.

>>> orig = [Document("a", "Seen by Dr. Ruiz on 03/18/2091.", layers={"gold": [Span(12, 16, "DOCTOR"), Span(20, 30, "DATE")]})]
>>> out = [Document("a", "Seen by Dr. Ruiz on [**DATE**].")]
>>> rep = audit_pair(orig, out)
>>> rep.leaks, rep.leak_docs
(Counter({'DOCTOR': 1}), {'DOCTOR': ['a']})
>>> [(x.type, x.start, x.end, x.matched) for x in rep.leftovers]
[('DOCTOR', 12, 16, 'exact')]
>>> out = [Document("a", "Seen by Dr. RUIZ on [**DATE**].")]
>>> [(x.type, x.matched) for x in audit_pair(orig, out).leftovers]
[('DOCTOR', 'normalised')]
>>> audit_output([Document("b", "Call 617-555-0199 on 3/18/2091.")]).patterns
Counter({'phone': 1, 'date': 1})
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from notescrub.types import GOLD, Document, Span

__all__ = ["PATTERNS", "AuditReport", "Leftover", "audit_output", "audit_pair", "fold", "number_runs"]

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|"
          r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|"
          r"octubre|noviembre|diciembre)")

#: kind -> compiled pattern of PHI-like shapes.
PATTERNS: dict[str, re.Pattern[str]] = {
    "email": re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)+\b"),
    "url": re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE),
    "ip": re.compile(r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?![\d.])"),
    "ssn": re.compile(r"(?<!\d)\d{3}-\d{2}-\d{4}(?!\d)"),
    "phone": re.compile(r"(?<![\d-])(?:\(\d{3}\)\s?|\d{3}[-.\s])\d{3}[-.\s]\d{4}(?!\d)"),
    "date": re.compile(
        r"(?<![\d/.])\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2})(?![\d/])|(?<!\d)\d{4}-\d{2}-\d{2}(?!\d)|"
        rf"\b{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?\b|\b\d{{1,2}}(?:\s+de)?\s+{_MONTH}\b", re.IGNORECASE),
    "id_number": re.compile(r"(?<![\w.-])(?:[A-Z]{1,4}[-#]?)?\d(?:[\d-]{4,})\d(?![\w.-])"),
}
_CAP_WORD = re.compile(r"\b[A-Z][a-z]{2,}\b|\b[A-Z]{3,}\b")
_YEAR = re.compile(r"^\s*'?\d{2,4}s?\s*$")
_NUMBER = re.compile(r"\d+")


@dataclass(frozen=True)
class Leftover:
    """One original PHI string found again in the de-identified text.

    ``start``/``end`` are offsets in the de-identified document; ``position`` is the
    document's 1-based place in the original corpus; ``matched`` is the form that found it
    (``exact``, ``normalised``, ``digits`` or ``name-part``). ``text`` is ``None`` unless asked for.
    """

    document: str
    position: int
    type: str
    start: int
    end: int
    matched: str
    text: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"document": self.document, "position": self.position, "type": self.type, "start": self.start,
               "end": self.end, "matched": self.matched}
        if self.text is not None:
            out["text"] = self.text
        return out


@dataclass
class AuditReport:
    """Counts and positions; no PHI value is stored unless ``show_text`` asked for leftover texts."""

    documents: int = 0
    checked: int = 0
    not_checked: Counter = field(default_factory=Counter)
    leaks: Counter = field(default_factory=Counter)
    leak_docs: dict[str, list[str]] = field(default_factory=dict)
    patterns: Counter = field(default_factory=Counter)
    pattern_docs: dict[str, list[str]] = field(default_factory=dict)
    missing: list[str] = field(default_factory=list)
    leftovers: list[Leftover] = field(default_factory=list)
    patterns_scanned: bool = True
    source: str = ""

    @property
    def leaked(self) -> int:
        return sum(self.leaks.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "documents": self.documents, "phi_checked": self.checked, "phi_not_checked": dict(self.not_checked),
            "leaked": self.leaked, "leaks_by_type": dict(self.leaks), "leak_documents": self.leak_docs,
            "patterns_by_kind": dict(self.patterns), "pattern_documents": self.pattern_docs,
            "documents_missing_from_output": self.missing,
            "leftovers": [x.to_dict() for x in self.leftovers], "phi_source": self.source,
        }

    def format(self, max_ids: int = 10) -> str:
        """A plain-text summary (counts and document ids)."""
        def ids(d: list[str]) -> str:
            return ", ".join(d[:max_ids]) + (f" (+{len(d) - max_ids} more)" if len(d) > max_ids else "")

        from notescrub.docref import doc_ref

        lines = [f"documents audited: {self.documents}" + (f" (original PHI: {self.source})" if self.source else "")]
        if self.checked or self.leaks or self.not_checked:
            lines.append(f"original PHI strings checked: {self.checked}; still present in the output: {self.leaked}")
            lines += [f"  {t:<16} {n:>6}  in {ids(self.leak_docs[t])}" for t, n in self.leaks.most_common()]
            if self.not_checked:
                lines.append("  not checked: " + ", ".join(f"{k} {v}" for k, v in sorted(self.not_checked.items())))
        if self.leftovers:
            lines.append("leftovers (type, document, offsets in the de-identified text, how found):")
            for x in self.leftovers:
                text = "" if x.text is None else f"  {x.text!r}"
                lines.append(f"  {x.type:<16} {doc_ref(x.document, x.position)}  {x.start}-{x.end}  {x.matched}{text}")
        if self.patterns_scanned:
            lines.append(f"PHI-like patterns left in the output: {sum(self.patterns.values())}")
            lines += [f"  {k:<16} {n:>6}  in {ids(self.pattern_docs[k])}" for k, n in self.patterns.most_common()]
        if self.missing:
            lines.append(f"documents missing from the output: {len(self.missing)} ({ids(self.missing)})")
        return "\n".join(lines)


def _skip_reason(span: Span, value: str) -> str | None:
    from notescrub.replace.datefmt import month_of, weekday_of

    v = value.strip()
    if len(v) < 3:
        return "short"
    phi = span.phi
    if phi == "AGE":
        n = _NUMBER.search(v)
        if n is None or int(n.group()) <= 89:
            return "age_kept_by_policy"
    if phi == "DATE":
        if _YEAR.match(v):
            return "year_only"
        if all(month_of(w) or weekday_of(w) for w in re.findall(r"[^\W\d_]+", v)) and not any(c.isdigit() for c in v):
            return "month_or_weekday_only"
    return None


def _exact(value: str, text: str) -> list[tuple[int, int]]:
    """Where ``value`` occurs in ``text`` as written, as whole words (any run of spaces between words)."""
    words = value.split()
    rx = r"(?<![^\W_])" + r"\s+".join(re.escape(w) for w in words) + r"(?![^\W_])"
    return [m.span() for m in re.finditer(rx, text)]


def fold(text: str) -> tuple[str, list[int]]:
    """``text`` case-folded, accents dropped, each run of non-alphanumerics one space; with,
    for each character of the result, its offset in ``text``.

    >>> fold("Dr. RUIZ-López")[0]
    'dr ruiz lopez'
    """
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if ch.isalnum():
            for c in unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", ch).casefold()):
                if not unicodedata.combining(c):
                    out.append(c)
                    where.append(i)
        elif out and out[-1] != " ":
            out.append(" ")
            where.append(i)
    if out and out[-1] == " ":
        out.pop()
        where.pop()
    return "".join(out), where


def _folded(value: str, folded: tuple[str, list[int]]) -> list[tuple[int, int]]:
    v = fold(value)[0]
    text, where = folded
    if not v:
        return []
    found, i = [], text.find(v)
    while i >= 0:
        j = i + len(v)
        if (i == 0 or text[i - 1] == " ") and (j == len(text) or text[j] == " "):
            found.append((where[i], where[j - 1] + 1))
        i = text.find(v, i + 1)
    return found


_NUMBER_RUN = re.compile(r"(?<![^\W\d_])\d(?:[ \-./()+]{0,2}\d)*")


def number_runs(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, digits)`` of every run of digits joined by spaces and punctuation.

    >>> number_runs("Call (617) 555-0199 now, room 12.")
    [(6, 19, '6175550199'), (30, 32, '12')]
    """
    out = []
    for m in _NUMBER_RUN.finditer(text):
        out.append((m.start(), m.end(), re.sub(r"\D", "", m.group())))
    return out


def _is_number(value: str) -> str | None:
    """The digits of ``value`` when it is a number worth searching by its digits alone."""
    digits = re.sub(r"\D", "", value)
    letters = sum(c.isalpha() for c in value)
    return digits if len(digits) >= 4 and len(digits) >= letters else None


def _by_digits(digits: str, runs: list[tuple[int, int, str]]) -> list[tuple[int, int]]:
    return [(a, b) for a, b, d in runs if d == digits or (len(digits) >= 5 and digits in d)]


_NAME_TYPES = frozenset({"PATIENT", "DOCTOR", "USERNAME", "NAME", "PERSON"})
_NAME_PART = re.compile(r"[^\W\d_]{3,}(?:['’-][^\W\d_]+)*")


def _name_parts(value: str) -> list[str]:
    """The words of a person's name worth searching alone ("Maria Gonzalez" -> both; no initials or titles)."""
    from notescrub.lexicons import lexicon

    skip = lexicon("titles") | lexicon("credentials")
    parts = _NAME_PART.findall(value)
    return [p for p in parts if p.lower() not in skip] if len(parts) > 1 else []


class _Views:
    """The forms of one text that values are searched in (computed once per document)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.folded = fold(text)
        self.runs = number_runs(text)

    def find(self, value: str) -> dict[str, list[tuple[int, int]]]:
        out = {"exact": _exact(value, self.text), "normalised": _folded(value, self.folded)}
        digits = _is_number(value)
        out["digits"] = _by_digits(digits, self.runs) if digits else []
        return out

    def find_part(self, part: str) -> list[tuple[int, int]]:
        return _folded(part, self.folded)


def _outside(doc: Document, layer: str) -> str:
    """The document text with the spans of ``layer`` blanked out."""
    chars = list(doc.text)
    for s in doc.layer(layer):
        for a, b in s.pieces:
            chars[a:b] = " " * (b - a)
    return "".join(chars)


def _add(counter: Counter, where: dict[str, list[str]], kind: str, doc_id: str, n: int = 1) -> None:
    counter[kind] += n
    ids = where.setdefault(kind, [])
    if doc_id not in ids:
        ids.append(doc_id)


def audit_pair(original: Iterable[Document], deidentified: Iterable[Document], *, layer: str = GOLD,
               patterns: bool = True, show_text: bool = False) -> AuditReport:
    """Find original PHI strings (spans of ``layer``) still present in the output document of the same id.

    A span's value is searched as written, normalised and (numbers) by its digits; it is a
    leftover when one form occurs more often in the output than in the original outside PHI.
    ``patterns`` also scans the output for PHI-like shapes (which surrogates have too);
    ``show_text`` keeps the leftover strings in the report (they are PHI).
    """
    out = {d.id: d for d in deidentified}
    rep = AuditReport(patterns_scanned=patterns)
    for position, doc in enumerate(original, 1):
        new = out.pop(doc.id, None)
        if new is None:
            rep.missing.append(doc.id)
            continue
        rep.documents += 1
        background = _Views(_outside(doc, layer))
        output = _Views(new.text)
        reported: set[tuple[int, int]] = set()
        for span in doc.layer(layer):
            value = " ".join(doc.span_text(span).split())
            reason = _skip_reason(span, value)
            if reason:
                rep.not_checked[reason] += 1
                continue
            rep.checked += 1
            here, there = output.find(value), background.find(value)
            form = next((f for f in ("exact", "normalised", "digits") if len(here[f]) > len(there[f])), None)
            kind = span.phi or span.label
            hits = here[form] if form else []
            if form is None and (kind in _NAME_TYPES or span.label in _NAME_TYPES):
                # a surname or first name left alone is a leftover too
                for part in _name_parts(value):
                    mine = output.find_part(part)
                    if len(mine) > len(background.find_part(part)):
                        form = "name-part"
                        hits += mine
            if form is None:
                continue
            _add(rep.leaks, rep.leak_docs, kind, doc.id)
            for a, b in hits:
                if (a, b) not in reported:
                    reported.add((a, b))
                    rep.leftovers.append(Leftover(doc.id, position, kind, a, b, form,
                                                  new.text[a:b] if show_text else None))
        if patterns:
            _scan(new, rep)
    return rep


def audit_output(deidentified: Iterable[Document], *, layer: str = GOLD) -> AuditReport:
    """Flag PHI-like patterns left in de-identified documents (no original needed)."""
    rep = AuditReport()
    for doc in deidentified:
        rep.documents += 1
        _scan(doc, rep, layer)
    return rep


@lru_cache(maxsize=1)
def _name_words() -> tuple[frozenset[str], frozenset[str]]:
    from notescrub.lexicons import lexicon

    names = lexicon("first_names") | lexicon("last_names")
    not_names = (lexicon("common_words") | lexicon("medical_terms") | lexicon("eponyms") | lexicon("months")
                 | lexicon("weekdays") | lexicon("titles") | lexicon("credentials") | lexicon("nationalities")
                 | lexicon("hospital_words") | lexicon("organization_words") | lexicon("street_suffixes"))
    return frozenset(names), frozenset(not_names)


def _scan(doc: Document, rep: AuditReport, layer: str = GOLD) -> None:
    covered = [(s.start, s.end) for s in doc.layer(layer)]

    def inside(a: int, b: int) -> bool:
        return any(x <= a and b <= y for x, y in covered)

    taken: list[tuple[int, int]] = []
    for kind, rx in PATTERNS.items():
        n = 0
        for m in rx.finditer(doc.text):
            if inside(m.start(), m.end()) or any(m.start() < y and x < m.end() for x, y in taken):
                continue
            taken.append((m.start(), m.end()))
            n += 1
        if n:
            _add(rep.patterns, rep.pattern_docs, kind, doc.id, n)
    names, not_names = _name_words()
    n = 0
    for m in _CAP_WORD.finditer(doc.text):
        w = m.group().lower()
        if w in names and w not in not_names and not inside(m.start(), m.end()):
            n += 1
    if n:
        _add(rep.patterns, rep.pattern_docs, "name_word", doc.id, n)
