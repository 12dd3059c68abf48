"""CRFD: the CRF of :mod:`notescrub.detect.crf.tagger` on exactly Stat De-id's features.

Uzuner et al. (2008) built CRFD to measure what *sentential global context* (joint
decoding of a whole sequence) adds to Stat De-id's local context: same features, a
CRF instead of per-token SVM decisions. :class:`StatDeidCRF` is
:class:`~notescrub.detect.crf.tagger.CRFTagger` with a
:class:`~notescrub.features.statdeid.StatDeidFeaturizer`; its model directories
have kind ``crfd`` (same files as a ``crf`` model) so that loading rebuilds the Stat
De-id featurizer.

>>> from notescrub.features.statdeid import StatDeidFeaturizer
>>> feat = StatDeidFeaturizer(groups=("lexical_bigrams",), shared_groups=("lexical", "orthographic"))
>>> docs = [Document(str(i), f"Seen by Dr. {n} today.", layers={"gold": [Span(12, 12 + len(n), "DOCTOR")]})
...         for i, n in enumerate(["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez"])]
>>> crfd = StatDeidCRF(feat, max_iterations=50).fit(docs)
>>> [s.label for s in crfd.detect(Document("x", "Seen by Dr. Vega today."))]
['DOCTOR']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from notescrub.detect.crf.tagger import CRFTagger
from notescrub.errors import ConfigError, ModelError
from notescrub.features.extract import Featurizer
from notescrub.types import Document, Span  # noqa: F401 - used by the doctest

__all__ = ["KIND", "StatDeidCRF"]

KIND = "crfd"


class StatDeidCRF(CRFTagger):
    """A :class:`CRFTagger` whose default featurizer is Stat De-id's (name ``crfd``)."""

    def __init__(
        self,
        featurizer: Any = None,
        scheme: str = "BIO",
        sequence: str = "record",
        algorithm: str = "lbfgs",
        c1: float = 0.0,
        c2: float = 1.0,
        max_iterations: int = 200,
        min_freq: int = 1,
        possible_transitions: bool = True,
        bias: float = 0.0,
        threshold: float | None = None,
        labels: Sequence[str] | None = None,
        name: str = "crfd",
        verbose: bool = False,
        label_bias: Mapping[str, float] | None = None,
    ) -> None:
        # every parameter spelled out (scikit-learn's contract: no *args/**kwargs); only name's default differs
        super().__init__(featurizer, scheme, sequence, algorithm, c1, c2, max_iterations, min_freq,
                         possible_transitions, bias, threshold, labels, name, verbose, label_bias)

    def _featurizer(self) -> Any:
        if self.featurizer is None:
            from notescrub.features.statdeid import StatDeidFeaturizer

            self.featurizer = StatDeidFeaturizer()  # type: ignore[assignment]  # duck-typed: same methods
        return self.featurizer

    def metadata(self) -> dict[str, Any]:
        meta = super().metadata()
        meta["kind"] = KIND
        feat = self._featurizer()
        if hasattr(feat, "describe"):
            meta["features_on"] = feat.describe()
        return meta

    @classmethod
    def from_meta(cls, directory: Path, meta: dict[str, Any], model_file: str = "model.crfsuite") -> StatDeidCRF:
        if meta.get("kind") != KIND:
            raise ModelError(f"model kind is {meta.get('kind')!r}, expected {KIND!r}", path=directory)
        from notescrub.detect.svm import featurizer_from_config

        try:
            feat = featurizer_from_config(meta["featurizer"])
        except (KeyError, TypeError, ConfigError) as exc:
            raise ModelError(f"model.json is invalid: {exc}", path=directory / "model.json") from None
        # the CRF loader checks format, version and checksum; it rebuilds a shared featurizer
        # from the configuration it is given, which is replaced by the Stat De-id one here
        shim = dict(meta, kind="crf", featurizer=Featurizer().to_config())
        tagger = super().from_meta.__func__(cls, directory, shim, model_file)  # type: ignore[attr-defined]
        tagger.featurizer = feat
        return tagger


