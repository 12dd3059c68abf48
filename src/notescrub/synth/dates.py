"""Dates written every way clinicians write them (full, partial, weekday, holiday, ordinal).

Each function returns the text of one DATE span. Formatting is done by hand (no locale- or
platform-dependent ``strftime`` flags) so output is identical everywhere.

>>> from datetime import date
>>> d = date(2091, 3, 18)
>>> [format_date(d, style) for style in ("mdY", "iso", "long", "dmy_abbr", "md")]
['03/18/2091', '2091-03-18', 'March 18, 2091', '18-Mar-2091', '3/18']
>>> format_date(d, "month_year"), format_date(d, "ordinal_day")
('March 2091', '18th')
>>> weekday(d)
'Sunday'
"""

from __future__ import annotations

import random
from datetime import date, timedelta

__all__ = ["FULL_STYLES", "PARTIAL_STYLES", "format_date", "ordinal", "random_full", "random_partial", "shift", "weekday"]

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
MONTHS_ABBR = [m[:3] for m in MONTHS]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``11th``, ``23rd``."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def weekday(d: date) -> str:
    return DAYS[d.weekday()]


def format_date(d: date, style: str) -> str:
    """Write ``d`` in the named style (see :data:`FULL_STYLES` and :data:`PARTIAL_STYLES`)."""
    m, dd, y = d.month, d.day, d.year
    yy = f"{y % 100:02d}"
    mon, mab = MONTHS[m - 1], MONTHS_ABBR[m - 1]
    table = {
        # full dates (one span each, year included)
        "mdY": f"{m:02d}/{dd:02d}/{y}", "mdY_short": f"{m}/{dd}/{y}", "mdy": f"{m}/{dd}/{yy}", "mdy0": f"{m:02d}/{dd:02d}/{yy}",
        "iso": f"{y}-{m:02d}-{dd:02d}", "long": f"{mon} {dd}, {y}", "long_nocomma": f"{mon} {dd} {y}", "abbr": f"{mab} {dd}, {y}",
        "abbr_dot": f"{mab}. {dd}, {y}", "dmy_abbr": f"{dd:02d}-{mab}-{y}", "dmy_abbr2": f"{dd}-{mab}-{yy}", "dmy_long": f"{dd} {mon} {y}",
        "dmy_short": f"{dd} {mab} {y}", "m-d-Y": f"{m:02d}-{dd:02d}-{y}", "m.d.Y": f"{m:02d}.{dd:02d}.{y}", "compact": f"{y}{m:02d}{dd:02d}",
        "long_ord": f"{mon} {ordinal(dd)}, {y}", "caps_abbr": f"{mab.upper()} {dd:02d} {y}", "Ymd_slash": f"{y}/{m:02d}/{dd:02d}",
        # partial dates
        "md": f"{m}/{dd}", "md0": f"{m:02d}/{dd:02d}", "month_day": f"{mon} {dd}", "abbr_day": f"{mab} {dd}", "month_ord": f"{mon} {ordinal(dd)}",
        "month_year": f"{mon} {y}", "abbr_year": f"{mab} {y}", "m_Y": f"{m:02d}/{y}", "m_y": f"{m}/{yy}", "year": f"{y}", "month": mon,
        "ordinal_day": ordinal(dd), "day_month": f"{dd} {mon}", "mon_apos_yy": f"{mab} '{yy}",
    }
    try:
        return table[style]
    except KeyError:
        raise ValueError(f"unknown date style {style!r}") from None


FULL_STYLES = ("mdY", "mdY", "mdY", "mdY_short", "mdY_short", "mdy", "mdy0", "iso", "long", "long", "long_nocomma", "abbr", "abbr_dot",
               "dmy_abbr", "dmy_abbr2", "dmy_long", "dmy_short", "m-d-Y", "m.d.Y", "compact", "long_ord", "caps_abbr", "Ymd_slash")
PARTIAL_STYLES = ("md", "md", "md", "md0", "month_day", "abbr_day", "month_ord", "month_year", "abbr_year", "m_Y", "m_y", "year", "month",
                  "day_month", "mon_apos_yy")


def random_full(d: date, rng: random.Random) -> str:
    return format_date(d, rng.choice(FULL_STYLES))


def random_partial(d: date, rng: random.Random) -> str:
    return format_date(d, rng.choice(PARTIAL_STYLES))


def shift(d: date, days: int) -> date:
    """``d`` moved by ``days`` (clamped to the representable range)."""
    try:
        return d + timedelta(days=days)
    except OverflowError:  # pragma: no cover - only for absurd offsets
        return d
