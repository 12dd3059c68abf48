"""Dictionary features from notescrub.lexicons (whole entries, parts, frequency)."""

from __future__ import annotations

import pytest

from notescrub.errors import ConfigError
from notescrub.features.dictionary import DictionaryFeatures


def test_injected_lexicons():
    d = DictionaryFeatures("en", lexicons={"cities": frozenset({"boston", "new york"})}, zipf=lambda w, lang: 0.4)
    assert d("Boston") == ["dict=cities", "zipf=0"]
    assert d("York") == ["dict=cities~part", "zipf=0"]
    assert d("12") == []  # no frequency feature for numbers


def test_accent_fallback():
    d = DictionaryFeatures("es", lexicons={"es_last_names": frozenset({"cuellar"})}, frequency=False)
    assert d("Cuéllar") == ["dict=es_last_names"]


def test_unknown_language():
    with pytest.raises(ConfigError, match="language"):
        DictionaryFeatures("fr", lexicons={})


@pytest.mark.parametrize(
    "lang, word, feature",
    [("en", "March", "dict=months"), ("en", "Boston", "dict=cities"), ("es", "Madrid", "dict=es_places"),
     ("es", "Ernesto", "dict=es_first_names")],
)
def test_packaged_lexicons(lang, word, feature):
    assert feature in DictionaryFeatures(lang)(word)


def test_rare_words_have_low_frequency():
    d = DictionaryFeatures("en")
    assert "zipf=0" in d("Kentnaalvet") and "zipf=7" in d("the")
