"""E-mail addresses and user names built from surrogate person names, on fictional domains.

The local part of an address (``fatima.alsayegh96``) and a user name (``kdunne3``) are
read as name pieces, separators and digits. A piece that is a name word of a person
named in the same document (``Fatima``, ``Al-Sayegh``, or an initial glued to a surname
as in ``kdunne``) becomes that word's surrogate, so ``Fatima Al-Sayegh``'s address
becomes ``grace.holt96`` when she becomes ``Grace Holt``; any other piece becomes a
keyed given name or surname; digits get other digits, separators stay. Domains become
fictional ones under the names reserved for examples (``<word>.example.org``; the
top-level domain is kept when it is ``com``, ``org`` or ``net``).

>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> from notescrub.replace.names import NameSurrogate
>>> text = "Fatima Al-Sayegh <fatima.alsayegh96@postbox-mail.com>"
>>> doc = Document("d", text, "P1")
>>> names, state, key = NameSurrogate(), ReplaceState(), SurrogateKey(bytes(32))
>>> name, mail = Span(0, 16, "PATIENT"), Span(18, 52, "EMAIL")
>>> names.prepare(doc, [(name, text[:16])], state, "P1", key)
>>> person = names.replacement(Context(doc, name, text[:16], "PATIENT", "P1", key, state))
>>> out = EmailSurrogate(names).replacement(Context(doc, mail, text[18:52], "EMAIL", "P1", key, state))
>>> given, family = person.split(" ", 1)
>>> out.startswith(given.lower() + "." + family.replace("-", "").lower()) and out.endswith(".example.com")
True
"""

from __future__ import annotations

import re
from functools import lru_cache

from notescrub.replace.base import Context, Operator
from notescrub.replace.datefmt import apply_case
from notescrub.replace.keys import normalise_value
from notescrub.replace.names import NameSurrogate
from notescrub.replace.shapes import same_shape
from notescrub.replace.vocabulary import gender_of_name
from notescrub.types import Document, Span  # noqa: F401  (used by the doctest)

__all__ = ["FICTIONAL_TLDS", "EmailSurrogate", "UsernameSurrogate", "fictional_domain"]

#: top-level domains kept under ``example.``; others become ``example.org``
FICTIONAL_TLDS = ("com", "org", "net")
_PIECES = re.compile(r"([^\W\d_]+)", re.UNICODE)


@lru_cache(maxsize=1)
def _surnames() -> frozenset[str]:
    from notescrub.lexicons import lexicon

    return lexicon("last_names")


def _letters(text: str) -> str:
    return "".join(c for c in text if c.isalpha())


class _Handle(Operator):
    """Shared logic: a handle (local part, user name) rebuilt from surrogate name pieces."""

    needs_key = True

    def __init__(self, names: NameSurrogate | None = None) -> None:
        self.names = names or NameSurrogate()

    def handle(self, ctx: Context, text: str) -> str:
        assert ctx.key is not None
        parts = _PIECES.split(text)
        out = []
        for i, part in enumerate(parts):
            if i % 2:
                following = parts[i + 2].casefold() if i + 2 < len(parts) else ""
                out.append(self._piece(ctx, part, following))
            elif any(c.isdigit() for c in part):
                out.append(same_shape(part, ctx.key.rng("HANDLE-digits", ctx.patient, normalise_value(text))))
            else:
                out.append(part)
        new = "".join(out)
        return new if new != text else same_shape(text, ctx.key.rng("HANDLE", ctx.patient, normalise_value(text)))

    def _known(self, ctx: Context) -> dict[str, tuple[str, list[str]]]:
        return ctx.state.cache("name-words").get(ctx.patient, {})

    def _render(self, ctx: Context, role: str, words: list[str]) -> str:
        pick = self.names._given if role == "given" else self.names._family
        return _letters("".join(pick(ctx, w) for w in words))

    def _initial(self, ctx: Context, letter: str, family: list[str]) -> str:
        pairs = ctx.state.cache("name-pairs").get(ctx.patient, {})
        for given in pairs.get(normalise_value(family[-1]), []):
            if given[:1].casefold() == letter.casefold():
                return self.names._given(ctx, given)[:1]
        assert ctx.key is not None
        alphabet = "abcdefghijklmnoprstw"
        new = alphabet[ctx.key.rng("HANDLE-initial", ctx.patient, letter.casefold()).randrange(len(alphabet))]
        return new if new != letter.casefold() else alphabet[(alphabet.find(new) + 1) % len(alphabet)]

    def _piece(self, ctx: Context, piece: str, following: str = "") -> str:
        low = piece.casefold()
        known = self._known(ctx)
        new: str | None = None
        if len(low) == 1 and following in known and known[following][0] == "family":  # k.dunne
            new = self._initial(ctx, low, known[following][1])
        elif low in known:
            new = self._render(ctx, *known[low])
        elif len(low) >= 4 and low[1:] in known and known[low[1:]][0] == "family":
            new = self._initial(ctx, low[0], known[low[1:]][1]) + self._render(ctx, *known[low[1:]])
        else:
            for cut in range(2, len(low) - 1):
                head, tail = low[:cut], low[cut:]
                if head in known and tail in known:
                    new = self._render(ctx, *known[head]) + self._render(ctx, *known[tail])
                    break
        if new is None:
            if len(low) == 1:
                new = self._initial(ctx, low, [""])
            elif gender_of_name(low) is not None:
                new = _letters(self.names._given(ctx, piece))
            elif len(low) >= 4 and low not in _surnames() and low[1:] in _surnames():
                new = self._initial(ctx, low[0], [low[1:]]) + _letters(self.names._family(ctx, low[1:]))
            else:
                new = _letters(self.names._family(ctx, piece))
        return apply_case(piece, new.lower()) if piece.islower() or piece.isupper() else new


def fictional_domain(ctx: Context, domain: str, names: NameSurrogate) -> str:
    """``<word>.example.<com|org|net>`` for a domain (the word keyed on the domain)."""
    assert ctx.key is not None
    labels = domain.split(".")
    tld = labels[-1].casefold() if len(labels) > 1 else "org"
    rng = ctx.key.rng("EMAIL-domain", ctx.patient, normalise_value(domain))
    word = _letters(names._vocab(ctx).surname(rng)).lower() or "mail"
    new = f"{word}.example.{tld if tld in FICTIONAL_TLDS else 'org'}"
    return new.upper() if domain.isupper() else new


class EmailSurrogate(_Handle):
    """``local@domain``: the local part from surrogate names, the domain fictional (see the module doc)."""

    name = "email"

    def replacement(self, ctx: Context) -> str:
        local, at, domain = ctx.text.strip().rpartition("@")
        if not at:
            return self.handle(ctx, ctx.text)
        stripped = ctx.text.strip()
        i = ctx.text.index(stripped)
        new = f"{self.handle(ctx, local)}@{fictional_domain(ctx, domain, self.names)}"
        return ctx.text[:i] + new + ctx.text[i + len(stripped):]


class UsernameSurrogate(_Handle):
    """User names from surrogate name pieces (``kdunne3`` -> ``jyates3``)."""

    name = "username"

    def replacement(self, ctx: Context) -> str:
        return self.handle(ctx, ctx.text)

