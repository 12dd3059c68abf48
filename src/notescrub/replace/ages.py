"""Age surrogates: HIPAA's rule for ages over 89, other ages kept or bucketed.

Ages 90 and over are a HIPAA Safe Harbor identifier and become ``90+`` (the number
only; ``92-year-old`` -> ``90+-year-old``, ``ninety-two`` -> ``90+``). Younger ages
are kept by default (``bucket=None``) or replaced by a range of ``bucket`` years
(``bucket=10``: ``47`` -> ``40-49``).

>>> from notescrub.types import Document, Span
>>> from notescrub.replace.base import Context, ReplaceState
>>> def age(text, bucket=None):
...     ctx = Context(Document("d", text), Span(0, len(text), "AGE"), text, "AGE", "d", None, ReplaceState())
...     return AgeSurrogate(bucket).replacement(ctx)
>>> age("92"), age("47"), age("47", bucket=10), age("ninety-two"), age("101 y/o")
('90+', '47', '40-49', '90+', '90+ y/o')
"""

from __future__ import annotations

import re

from notescrub.errors import ConfigError
from notescrub.replace.base import Context, Operator

__all__ = ["HIPAA_AGE_LIMIT", "AgeSurrogate", "words_to_number"]

HIPAA_AGE_LIMIT = 89

_UNITS = {w: i for i, w in enumerate(["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"])}
_TENS = {w: 10 * i for i, w in enumerate(["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]) if i > 1}
_NUMBER_WORDS = re.compile(r"\b(?:(?:" + "|".join(_TENS) + r")(?:[\s-]+(?:" + "|".join(list(_UNITS)[1:10]) + r"))?|"
                           + "|".join(_UNITS) + r"|(?:one\s+)?hundred(?:\s+(?:and\s+)?\w+(?:[\s-]\w+)?)?)\b", re.IGNORECASE)
_DIGITS = re.compile(r"(?<![\d.])\d{1,3}(?![\d.]\d)")


def words_to_number(text: str) -> int | None:
    """Value of an English number written in words (up to 199), else ``None``.

    >>> words_to_number("ninety-two"), words_to_number("one hundred and one"), words_to_number("many")
    (92, 101, None)
    """
    total = 0
    found = False
    for w in re.split(r"[\s-]+", text.lower()):
        if w in ("and", "a", ""):
            continue
        if w == "hundred":
            total = (total or 1) * 100
        elif w in _UNITS:
            total += _UNITS[w]
        elif w in _TENS:
            total += _TENS[w]
        else:
            return None
        found = True
    return total if found else None


class AgeSurrogate(Operator):
    """Ages over 89 -> ``90+``; other ages kept, or bucketed when ``bucket`` is set."""

    name = "age"

    def __init__(self, bucket: int | None = None) -> None:
        if bucket is not None and not 2 <= bucket <= 50:
            raise ConfigError("age bucket width must be between 2 and 50 years")
        self.bucket = bucket

    def _new(self, value: int) -> str | None:
        if value > HIPAA_AGE_LIMIT:
            return f"{HIPAA_AGE_LIMIT + 1}+"
        if self.bucket:
            lo = value // self.bucket * self.bucket
            return f"{lo}-{lo + self.bucket - 1}"
        return None

    def replacement(self, ctx: Context) -> str:
        text = ctx.text
        m = _DIGITS.search(text)
        if m:
            new = self._new(int(m.group()))
            if new is not None:
                ctx.state.count("age_generalised")
                return text[: m.start()] + new + text[m.end():]
            return text
        for w in _NUMBER_WORDS.finditer(text):
            value = words_to_number(w.group())
            if value is not None:
                new = self._new(value)
                if new is not None:
                    ctx.state.count("age_generalised")
                    return text[: w.start()] + new + text[w.end():]
                return text
        return text
