"""Whitespace-chunk features and multi-token task patterns, English and Spanish."""

from __future__ import annotations

import pytest

from notescrub.features.patterns import chunk_features, pattern_features
from notescrub.text.views import token_view
from notescrub.types import Document


def _pats(text, lang):
    doc = Document("d", text)
    v = token_view(doc)
    feats = pattern_features(doc, v, lang)
    return {t.text: feats[i] for i, t in enumerate(v.tokens)}


@pytest.mark.parametrize(
    "text, lang, token, pattern",
    [
        ("call (617) 555-1234 now", "en", "555", "pat=PHONE"),
        ("on 03/18/2020 seen", "en", "18", "pat=DATE"),
        ("mail ana.ruiz@example.org today", "en", "example", "pat=EMAIL"),
        ("zip 02139 here", "en", "02139", "pat=ZIP"),
        ("at Kentnaalvet Medical Center today", "en", "Kentnaalvet", "pat=HOSP"),
        ("lives at 12 Maple Street now", "en", "Maple", "pat=ADDR"),
        ("ingresa en Hospital Universitario La Paz ayer", "es", "Paz", "pat=HOSP"),
        ("Domicilio: c/ del Abedul 5, Madrid", "es", "Abedul", "pat=ADDR"),
        ("Domicilio: Calle Miguel Benitez 90.", "es", "Benitez", "pat=ADDR"),
        ("NHC: 6.543.210 x", "es", "543", "pat=LONGNUM"),
    ],
)
def test_patterns(text, lang, token, pattern):
    assert pattern in _pats(text, lang)[token]


def test_no_pattern_on_plain_words():
    assert all(not f for f in _pats("the patient is stable", "en").values())


def test_chunk_features():
    v = token_view(Document("d", "tel 555-1234 and x"))
    feats = chunk_features(v)
    assert feats[0] == [] and feats[-1] == []
    assert feats[1][:2] == ["cshape=d-d", "cpos=B"] and "c:PHONE_REG1" in feats[1]
    assert feats[2][1] == "cpos=I" and feats[3][1] == "cpos=L"


@pytest.mark.parametrize("text, token", [("En diciembre-03 se", "03"), ("el 5 de junio de 2010 fue", "2010"),
                                         ("En junio del mismo", "junio")])
def test_spanish_dates(text, token):
    assert "pat=DATE_ES" in _pats(text, "es")[token]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_prefiltered_patterns_give_the_plain_regex_matches(lang):
    from notescrub.features.patterns import _finders, patterns_for

    texts = ["Call 555-1234 or (617) 555-0100, 3/18/2091, 2091-03-18, zip 02139-1234, id 12 345 678 9",
             "tel.+34 91 123 45 67; 1/2; 12/31/99 x9/9/2000 5.5-6 02139", "", "no digits here"]
    for (name, finditer), (name2, rx) in zip(_finders(lang), patterns_for(lang)):
        assert name == name2
        for t in texts:
            assert [m.span() for m in finditer(t)] == [m.span() for m in rx.finditer(t)]


def test_chunk_memo_is_bounded_in_the_number_of_chunks_seen() -> None:
    """A long run meets ever new chunks (ids, numbers): the memo starts over instead of growing."""
    from notescrub.features import patterns

    text = " ".join(f"ID{i}x" for i in range(patterns._CHUNK_CACHE_MAX + 2_000))
    feats = chunk_features(token_view(Document("d", text)))
    assert len(patterns._CHUNK_CACHE) <= patterns._CHUNK_CACHE_MAX + 1
    assert feats[0] == chunk_features(token_view(Document("e", "ID0x")))[0]  # same features after a restart
