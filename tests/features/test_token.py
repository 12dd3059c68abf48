"""Per-word features: shapes, WI-deId flags, Carafe classes, Spanish words."""

from __future__ import annotations

import pytest

from notescrub.features.token import (
    carafe_classes,
    lexical_features,
    orthographic_features,
    shape,
    short_shape,
    strip_accents,
    wi_deid_flags,
)


@pytest.mark.parametrize(
    "word, full, short",
    [("Smith", "Xxxxx", "Xx"), ("12", "dd", "d"), ("Nº", "Xx", "Xx"), ("Cuéllar", "Xxxxxxx", "Xx"),
     ("a1B", "xdX", "xdX"), ("supercalifragilistic", "xxxxxxxxxxxx~", "x")],
)
def test_shapes(word, full, short):
    assert shape(word) == full and short_shape(word) == short


@pytest.mark.parametrize(
    "word, expected",
    [
        ("Valdez", {"has_letter", "has_cap", "init_cap"}),
        ("MRN", {"has_letter", "has_cap", "init_cap", "all_caps"}),
        ("2098", {"has_digit", "all_digits"}),
        ("x76221", {"has_letter", "has_digit", "alnum"}),
        ("01/26", {"has_digit", "has_punct", "digit_punct"}),
        ("/", {"has_punct"}),
    ],
)
def test_wi_deid_flags(word, expected):
    assert set(wi_deid_flags(word)) == expected


@pytest.mark.parametrize(
    "word, present, absent",
    [
        ("Smith", {"INITCAP", "CAPS_MIX", "ALPHA_NUM"}, {"ALLCAPS", "HAS_DIGIT"}),
        ("Álvaro", {"INITCAP"}, {"NO_VOWELS"}),
        ("02139", {"FIVE_DIGIT", "NAT_NUM", "HAS_DIGIT"}, {"FOUR_DIGIT"}),
        ("555-1234", {"PHONE_REG1", "HAS_DASH", "HAS_DASH_NUM_ALPHA"}, {"PHONE_REG2"}),
        ("617-555-1234", {"PHONE_REG2"}, {"PHONE_REG1"}),
        ("3.5", {"REAL_NUM"}, {"NAT_NUM"}),
        ("/", {"DATE_SEP", "PUNCTUATION", "NO_VOWELS"}, {"ALPHA_NUM"}),
        ("Mrs", {"NO_VOWELS", "INITCAP"}, set()),
    ],
)
def test_carafe_classes(word, present, absent):
    got = set(carafe_classes(word))
    assert present <= got and not (absent & got)


def test_lexical_features_affixes_are_lowercase_and_bounded():
    feats = lexical_features("ABc", affixes=4)
    assert feats == ["w=ABc", "lw=abc", "p1=a", "s1=c", "p2=ab", "s2=bc", "p3=abc", "s3=abc"]
    assert lexical_features("x", affixes=0) == ["w=x", "lw=x"]


def test_orthographic_contains_shape_and_length():
    feats = orthographic_features("Ruiz")
    assert feats[:3] == ["shape=Xxxx", "sshape=Xx", "len=4"]


def test_strip_accents():
    assert strip_accents("Cuéllar Muñoz") == "Cuellar Munoz"


def test_carafe_classes_match_the_papers_nested_wildcards_on_random_words():
    """The linear rewrites of ``.*\\d.*``, ``.*-.*`` and ``.*a.*-.*b.*`` accept the same words."""
    import random
    import re

    from notescrub.features.token import CARAFE_CLASSES

    letter = r"[^\W\d_]"
    paper = {
        "HAS_DIGIT": re.compile(r".*\d.*"),
        "HAS_DASH": re.compile(r".*-.*"),
        "HAS_DASH_NUM_ALPHA": re.compile(rf".*{letter}.*-.*\d.*|.*\d.*-.*\d.*"),
    }
    rnd = random.Random(7)
    words = ["", "-", "a-1", "1-a", "1-1", "a1-", "x-y-3", "é-٣", "a\n-1"]
    words += ["".join(rnd.choice("aZé1٣-/._ \n") for _ in range(rnd.randint(0, 9))) for _ in range(20_000)]
    for name, rx in paper.items():
        assert [bool(rx.fullmatch(w)) for w in words] == [bool(CARAFE_CLASSES[name].fullmatch(w)) for w in words]
