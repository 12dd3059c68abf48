"""Pure per-word feature functions: shapes, WI-deId flags and Carafe's regex classes.

Every function takes one token's text and returns feature strings (``name=value``);
they depend on nothing but the word, so :class:`~notescrub.features.extract.Featurizer`
caches their result per distinct word.

>>> shape("Smith"), short_shape("Smith"), short_shape("12/03")
('Xxxxx', 'Xx', 'd/d')
>>> lexical_features("Valdez", affixes=4)[:4]
['w=Valdez', 'lw=valdez', 'p1=v', 's1=z']
>>> sorted(orthographic_features("Smith"))[1:5]
['CAPS_MIX', 'INITCAP', 'has_cap', 'has_letter']
>>> "FIVE_DIGIT" in orthographic_features("02139")
True
"""

from __future__ import annotations

import re
import unicodedata

__all__ = [
    "CARAFE_CLASSES",
    "carafe_classes",
    "lexical_features",
    "orthographic_features",
    "shape",
    "short_shape",
    "strip_accents",
    "wi_deid_flags",
]

_MAX_SHAPE = 12
_MAX_LEN = 12


def _char_class(c: str) -> str:
    if c.isdigit():
        return "d"
    if c.isalpha():
        return "X" if c.isupper() else "x"
    return c


def shape(word: str) -> str:
    """Word shape: upper -> ``X``, lower -> ``x``, digit -> ``d``, other kept (first 12 chars)."""
    return "".join(_char_class(c) for c in word[:_MAX_SHAPE]) + ("~" if len(word) > _MAX_SHAPE else "")


def short_shape(word: str) -> str:
    """Shape with runs of the same class collapsed (``Xxxxx`` -> ``Xx``)."""
    out: list[str] = []
    for c in word:
        k = _char_class(c)
        if not out or out[-1] != k:
            out.append(k)
    return "".join(out)


def strip_accents(word: str) -> str:
    """``"Cuéllar" -> "Cuellar"`` (combining marks removed; ñ becomes n)."""
    if word.isascii():
        return word
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def lexical_features(word: str, affixes: int = 4) -> list[str]:
    """Word, lower-cased word, prefixes and suffixes of length 1..``affixes`` (lower-cased)."""
    low = word.lower()
    out = [f"w={word}", f"lw={low}"]
    n = len(low)
    for k in range(1, min(affixes, n) + 1):
        out.append(f"p{k}={low[:k]}")
        out.append(f"s{k}={low[-k:]}")
    return out


def wi_deid_flags(word: str) -> list[str]:
    """He et al. (2015) Table 2 binary orthographic features (only the true ones)."""
    has_letter = any(c.isalpha() for c in word)
    has_digit = any(c.isdigit() for c in word)
    has_punct = any(not c.isalnum() for c in word)
    out = []
    if has_letter:
        out.append("has_letter")
    if any(c.isupper() for c in word):
        out.append("has_cap")
    if word[:1].isupper():
        out.append("init_cap")
    if has_letter and word.isupper():
        out.append("all_caps")
    if has_digit:
        out.append("has_digit")
    if word.isdigit():
        out.append("all_digits")
    if has_punct:
        out.append("has_punct")
    if has_letter and has_digit and word.isalnum():
        out.append("alnum")
    if has_digit and has_punct and not has_letter:
        out.append("digit_punct")
    return out


# Wellner et al. (2007) Tables 3 and 4. [A-Za-z] is widened to any letter (accents).
# ``.*a.*-.*b.*`` is written as atomic lazy steps (first ``a``, then the first ``-`` after it,
# then the first ``b`` after that): the same words match, in time linear in the word's length
# (the nested ``.*`` took seconds on a 100,000-character token).
_L = r"[^\W\d_]"
CARAFE_CLASSES: dict[str, re.Pattern[str]] = {
    name: re.compile(rx)
    for name, rx in {
        "INITCAP": rf"{_L}(?<=[^\W\d_a-zß-ÿ]).*",
        "ALLCAPS": r"[^\W\d_a-zß-ÿ]+",
        "CAPS_MIX": rf"{_L}+",
        "HAS_DIGIT": r"(?>.*?\d).*",
        "SINGLE_DIGIT": r"\d",
        "DOUBLE_DIGIT": r"\d\d",
        "FOUR_DIGIT": r"\d{4}",
        "FIVE_DIGIT": r"\d{5}",
        "NAT_NUM": r"\d+",
        "REAL_NUM": r"\d+[.,]\d+",
        "ALPHA_NUM": r"[^\W_]+",
        "HAS_DASH": r"(?>.*?-).*",
        "PUNCTUATION": r"[^\w]+",
        "PHONE_REG1": r"\d{3}-\d{4}",
        "PHONE_REG2": r"\d{3}-\d{3}-\d{4}",
        "NO_VOWELS": r"[^AaEeIiOoUuÁÉÍÓÚáéíóúü]+",
        "HAS_DASH_NUM_ALPHA": rf"(?>.*?{_L})(?>.*?-)(?>.*?\d).*|(?>.*?\d)(?>.*?-)(?>.*?\d).*",
        "DATE_SEP": r"[-/]",
    }.items()
}


def carafe_classes(word: str) -> list[str]:
    """Names of the Carafe regular-expression classes that match the whole ``word``."""
    return [name for name, rx in CARAFE_CLASSES.items() if rx.fullmatch(word)]


def orthographic_features(word: str) -> list[str]:
    """Shape, short shape, length, WI-deId flags and Carafe classes of one word."""
    return [
        f"shape={shape(word)}",
        f"sshape={short_shape(word)}",
        f"len={min(len(word), _MAX_LEN)}",
        *wi_deid_flags(word),
        *carafe_classes(word),
    ]
