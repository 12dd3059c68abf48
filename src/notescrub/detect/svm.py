"""Stat De-id's classifier: a per-token multi-class linear SVM over local context.

Uzuner et al. (2008) classify every token on its own (no sequence model) into one PHI
type or non-PHI, with a linear-kernel SVM over the features of the target and its
local context (:mod:`notescrub.features.statdeid`). Here:

* features: any featurizer with ``view(doc)`` and ``attributes(doc)`` (default
  :class:`~notescrub.features.statdeid.StatDeidFeaturizer`), vectorised into a
  binary sparse matrix with one column per feature string seen at least ``min_freq``
  times in training (what scikit-learn's ``DictVectorizer`` gives for ``{feature: 1}``
  dicts, built directly from the strings, which is several times faster);
* classifier: ``LinearSVC`` (liblinear, one-vs-rest; the paper used LIBSVM's
  one-against-one voting - with a linear kernel both give one hyperplane per decision);
* labels: the native type of the span covering the token, or ``O``
  (:func:`notescrub.text.align.spans_to_tags`, IO scheme); ``scheme="BIO"`` instead
  classifies tokens as ``B-X``/``I-X``/``O`` so that two adjacent spans of one type
  (``28016 Madrid``: postcode and town) stay apart (not in the paper);
* spans: adjacent tokens predicted with the same type are merged (with ``BIO``, a
  ``B-`` token starts a new span). A span's ``score``
  is the logistic of its weakest token's decision value (a monotone, uncalibrated
  confidence).

Models are directories: ``model.json`` (kind ``svm``, labels, featurizer configuration
and what it switched on, training metadata) and ``weights.npz`` (vocabulary-pruned
``float32`` weights) plus ``features.json.gz`` (the feature names).

>>> from notescrub.features.statdeid import StatDeidFeaturizer
>>> feat = StatDeidFeaturizer(groups=("lexical_bigrams",), shared_groups=("lexical", "orthographic"))
>>> docs = [Document(str(i), f"Seen by Dr. {n} today.", layers={"gold": [Span(12, 12 + len(n), "DOCTOR")]})
...         for i, n in enumerate(["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez"])]
>>> svm = SVMTagger(feat).fit(docs)
>>> [(s.label, s.start, s.end) for s in svm.detect(Document("x", "Seen by Dr. Vega today."))]
[('DOCTOR', 12, 16)]
"""

from __future__ import annotations

import gzip
import json
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from notescrub import __version__
from notescrub.detect.base import Detector
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.text.align import (
    OUTSIDE,
    AlignStats,
    spans_to_tags,
    tag_type,
    tags_to_spans,
)
from notescrub.types import GOLD, Document, Span

__all__ = ["KIND", "SVMTagger", "featurizer_from_config"]

log = logging.getLogger(__name__)

KIND = "svm"
WEIGHTS_FILE = "weights.npz"
_SCHEMES = ("IO", "BIO")
FEATURES_FILE = "features.json.gz"


def featurizer_from_config(cfg: dict[str, Any]) -> Any:
    """Rebuild a featurizer from its ``to_config()`` (Stat De-id's or the shared one)."""
    cfg = dict(cfg)
    if cfg.pop("featurizer", None) == "stat-deid":
        from notescrub.features.statdeid import StatDeidFeaturizer

        return StatDeidFeaturizer.from_config(cfg)
    from notescrub.features.extract import Featurizer

    return Featurizer.from_config(cfg)


class SVMTagger(Params, Detector):
    """Per-token linear SVM (scikit-learn estimator contract; see the module docstring).

    Parameters
    ----------
    featurizer: per-token feature strings (default: the full Stat De-id featurizer).
    C: SVM regularisation parameter.
    min_freq: keep features seen at least this often in training.
    class_weight: passed to ``LinearSVC`` (``"balanced"`` favours recall of rare types).
    max_iter: liblinear iterations.
    scheme: ``"IO"`` (one class per type, as the paper) or ``"BIO"``.
    name: detector (layer) name.
    """

    def __init__(
        self,
        featurizer: Any = None,
        C: float = 0.1,
        min_freq: int = 1,
        class_weight: str | None = None,
        max_iter: int = 2000,
        scheme: str = "IO",
        name: str = "svm",
    ) -> None:
        self.featurizer = featurizer
        self.C = C
        self.min_freq = min_freq
        self.class_weight = class_weight
        self.max_iter = max_iter
        self.scheme = scheme
        self.name = name

    def _featurizer(self) -> Any:
        if self.featurizer is None:
            from notescrub.features.statdeid import StatDeidFeaturizer

            self.featurizer = StatDeidFeaturizer()
        return self.featurizer

    # -- training ---------------------------------------------------------------------
    def fit(self, docs: Sequence[Document], layer: str = GOLD) -> SVMTagger:
        """Train on the ``layer`` spans of ``docs`` (one example per token)."""
        from notescrub.extras import require

        LinearSVC = require("svm", "training an SVM tagger (recipe stat-deid)", "sklearn.svm").LinearSVC

        if self.C <= 0 or int(self.min_freq) < 1:
            raise ConfigError("C must be > 0 and min_freq >= 1")
        if self.scheme not in _SCHEMES:
            raise ConfigError(f"SVM tagging scheme must be one of {', '.join(_SCHEMES)}, got {self.scheme!r}")
        docs = list(docs)
        feat = self._featurizer()
        t0 = time.perf_counter()
        stats = AlignStats()
        attrs: list[list[str]] = []
        y: list[str] = []
        for doc in docs:
            a = feat.attributes(doc)
            tags = spans_to_tags(feat.view(doc).tokens, doc.layer(layer), self.scheme, stats)
            attrs.extend(a)
            y.extend(tags if self.scheme == "BIO" else [tag_type(t) or OUTSIDE for t in tags])
        if len(set(y)) < 2:
            raise ModelError(f"training needs tokens both inside and outside {layer!r} spans")
        t1 = time.perf_counter()
        vocab = _vocabulary(attrs, int(self.min_freq))
        X = _matrix(attrs, vocab)
        t2 = time.perf_counter()
        clf = LinearSVC(C=float(self.C), class_weight=self.class_weight, max_iter=int(self.max_iter))
        clf.fit(X, np.asarray(y))
        t3 = time.perf_counter()
        self._set_weights(list(clf.classes_), vocab, clf.coef_, clf.intercept_)
        self.align_stats_ = stats.as_dict()
        self.training_ = {
            "documents": len(docs),
            "tokens": len(y),
            "features": len(vocab),
            "gold_spans": stats.spans,
            "alignment": stats.as_dict(),
            "feature_seconds": round(t1 - t0, 2),
            "vectorize_seconds": round(t2 - t1, 2),
            "train_seconds": round(t3 - t2, 2),
            "liblinear_iterations": int(np.max(clf.n_iter_)),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        return self

    def _set_weights(self, classes: list[str], vocab: dict[str, int], coef: np.ndarray, intercept: np.ndarray) -> None:
        coef = np.asarray(coef, dtype=np.float32)
        intercept = np.asarray(intercept, dtype=np.float32)
        if len(classes) == 2 and coef.shape[0] == 1:  # binary: liblinear keeps one hyperplane
            coef = np.vstack([-coef, coef])
            intercept = np.array([-intercept[0], intercept[0]], dtype=np.float32)
        if OUTSIDE not in classes:
            raise ModelError("the SVM has no 'O' class")
        self.classes_ = classes
        self.vocabulary_ = vocab
        self.coef_ = coef  # (n_classes, n_features)
        self.intercept_ = intercept
        self.types_ = sorted({c[2:] if c[:2] in ("B-", "I-") else c for c in classes if c != OUTSIDE})

    # -- decoding ---------------------------------------------------------------------
    def decision(self, doc: Document) -> np.ndarray:
        """Decision values ``(n_tokens, n_classes)`` of ``doc``'s tokens."""
        if not hasattr(self, "coef_"):
            raise ModelError("the SVM tagger is not fitted; call fit() or load a model directory")
        X = _matrix(self._featurizer().attributes(doc), self.vocabulary_)
        return np.asarray(X @ self.coef_.T) + self.intercept_

    def detect(self, doc: Document) -> list[Span]:
        D = self.decision(doc)
        if D.shape[0] == 0:
            return []
        best = D.argmax(axis=1)
        classes = self.classes_
        if self.scheme == "BIO":
            tags = [classes[k] for k in best]
        else:
            tags = [OUTSIDE if classes[k] == OUTSIDE else f"I-{classes[k]}" for k in best]
        toks = self._featurizer().view(doc).tokens
        spans = tags_to_spans(tags, toks, source=self.name)
        margin = D[np.arange(len(best)), best]
        out = []
        for s in spans:
            a, b = s.meta["tokens"]
            conf = float(1.0 / (1.0 + np.exp(-float(margin[a:b].min()))))
            out.append(s.with_(score=conf))
        return out

    # -- persistence ------------------------------------------------------------------
    def metadata(self) -> dict[str, Any]:
        feat = self._featurizer()
        describe = feat.describe() if hasattr(feat, "describe") else feat.to_config()
        return {
            "kind": KIND,
            "notescrub_version": __version__,
            "name": self.name,
            "classes": self.classes_,
            "labels": self.types_,
            "featurizer": feat.to_config(),
            "features_on": describe,
            "params": {k: getattr(self, k) for k in ("C", "min_freq", "class_weight", "max_iter", "scheme")},
            "training": getattr(self, "training_", {}),
        }

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write the model directory atomically."""
        from notescrub.io.atomic import atomic_dir

        if not hasattr(self, "coef_"):
            raise ModelError("only a fitted SVM tagger can be saved")
        meta = self.metadata()
        meta.update(extra or {})
        names = [""] * len(self.vocabulary_)
        for f, i in self.vocabulary_.items():
            names[i] = f
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            np.savez_compressed(tmp / WEIGHTS_FILE, coef=self.coef_, intercept=self.intercept_)
            with gzip.open(tmp / FEATURES_FILE, "wt", encoding="utf-8") as fh:
                json.dump(names, fh, ensure_ascii=False)
            (tmp / "model.json").write_text(json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return Path(directory)

    @classmethod
    def load(cls, directory: str | Path) -> SVMTagger:
        from notescrub.registry import read_model_meta

        d = Path(directory)
        meta = read_model_meta(d)
        if meta.get("kind") != KIND:
            raise ModelError(f"model kind is {meta.get('kind')!r}, expected {KIND!r}", path=d / "model.json")
        try:
            feat = featurizer_from_config(meta["featurizer"])
            p = meta["params"]
            self = cls(feat, C=p["C"], min_freq=p["min_freq"], class_weight=p["class_weight"],
                       max_iter=p["max_iter"], scheme=p.get("scheme", "IO"), name=meta.get("name", "svm"))
            classes = list(meta["classes"])
        except (KeyError, TypeError, ConfigError) as exc:
            raise ModelError(f"model.json is invalid: {exc}", path=d / "model.json") from None
        try:
            with np.load(d / WEIGHTS_FILE) as z:
                coef, intercept = z["coef"], z["intercept"]
            with gzip.open(d / FEATURES_FILE, "rt", encoding="utf-8") as fh:
                names = json.load(fh)
        except FileNotFoundError as exc:
            raise ModelError(f"model file is missing: {Path(exc.filename or '?').name}", path=d) from None
        except (OSError, ValueError, KeyError, EOFError) as exc:
            raise ModelError(f"model files cannot be read: {exc}", path=d) from None
        if coef.shape != (len(classes), len(names)) or intercept.shape != (len(classes),):
            raise ModelError("weights do not match the classes and feature names", path=d / WEIGHTS_FILE)
        self._set_weights(classes, {f: i for i, f in enumerate(names)}, coef, intercept)
        self.training_ = meta.get("training", {})
        return self


def _vocabulary(attrs: list[list[str]], min_freq: int) -> dict[str, int]:
    """Feature string -> column, for features seen at least ``min_freq`` times (sorted)."""
    from collections import Counter

    counts = Counter(f for a in attrs for f in a)
    return {f: i for i, f in enumerate(sorted(f for f, c in counts.items() if c >= min_freq))}


def _matrix(attrs: list[list[str]], vocab: dict[str, int]) -> sp.csr_matrix:
    """Binary CSR matrix (one row per token; unknown features ignored, duplicates counted once)."""
    indptr = [0]
    indices: list[int] = []
    get = vocab.get
    for a in attrs:
        cols = {get(f) for f in a}
        cols.discard(None)
        indices.extend(cols)  # type: ignore[arg-type]
        indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.float32)
    X = sp.csr_matrix((data, np.asarray(indices, dtype=np.int64), np.asarray(indptr, dtype=np.int64)),
                      shape=(len(attrs), len(vocab)))
    return X


