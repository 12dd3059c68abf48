"""Where surrogate words come from: dictionaries, ambiguous words or random letters.

A :class:`Vocabulary` draws words for a role (given name, surname, city, state,
country, proper word of a facility name, profession) from a seeded
:class:`random.Random`, so a keyed HMAC seed always gives the same word.

* :class:`DictionaryVocabulary` — realistic lists: Faker's person, address and job
  providers (MIT) for ``en`` and ``es``, plus packaged US city names.
* :class:`AmbiguousVocabulary` — words that also occur as non-PHI (eponyms, medical
  terms, common words: "Mr. Huntington ... Huntington's disease"; Uzuner et al. 2008 §5.2).
* :class:`OOVVocabulary` — random letter strings of plausible length ("Ymfgi"; §5.3).

>>> import random
>>> v = DictionaryVocabulary("en")
>>> v.given_name(random.Random(1), "F") in v.names("given_F")
True
>>> OOVVocabulary().surname(random.Random(2)).isalpha()
True
>>> gender_of_name("Margaret"), gender_of_name("Robert"), gender_of_name("Xq")
('F', 'M', None)
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources

__all__ = [
    "AmbiguousVocabulary",
    "DictionaryVocabulary",
    "OOVVocabulary",
    "Vocabulary",
    "ambiguous_pool",
    "gender_of_name",
    "get_vocabulary",
    "nickname_canonical",
    "nicknames_of",
    "packaged_list",
]

_PKG = "notescrub.resources.surrogates"


@cache
def packaged_list(stem: str) -> tuple[str, ...]:
    """Lines of ``resources/surrogates/<stem>.txt`` (comments and blanks dropped)."""
    text = resources.files(_PKG).joinpath(f"{stem}.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@cache
def _faker_lists(locale: str) -> dict[str, tuple[str, ...]]:
    if locale == "es":
        from faker.providers.address.es_ES import Provider as Addr
        from faker.providers.job.es_ES import Provider as Job
        from faker.providers.person.es_ES import Provider as Person

        cities: Sequence[str] = Addr.states
        states: Sequence[str] = Addr.regions
        states_abbr: Sequence[str] = ()
        streets: Sequence[str] = Addr.street_prefixes
    else:
        # the en_US providers are other classes than the es_ES ones above, with the same attributes
        from faker.providers.address.en_US import Provider as Addr  # type: ignore[assignment]
        from faker.providers.job.en_US import Provider as Job  # type: ignore[assignment]
        from faker.providers.person.en_US import Provider as Person  # type: ignore[assignment]

        cities = packaged_list("us_cities")
        states = Addr.states
        states_abbr = Addr.states_abbr  # type: ignore[attr-defined]
        streets = Addr.street_suffixes  # type: ignore[assignment]
    return {
        "given_M": tuple(Person.first_names_male),
        "given_F": tuple(Person.first_names_female),
        "surname": tuple(Person.last_names),
        "city": tuple(cities),
        "state": tuple(states),
        "state_abbr": tuple(states_abbr),
        "country": tuple(Addr.countries),
        "street_type": tuple(streets),
        "profession": tuple(Job.jobs),
    }


def _gendered_pools() -> list[tuple[set[str], set[str]]]:
    """(male, female) given-name sets: Faker ``en_US``/``es_ES`` and the synthetic-note pools of ~40 cultures."""
    pools = []
    for loc in ("en", "es"):
        lists = _faker_lists(loc)
        pools.append(({n.casefold() for n in lists["given_M"]}, {n.casefold() for n in lists["given_F"]}))
    synth = resources.files("notescrub.resources.synth")
    cultures = dict(json.loads(synth.joinpath("faker_names.json").read_text(encoding="utf-8")))
    cultures.update(json.loads(synth.joinpath("lexicon.json").read_text(encoding="utf-8"))["extra_names"])
    for pool in cultures.values():
        pools.append(({n.casefold() for n in pool.get("male", ())}, {n.casefold() for n in pool.get("female", ())}))
    return pools


@lru_cache(maxsize=1)
def _gender_table() -> dict[str, str]:
    votes: dict[str, list[int]] = {}
    for male, female in _gendered_pools():
        for n in male - female:
            votes.setdefault(n, [0, 0])[0] += 1
        for n in female - male:
            votes.setdefault(n, [0, 0])[1] += 1
    # a name is gendered when the lists that know it agree at least 3 to 1 (Andrea: F in
    # most lists, M in Italian -> F; Jean: M in French, F in English -> unknown)
    return {n: "M" if m > f else "F" for n, (m, f) in votes.items() if max(m, f) >= 3 * min(m, f) and m != f}


@lru_cache(maxsize=4)
def _gendered(locale: str, gender: str) -> tuple[str, ...]:
    """The ``given_<gender>`` list without the names that other lists give the other (or no) gender."""
    names = _faker_lists(locale)[f"given_{gender}"]
    return tuple(n for n in names if gender_of_name(n) == gender) or names


def gender_of_name(name: str) -> str | None:
    """``"M"``/``"F"`` when the gendered name lists that know the given name agree (3 to 1 at least).

    >>> gender_of_name("Fatima"), gender_of_name("Tomasz"), gender_of_name("Jean")
    ('F', 'M', None)
    """
    return _gender_table().get(name.casefold())


@lru_cache(maxsize=1)
def _nickname_tables() -> tuple[dict[str, tuple[str, ...]], dict[str, str]]:
    data = json.loads(resources.files(_PKG).joinpath("nicknames.json").read_text(encoding="utf-8"))
    forward = {k: tuple(v) for k, v in data["nicknames"].items()}
    owners: dict[str, set[str]] = {}
    for full, nicks in forward.items():
        for n in nicks:
            owners.setdefault(n, set()).add(full)
    reverse = {n: next(iter(o)) for n, o in owners.items() if len(o) == 1 and n not in forward}
    return forward, reverse


def nickname_canonical(name: str) -> str | None:
    """The full given name of an unambiguous nickname (``"bob"`` -> ``"robert"``), else ``None``.

    >>> nickname_canonical("Bob"), nickname_canonical("Chris")
    ('robert', None)
    """
    return _nickname_tables()[1].get(name.casefold())


def nicknames_of(name: str) -> tuple[str, ...]:
    """Known short forms of a full given name (lower case)."""
    return _nickname_tables()[0].get(name.casefold(), ())


@lru_cache(maxsize=4)
def _single_word(items: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c for c in items if " " not in c and "-" not in c)


@lru_cache(maxsize=1)
def _place_parts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Parts of invented place-like names (``Briar`` + ``ridge``), from the synthetic-note lexicon."""
    lex = json.loads(resources.files("notescrub.resources.synth").joinpath("lexicon.json").read_text(encoding="utf-8"))
    return tuple(lex["place_first"]), tuple(lex["place_second"])


def _pick(rng: random.Random, items: Sequence[str]) -> str:
    return items[rng.randrange(len(items))]


class Vocabulary:
    """Base vocabulary: realistic lists for everything; subclasses override roles."""

    name = "dictionary"

    def __init__(self, locale: str = "en") -> None:
        self.locale = "es" if locale == "es" else "en"

    def for_locale(self, locale: str) -> Vocabulary:
        """This vocabulary for another language (itself when the language matches)."""
        loc = "es" if locale == "es" else "en"
        if loc == self.locale:
            return self
        cache = self.__dict__.setdefault("_other", {})
        if loc not in cache:
            cache[loc] = type(self)(loc)
        return cache[loc]

    def names(self, role: str) -> tuple[str, ...]:
        """The list behind a role (``given_M``, ``given_F``, ``surname``, ``city``...)."""
        return _faker_lists(self.locale)[role]

    def given_name(self, rng: random.Random, gender: str | None) -> str:
        """A given name of ``gender`` (``M``/``F``): one that every name list agrees is of that gender."""
        if gender not in ("M", "F"):
            gender = "M" if rng.random() < 0.5 else "F"
        return _pick(rng, _gendered(self.locale, gender))

    def surname(self, rng: random.Random) -> str:
        return _pick(rng, self.names("surname"))

    def proper_word(self, rng: random.Random) -> str:
        """A word to stand for the proper-name part of a facility or place: a surname, a one-word
        city name or a place-like compound (``Oakridge``); never a piece of a longer name."""
        r = rng.random()
        if r < 0.5:
            return self.surname(rng)
        singles = _single_word(self.names("city"))
        if r < 0.75 and singles:
            return _pick(rng, singles)
        first, second = _place_parts()
        return _pick(rng, first) + _pick(rng, second)

    def city(self, rng: random.Random) -> str:
        return _pick(rng, self.names("city"))

    def state(self, rng: random.Random, abbreviated: bool = False) -> str:
        abbr = self.names("state_abbr")
        return _pick(rng, abbr if abbreviated and abbr else self.names("state"))

    def country(self, rng: random.Random) -> str:
        return _pick(rng, self.names("country"))

    def profession(self, rng: random.Random) -> str:
        return _pick(rng, self.names("profession"))

    def street_type(self, rng: random.Random) -> str:
        return _pick(rng, self.names("street_type"))


class DictionaryVocabulary(Vocabulary):
    """Realistic surrogates from dictionaries (the *random* re-populated corpus)."""


def ambiguous_pool(locale: str = "en") -> frozenset[str]:
    """Lower-case words usable as ambiguous surrogates (eponyms and medical terms)."""
    return frozenset(w.lower() for w in _ambiguous_words(locale))


@lru_cache(maxsize=2)
def _ambiguous_words(locale: str) -> tuple[str, ...]:
    from notescrub.lexicons import lexicon

    if locale == "es":
        pool = set(lexicon("es_medical_terms")) | set(lexicon("eponyms"))
    else:
        pool = set(lexicon("eponyms")) | set(lexicon("medical_terms"))
    words = sorted(w for w in pool if w.isalpha() and 5 <= len(w) <= 12 and sum(c in "aeiouy" for c in w) >= 2)
    return tuple(w.capitalize() for w in words)


class AmbiguousVocabulary(Vocabulary):
    """Person and place words that also occur as non-PHI (eponyms and medical terms).

    ``words`` restricts the pool (e.g. to the terms that occur as non-PHI in the corpus
    being re-populated, so each injected word is ambiguous *within* that corpus).
    """

    name = "ambiguous"

    def __init__(self, locale: str = "en", words: Sequence[str] | None = None) -> None:
        super().__init__(locale)
        self.words = tuple(sorted({w.capitalize() for w in words})) if words else _ambiguous_words(self.locale)

    def for_locale(self, locale: str) -> Vocabulary:
        return self if self.words is not _ambiguous_words(self.locale) else super().for_locale(locale)

    def _word(self, rng: random.Random) -> str:
        return _pick(rng, self.words)

    def given_name(self, rng: random.Random, gender: str | None) -> str:
        return self._word(rng)

    def surname(self, rng: random.Random) -> str:
        return self._word(rng)

    def proper_word(self, rng: random.Random) -> str:
        return self._word(rng)

    def city(self, rng: random.Random) -> str:
        return self._word(rng)


class OOVVocabulary(Vocabulary):
    """Random letter strings of plausible length, absent from every dictionary."""

    name = "oov"

    @staticmethod
    def _word(rng: random.Random, lo: int = 3, hi: int = 9) -> str:
        n = rng.randint(lo, hi)
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(n)).capitalize()

    def given_name(self, rng: random.Random, gender: str | None) -> str:
        return self._word(rng)

    def surname(self, rng: random.Random) -> str:
        return self._word(rng)

    def proper_word(self, rng: random.Random) -> str:
        return self._word(rng)

    def city(self, rng: random.Random) -> str:
        return self._word(rng, 4, 10)

    def profession(self, rng: random.Random) -> str:
        return self._word(rng, 5, 10).lower()


_STYLES = {"dictionary": DictionaryVocabulary, "random": DictionaryVocabulary,
           "ambiguous": AmbiguousVocabulary, "oov": OOVVocabulary}


def get_vocabulary(style: str, locale: str = "en") -> Vocabulary:
    """Vocabulary for a style name (``dictionary``/``random``, ``ambiguous``, ``oov``)."""
    from notescrub.errors import ConfigError

    try:
        return _STYLES[style](locale)
    except KeyError:
        raise ConfigError(f"unknown surrogate style {style!r}; known: {', '.join(_STYLES)}") from None
