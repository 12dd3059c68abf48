"""A cheap language plausibility check: does a text look like English (or Spanish)?

Models are built for one language; a Spanish or German note given to the English model
is still processed (never left unredacted), but the user is warned. The check counts how
many of the first alphabetic words are among the language's frequent words: on en-dev
every note has ≥ 0.58 of its words in the English list (synthetic notes ≥ 0.34), MEDDOCAN
notes ≤ 0.28, hence the 0.3 threshold. Below it, a text is still accepted when no other
known language has a larger share and at least half the threshold is reached (a header of
names and codes in capitals is English with few frequent words; MEDDOCAN notes have ≥ 0.65
of their words in the Spanish list). It separates English from Spanish well but not from
every language: German shares many short words with the English list (≈ 0.4).

>>> looks_like("The patient was seen in clinic today and is doing well.", "en")
True
>>> looks_like("Paciente de 70 años, minero jubilado, sin alergias medicamentosas conocidas, "
...            "que presenta como antecedentes un accidente laboral con fracturas costales.", "en")
False
>>> looks_like("El paciente fue ingresado el lunes en el hospital y está estable.", "es")
True
>>> looks_like("BP 120/80", "en")  # too few words to judge
True
>>> looks_like("SMITH, JOHN A  DOB: 4/5/1950  MRN 00123456  ATTENDING: WILLIAMS, MARY  "
...            "Neuro consult for Mr. Smith.", "en")  # few frequent words, but not Spanish either
True
"""

from __future__ import annotations

import re

__all__ = ["common_share", "looks_like"]

_WORD = re.compile(r"[^\W\d_]{2,}")
_LEXICON = {"en": "common_words", "es": "es_common_words"}


def common_share(text: str, lang: str, max_words: int = 400) -> tuple[float, int]:
    """Share of the first ``max_words`` words found in the language's frequent-word list."""
    from notescrub.lexicons import lexicon

    words = [w.lower() for w in _WORD.findall(text[:20000])][:max_words]
    if not words:
        return 1.0, 0
    common = lexicon(_LEXICON[lang])
    return sum(w in common for w in words) / len(words), len(words)


def looks_like(text: str, lang: str, threshold: float = 0.3, min_words: int = 8) -> bool:
    """False only when there are enough words and too few of them are frequent ``lang`` words.

    Languages without a frequent-word list always pass.
    """
    if lang not in _LEXICON:
        return True
    share, n = common_share(text, lang)
    if n < min_words or share >= threshold:
        return True
    # few frequent words: header-heavy notes (names, codes, all caps) are like that too, so
    # only say no when another known language fits better or almost nothing is frequent
    if share < threshold / 2:
        return False
    return all(common_share(text, other)[0] <= share for other in _LEXICON if other != lang)
