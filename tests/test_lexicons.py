"""Tests of notescrub.lexicons: API, data hygiene, licences, sizes."""

from __future__ import annotations

import re
from importlib import resources

import pytest
from hypothesis import given
from hypothesis import strategies as st

from notescrub.errors import ConfigError
from notescrub.lexicons import LEXICONS, ZIPF_MEMO, is_common_word, lexicon, normalize_entry, zipf

REQUIRED = [
    "first_names", "last_names", "us_states", "cities", "countries", "nationalities", "months", "weekdays",
    "holidays", "holiday_phrases", "street_suffixes", "hospital_words", "organization_words", "professions", "titles",
    "credentials", "common_words", "medical_terms", "eponyms", "exam_eponyms", "device_makers", "es_first_names", "es_last_names",
    "es_places", "es_common_words", "es_medical_terms",
]


@pytest.mark.parametrize("name", REQUIRED)
def test_every_required_lexicon_is_available_and_normalised(name: str) -> None:
    assert name in LEXICONS
    entries = lexicon(name)
    assert isinstance(entries, frozenset) and len(entries) >= 10
    for e in entries:
        assert e == normalize_entry(e), (name, e)


@pytest.mark.parametrize(
    "name, present, absent",
    [
        ("first_names", ["maria", "thi", "chukwuemeka", "aoife", "mohammed", "wei", "priya"], []),
        ("last_names", ["garcia", "kowalski", "okafor", "smith", "haddad", "ivanov"], []),
        ("us_states", ["massachusetts", "ma", "idaho", "id", "new york"], []),
        ("cities", ["boston", "lagos", "new york city"], []),
        ("countries", ["ireland", "vietnam", "united states of america"], []),
        ("months", ["january", "sept"], ["monday"]),
        ("weekdays", ["monday", "thu"], []),
        ("holidays", ["christmas eve", "thanksgiving", "fourth of july"], ["shawwal", "civic holiday"]),
        ("holiday_phrases", ["christmas eve", "shawwal", "civic holiday", "action de grâce"], []),
        ("titles", ["dr", "mrs", "prof"], []),
        ("credentials", ["md", "rn", "pa-c", "phd"], []),
        ("hospital_words", ["hospital", "medical center", "nursing home", "rehab"], []),
        ("eponyms", ["parkinson", "foley", "graves", "bell", "baker", "wilson"], []),
        ("exam_eponyms", ["neer", "jobe", "godfrey", "hill-sachs", "hawkins-kennedy", "lachman", "spurling"],
         ["o'brien", "smith", "murphy", "allen", "thompson", "hawkins"]),
        ("medical_terms", ["lasix", "copd", "catheter"], ["john"]),
        ("common_words", ["the", "will", "may", "hope"], ["john", "michael", "garcia"]),
        ("es_places", ["madrid", "castilla y león", "a coruña"], []),
        ("es_common_words", ["de", "el", "paciente"], []),
    ],
)
def test_expected_entries(name: str, present: list[str], absent: list[str]) -> None:
    entries = lexicon(name)
    for w in present:
        assert w in entries, (name, w)
    for w in absent:
        assert w not in entries, (name, w)


def test_unknown_lexicon_names_the_available_ones() -> None:
    with pytest.raises(ConfigError, match="unknown lexicon 'nope'; available: first_names"):
        lexicon("nope")


def test_lexicon_is_cached() -> None:
    assert lexicon("months") is lexicon("months")


def test_zipf() -> None:
    assert zipf("the") > zipf("patient") > zipf("okafor") >= 0.0
    assert zipf("qzxvbnwq") == 0.0
    assert zipf("paciente", "es") > 3.0


def test_zipf_memory_is_bounded_in_the_number_of_words_seen() -> None:
    """A long run meets ever new words: neither zipf's memo nor wordfreq's may keep them all."""
    import wordfreq

    for i in range(ZIPF_MEMO + 5_000):
        zipf(f"w{i}x", "en")
    assert zipf.cache_info().currsize <= ZIPF_MEMO
    assert len(wordfreq._wf_cache) <= ZIPF_MEMO  # its memo is emptied when it reaches CACHE_SIZE
    assert zipf("the") > 7.0  # still the same answers


def test_is_common_word_any_case() -> None:
    assert is_common_word("WILL") and not is_common_word("Kowalski")


def test_packaged_lexicons_are_small_and_documented() -> None:
    root = resources.files("notescrub.resources.lexicons")
    files = [p for p in root.iterdir() if p.name.endswith(".txt")]
    assert sum(len(p.read_bytes()) for p in files) <= 3 * 1024 * 1024
    licences = resources.files("notescrub.resources").joinpath("LICENSES.md").read_text(encoding="utf-8")
    for p in files:
        first = p.read_text(encoding="utf-8").splitlines()[0]
        assert re.match(r"# (generated|hand-curated)", first), p.name
        assert p.name in licences, f"{p.name} is not listed in LICENSES.md"


@given(st.text(max_size=40))
def test_normalize_entry_is_idempotent(s: str) -> None:
    once = normalize_entry(s)
    assert normalize_entry(once) == once
    assert "  " not in once and once == once.strip()
