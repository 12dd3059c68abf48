"""Date surrogates: one secret shift per patient, the written format kept.

Every date of a patient moves by the same number of days (drawn from the keyed HMAC
of the patient id, within ``shift_range``, never 0), so intervals between a
patient's dates are exact. The format is kept: ``3/18`` stays month/day,
``03/18/2091`` keeps its zero padding, ``March 18th`` keeps the month name and a
correct ordinal, ``18-Mar-91`` keeps the two-digit year, ``08/2084`` stays
month/year. Partial dates stay partial (a month/day date is shifted within the
document's most frequent year; a lone year moves as its 2nd of July does).
Weekday names are recomputed from the shifted date (or moved by the shift modulo
7 when the span has no full date); holidays become the shifted calendar date.
Spans with no readable date get a same-shape surrogate and are counted in the
report as ``date_fallback``.

>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> op = DateShift(shift_range=(-10, -10))
>>> def shift(text, doc_text=None):
...     doc = Document("d", doc_text or text, "P1")
...     i = doc.text.index(text)
...     ctx = Context(doc, Span(i, i + len(text), "DATE"), text, "DATE", "P1", SurrogateKey(bytes(32)), ReplaceState())
...     return op.replacement(ctx)
>>> [shift(t) for t in ["03/18/2091", "3/18", "March 18th", "18-Mar-91", "Mon 3/18/2091", "Christmas 2090"]]
['03/08/2091', '3/8', 'March 8th', '8-Mar-91', 'Thu 3/8/2091', 'December 15, 2090']
>>> shift("2091"), shift("08/2084"), shift("12 de marzo de 2019")
('2091', '08/2084', '2 de marzo de 2019')
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources
from typing import Any

from notescrub.errors import ConfigError
from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.datefmt import (
    WEEKDAY_RE,
    DateMatch,
    apply_case,
    month_of,
    ordinal,
    parse_dates,
    render_month,
    render_weekday,
    weekday_of,
)
from notescrub.replace.keys import SurrogateKey
from notescrub.replace.shapes import same_shape
from notescrub.types import Document, Span

__all__ = ["DateShift", "holiday_date", "patient_offset"]

_YEAR4 = re.compile(r"(?<!\d)((?:1[89]|2[0-2])\d{2})(?!\d)")


def patient_offset(key: SurrogateKey, patient: str, lo: int, hi: int) -> int:
    """The patient's secret date shift in days, in ``[lo, hi]`` and never 0."""
    if lo > hi or (lo == hi == 0):
        raise ConfigError(f"invalid date shift range [{lo}, {hi}]")
    rng = key.rng("DATE-SHIFT", patient, f"{lo}:{hi}")
    for _ in range(100):
        off = rng.randint(lo, hi)
        if off != 0:
            return off
    return hi if hi != 0 else lo


@lru_cache(maxsize=1)
def _holidays() -> tuple[list[dict[str, Any]], re.Pattern[str]]:
    data = json.loads(resources.files("notescrub.resources.surrogates").joinpath("holidays.json")
                      .read_text(encoding="utf-8"))["holidays"]
    names = sorted((n for h in data for n in h["names"]), key=len, reverse=True)
    rx = re.compile(r"(?<![^\W\d_])(?P<h>" + "|".join(re.escape(n) for n in names) + r")(?![^\W\d_])"
                    r"(?P<ysep>,?\s+(?:of\s+|de\s+|del\s+)?)?(?(ysep)(?P<y>(?:1[89]|2[0-2])\d{2})(?!\d)|)", re.IGNORECASE)
    return data, rx


def _easter(year: int) -> dt.date:
    a, b, c = year % 19, year // 100, year % 100
    d, e = b // 4, b % 4
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = c // 4, c % 4
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month = (h + l_ - 7 * m + 114) // 31
    day = (h + l_ - 7 * m + 114) % 31 + 1
    return dt.date(year, month, day)


def holiday_date(name: str, year: int) -> tuple[dt.date, str] | None:
    """Date of a holiday in ``year`` and the holiday's language, or ``None`` if unknown.

    >>> holiday_date("Thanksgiving", 2024)
    (datetime.date(2024, 11, 28), 'en')
    """
    data, _ = _holidays()
    key = " ".join(name.lower().split())
    for h in data:
        if key in h["names"]:
            rule = h["rule"]
            if isinstance(rule, list):
                return dt.date(year, rule[0], rule[1]), h["lang"]
            if "easter" in rule:
                return _easter(year) + dt.timedelta(days=rule["easter"]), h["lang"]
            return _nth_weekday(year, rule["month"], rule["weekday"], rule["nth"]), h["lang"]
    return None


def _nth_weekday(year: int, month: int, weekday: int, nth: int) -> dt.date:
    days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1) if dt.date(year, month, d).weekday() == weekday]
    return dt.date(year, month, days[nth - 1 if nth > 0 else nth])


def _safe_date(year: int, month: int, day: int) -> dt.date:
    try:
        return dt.date(year, month, day)
    except ValueError:  # 2/29 outside a leap year: use a leap year
        return dt.date(2000, month, day)


class DateShift(Operator):
    """Shift every date of a patient by one secret offset, keeping the written format.

    Parameters
    ----------
    shift_range:
        Inclusive range of day offsets (default ``(-365, -30)``).
    """

    name = "date-shift"
    needs_key = True

    def __init__(self, shift_range: tuple[int, int] = (-365, -30)) -> None:
        lo, hi = shift_range
        if lo > hi or (lo == hi == 0):
            raise ConfigError(f"invalid date shift range [{lo}, {hi}]: need low <= high and not only 0")
        self.shift_range = (int(lo), int(hi))

    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,
                key: SurrogateKey | None) -> None:
        years = Counter(int(y) for _, text in items for y in _YEAR4.findall(text))
        state.cache("date-ref")[doc.id] = years.most_common(1)[0][0] if years else None

    def offset(self, ctx: Context) -> int:
        cache = ctx.state.cache("date-offset")
        if ctx.patient not in cache:
            assert ctx.key is not None
            cache[ctx.patient] = patient_offset(ctx.key, ctx.patient, *self.shift_range)
        return int(cache[ctx.patient])

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        off = self.offset(ctx)
        ref = ctx.state.cache("date-ref").get(ctx.doc.id)
        century = (ref // 100) * 100 if ref else None
        text = ctx.text
        edits: list[tuple[int, int, str]] = []
        masked, hol_dates = self._holidays(text, off, ref, edits)
        matches = parse_dates(masked, order=ctx.date_order, century=century or 2000) if century else \
            self._parse_pivot(masked, ctx.date_order)
        full_new: list[dt.date] = list(hol_dates)
        for m in matches:
            new = self._shift(m, off, ref)
            if m.full:
                full_new.append(new)
            edits.extend(self._render(m, new, ctx.locale))
        claimed = [(a, b) for a, b, _ in edits] + [(m.start, m.end) for m in matches]
        for w in WEEKDAY_RE.finditer(text):
            if any(w.start() < b and a < w.end() for a, b in claimed):
                continue
            info = weekday_of(w.group())
            assert info is not None
            new_wd = full_new[0].weekday() if len(full_new) == 1 else (info[0] + off) % 7
            lang = "es" if info[1] == "en" and ctx.locale == "es" and info[2] else None
            edits.append((w.start(), w.end(), render_weekday(new_wd, w.group(), lang)))
        if not edits:
            ctx.state.count("date_fallback")
            return same_shape(text, ctx.key.rng("DATE-SHAPE", ctx.patient, text.strip().lower()), keep_letters=True)
        out = text
        for a, b, new_text in sorted(edits, reverse=True):
            out = out[:a] + new_text + out[b:]
        return out

    @staticmethod
    def _parse_pivot(text: str, order: str) -> list[DateMatch]:
        matches = parse_dates(text, order=order, century=2000)
        two_digit = [int(p.text) for m in matches for p in m.parts if p.kind == "year" and len(p.text) == 2]
        if two_digit and all(y >= 50 for y in two_digit):
            return parse_dates(text, order=order, century=1900)
        return matches

    def _holidays(self, text: str, off: int, ref: int | None,
                  edits: list[tuple[int, int, str]]) -> tuple[str, list[dt.date]]:
        _, rx = _holidays()
        masked = text
        dates: list[dt.date] = []
        for m in rx.finditer(text):
            year = int(m.group("y")) if m.group("y") else (ref or 2000)
            found = holiday_date(m.group("h"), year)
            if found is None:
                continue
            new = found[0] + dt.timedelta(days=off)
            month = render_month(new.month, "january" if found[1] == "es" else "January", found[1])
            if m.group("h").isupper():
                month = month.upper()
            if found[1] == "es":
                written = f"{new.day} de {month}" + (f" de {new.year}" if m.group("y") else "")
            else:
                written = f"{month} {new.day}" + (f", {new.year}" if m.group("y") else "")
            edits.append((m.start(), m.end(), written))
            masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end():]
            if m.group("y"):
                dates.append(new)
        return masked, dates

    @staticmethod
    def _shift(m: DateMatch, off: int, ref: int | None) -> dt.date:
        delta = dt.timedelta(days=off)
        if m.full:
            return dt.date(m.year, m.month, m.day) + delta  # type: ignore[arg-type]
        if m.month is not None and m.day is not None:
            return _safe_date(ref or 2000, m.month, m.day) + delta
        if m.year is not None and m.month is not None:
            return dt.date(m.year, m.month, 15) + delta
        if m.year is not None:
            return dt.date(m.year, 7, 2) + delta
        if m.day is not None:  # a lone day of month ("the 7th"): moved within a 31-day month
            return dt.date(2001, 1, m.day) + delta
        return dt.date(ref or 2001, m.month or 1, 15) + delta

    @staticmethod
    def _render(m: DateMatch, new: dt.date, locale: str) -> list[tuple[int, int, str]]:
        numeric = [p for p in m.parts if p.kind in ("month", "day")]
        pad_all = len(numeric) > 1 and all(len(p.text) == 2 for p in numeric)
        out = []
        for p in m.parts:
            if p.kind == "year":
                val = f"{new.year % 100:02d}" if len(p.text) == 2 else str(new.year)
            elif p.kind in ("month", "day"):
                n = new.month if p.kind == "month" else new.day
                pad = len(p.text) == 2 and (p.text.startswith("0") or pad_all)
                val = f"{n:02d}" if pad else str(n)
            elif p.kind == "monthname":
                info = month_of(p.text)
                lang = "es" if info and info[2] and locale == "es" else None
                val = render_month(new.month, p.text, lang)
            elif p.kind == "ord" and p.text.isascii():
                val = apply_case(p.text, ordinal(new.day))
            else:
                val = p.text
            out.append((p.start, p.end, val))
        return out
