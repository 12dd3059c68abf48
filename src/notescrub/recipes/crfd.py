"""CRFD recipe (Uzuner et al. 2008): a CRF on exactly Stat De-id's local-context features.

The paper's CRFD complements Stat De-id's local context with *sentential global
context*: a linear-chain CRF decodes each sentence jointly. Here:
:class:`~notescrub.detect.crf.statdeid.StatDeidCRF` with the featurizer of the
:mod:`~notescrub.recipes.stat_deid` recipe (same groups, same language rules), one
sequence per sentence, BIO tags, L-BFGS with L2 (CRFsuite; ``c2 = 1.0``,
100 iterations). The paper does not give its CRF's training settings (it used
Sarawagi's CRF package); ours are the CRF tagger's defaults with fewer iterations.

>>> crfd = build(lang="es")
>>> crfd.sequence, crfd.scheme, crfd.featurizer.groups
('sentence', 'BIO', ('lexical_bigrams', 'medical_np', 'section'))
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.crf.statdeid import StatDeidCRF
from notescrub.errors import ConfigError
from notescrub.recipes.stat_deid import featurizer

__all__ = ["build"]


def build(lang: str = "en", syntax: bool | None = None, pos: bool | None = None,
          features: dict[str, Any] | None = None, **overrides: Any) -> StatDeidCRF:
    """An unfitted CRFD tagger (``overrides`` replace CRF parameters)."""
    params: dict[str, Any] = {"scheme": "BIO", "sequence": "sentence", "algorithm": "lbfgs", "c1": 0.0, "c2": 1.0,
                              "max_iterations": 100, "name": "crfd"}
    params.update(overrides)
    try:
        return StatDeidCRF(featurizer(lang, syntax, pos, **(features or {})), **params)
    except TypeError as exc:
        raise ConfigError(f"crfd recipe: {exc}") from None
