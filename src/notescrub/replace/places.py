"""Surrogates for places and organisations, kept type-consistent.

* Facilities (HOSPITAL, ORGANIZATION, DEPARTMENT, LOCATION-OTHER): generic words
  (``Memorial``, ``Hospital``, ``Medical Center``, ``Inc``, ``Lake``) stay and each
  proper word is replaced consistently (``Halvorsen Memorial Hospital`` ->
  ``Fairbanks Memorial Hospital``, and ``Halvorsen`` alone -> ``Fairbanks``); an
  acronym of a facility named in the same patient's notes (``HMH``) becomes the
  acronym of its surrogate.
* STREET: house numbers get new digits, street types and directions stay, the name
  words change.
* CITY, STATE (full or two-letter), COUNTRY, PROFESSION: a whole surrogate from the
  vocabulary's lists, in the original letter case.

>>> from notescrub.replace.base import Context, ReplaceState
>>> from notescrub.replace.keys import SurrogateKey
>>> state, key = ReplaceState(), SurrogateKey(bytes(32))
>>> def rep(op, text, typ):
...     ctx = Context(Document("d", text, "P1"), Span(0, len(text), typ), text, typ, "P1", key, state)
...     return op.replacement(ctx)
>>> out = rep(Facility(), "HALVORSEN MEMORIAL HOSPITAL", "HOSPITAL")
>>> out.endswith(" MEMORIAL HOSPITAL") and out.isupper() and out != "HALVORSEN MEMORIAL HOSPITAL"
True
>>> rep(Facility(), "Halvorsen", "HOSPITAL").upper() == out.split()[0]
True
>>> len(rep(StateSurrogate(), "MA", "STATE")), rep(Street(), "12 Oak Street", "STREET").endswith(" Street")
(2, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from notescrub.replace.base import Context, Operator, ReplaceState
from notescrub.replace.datefmt import apply_case
from notescrub.replace.keys import SurrogateKey, normalise_value
from notescrub.replace.shapes import same_shape
from notescrub.replace.vocabulary import DictionaryVocabulary, Vocabulary
from notescrub.types import Document, Span

__all__ = ["City", "Country", "Facility", "Profession", "StateSurrogate", "Street", "generic_words", "org_heads"]

_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_CONNECTORS = frozenset(
    ["of", "the", "and", "for", "at", "on", "in", "de", "del", "la", "las", "los", "el", "y", "e", "da", "do", "dos", "das", "di", "du", "von", "van", "st", "saint", "san", "santa", "sta", "general", "memorial", "university", "regional", "community", "county", "city", "state", "national", "central", "north", "south", "east", "west", "northern", "southern", "eastern", "western", "new", "old", "mount", "mt", "fort", "ft", "lake", "river", "park", "valley", "hills", "hill", "bay", "beach", "bridge", "island", "mall", "airport", "station", "church", "school", "college", "academy", "street", "avenue", "road", "square", "plaza", "children's", "childrens", "women's", "womens", "veterans", "veteran", "va", "family", "medicine", "surgical", "surgery", "elementary", "middle", "high", "primary", "secondary", "preparatory", "prep", "junior", "senior", "school", "schools", "church", "temple", "mosque", "synagogue", "chapel", "club", "ymca", "library", "museum", "bank", "shelter", "pharmacy", "market", "store", "foods", "group", "services", "service", "agency", "department", "office", "union", "association", "society", "foundation", "fund", "company", "co", "ltd", "llc", "inc", "corp", "restaurant", "cafe", "diner", "hotel", "motel", "inn", "farm", "ranch", "factory", "plant", "mill", "warehouse", "works", "motors", "logistics", "transit", "airlines", "railway", "police", "fire", "army", "navy", "corps", "base", "home", "homes", "house", "lodge", "manor", "village", "gardens", "court", "towers", "apartments", "residence", "residences", "trust", "partners", "associates", "network", "alliance", "coalition", "council", "authority", "district"]
)
_STREET_KEEP = frozenset(
    ["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west", "apt", "apartment", "suite", "ste", "unit", "floor", "fl", "room", "rm", "bldg", "building", "box", "po", "p", "o", "rural", "route", "rr", "hwy", "highway"]
)
_ES_STREET = frozenset(["calle", "c", "avenida", "av", "avda", "plaza", "pl", "paseo", "pº", "camino", "carretera", "ctra", "ronda", "travesía", "travesia", "glorieta", "urbanización", "urbanizacion", "callejón", "rambla", "vía", "via", "piso", "bajo", "puerta", "izq", "dcha"])


@lru_cache(maxsize=1)
def generic_words() -> frozenset[str]:
    """Lower-case words that are kept in facility names (from the lexicons plus connectors)."""
    from notescrub.lexicons import lexicon

    words = set(_CONNECTORS)
    for name in ("hospital_words", "organization_words", "medical_terms", "es_medical_terms"):
        for entry in lexicon(name):
            words.update(entry.split())
    for heads in org_heads().values():
        words.update(heads)
    return frozenset(words)


@lru_cache(maxsize=1)
def org_heads() -> dict[str, frozenset[str]]:
    """Head and kind words of organisation names by kind (``hospital``, ``company``, ``school``...).

    Facility surrogates keep them, so an organisation stays one of its kind.

    >>> {"freight", "bakery"} <= org_heads()["company"], "elementary" in org_heads()["school"]
    (True, True)
    """
    text = resources.files("notescrub.resources.surrogates").joinpath("org_heads.txt").read_text(encoding="utf-8")
    out = {}
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            kind, words = line.split("\t")
            out[kind] = frozenset(words.split())
    return out


@lru_cache(maxsize=1)
def _street_words() -> frozenset[str]:
    from notescrub.lexicons import lexicon

    words = set(_STREET_KEEP | _ES_STREET)
    for entry in lexicon("street_suffixes"):
        words.update(entry.split())
    return frozenset(words)


def _is_generic(word: str) -> bool:
    return word.casefold().rstrip(".") in generic_words()


def _is_acronym(word: str) -> bool:
    return 2 <= len(word) <= 6 and word.isupper() and word.isalpha()


def _acronym(text: str) -> str:
    caps = [w for w in _WORD.findall(text) if w[:1].isupper() and w.casefold() not in ("of", "the", "and", "de", "la")]
    return "".join(w[0] for w in caps).upper()


def _state_code(word: str) -> str | None:
    from notescrub.replace.geography import state_code

    return state_code(word)


def _surrogate_state(ctx: Context, word: str) -> str:
    from notescrub.replace.geography import surrogate_state

    return surrogate_state(ctx, _state_code(word) or word)


class _Whole(Operator):
    """Base for operators replacing the whole value from one vocabulary role."""

    needs_key = True
    role = "city"

    def __init__(self, vocabulary: Vocabulary | None = None) -> None:
        self.vocabulary = vocabulary or DictionaryVocabulary("en")

    def vocab(self, ctx: Context) -> Vocabulary:
        return self.vocabulary.for_locale(ctx.locale)

    def draw(self, ctx: Context, rng) -> str:
        raise NotImplementedError

    def pick(self, ctx: Context, norm: str, draw=None) -> str:
        cache = ctx.state.cache("places")
        k = (ctx.patient, self.role, norm, ctx.locale)
        if k not in cache:
            assert ctx.key is not None
            rng = ctx.key.rng("PLACE-" + self.role, ctx.patient, norm)
            draw = draw or (lambda r: self.draw(ctx, r))
            cand = draw(rng)
            for _ in range(20):
                if normalise_value(cand) != norm:
                    break
                cand = draw(rng)
            cache[k] = cand
        return str(cache[k])

    def replacement(self, ctx: Context) -> str:
        stripped = ctx.text.strip()
        if not stripped:
            return ctx.text
        if any(c.isdigit() for c in stripped) and not any(c.isalpha() for c in stripped):
            assert ctx.key is not None  # a number under a place label (a postal code): same shape
            return same_shape(ctx.text, ctx.key.rng("PLACE-digits", ctx.patient, stripped))
        new = apply_case(stripped, self.pick(ctx, normalise_value(stripped)))
        i = ctx.text.index(stripped)
        return ctx.text[:i] + new + ctx.text[i + len(stripped):]


class City(_Whole):
    name = "city"
    role = "city"

    def draw(self, ctx: Context, rng) -> str:
        return self.vocab(ctx).city(rng)


class Country(_Whole):
    name = "country"
    role = "country"

    def draw(self, ctx: Context, rng) -> str:
        return self.vocab(ctx).country(rng)


class Profession(_Whole):
    name = "profession"
    role = "profession"

    def draw(self, ctx: Context, rng) -> str:
        return self.vocab(ctx).profession(rng)


class StateSurrogate(_Whole):
    """A state: two-letter codes stay two-letter codes, names stay names."""

    name = "state"
    role = "state"

    def draw(self, ctx: Context, rng) -> str:
        abbr = len(ctx.text.strip().rstrip(".")) == 2
        return self.vocab(ctx).state(rng, abbreviated=abbr)


class Facility(_Whole):
    """Hospitals, organisations, departments, other locations: proper words replaced, generic words kept."""

    name = "facility"
    role = "proper"

    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,
                key: SurrogateKey | None) -> None:
        table = state.cache("acronyms").setdefault(patient, {})
        for _, text in items:
            acr = _acronym(text)
            if len(acr) >= 2 and len(_WORD.findall(text)) >= 2:
                table.setdefault(acr, text)

    def draw(self, ctx: Context, rng) -> str:
        return self.vocab(ctx).proper_word(rng)

    def _word(self, ctx: Context, word: str) -> str:
        return apply_case(word, self.pick(ctx, normalise_value(word)))

    def replacement(self, ctx: Context) -> str:
        text = ctx.text
        words = list(_WORD.finditer(text))
        out, changed = text, False
        for m in reversed(words):
            w = m.group()
            if len(w) == 2 and w.isupper() and len(words) > 1 and _state_code(w) and ctx.locale == "en":
                new = _surrogate_state(ctx, w)  # NH State Police -> VT State Police
            elif _is_acronym(w) and not _is_generic(w) and ((len(words) == 1 and len(w) <= 5) or not text.isupper()):
                new = self._acronym_word(ctx, w)
            elif _is_generic(w):
                continue
            else:
                new = self._word(ctx, w)
            out, changed = out[: m.start()] + new + out[m.end():], True
        if not words:
            assert ctx.key is not None
            return same_shape(text, ctx.key.rng("FAC-shape", ctx.patient, text))
        if not changed or out == text:  # only generic words: the first one stands for the name
            first = next((m for m in words if m.group().casefold() not in ("the", "el", "la")), words[0])
            new = apply_case(first.group(), self.pick(ctx, "\x00" + normalise_value(text)))
            out = text[: first.start()] + new + text[first.end():]
        return out

    def _acronym_word(self, ctx: Context, word: str) -> str:
        full = ctx.state.cache("acronyms").get(ctx.patient, {}).get(word)
        if full is not None and full != ctx.text:
            sub = Context(ctx.doc, ctx.span, full, ctx.type, ctx.patient, ctx.key, ctx.state, ctx.start, ctx.end,
                          ctx.locale, ctx.date_order)
            acr = _acronym(self.replacement(sub))
            if len(acr) == len(word) and acr != word:
                return acr
        assert ctx.key is not None
        return same_shape(word, ctx.key.rng("ACRONYM", ctx.patient, word))


class Street(Facility):
    """Street addresses: numbers reshaped, street types and directions kept, names replaced."""

    name = "street"
    role = "street"

    def prepare(self, doc: Document, items: Sequence[tuple[Span, str]], state: ReplaceState, patient: str,
                key: SurrogateKey | None) -> None:
        return None

    def draw(self, ctx: Context, rng) -> str:
        return self.vocab(ctx).surname(rng)

    def replacement(self, ctx: Context) -> str:
        assert ctx.key is not None
        text = ctx.text
        rng = ctx.key.rng("STREET-num", ctx.patient, normalise_value(text))
        pieces = re.split(r"([^\W\d_]+(?:['’][^\W\d_]+)*)", text)
        out = []
        for i, piece in enumerate(pieces):
            if i % 2 == 0:
                out.append(same_shape(piece, rng) if any(c.isdigit() for c in piece) else piece)
            elif piece.casefold().rstrip(".") in _street_words() or len(piece) == 1:
                out.append(piece)
            else:
                out.append(self._word(ctx, piece))
        new = "".join(out)
        return new if new != text else same_shape(text, rng)
