"""Phone and fax surrogates: valid North-American numbers, fictional (555-01xx) by default.

A span holding a North-American number (``(617) 555-0148``, ``617.555.0148``,
``+1 617 555 0148``, ``1-800-555-0176``, ``555-0148``) gets a number of the same
written form (parentheses, dots, dashes, spaces, ``+1`` kept) whose area code is valid
(``[2-9][0-8][0-9]``, not ``N11``; toll-free stays toll-free) and, by default, whose
exchange and line are in the range reserved for fiction, ``555-0100`` to ``555-0199``.
With ``fictional=False`` the exchange is any valid one (``[2-9]XX``, not ``N11`` nor
``555``). An extension (``ext 3311``) gets other digits; a span with no North-American
number (an internal extension ``4-6290``, a foreign number) keeps its shape with new digits.
The choice is keyed on the number's digits, so ``617 555 0148`` and ``(617) 555-0148``
map alike, and a PHONE and a FAX with the same digits get the same surrogate.

>>> from notescrub.replace.keys import SurrogateKey
>>> rng = SurrogateKey(bytes(32)).rng("PHONE", "P1", "6175550148")
>>> out = surrogate_phone("(617) 555-0148", rng)
>>> out[0] + out[4:6] + out[9], out[6:12]
('() -', '555-01')
>>> is_fictional(out), is_fictional("617-555-0148"), is_fictional("617-555-0248")
(True, True, False)
"""

from __future__ import annotations

import random
import re

from notescrub.replace.base import Context, Operator
from notescrub.replace.shapes import same_shape

__all__ = ["NANP", "PhoneSurrogate", "is_fictional", "nanp_parts", "surrogate_phone"]

#: a North-American number: optional +1/1, area code (maybe in parentheses), exchange, line
NANP = re.compile(
    r"(?<![\d])(?P<cc>\+?1(?P<ccsep>[\s.\-]?))?(?P<open>\()?(?P<npa>\d{3})(?P<close>\))?(?P<sep1>[\s.\-]{0,2})"
    r"(?P<nxx>\d{3})(?P<sep2>[\s.\-])?(?P<line>\d{4})(?![\d])"
)
#: seven digits without an area code: 555-0148
LOCAL = re.compile(r"(?<![\d\-.])(?P<nxx>[2-9]\d{2})(?P<sep2>[\s.\-])(?P<line>\d{4})(?![\d])")
_TOLL_FREE = ("800", "833", "844", "855", "866", "877", "888")


def nanp_parts(text: str) -> tuple[str, str, str] | None:
    """``(area code, exchange, line)`` of the first North-American number in ``text``, else ``None``.

    >>> nanp_parts("call +1 (617) 555-0148 ext 2"), nanp_parts("4-6290")
    (('617', '555', '0148'), None)
    """
    m = NANP.search(text)
    if m and bool(m.group("open")) == bool(m.group("close")):
        return m.group("npa"), m.group("nxx"), m.group("line")
    return None


def is_fictional(text: str) -> bool:
    """True when ``text`` holds a North-American number in the 555-0100..0199 range (or a bare 555-01xx)."""
    parts = nanp_parts(text)
    if parts is None:
        m = LOCAL.search(text)
        parts = ("", m.group("nxx"), m.group("line")) if m else None
    return parts is not None and parts[1] == "555" and parts[2].startswith("01")


def _area_code(rng: random.Random, toll_free: bool) -> str:
    if toll_free:
        return rng.choice(_TOLL_FREE)
    while True:
        code = f"{rng.randint(2, 9)}{rng.randint(0, 8)}{rng.randint(0, 9)}"
        if code[1:] != "11" and code not in _TOLL_FREE and code not in ("555", "900", "976"):
            return code


def _exchange(rng: random.Random, fictional: bool) -> tuple[str, str]:
    if fictional:
        return "555", f"01{rng.randint(0, 99):02d}"
    while True:
        nxx = f"{rng.randint(2, 9)}{rng.randint(0, 9)}{rng.randint(0, 9)}"
        if nxx[1:] != "11" and nxx != "555":
            return nxx, f"{rng.randint(0, 9999):04d}"


def surrogate_phone(text: str, rng: random.Random, *, fictional: bool = True) -> str:
    """A surrogate for a phone or fax span: same form, valid North-American number (see module doc)."""
    for _ in range(50):
        out = _draw(text, rng, fictional)
        if out != text:
            return out
    return same_shape(text, rng)


def _draw(text: str, rng: random.Random, fictional: bool) -> str:
    m = NANP.search(text)
    if m and bool(m.group("open")) == bool(m.group("close")):
        npa = _area_code(rng, m.group("npa") in _TOLL_FREE)
        nxx, line = _exchange(rng, fictional)
        a, b = m.span("npa")
        c, d = m.span("nxx")
        e, f = m.span("line")
        new = text[:a] + npa + text[b:c] + nxx + text[d:e] + line
        return _digits_after(new, text[f:], rng)
    m = LOCAL.search(text)
    if m:
        nxx, line = _exchange(rng, fictional)
        c, d = m.span("nxx")
        e, f = m.span("line")
        return _digits_after(text[:c] + nxx + text[d:e] + line, text[f:], rng, head_digits=text[:c])
    return same_shape(text, rng)


def _digits_after(new: str, tail: str, rng: random.Random, head_digits: str = "") -> str:
    """Other digits in the rest of the span (an extension), digits before a local number too."""
    if any(c.isdigit() for c in head_digits):
        new = same_shape(head_digits, rng) + new[len(head_digits):]
    return new + (same_shape(tail, rng, keep_letters=True) if any(c.isdigit() for c in tail) else tail)


class PhoneSurrogate(Operator):
    """PHONE and FAX: valid North-American numbers in the written form of the original.

    ``fictional`` (default) draws exchange and line from the 555-0100..0199 range that
    is reserved for fiction, so no surrogate can ring a real line.
    """

    name = "phone"
    needs_key = True

    def __init__(self, fictional: bool = True) -> None:
        self.fictional = fictional

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        digits = "".join(c for c in ctx.text if c.isdigit())
        parts = nanp_parts(ctx.text)
        if parts is not None:  # +1 617 555 0148 and (617) 555-0148 are one number
            digits = "".join(parts) + digits[digits.find("".join(parts)) + 10 :]
        kind = "PHONE" if self.fictional else "PHONE-any"
        return surrogate_phone(ctx.text, ctx.key.rng(kind, ctx.patient, digits), fictional=self.fictional)

    def __repr__(self) -> str:
        return f"PhoneSurrogate(fictional={self.fictional})"
