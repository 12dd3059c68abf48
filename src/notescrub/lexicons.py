"""Word lists (lexicons) for dictionary detectors and features, plus word frequency.

Every lexicon is a ``frozenset`` of lower-cased entries; multi-word entries are
lower-case words joined by single spaces (``"new york"``, ``"medical center"``).
Lists ship in ``notescrub/resources/lexicons/`` (see ``resources/LICENSES.md`` for
sources and licences; ``scripts/build_lexicons.py`` regenerates the generated ones).
``common_words`` and ``es_common_words`` are derived at run time from the
``wordfreq`` package (its CC BY-SA 4.0 lists are not copied into the package).

>>> "march" in lexicon("months")
True
>>> "dr" in lexicon("titles")
True
>>> "parkinson" in lexicon("eponyms")
True
>>> "the" in lexicon("common_words") and "john" not in lexicon("common_words")
True
>>> zipf("the") > 7.0 and zipf("qzxv") == 0.0
True
>>> lexicon("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
notescrub.errors.ConfigError: unknown lexicon 'nope'; available: first_names, last_names, ...
"""

from __future__ import annotations

import logging
from functools import cache, lru_cache
from importlib import resources

from notescrub.errors import ConfigError

__all__ = ["LEXICONS", "is_common_word", "lexicon", "normalize_entry", "zipf"]

log = logging.getLogger(__name__)

_PACKAGE = "notescrub.resources.lexicons"

#: lexicon name -> packaged files (stems in resources/lexicons/) merged into it
_FILES: dict[str, tuple[str, ...]] = {
    "first_names": ("first_names", "first_names_extra"),
    "last_names": ("last_names", "last_names_extra"),
    "us_states": ("us_states",),
    "cities": ("cities",),
    "countries": ("countries", "countries_extra"),
    "nationalities": ("nationalities",),
    "languages": ("languages",),
    "months": ("months",),
    "weekdays": ("weekdays",),
    "holidays": ("holidays",),
    "holiday_phrases": ("holidays", "holidays_extra"),  # the add-holiday rule's phrases; not a CRF feature
    "street_suffixes": ("street_suffixes", "street_suffixes_faker"),
    "hospital_words": ("hospital_words",),
    "organization_words": ("organization_words",),
    "professions": ("professions", "professions_faker"),
    "titles": ("titles",),
    "credentials": ("credentials",),
    "common_words": ("common_words_extra",),  # + wordfreq top-N minus proper_nouns
    "medical_terms": ("medical_terms",),
    "eponyms": ("eponyms",),
    "exam_eponyms": ("exam_eponyms",),  # examination tests, signs, lesions; post rules only, not a CRF feature
    "drug_names": ("drug_names",),  # one-word drug names, minus name and place entries
    "device_makers": ("device_makers",),  # device, diagnostics and drug makers and brand words
    "proper_nouns": ("proper_nouns", "name_dominant"),
    "es_first_names": ("es_first_names",),
    "es_last_names": ("es_last_names",),
    "es_places": ("es_places", "es_places_geonames"),
    "es_common_words": (),  # wordfreq 'es' top-N minus frequent-enough names and places
    "es_medical_terms": ("es_medical_terms",),
}

#: Names accepted by :func:`lexicon`.
LEXICONS: tuple[str, ...] = tuple(_FILES)

#: How many of wordfreq's most frequent words form the common-word lists.
COMMON_TOP_N = 20000


def normalize_entry(entry: str) -> str:
    """Lower-case, curly apostrophes straightened, whitespace collapsed.

    >>> normalize_entry("  New   York ")
    'new york'
    """
    return " ".join(entry.replace("\u2019", "'").lower().split())


def _read(stem: str) -> set[str]:
    try:
        text = resources.files(_PACKAGE).joinpath(f"{stem}.txt").read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"lexicon file {stem}.txt is missing from the package") from exc
    out = set()
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        e = normalize_entry(line)
        if e:
            out.add(e)
    return out


def _wordfreq_top(lang: str, n: int) -> list[str]:
    try:
        import wordfreq
    except ImportError as exc:  # pragma: no cover - wordfreq is a hard dependency
        raise ConfigError("the wordfreq package is required for common-word lists") from exc
    return [w for w in wordfreq.top_n_list(lang, n) if w.replace("'", "").isalpha()]


def _common_en() -> set[str]:
    proper = _read("proper_nouns") | _read("name_dominant")
    return {w for w in _wordfreq_top("en", COMMON_TOP_N) if w not in proper}


def _common_es() -> set[str]:
    names = _read("es_first_names") | _read("es_last_names") | lexicon("es_places")
    # keep a name/place only when it is very frequent as a word ("rosa", "mayor", "leon" are kept
    # only when their frequency is that of function words)
    return {w for w in _wordfreq_top("es", COMMON_TOP_N) if w not in names or zipf(w, "es") >= 5.0}


@cache
def lexicon(name: str) -> frozenset[str]:
    """Return lexicon ``name`` (see :data:`LEXICONS`) as a frozen set of normalised entries."""
    if name not in _FILES:
        raise ConfigError(f"unknown lexicon {name!r}; available: {', '.join(LEXICONS)}")
    entries: set[str] = set()
    for stem in _FILES[name]:
        entries |= _read(stem)
    if name == "common_words":
        entries |= _common_en()
    elif name == "es_common_words":
        entries |= _common_es()
    log.debug("lexicon %s: %d entries", name, len(entries))
    return frozenset(entries)


#: Words whose frequency is remembered (here and in wordfreq's own memo). A long run meets
#: ever new words (every surrogate name, number and id), so an unbounded or very large memo
#: grows with the corpus: 200,000 entries here plus wordfreq's 100,000 held about 45 MiB,
#: most of the growth of a 20,000-note run (docs/scale.md, "Memory").
ZIPF_MEMO = 20_000


@lru_cache(maxsize=ZIPF_MEMO)
def zipf(word: str, lang: str = "en") -> float:
    """Word frequency on the Zipf scale (log10 per billion words) from wordfreq; 0.0 if unknown.

    >>> round(zipf("patient"), 1) > 4.0
    True
    """
    import wordfreq

    if wordfreq.CACHE_SIZE > ZIPF_MEMO:  # wordfreq starts its memo over when it holds CACHE_SIZE entries
        wordfreq.CACHE_SIZE = ZIPF_MEMO
    return float(wordfreq.zipf_frequency(word, lang))


def is_common_word(word: str, lang: str = "en") -> bool:
    """True when ``word`` (any case) is in the language's common-word list.

    >>> is_common_word("Will"), is_common_word("Rodriguez")
    (True, False)
    """
    name = "common_words" if lang == "en" else f"{lang}_common_words"
    return normalize_entry(word) in lexicon(name)
