"""Aramaki recipe (Aramaki et al. 2006): local + sentence features, then label consistency.

What the paper used, and what we do:

* **Labels**: IOB2 -- ``scheme="BIO"``.
* **Local features** (Table 2): words at -2..+2, POS at -2..+2, capitalisation type at
  -2..+2, length, special characters, DATE/PHONE templates -- the ``lexical`` group
  without affixes or bigrams (``affixes=0``, ``bigrams=False``), the ``orthographic``
  group for the neighbours too (a superset: shapes, flags, regex classes), POS only
  with ``pos=True`` (spaCy instead of Tsuruoka's tagger).
* **Sentence features**: top 10 / bottom 5 lines, lengths of the previous, current and
  next sentence, last three words of the previous sentence -- the ``sentence`` group
  (which also carries the section heading).
* **Extra resources**: person-name and location dictionaries (46k / 22k entries) and
  date expressions -- the ``dictionary`` group (our own lexicons).
* **Label consistency**: a second CRF with token- and entry-level majority labels in the
  record and the corpus (:mod:`notescrub.detect.crf.consistency`). The paper does not say
  how the first-stage labels of the training data were produced; we cross-fit them
  (``folds=5``). At run time the corpus majorities are the training corpus's; in
  training, a record's corpus majorities come from the other folds (a new record is
  never in the training corpus). What stage two does: a name the first CRF tags at its
  cued mention ("Dr. Room") but not at a cue-less one ("Room reviewed the chart") gets
  the record majority DOCTOR on every occurrence, and the second CRF labels the cue-less
  ones DOCTOR too (``tests/recipes/test_aramaki.py``; details in ``docs/crf.md``).
* **Training**: CRF++ (L2, C = 1 -> ``c2 = 0.5``) on sentences; same settings here.

>>> t = build()
>>> t.folds, t.first.sequence, t.first.featurizer.groups
(5, 'sentence', ('lexical', 'orthographic', 'dictionary', 'sentence'))
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.crf.consistency import ConsistencyTagger
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer

__all__ = ["build", "featurizer"]


def featurizer(lang: str = "en", pos: bool = False, **overrides: Any) -> Featurizer:
    """Aramaki's local, sentence and extra-resource features."""
    groups = ("lexical", "orthographic", "dictionary", "sentence") + (("pos",) if pos else ())
    params: dict[str, Any] = {"groups": groups, "window": (2, 2), "affixes": 0, "window_affixes": False, "bigrams": False,
                                  "window_groups": ("lexical", "orthographic"), "lang": lang}
    params.update(overrides)
    return Featurizer(**params)


def build(lang: str = "en", pos: bool = False, folds: int = 5, features: dict[str, Any] | None = None,
          **overrides: Any) -> ConsistencyTagger:
    """An unfitted two-stage tagger (``overrides`` apply to both CRF stages)."""
    params: dict[str, Any] = {"scheme": "BIO", "sequence": "sentence", "algorithm": "lbfgs", "c1": 0.0, "c2": 0.5,
                                  "max_iterations": 200}
    params.update(overrides)
    feat = featurizer(lang, pos, **(features or {}))
    return ConsistencyTagger(CRFTagger(feat, **params), CRFTagger(feat, **params), folds=folds)
