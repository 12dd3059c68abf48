"""WI-deId recipe (He et al. 2015): a sentence-level CRF with lexical, orthographic and dictionary features.

What the paper used, and what we do:

* **Tokenization**: OpenNLP, then the nine regular expressions of Table 1 that cut
  fused tokens (``PEND01/26/2098``, ``47798497-045-1949``, ``JaffreyMarital``), then
  punctuation -- the recipe's featurizer uses ``fused="he2015"``
  (:mod:`notescrub.text.he2015`): the Table 1 cuts, as character offsets, on top of
  the plain tokenizer (whitespace and every punctuation character on its own, our
  stand-in for OpenNLP and the paper's punctuation step). Letters and digits no rule
  separates stay one token (``MRN4482911``), unlike the toolkit's generic tokenizer
  (``fused=True``, the default everywhere else). ``fused=False`` (plain tokenizer)
  reproduces the "no preprocessing" comparison system; models saved before this
  setting existed keep the generic tokenizer they were trained with.
* **Sequence**: sentences (OpenNLP sentence detector) -- ``sequence="sentence"`` with
  our wrap-aware segmenter.
* **Labels**: BIO -- same.
* **Features** (Table 2): lower-cased token, first and last four characters, POS tag
  (GENIA tagger), shape, length, the nine binary orthographic flags and token-level
  dictionaries of states, streets, countries and dates, all for the tokens in a +/-2
  window (unofficial run 2) -- ``window=(2, 2)``, ``affixes=4``, ``window_affixes=True``,
  ``window_groups`` = lexical, orthographic, dictionary. POS uses spaCy's English
  pipeline instead of GENIA, and only when ``pos=True`` (the ``[syntax]`` extra); the
  model's metadata says whether it was on. Our dictionaries are larger (names, cities,
  professions...). Carafe's regex classes come with the orthographic group.
* **Training**: CRF++ with its default L2 (C = 1, i.e. ``c2 = 0.5`` in CRFsuite's
  units); we use CRFsuite's L-BFGS with ``c2=0.5``.

>>> crf = build()
>>> crf.featurizer.window, crf.featurizer.affixes, crf.sequence, crf.featurizer.pos_enabled, crf.featurizer.fused
((2, 2), 4, 'sentence', False, 'he2015')
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer

__all__ = ["build", "featurizer"]


def featurizer(lang: str = "en", pos: bool = False, **overrides: Any) -> Featurizer:
    """WI-deId's feature configuration (unofficial run 2)."""
    groups = ("lexical", "orthographic", "dictionary") + (("pos",) if pos else ())
    params: dict[str, Any] = {"groups": groups, "window": (2, 2), "affixes": 4, "window_affixes": True, "bigrams": False,
                                  "window_groups": ("lexical", "orthographic", "dictionary"), "lang": lang,
                                  "fused": "he2015"}
    params.update(overrides)
    return Featurizer(**params)


def build(lang: str = "en", pos: bool = False, features: dict[str, Any] | None = None, **overrides: Any) -> CRFTagger:
    """An unfitted WI-deId-style :class:`CRFTagger`."""
    params: dict[str, Any] = {"scheme": "BIO", "sequence": "sentence", "algorithm": "lbfgs", "c1": 0.0, "c2": 0.5,
                                  "max_iterations": 200}
    params.update(overrides)
    return CRFTagger(featurizer(lang, pos, **(features or {})), **params)
