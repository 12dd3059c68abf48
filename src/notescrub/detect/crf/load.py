"""Loading a ``crf`` model directory: one stage (:class:`CRFTagger`) or two (:class:`ConsistencyTagger`).

It sits in its own module so that neither tagger module imports the other.

>>> import tempfile, pathlib
>>> from notescrub.features import Featurizer
>>> from notescrub.types import Document, Span
>>> doc = Document("a", "Seen by Dr. Ruiz.", layers={"gold": [Span(12, 16, "DOCTOR")]})
>>> out = CRFTagger(Featurizer(), max_iterations=5).fit([doc] * 4).save(pathlib.Path(tempfile.mkdtemp()) / "m")
>>> type(load_tagger(out)).__name__
'CRFTagger'
"""

from __future__ import annotations

from pathlib import Path

from notescrub.detect.base import Detector
from notescrub.detect.crf.consistency import ConsistencyTagger
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.registry import read_model_meta

__all__ = ["load_tagger"]


def load_tagger(directory: str | Path) -> Detector:
    """The detector of a ``crf`` model directory (``"stages": 2`` in ``model.json``: the two-stage tagger)."""
    d = Path(directory)
    meta = read_model_meta(d)
    if meta.get("stages", 1) == 2:
        return ConsistencyTagger.from_meta(d, meta)
    return CRFTagger.from_meta(d, meta)
