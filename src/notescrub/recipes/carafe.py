"""Carafe recipe (Wellner et al. 2007): a whole-record CRF with lexical context and regexes.

What the paper used, and what we do:

* **Sequence**: the whole medical record is one sequence -- same (``sequence="record"``).
* **Labels**: BIO over the PHI types -- same (``scheme="BIO"``).
* **Features** (Tables 2-5, Carafe-ALL): word unigrams 3 left / 2 right, word bigrams
  (w-1 w0, w-2 w-1, w0 w1, w1 w2, w-1 w1), affixes up to length 2 at w0 and of the
  context words, Carafe's regular-expression classes (Tables 3-4) and contextual
  patterns (``<INITCAP> Medical Center``, address shapes; Table 5), and a lexicon of US
  states, months and English words -- we use ``window=(3, 2)``, ``affixes=2``,
  ``window_affixes=True``, the ``orthographic`` group (which also holds WI-deId's flags
  and word shapes, a superset of Carafe's classes) and the ``dictionary`` group (our
  lexicons are larger: names, places, professions, frequency). No sentence or position
  features, as Carafe had none.
* **Training**: L-BFGS with a Gaussian prior sigma = 10 (an L2 penalty
  ``||w||^2 / (2 sigma^2)``, i.e. ``c2 = 0.005`` in CRFsuite's units) -- same.
* **Bias**: Carafe-ALL used ``b = -1.0`` on the O label (tuned by cross-validation);
  the recipe stores ``bias=-1.0``, changeable at run time (``annotate --recall-bias 1.0`` gives ``bias=-1.0``).
* **Carafe-ALL+PP**: ``build(pp=True)`` (``notescrub train --recipe carafe --set pp=true``)
  gives :class:`~notescrub.recipes.carafe_pp.CarafePP`: the same CRF at the paper's bias
  -1.5 (unless ``bias`` is given), its spans completed by the paper's regular
  expressions (``resources/rules/carafe_pp.toml``); English only.
* **Differences**: our tokenizer (fused-token splitting), lexicons and regex patterns are
  our own.

>>> crf = build()
>>> crf.featurizer.window, crf.sequence, crf.scheme, crf.c2, crf.bias
((3, 2), 'record', 'BIO', 0.005, -1.0)
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer
from notescrub.recipes.carafe_pp import PP_BIAS, CarafePP

__all__ = ["build", "featurizer"]


def featurizer(lang: str = "en", **overrides: Any) -> Featurizer:
    """Carafe-ALL's feature configuration."""
    params: dict[str, Any] = {
        "groups": ("lexical", "orthographic", "dictionary"),
        "window": (3, 2),
        "affixes": 2,
        "window_affixes": True,
        "bigrams": True,
        "window_groups": ("lexical",),
        "lang": lang,
    }
    params.update(overrides)
    return Featurizer(**params)


def build(lang: str = "en", features: dict[str, Any] | None = None, pp: bool = False,
          **overrides: Any) -> CRFTagger | CarafePP:
    """An unfitted Carafe-style :class:`CRFTagger` (``overrides`` replace tagger parameters).

    ``pp=True``: Carafe-ALL+PP, the tagger (bias -1.5 unless ``bias`` is given) inside a
    :class:`~notescrub.recipes.carafe_pp.CarafePP`.

    >>> type(build(pp=True)).__name__, build(pp=True).crf.bias
    ('CarafePP', -1.5)
    """
    params: dict[str, Any] = {"scheme": "BIO", "sequence": "record", "algorithm": "lbfgs", "c1": 0.0, "c2": 0.005,
                                  "max_iterations": 200, "bias": PP_BIAS if pp else -1.0}
    params.update(overrides)
    crf = CRFTagger(featurizer(lang, **(features or {})), **params)
    if pp:
        pp_model = CarafePP(crf, lang=lang)
        pp_model._check()  # English only: refused before any training
        return pp_model
    return crf
