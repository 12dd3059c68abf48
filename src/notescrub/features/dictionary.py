"""Dictionary features: lexicon membership and word frequency (information content).

Lexicons come from :mod:`notescrub.lexicons` (``lexicon(name) -> frozenset[str]`` of
lower-cased entries, ``zipf(word, lang)``). Following He et al. (2015), multi-word
entries are also split into their words: ``"los angeles"`` makes ``los`` and ``angeles``
members of the ``cities~part`` feature, while a single-word entry fires ``cities``.
A word is looked up lower-cased and, failing that, without accents.

The Zipf frequency (``zipf=0`` for unknown words, up to ``zipf=7``) carries Wellner's
observation that rare words are more often names.

>>> d = DictionaryFeatures(lang="en", lexicons={"months": frozenset({"march"}),
...                        "cities": frozenset({"los angeles"})}, zipf=lambda w, lang: 3.2)
>>> d("March")
['dict=months', 'zipf=3']
>>> d("Angeles")
['dict=cities~part', 'zipf=3']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache

from notescrub.errors import ConfigError
from notescrub.features.token import strip_accents

__all__ = ["LEXICONS_BY_LANG", "DictionaryFeatures", "for_lang"]

#: Lexicons used per language (names of :func:`notescrub.lexicons.lexicon`).
LEXICONS_BY_LANG: dict[str, tuple[str, ...]] = {
    "en": (
        "first_names", "last_names", "us_states", "cities", "countries", "nationalities", "months",
        "weekdays", "holidays", "street_suffixes", "hospital_words", "organization_words",
        "professions", "titles", "credentials", "common_words", "medical_terms", "eponyms",
    ),
    "es": (
        "es_first_names", "es_last_names", "es_places", "countries", "nationalities",
        "es_common_words", "es_medical_terms", "eponyms",
    ),
}


def _load_lexicons(names: tuple[str, ...]) -> dict[str, frozenset[str]]:
    try:
        from notescrub.lexicons import lexicon
    except ImportError as exc:  # pragma: no cover - the module ships with the package
        raise ConfigError(f"dictionary features need notescrub.lexicons: {exc}") from exc
    out = {}
    for n in names:
        try:
            out[n] = lexicon(n)
        except (KeyError, LookupError) as exc:
            raise ConfigError(f"dictionary features: lexicon {n!r} is not available ({exc})") from exc
    return out


def _default_zipf() -> Callable[[str, str], float]:
    from notescrub.lexicons import zipf

    return zipf


class DictionaryFeatures:
    """Callable ``word -> list[str]`` of dictionary features for one language."""

    def __init__(
        self,
        lang: str = "en",
        lexicons: Mapping[str, frozenset[str]] | None = None,
        zipf: Callable[[str, str], float] | None = None,
        frequency: bool = True,
    ) -> None:
        if lang not in LEXICONS_BY_LANG:
            raise ConfigError(f"no dictionary features for language {lang!r}; known: {', '.join(LEXICONS_BY_LANG)}")
        self.lang = lang
        lex = dict(lexicons) if lexicons is not None else _load_lexicons(LEXICONS_BY_LANG[lang])
        # single-word entries are looked up in the lexicons themselves (a word has no space,
        # so it can only equal a single-word entry); multi-word ones are split into words once
        self._sets: tuple[tuple[str, frozenset[str]], ...] = tuple((f"dict={name}", entries) for name, entries in sorted(lex.items()))
        part: dict[str, list[str]] = {}
        for name, entries in sorted(lex.items()):
            tag = f"dict={name}~part"
            for e in entries:
                if e.isalpha():
                    continue  # (most entries: one word)
                words = e.split()
                if len(words) > 1:
                    for w in words:
                        lst = part.setdefault(w, [])
                        if not lst or lst[-1] != tag:
                            lst.append(tag)
        # tuples of strings: the garbage collector stops tracking them
        self._part: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in part.items()}
        self._zipf = (zipf or _default_zipf()) if frequency else None

    def _whole(self, word: str) -> list[str]:
        if not word.isalpha() and len(word.split()) != 1:
            return []  # only single-word entries fire the whole-entry features
        return [tag for tag, entries in self._sets if word in entries]

    def __call__(self, word: str) -> list[str]:
        low = word.lower()
        out = self._whole(low) or self._whole(strip_accents(low))
        part = self._part.get(low)
        if part:  # "dict=X~part" only when the word is not also a whole entry of X
            out.extend(p for p in part if p[: -len("~part")] not in out)
        if self._zipf is not None and any(c.isalpha() for c in word):
            out.append(f"zipf={int(self._zipf(low, self.lang))}")
        return out


@lru_cache(maxsize=4)
def for_lang(lang: str) -> DictionaryFeatures:
    """The packaged-lexicon features of ``lang``, built once per process (read-only)."""
    return DictionaryFeatures(lang)
