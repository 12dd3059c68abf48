"""Same-shape surrogates for numbers and codes: IDs, MRNs, phones, fax, ZIPs, e-mails, URLs, IPs.

Digits become digits, letters become letters of the same case, separators stay, so
``7730-1185`` becomes another ``dddd-dddd``; a number that does not start with 0
does not start with 0 afterwards (area codes, ZIPs, MRNs stay plausible). The
result is never equal to the original. Choices come from the keyed HMAC of the
value's letters and digits, so ``7730-1185`` and ``77301185`` map alike.

>>> from notescrub.replace.keys import SurrogateKey
>>> key = SurrogateKey(bytes(32))
>>> out = same_shape("MRN 7730-1185", key.rng("ID", "P1", "x"))
>>> shape_of(out) == shape_of("MRN 7730-1185"), out != "MRN 7730-1185"
(True, True)
>>> shape_of("IRS-0412-7730-HH")
'AAA-dddd-dddd-AA'
>>> ip = random_ip("10.1.22.130", key.rng("IP", "P1", "x"))
>>> [len(p) for p in ip.split(".")]
[2, 1, 2, 3]
"""

from __future__ import annotations

import random
import re
import string

from notescrub.replace.base import Context, Operator
from notescrub.replace.keys import normalise_value

__all__ = [
    "EmailSurrogate",
    "IPSurrogate",
    "RoomSurrogate",
    "ShapeSurrogate",
    "UrlSurrogate",
    "random_ip",
    "same_shape",
    "shape_of",
]

_MAX_TRIES = 50


def shape_of(text: str) -> str:
    """``d`` for digits, ``A``/``a`` for upper/lower letters, other characters kept."""
    return "".join("d" if c.isdigit() else "A" if c.isupper() else "a" if c.isalpha() else c for c in text)


def _draw(text: str, rng: random.Random, keep_letters: bool) -> str:
    out = []
    first_digit = True
    for c in text:
        if c.isdigit():
            lo = 1 if (first_digit and c != "0") else 0
            out.append(str(rng.randint(lo, 9)))
            first_digit = False
        elif c.isalpha() and not keep_letters:
            letter = rng.choice(string.ascii_uppercase)
            out.append(letter if c.isupper() else letter.lower())
        else:
            out.append(c)
    return "".join(out)


def same_shape(text: str, rng: random.Random, *, keep_letters: bool = False) -> str:
    """A random string of the same shape as ``text``, different from it when possible."""
    if not any(c.isalnum() for c in text):
        return text
    for _ in range(_MAX_TRIES):
        cand = _draw(text, rng, keep_letters)
        if cand != text:
            return cand
    return _draw(text, rng, False)


def random_ip(text: str, rng: random.Random) -> str:
    """A random IPv4 address whose octets keep their digit counts (other text: same shape)."""
    parts = text.split(".")
    if len(parts) != 4 or not all(p.isdigit() and 1 <= len(p) <= 3 for p in parts):
        return same_shape(text, rng)
    for _ in range(_MAX_TRIES):
        octets = []
        for p in parts:
            lo, hi = {1: (0, 9), 2: (10, 99), 3: (100, 255)}[len(p)]
            octets.append(str(rng.randint(lo, hi)))
        cand = ".".join(octets)
        if cand != text:
            return cand
    return same_shape(text, rng)


def _id_value(text: str) -> str:
    return "".join(c for c in normalise_value(text) if c.isalnum())


class ShapeSurrogate(Operator):
    """IDs, MRNs, account numbers, phones, fax, ZIPs, SSNs, usernames: same shape, new characters.

    ``keep_words``: leave alphabetic runs of this length or longer alone (words such as
    ``MRN`` or ``Room`` inside a span are not identifying); 0 replaces every letter.
    """

    name = "shape"
    needs_key = True

    def __init__(self, keep_words: int = 0) -> None:
        self.keep_words = keep_words

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        rng = ctx.key.rng("ID:" + ctx.type, ctx.patient, _id_value(ctx.text))
        if not self.keep_words:
            return same_shape(ctx.text, rng)
        pieces = re.split(r"([^\W\d_]{" + str(self.keep_words) + r",})", ctx.text)
        out = "".join(p if i % 2 else same_shape(p, rng) for i, p in enumerate(pieces))
        return out if out != ctx.text else same_shape(ctx.text, rng)


class RoomSurrogate(ShapeSurrogate):
    """Rooms and beds: numbers and short codes change, words (``Room``, ``Bed``) stay."""

    name = "room"

    def __init__(self) -> None:
        super().__init__(keep_words=3)


class EmailSurrogate(Operator):
    """``local@domain.tld``: local part and domain labels get new letters/digits, the TLD stays."""

    name = "email"
    needs_key = True

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        rng = ctx.key.rng("EMAIL", ctx.patient, normalise_value(ctx.text))
        local, at, domain = ctx.text.rpartition("@")
        if not at:
            return same_shape(ctx.text, rng)
        labels = domain.split(".")
        head = [same_shape(lab, rng) for lab in labels[:-1]] if len(labels) > 1 else [same_shape(domain, rng)]
        tail = labels[-1:] if len(labels) > 1 else []
        return f"{same_shape(local, rng)}@{'.'.join(head + tail)}"


_URL = re.compile(r"^(?P<scheme>[a-z][a-z0-9+.-]*://)?(?P<www>www\d?\.)?(?P<host>[^/:?#]*)(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


class UrlSurrogate(Operator):
    """Scheme, ``www.`` and top-level domain stay; host labels and path get new characters."""

    name = "url"
    needs_key = True

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        rng = ctx.key.rng("URL", ctx.patient, normalise_value(ctx.text))
        m = _URL.match(ctx.text)
        if not m or not m.group("host"):
            return same_shape(ctx.text, rng)
        labels = m.group("host").split(".")
        host = ".".join([same_shape(lab, rng) for lab in labels[:-1]] + labels[-1:]) if len(labels) > 1 \
            else same_shape(labels[0], rng)
        out = (m.group("scheme") or "") + (m.group("www") or "") + host + same_shape(m.group("rest"), rng)
        return out if out != ctx.text else same_shape(ctx.text, rng)


class IPSurrogate(Operator):
    """IPv4 addresses: random octets with the same digit counts."""

    name = "ip"
    needs_key = True

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        return random_ip(ctx.text, ctx.key.rng("IPADDR", ctx.patient, ctx.text.strip()))
