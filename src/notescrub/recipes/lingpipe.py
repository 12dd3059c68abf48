"""LingPipe recipe (Wellner et al. 2007, second system): a character-LM HMM chunker.

What the paper used, and what we do:

* **Model**: LingPipe 2.3's ``CharLmRescoringChunker`` trained with the
  ``TrainMuc6`` demo defaults (character n-grams of length 8, 256 characters,
  interpolation ratio 8), each record one "sentence" -- same model family
  (:class:`~notescrub.detect.lingpipe.chunker.CharLmHmmChunker`: BMEWO+ HMM, Witten-Bell
  character 8-gram emission models, ``n_chars = 256``, ``L = 8``, whole records).
* **Rescoring**: LingPipe re-scored the 512 best chunkings of a record with longer-range
  character models -- we re-score the ``n_best`` best paths (default 8; a parameter:
  ``build(n_best=512)``, ``--set n_best=512``) of every region where the HMM hesitates
  (:mod:`notescrub.detect.lingpipe.rescore`), with the same kind of models (a character
  LM per chunk type, one over the text around the chunks). On MEDDOCAN dev depth 512
  gives strict F1 0.9345 against 0.9280 at 8 (not significant, z +1.39) for 2.7 times
  the annotation CPU (``docs/recipes-statdeid-lingpipe.md``).
* **Differences**: tokens come from notescrub's tokenizer (plus line-break tokens);
  LingPipe's own tokenizer and its pruning beams are not reproduced; no
  post-processing, as in the paper.

>>> chunker = build()
>>> chunker.order, chunker.n_chars, chunker.n_best
(8, 256, 8)
"""

from __future__ import annotations

from typing import Any

from notescrub.detect.lingpipe.chunker import CharLmHmmChunker
from notescrub.errors import ConfigError

__all__ = ["build"]


def build(lang: str = "en", **overrides: Any) -> CharLmHmmChunker:
    """An unfitted LingPipe-style chunker (``lang`` does not change it: the model is
    learned from characters alone)."""
    params: dict[str, Any] = {"order": 8, "n_chars": 256, "lambda_factor": 8.0, "n_best": 8, "name": "lingpipe"}
    params.update(overrides)
    try:
        return CharLmHmmChunker(**params)
    except TypeError as exc:
        raise ConfigError(f"lingpipe recipe: {exc}") from None
