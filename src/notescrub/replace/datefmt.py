"""Find the date parts of a DATE span and remember how each part was written.

:func:`parse_dates` returns :class:`DateMatch` objects: which characters hold the
year, month (number or name), day, ordinal suffix, and how each was written (width,
zero padding, month-name language, abbreviation, letter case), so that
:mod:`notescrub.replace.dates` can write a shifted date in exactly the same format.
English and Spanish month and weekday names are recognised.

>>> [m.fields() for m in parse_dates("03/18/2091")]
[{'year': 2091, 'month': 3, 'day': 18}]
>>> [m.fields() for m in parse_dates("18-Mar-91", century=2000)]
[{'year': 2091, 'month': 3, 'day': 18}]
>>> [m.fields() for m in parse_dates("12 de marzo de 2019", order="DMY")]
[{'year': 2019, 'month': 3, 'day': 12}]
>>> [m.fields() for m in parse_dates("08/2084")], [m.fields() for m in parse_dates("3/18")]
([{'year': 2084, 'month': 8}], [{'month': 3, 'day': 18}])
>>> render_month(11, "Mar.", "en"), render_month(2, "MARZO", "es")
('Nov.', 'FEBRERO')
>>> ordinal(1), ordinal(22), ordinal(13)
('st', 'nd', 'th')
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field

__all__ = [
    "WEEKDAY_RE",
    "DateMatch",
    "Part",
    "apply_case",
    "expand_year",
    "month_of",
    "ordinal",
    "parse_dates",
    "render_month",
    "render_weekday",
    "weekday_of",
]

MONTHS = {
    "en": ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"],
    "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
           "noviembre", "diciembre"],
}
WEEKDAYS = {
    "en": ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
    "es": ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
}
_EXTRA_WEEKDAYS = {"tues": 1, "weds": 2, "thur": 3, "thurs": 3, "miercoles": 2, "sabado": 5}


def _month_table() -> dict[str, tuple[int, str, bool]]:
    table: dict[str, tuple[int, str, bool]] = {}
    for lang in ("es", "en"):  # English wins on shared abbreviations ("mar", "may")
        for i, name in enumerate(MONTHS[lang], 1):
            table[name] = (i, lang, False)
            table[name[:3]] = (i, lang, True)
    table["sept"] = (9, "en", True)
    table["setiembre"] = (9, "es", False)
    return table


def _weekday_table() -> dict[str, tuple[int, str, bool]]:
    table: dict[str, tuple[int, str, bool]] = {}
    for lang in ("es", "en"):
        for i, name in enumerate(WEEKDAYS[lang]):
            table[name] = (i, lang, False)
            if lang == "en":
                table[name[:3]] = (i, lang, True)
    for k, v in _EXTRA_WEEKDAYS.items():
        table[k] = (v, "es", False) if k in ("miercoles", "sabado") else (v, "en", True)
    return table


_MONTHS = _month_table()
_WEEKDAYS = _weekday_table()


def _alt(words: list[str]) -> str:
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


MONTH = rf"(?<![^\W\d_])(?:{_alt(list(_MONTHS))})(?![^\W\d_])"
WEEKDAY_RE = re.compile(rf"(?<![^\W\d_])(?:{_alt(list(_WEEKDAYS))})(?![^\W\d_])", re.IGNORECASE)
_ORD = r"(?:st|nd|rd|th|º|ª|°)"
_Y = r"(?P<ap>')?(?P<y>\d{4}|\d{2})"

#: (kind, pattern); numeric-only patterns mark ambiguous day/month with groups a, b.
_PATTERNS: list[tuple[str, str]] = [
    ("ymd", r"(?<!\d)(?P<y>\d{4})(?P<s1>[-/.])(?P<m>\d{1,2})(?P=s1)(?P<d>\d{1,2})(?!\d)"),
    ("abY", r"(?<![\d.])(?P<a>\d{1,2})(?P<s1>[-/.])(?P<b>\d{1,2})(?P=s1)(?P<y>\d{4}|\d{2})(?![\d/])"),
    ("dnY", (rf"(?<!\d)(?P<d>\d{{1,2}})(?P<o>{_ORD})?(?:\s*[-/.]\s*|\s+de\s+|\s+of\s+|\s+)(?P<mn>{MONTH})"
             rf"(?:\.?,?\s*[-/.]\s*|\.?\s+del?\s+|\.?,?\s+|\.?,|')(?P<ap>')?(?P<y>\d{{4}}|\d{{2}})(?!\d)")),
    ("ndY", rf"(?P<mn>{MONTH})(?:\.?\s*|\.?-)(?P<d>\d{{1,2}})(?P<o>{_ORD})?(?:,\s*|\s+|,)(?P<ap>')?(?P<y>\d{{4}})(?!\d)"),
    ("nY", rf"(?P<mn>{MONTH})(?:\.?,?\s+(?:of\s+|del?\s+)?|\.?\s*[-/]\s*|\.|\s*(?='))(?P<ap>')?(?P<y>\d{{4}})(?!\d)"),
    ("dn", rf"(?<!\d)(?P<d>\d{{1,2}})(?P<o>{_ORD})?(?:\s+de\s+|\s+of\s+|\s*-\s*|\s+)(?P<mn>{MONTH})"),
    ("nd", rf"(?P<mn>{MONTH})(?:\.?\s*|\.?-)(?P<d>\d{{1,2}})(?P<o>{_ORD})?(?!\d)"),
    ("nY2", rf"(?P<mn>{MONTH})(?:\.?\s*[-/']\s*|\s+')(?P<y>\d{{2}})(?!\d)"),
    ("mY", r"(?<![\d.])(?P<m>\d{1,2})(?P<s1>[-/.])(?P<y>\d{4})(?!\d)"),
    ("Ym", r"(?<!\d)(?P<y>\d{4})(?P<s1>[-/])(?P<m>\d{1,2})(?![\d/-])"),
    ("ab", r"(?<![\d.])(?P<a>\d{1,2})(?P<s1>[-/])(?P<b>\d{1,2})(?![\d/])"),
    ("ymd8", r"(?<!\d)(?P<y>(?:1[89]|2[0-2])\d{2})(?P<m>0[1-9]|1[0-2])(?P<d>0[1-9]|[12]\d|3[01])(?!\d)"),
    ("y", r"(?<![\d'])(?P<y>(?:1[89]|2[0-2])\d{2})(?!\d)"),
    ("y2", r"(?P<ap>')(?P<y>\d{2})(?!\d)"),
    ("dord", r"(?<!\d)(?P<d>\d{1,2})(?P<o>st|nd|rd|th)(?![^\W\d_])"),
    ("n", rf"(?P<mn>{MONTH})"),
]
_COMPILED = [(k, re.compile(p, re.IGNORECASE)) for k, p in _PATTERNS]


@dataclass
class Part:
    """One written date component: its offsets in the span text and how it looks."""

    kind: str  # "year", "month", "monthname", "day", "ord"
    start: int
    end: int
    text: str


@dataclass
class DateMatch:
    """A date found in a span: its extent, its values and the written parts."""

    start: int
    end: int
    year: int | None = None
    month: int | None = None
    day: int | None = None
    parts: list[Part] = field(default_factory=list)

    def fields(self) -> dict[str, int]:
        """The known components (``year``, ``month``, ``day``)."""
        return {k: v for k, v in (("year", self.year), ("month", self.month), ("day", self.day)) if v is not None}

    @property
    def full(self) -> bool:
        return None not in (self.year, self.month, self.day)


def expand_year(text: str, century: int) -> int:
    """Four-digit year of a written year (two digits use ``century``)."""
    return int(text) if len(text) == 4 else century + int(text)


def month_of(word: str) -> tuple[int, str, bool] | None:
    """``(month, language, abbreviated)`` of a month name, or ``None``."""
    return _MONTHS.get(word.lower().rstrip("."))


def weekday_of(word: str) -> tuple[int, str, bool] | None:
    """``(weekday Monday=0, language, abbreviated)`` of a weekday name, or ``None``."""
    return _WEEKDAYS.get(word.lower())


def apply_case(model: str, word: str) -> str:
    """Write ``word`` in the letter case of ``model`` (UPPER, lower, Title or as is)."""
    letters = [c for c in model if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    if letters and all(c.islower() for c in letters):
        return word.lower()
    if letters and letters[0].isupper():
        return word[:1].upper() + word[1:]
    return word


def render_month(month: int, model: str, lang: str | None = None) -> str:
    """Month ``month`` written like ``model`` (language, abbreviation, case, trailing period)."""
    info = month_of(model)
    lang = lang or (info[1] if info else "en")
    abbr = info[2] if info else len(model.rstrip(".")) <= 4
    name = MONTHS[lang][month - 1]
    return apply_case(model, name[:3] if abbr else name) + ("." if model.endswith(".") else "")


def render_weekday(weekday: int, model: str, lang: str | None = None) -> str:
    """Weekday ``weekday`` (Monday=0) written like ``model``."""
    info = weekday_of(model)
    lang = lang or (info[1] if info else "en")
    abbr = info[2] if info else len(model) <= 4
    name = WEEKDAYS[lang][weekday]
    return apply_case(model, name[:3] if abbr else name)


def ordinal(day: int) -> str:
    """English ordinal suffix of a day number."""
    if 10 <= day % 100 <= 20:
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")


def _valid(y: int | None, m: int | None, d: int | None) -> bool:
    if m is not None and not 1 <= m <= 12:
        return False
    if d is not None:
        if not 1 <= d <= 31:
            return False
        if m is not None:
            year = y if y is not None else 2000  # leap: 2/29 of an unknown year is allowed
            if d > calendar.monthrange(year, m)[1]:
                return False
    return True


def _build(kind: str, m: re.Match[str], order: str, century: int) -> DateMatch | None:
    g = m.groupdict()
    parts: list[Part] = []

    def part(name: str, kind_: str) -> None:
        if g.get(name) is not None:
            parts.append(Part(kind_, m.start(name), m.end(name), g[name]))

    year = expand_year(g["y"], century) if g.get("y") else None
    month = day = None
    if g.get("mn"):
        info = month_of(g["mn"])
        month = info[0] if info else None
        part("mn", "monthname")
    if g.get("m"):
        month = int(g["m"])
        part("m", "month")
    if g.get("d"):
        day = int(g["d"])
        part("d", "day")
    part("o", "ord")
    if g.get("a"):
        a, b = int(g["a"]), int(g["b"])
        first_is_day = order == "DMY"
        if kind == "ab" and b > 31 and 1 <= a <= 12:  # 08/84: month / two-digit year
            month, year = a, expand_year(g["b"], century)
            parts += [Part("month", m.start("a"), m.end("a"), g["a"]), Part("year", m.start("b"), m.end("b"), g["b"])]
            return DateMatch(m.start(), m.end(), year, month, None, parts)
        if not _valid(year, b if first_is_day else a, a if first_is_day else b):
            first_is_day = not first_is_day
        month, day = (b, a) if first_is_day else (a, b)
        parts.append(Part("day" if first_is_day else "month", m.start("a"), m.end("a"), g["a"]))
        parts.append(Part("month" if first_is_day else "day", m.start("b"), m.end("b"), g["b"]))
    if kind == "nd" and day is not None and day > 31:  # "Mar-91" is read by the month-year pattern
        return None
    part("y", "year")
    if not _valid(year, month, day):
        return None
    return DateMatch(m.start(), m.end(), year, month, day, parts)


def parse_dates(text: str, *, order: str = "MDY", century: int = 2000) -> list[DateMatch]:
    """All dates written in ``text``, left to right, without overlaps.

    ``order`` decides ambiguous numeric dates (``MDY`` for English, ``DMY`` for
    Spanish); an impossible reading falls back to the other order. Two-digit
    years are read in ``century``.
    """
    taken: list[tuple[int, int]] = []
    found: list[DateMatch] = []
    for kind, rx in _COMPILED:
        for m in rx.finditer(text):
            if any(m.start() < b and a < m.end() for a, b in taken):
                continue
            dm = _build(kind, m, order, century)
            if dm is None:
                continue
            taken.append((m.start(), m.end()))
            found.append(dm)
    return sorted(found, key=lambda d: d.start)

