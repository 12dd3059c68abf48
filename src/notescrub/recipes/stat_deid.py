"""Stat De-id recipe (Uzuner et al. 2008): a per-token linear SVM over local context.

What the paper used, and what we do:

* **Classifier**: LIBSVM, linear kernel, multi-class by one-against-one voting, one
  token at a time -- we use scikit-learn's ``LinearSVC`` (liblinear, one-vs-rest,
  ``C = 0.1``), one token at a time (:class:`~notescrub.detect.svm.SVMTagger`).
* **Classes**: seven PHI categories + non-PHI -- we use the training corpus's own
  labels (native, e.g. the 22 MEDDOCAN types) + ``O``.
* **Features** (section 6): the target word; lexical bigrams left and right;
  capitalisation, punctuation, digits, length; POS of the target and ±2 neighbours
  (Brill tagger); syntactic bigrams (Link Grammar); MeSH id of the noun phrase holding
  the target; name/location/hospital/date dictionaries of the target and ±2 neighbours;
  section heading -- we use the shared featurizer's ``lexical`` (word, lower case,
  affixes, ±2 words), ``orthographic`` (shape, flags, length, regex classes) and
  ``dictionary`` (our lexicons, ±2) groups plus Stat De-id's own groups
  (:mod:`notescrub.features.statdeid`): lexical bigrams, spaCy POS ±2, syntactic
  bigrams over a spaCy dependency parse (arcs as links), a medical-vocabulary
  noun-phrase feature (our packaged medical term list instead of MeSH), section.
* **Languages**: English uses the parser groups (they need the ``[syntax]`` extra; a
  missing parser is an error, never a silent change). No Spanish parser is shipped,
  so for ``lang="es"`` the recipe leaves out POS and syntactic bigrams and builds the
  medical noun phrases heuristically (``np_source="heuristic"``); ``syntax=True`` with
  ``lang="es"`` is refused. The model's ``features_on`` metadata says what was on.

>>> svm = build(lang="es")
>>> svm.featurizer.groups, svm.featurizer.np_source, svm.C
(('lexical_bigrams', 'medical_np', 'section'), 'heuristic', 0.1)
>>> build(lang="en", syntax=False).featurizer.groups
('lexical_bigrams', 'medical_np', 'section')
>>> build(lang="en", pos=False).featurizer.groups
('lexical_bigrams', 'syntactic_bigrams', 'medical_np', 'section')
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.svm import SVMTagger
from notescrub.errors import ConfigError
from notescrub.features.statdeid import (
    SHARED_GROUPS,
    STATDEID_GROUPS,
    StatDeidFeaturizer,
)

__all__ = ["build", "featurizer"]

_NO_PARSER = ("lexical_bigrams", "medical_np", "section")


def featurizer(lang: str = "en", syntax: bool | None = None, pos: bool | None = None, **overrides: Any
               ) -> StatDeidFeaturizer:
    """Stat De-id's feature configuration for ``lang`` (``syntax``: parser groups on/off;
    ``None`` means on for English, off for languages without a parser)."""
    if syntax is None:
        syntax = lang == "en"
    if syntax and lang != "en":
        raise ConfigError(f"no dependency parser is available for language {lang!r}: use syntax=False")
    on = set(STATDEID_GROUPS if syntax else _NO_PARSER)
    if pos is not None:  # POS alone can be switched on (English) or off
        (on.add if pos else on.discard)("pos")
    groups = tuple(g for g in STATDEID_GROUPS if g in on)
    params: dict[str, Any] = {"groups": groups, "shared_groups": SHARED_GROUPS, "lang": lang,
                              "np_source": "parser" if syntax else "heuristic"}
    params.update(overrides)
    return StatDeidFeaturizer(**params)


def build(lang: str = "en", syntax: bool | None = None, pos: bool | None = None,
          features: dict[str, Any] | None = None, **overrides: Any) -> SVMTagger:
    """An unfitted Stat De-id :class:`SVMTagger` (``overrides``: ``C``, ``min_freq``...)."""
    params: dict[str, Any] = {"C": 0.1, "min_freq": 1, "class_weight": None, "max_iter": 2000, "name": "stat-deid"}
    params.update(overrides)
    try:
        return SVMTagger(featurizer(lang, syntax, pos, **(features or {})), **params)
    except TypeError as exc:
        raise ConfigError(f"stat-deid recipe: {exc}") from None
