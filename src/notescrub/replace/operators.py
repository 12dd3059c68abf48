"""Type-independent operators: redact, tag, mask and keyed hash.

>>> from notescrub.types import Document, Span
>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> doc = Document("d", "Call 617-555-0199 now")
>>> ctx = Context(doc, Span(5, 17, "PHONE"), "617-555-0199", "PHONE", "d", SurrogateKey(bytes(32)), ReplaceState())
>>> Redact().replacement(ctx)
''
>>> Tag().replacement(ctx), Tag("<{type}>").replacement(ctx)
('[**PHONE**]', '<PHONE>')
>>> Mask().replacement(ctx)
'***-***-****'
>>> Hash().replacement(ctx)
'PHONE-...'
"""

from __future__ import annotations

import string
from typing import Any

from notescrub.errors import ConfigError, LabelError
from notescrub.replace.base import Context, Operator
from notescrub.replace.keys import normalise_value
from notescrub.taxonomy import category_of

__all__ = ["NAME_TYPES", "TAG_TEMPLATES", "Hash", "Keep", "Mask", "Redact", "Tag"]

#: Types whose hash tokens are made word by word (partial names linked to full names).
NAME_TYPES = frozenset(["PATIENT", "DOCTOR"])

#: Named tag templates (``--tag-template i2b2``); any other string is used as the template.
TAG_TEMPLATES = {"i2b2": "[**{type}**]", "xml": "<{type}>", "brackets": "[{type}]", "category": "[**{category}**]"}


class Redact(Operator):
    """Remove the span's text entirely."""

    name = "redact"

    def replacement(self, ctx: Context) -> str:
        return ""


class Tag(Operator):
    """Replace by a tag built from a template.

    Fields: ``{type}`` canonical subtype (or the native label when it has none),
    ``{label}`` native label, ``{category}`` i2b2-2014 category.
    """

    name = "tag"

    def __init__(self, template: str = "[**{type}**]") -> None:
        template = TAG_TEMPLATES.get(template, template)
        try:
            template.format(type="T", label="L", category="C")
        except (KeyError, IndexError, ValueError) as exc:
            raise ConfigError(f"bad tag template {template!r}: use the fields {{type}}, {{label}}, {{category}} ({exc})") from None
        self.template = template

    def replacement(self, ctx: Context) -> str:
        try:
            category = category_of(ctx.type)
        except LabelError:
            category = "OTHER"
        return self.template.format(type=ctx.type, label=ctx.span.label, category=category)

    def __repr__(self) -> str:
        return f"Tag({self.template!r})"


class Mask(Operator):
    """Same length: letters and digits become ``char``; punctuation and line breaks stay.

    Fixed-width layouts survive. A span without any letter or digit is masked
    entirely (except line breaks), so its original text never remains.
    """

    name = "mask"

    def __init__(self, char: str = "*") -> None:
        if len(char) != 1 or char.isspace():
            raise ConfigError(f"mask character must be one visible character, got {char!r}")
        self.char = char

    def replacement(self, ctx: Context) -> str:
        text = ctx.text
        if any(c.isalnum() for c in text):
            return "".join(self.char if c.isalnum() else c for c in text)
        return "".join(c if c in "\r\n" else self.char for c in text)

    def __repr__(self) -> str:
        return f"Mask({self.char!r})"


class Hash(Operator):
    """A keyed pseudonym ``TYPE-<hex>``: same value -> same token, irreversible without the key.

    ``per_patient`` (default) includes the patient in the HMAC like surrogates do;
    set it to ``False`` to link equal values across patients.
    """

    name = "hash"
    needs_key = True

    def __init__(self, length: int = 10, per_patient: bool = True) -> None:
        if not 6 <= length <= 64:
            raise ConfigError("hash length must be between 6 and 64 hex digits")
        self.length = length
        self.per_patient = per_patient

    def _token(self, ctx: Context, text: str) -> str:
        assert ctx.key is not None
        value = "".join(c for c in normalise_value(text) if c not in string.punctuation + " ")
        patient = ctx.patient if self.per_patient else None
        return f"{ctx.type}-{ctx.key.digest('hash:' + ctx.type, patient, value).hex()[: self.length]}"

    def replacement(self, ctx: Context) -> str:
        if ctx.key is None:
            raise ConfigError("the hash operator needs a surrogate key")
        if ctx.type in NAME_TYPES:
            return self._name(ctx)
        return self._token(ctx, ctx.text)

    def _name(self, ctx: Context) -> str:
        """Person names word by word (titles and credentials kept), so ``Whitfield`` alone gets
        the token of the surname in ``Thomas Whitfield``, as surrogates do."""
        from notescrub.replace.names import split_name

        text = ctx.text
        words = [w for w in split_name(text) if w.role != "title"]
        if not words:
            return self._token(ctx, text)
        units: list[list[Any]] = []  # [start, end, role]: hyphen-joined words (Marsh-Whitaker) make one token
        for w in words:
            if units and units[-1][2] == w.role and text[units[-1][1] : w.start] in ("-", "‐"):
                units[-1][1] = w.end
            else:
                units.append([w.start, w.end, w.role])
        out, pos = [], 0
        for a, b, _role in units:
            gap = text[pos:a]
            out.append(gap if not any(c.isdigit() for c in gap) else self._token(ctx, gap))  # titles stay
            out.append(self._token(ctx, text[a:b]))
            pos = b
        tail = text[pos:]
        out.append(tail if not any(c.isdigit() for c in tail) else self._token(ctx, tail))
        return "".join(out)


class Keep(Operator):
    """Leave the text as it is (for types a policy keeps, e.g. years)."""

    name = "keep"

    def replacement(self, ctx: Context) -> str:
        return ctx.text
