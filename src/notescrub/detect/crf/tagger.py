"""CRF sequence tagger on python-crfsuite, with a recall knob and confidences.

:class:`CRFTagger` follows scikit-learn's estimator contract (``__init__`` stores,
``fit(docs, layer="gold")`` validates and returns ``self``, learned state ends in ``_``)
and the :class:`~notescrub.detect.base.Detector` contract. Training uses CRFsuite
(L-BFGS with L2, or L1+L2 with ``c1 > 0``); decoding uses our own Viterbi and
forward-backward over the learned weights (:mod:`notescrub.detect.crf.decode`, on the
kernel that :mod:`~notescrub.detect.crf.kernels` chose when the weights were set), so that

* ``bias`` shifts the ``O`` label's score at every position (Wellner et al. 2007):
  negative values trade precision for recall, without retraining;
* ``threshold`` switches to marginal decoding: a token is tagged unless ``P(O) >= t``;
* every span gets a probability (:attr:`Span.score`) and every document its sequence
  log-probability (``logprob``, ``tokens``), returned by :meth:`CRFTagger.detect_with_info`
  and stored by the pipeline in ``doc.metadata[detector name]``, so documents can be ranked
  for review (:func:`rank_for_review`).

Models are directories (:meth:`CRFTagger.save`, :func:`notescrub.detect.crf.load.load_tagger`): ``model.crfsuite``
plus ``model.json`` (kind ``crf``, labels, tagging scheme, feature configuration,
training metadata, the model file's SHA-256), written atomically.

>>> from notescrub.features import Featurizer
>>> docs = [Document(str(i), f"Seen by Dr. {n} today.", layers={"gold": [Span(12, 12 + len(n), "DOCTOR")]})
...         for i, n in enumerate(["Ruiz", "Diaz", "Moreno", "Lopez", "Garcia", "Perez"])]
>>> crf = CRFTagger(Featurizer(groups=("lexical", "orthographic")), max_iterations=50).fit(docs)
>>> [(s.label, round(s.score, 2) > 0.5) for s in crf.detect(Document("x", "Seen by Dr. Vega today."))]
[('DOCTOR', True)]
"""

from __future__ import annotations

import gzip
import hashlib
import json
import logging
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from notescrub.detect.base import Detector
from notescrub.detect.crf.decode import CRFWeights, segment_probability, sequence_score
from notescrub.detect.crf.kernels import Kernel
from notescrub.detect.crf.posteriors import remember
from notescrub.detect.crf.scorer import Scorer
from notescrub.docref import doc_ref
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.features.extract import FeatureParts, Featurizer
from notescrub.text.align import (
    OUTSIDE,
    SCHEMES,
    AlignStats,
    repair_tags,
    segments,
    spans_to_tags,
)
from notescrub.types import Document, Span

__all__ = [
    "FORMAT_VERSION",
    "META_FILE",
    "MODEL_FILE",
    "CRFTagger",
    "Decoded",
    "rank_for_review",
]

log = logging.getLogger(__name__)

MODEL_FILE = "model.crfsuite"
META_FILE = "model.json"
#: a word-cluster table given by path, copied into the model directory (notescrub.features.clusters)
CLUSTERS_FILE = "clusters.tsv.gz"
FORMAT_VERSION = 1
_SEQUENCES = ("record", "sentence")
_ALGORITHMS = ("lbfgs", "l2sgd", "ap", "pa", "arow")


@dataclass
class Decoded:
    """One document's decoding: tags, spans, and the sequence log-probability."""

    tags: list[str]
    spans: list[Span]
    logprob: float
    n_tokens: int
    marginals: list[np.ndarray] = field(default_factory=list, repr=False)

    def info(self) -> dict[str, Any]:
        """The record's confidence as a detector returns it (``doc.metadata[detector name]``)."""
        return {"logprob": round(self.logprob, 4), "tokens": self.n_tokens}


def _sequences(view: Any, mode: str) -> list[tuple[int, int]]:
    """Token ranges ``[a, b)`` of the sequences of a record (whole record or sentences)."""
    n = len(view.tokens)
    if n == 0:
        return []
    if mode == "record":
        return [(0, n)]
    out, a = [], 0
    sent = view.sentence
    for i in range(1, n):
        if sent[i] != sent[i - 1]:
            out.append((a, i))
            a = i
    out.append((a, n))
    return out


def _reporting_trainer(verbose: bool, name: str, max_iterations: int | None) -> Any:
    """A crfsuite trainer that reports each iteration to :mod:`notescrub.detect.crf.train_events`."""
    import pycrfsuite

    from notescrub.detect.crf.train_events import TrainingStep, report

    class Trainer(pycrfsuite.Trainer):
        def message(self, message: str) -> None:
            before = len(self.logparser.events)
            super().message(message)  # parses the log line (and prints it when verbose)
            events = self.logparser.events
            if len(events) > before and events[-1][0] == "iteration":
                it = self.logparser.last_iteration or {}
                report(TrainingStep(name, int(it.get("num", len(self.logparser.iterations))), max_iterations,
                                    it.get("loss")))

    return Trainer(verbose=verbose)


def _train_crfsuite(items: Iterable[tuple[list[list[str]], list[str]]], params: dict[str, Any], algorithm: str,
                    path: Path, verbose: bool = False, name: str = "crf") -> dict[str, Any]:
    from notescrub.detect.crf.train_events import TrainingStep, report

    max_iterations = params.get("max_iterations")
    trainer = _reporting_trainer(verbose, name, int(max_iterations) if max_iterations is not None else None)
    n_seq = 0
    for attrs, tags in items:
        trainer.append(attrs, tags)
        n_seq += 1
    if n_seq == 0:
        raise ModelError("no training sequence: the training documents are empty")
    trainer.select(algorithm)
    trainer.set_params(params)
    trainer.train(str(path))
    last = trainer.logparser.last_iteration or {}
    report(TrainingStep(name, len(trainer.logparser.iterations), int(max_iterations) if max_iterations is not None
                        else None, last.get("loss"), done=True))
    return {"sequences": n_seq, "iterations": len(trainer.logparser.iterations),
            "loss": last.get("loss"), "active_features": last.get("active_features")}


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


class CRFTagger(Params, Detector):
    """Linear-chain CRF tagger (see the module docstring).

    Parameters
    ----------
    featurizer:
        A :class:`~notescrub.features.Featurizer` (default: ``Featurizer()``).
    scheme:
        ``"BIO"``, ``"BILOU"`` or ``"IO"``.
    sequence:
        ``"record"`` (the whole note is one sequence, as Carafe) or ``"sentence"``.
    algorithm, c1, c2, max_iterations, min_freq, possible_transitions:
        CRFsuite training options (``c1`` L1 and ``c2`` L2 coefficients; L1 is used by
        L-BFGS only, through OWL-QN; ``min_freq``: drop rarer features).
    bias:
        Added to the ``O`` label's score at every position (negative: more recall).
    label_bias:
        ``{label: b}``: ``b`` added to the score of every tag of that native label (``B-``,
        ``I-``, ...) at every position, on top of ``bias`` (positive: more of that label).
        Labels the model does not know are refused at decoding.
    threshold:
        When set, tag every token whose ``P(O) < threshold`` (marginal decoding).
    labels:
        Train on these native labels only (others are treated as ``O``).
    name:
        Detector (and layer) name.
    """

    def __init__(
        self,
        featurizer: Featurizer | None = None,
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
        name: str = "crf",
        verbose: bool = False,
        label_bias: Mapping[str, float] | None = None,
    ) -> None:
        self.featurizer = featurizer
        self.scheme = scheme
        self.sequence = sequence
        self.algorithm = algorithm
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.min_freq = min_freq
        self.possible_transitions = possible_transitions
        self.bias = bias
        self.threshold = threshold
        self.labels = labels
        self.name = name
        self.verbose = verbose
        self.label_bias = label_bias

    # -- parameters: get_params / set_params from notescrub.estimator.Params -------------
    def _check_params(self) -> None:
        if self.scheme not in SCHEMES:
            raise ConfigError(f"unknown tagging scheme {self.scheme!r}; known: {', '.join(SCHEMES)}")
        if self.sequence not in _SEQUENCES:
            raise ConfigError(f"sequence must be one of {', '.join(_SEQUENCES)}, got {self.sequence!r}")
        if self.algorithm not in _ALGORITHMS:
            raise ConfigError(f"unknown CRFsuite algorithm {self.algorithm!r}; known: {', '.join(_ALGORITHMS)}")
        if self.c1 < 0 or self.c2 < 0:
            raise ConfigError("c1 and c2 must be >= 0")
        if self.c1 > 0 and self.algorithm != "lbfgs":
            raise ConfigError("L1 regularisation (c1 > 0) needs algorithm='lbfgs'")
        if int(self.max_iterations) < 1:
            raise ConfigError("max_iterations must be >= 1")
        self._check_decoding()

    def _check_decoding(self) -> None:
        if self.threshold is not None and not 0.0 < float(self.threshold) <= 1.0:
            raise ConfigError(f"threshold must be in (0, 1], got {self.threshold!r}")
        if not np.isfinite(float(self.bias)):
            raise ConfigError(f"bias must be a finite number, got {self.bias!r}")
        for label, b in (self.label_bias or {}).items():
            if isinstance(b, bool) or not isinstance(b, (int, float)) or not np.isfinite(float(b)):
                raise ConfigError(f"label_bias of {label!r} must be a finite number, got {b!r}")

    def _label_bias_vector(self, tags: Sequence[str]) -> np.ndarray | None:
        """Per tag of ``tags``, the ``label_bias`` of its label (None when nothing is set).

        >>> CRFTagger(label_bias={"AGE": 0.5})._label_bias_vector(["O", "B-AGE", "I-AGE", "B-DATE"]).tolist()
        [0.0, 0.5, 0.5, 0.0]
        """
        if not self.label_bias:
            return None
        known = {t.split("-", 1)[1] for t in tags if "-" in t}
        unknown = sorted(set(self.label_bias) - known)
        if unknown:
            raise ConfigError(f"label_bias names labels this model does not have: {', '.join(unknown)}")
        return np.array([float(self.label_bias.get(t.split("-", 1)[1], 0.0)) if "-" in t else 0.0 for t in tags])

    def _featurizer(self) -> Featurizer:
        return self.featurizer if self.featurizer is not None else Featurizer()

    def _trainer_params(self) -> dict[str, Any]:
        params: dict[str, Any] = {
            "max_iterations": int(self.max_iterations),
            "feature.minfreq": float(self.min_freq),
            "feature.possible_transitions": bool(self.possible_transitions),
        }
        if self.algorithm == "lbfgs":
            params.update({"c1": float(self.c1), "c2": float(self.c2)})
        elif self.algorithm == "l2sgd":
            params["c2"] = float(self.c2)
        return params

    # -- training ------------------------------------------------------------------------
    def training_items(
        self, docs: Sequence[Document], layer: str, attrs: Sequence[list[list[str]]], stats: AlignStats
    ) -> list[tuple[list[list[str]], list[str]]]:
        """``(attributes, tags)`` per training sequence (spans aligned by the documented policy)."""
        feat = self._featurizer()
        keep = set(self.labels) if self.labels is not None else None
        items = []
        for doc, a in zip(docs, attrs):
            view = feat.view(doc)
            spans = [s for s in doc.layer(layer) if keep is None or s.label in keep]
            tags = spans_to_tags(view.tokens, spans, self.scheme, stats)
            for lo, hi in _sequences(view, self.sequence):
                items.append((a[lo:hi], repair_tags(tags[lo:hi], self.scheme) if self.sequence != "record" else tags))
        return items

    def fit(self, docs: Sequence[Document], layer: str = "gold", *, attrs: Sequence[list[list[str]]] | None = None
            ) -> CRFTagger:
        """Train on the ``layer`` spans of ``docs``; ``attrs`` may pass precomputed features."""
        self._check_params()
        docs = list(docs)
        if not docs:
            raise ModelError("no training documents")
        feat = self._featurizer()
        t0 = time.perf_counter()
        if attrs is None:
            attrs = [feat.attributes(d) for d in docs]
        t1 = time.perf_counter()
        stats = AlignStats()
        items = self.training_items(docs, layer, attrs, stats)
        if stats.overlap_dropped or stats.expanded or stats.token_conflicts or stats.no_tokens:
            log.info("span alignment: %s", stats.as_dict())
        with tempfile.TemporaryDirectory(prefix="notescrub-crf-") as tmp:
            path = Path(tmp) / MODEL_FILE
            info = _train_crfsuite(items, self._trainer_params(), self.algorithm, path, self.verbose, self.name)
            self._set_model_bytes(path.read_bytes())
        t2 = time.perf_counter()
        self.align_stats_ = stats
        self.training_ = {
            "documents": len(docs),
            "tokens": sum(len(a) for a in attrs),
            "gold_spans": stats.spans,
            "alignment": stats.as_dict(),
            "feature_seconds": round(t1 - t0, 2),
            "train_seconds": round(t2 - t1, 2),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "crfsuite": {"algorithm": self.algorithm, **self._trainer_params(), **info},
        }
        return self

    def _set_model_bytes(self, data: bytes) -> None:
        import pycrfsuite

        with tempfile.TemporaryDirectory(prefix="notescrub-crf-") as tmp:
            path = Path(tmp) / MODEL_FILE
            path.write_bytes(data)
            tagger = pycrfsuite.Tagger()
            try:
                tagger.open(str(path))
            except (OSError, ValueError) as exc:
                raise ModelError(f"CRFsuite model cannot be opened: {exc}") from None
            weights = CRFWeights.from_tagger(tagger)
            tagger.close()
        if OUTSIDE not in weights.labels:
            raise ModelError("the CRF model has no 'O' label (no training token outside a span?)")
        self.model_bytes_ = data
        self.weights_ = weights
        self.scorer_ = Scorer(weights)  # the kernel is chosen here, once per loaded model; owns every cache
        self.tags_ = list(weights.labels)
        self.types_ = sorted({t[2:] for t in weights.labels if t != OUTSIDE})

    # -- decoding ------------------------------------------------------------------------
    def _fitted(self) -> CRFWeights:
        w = getattr(self, "weights_", None)
        if w is None:
            raise ModelError(f"{type(self).__name__} is not fitted: call fit() or load a model")
        return w

    @property
    def kernel_(self) -> Kernel:
        """The decoding kernel chosen when the weights were set (``scorer_.kernel``)."""
        self._fitted()
        return self.scorer_.kernel

    def decode(self, doc: Document, attrs: list[list[str]] | None = None, *, marginals: bool = False,
               parts: FeatureParts | None = None) -> Decoded:
        """Tags, spans (with probabilities) and log-probability of one document.

        Features come from ``attrs`` (flat lists) or ``parts`` (faster: per-word scores are
        cached), computed by the featurizer when neither is given.
        """
        w = self._fitted()
        self._check_decoding()
        scorer = self.scorer_
        feat = self._featurizer()
        view = feat.view(doc)
        if attrs is not None:
            S_doc = scorer.state_scores(attrs)
        else:
            S_doc = scorer.scores_from_parts(parts if parts is not None else feat.parts(doc))
        o = w.labels.index(OUTSIDE)
        per_tag = self._label_bias_vector(w.labels)
        tags: list[str] = []
        spans: list[Span] = []
        logprob = 0.0
        margs: list[np.ndarray] = []
        for lo, hi in _sequences(view, self.sequence):
            S = S_doc[lo:hi].copy()
            if self.bias:
                S[:, o] += float(self.bias)
            if per_tag is not None:
                S += per_tag
            fb = scorer.forward_backward(S)
            if self.threshold is None:
                path, _ = scorer.viterbi(S)
            else:
                path = self._threshold_path(fb.marginals, o, float(self.threshold))
            seq_tags = [w.labels[k] for k in path]
            logprob += sequence_score(S, w.trans, path) - fb.log_z
            m = fb.marginals if marginals or self.threshold is not None else None  # (n x L: only when used)
            for a, b, typ in segments(seq_tags):
                if self.threshold is None:
                    score = segment_probability(fb, path, a, b)
                else:
                    score = float((1.0 - m[a:b, o]).min())  # type: ignore[index]
                tok_a, tok_b = view.tokens[lo + a], view.tokens[lo + b - 1]
                spans.append(Span(tok_a.start, tok_b.end, typ, min(1.0, max(0.0, score)), self.name,
                                  meta={"tokens": (lo + a, lo + b)}))
            tags.extend(seq_tags)
            if marginals and m is not None:  # (m is set whenever marginals is)
                margs.append(m)
        return Decoded(tags, spans, logprob, len(S_doc), margs)

    @staticmethod
    def _threshold_path(m: np.ndarray, o: int, threshold: float) -> np.ndarray:
        """Per token: ``O`` when ``P(O) >= threshold``, else the most probable other label."""
        masked = m.copy()
        masked[:, o] = -1.0
        return np.where(m[:, o] >= threshold, o, masked.argmax(1))

    def final_attributes(self, doc: Document) -> tuple[CRFTagger, list[list[str]]]:
        """The tagger whose weights label ``doc`` and the attributes it sees (for explanations)."""
        return self, self._featurizer().attributes(doc)

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_with_info(doc)[0]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        """Spans of ``doc`` and the record's confidence ``{"logprob", "tokens"}``."""
        d = self.decode(doc, marginals=True)
        remember(doc, self.name, self.tags_, d.marginals, feeder=None)  # for notescrub.risk
        return d.spans, d.info()

    # -- persistence ---------------------------------------------------------------------
    def metadata(self) -> dict[str, Any]:
        """The ``model.json`` content (without file checksums)."""
        from notescrub import __version__

        self._fitted()
        feat = self._featurizer()
        return {
            "kind": "crf",
            "format": FORMAT_VERSION,
            "notescrub_version": __version__,
            "name": self.name,
            "tags": self.tags_,
            "labels": self.types_,
            "scheme": self.scheme,
            "sequence": self.sequence,
            "featurizer": feat.to_config(),
            "pos": feat.pos_enabled,
            "decoding": {"bias": float(self.bias), "threshold": self.threshold,
                         **({"label_bias": {k: float(v) for k, v in self.label_bias.items()}} if self.label_bias else {})},
            "training": getattr(self, "training_", {}),
        }

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write the model directory atomically; ``extra`` is merged into ``model.json``."""
        from notescrub.features.clusters import table_file
        from notescrub.io.atomic import atomic_dir

        meta = self.metadata()
        ref = meta["featurizer"].get("clusters")
        table = table_file(ref) if ref else None
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            (tmp / MODEL_FILE).write_bytes(self.model_bytes_)
            meta["files"] = {"model": MODEL_FILE, "sha256": {MODEL_FILE: _sha256(tmp / MODEL_FILE)}}
            if table is not None:  # a table given by path travels inside the model directory
                raw = table.read_bytes()
                (tmp / CLUSTERS_FILE).write_bytes(raw if raw[:2] == b"\x1f\x8b" else gzip.compress(raw, mtime=0))
                meta["featurizer"]["clusters"] = meta["files"]["clusters"] = CLUSTERS_FILE
                meta["files"]["sha256"][CLUSTERS_FILE] = _sha256(tmp / CLUSTERS_FILE)
            meta.update(extra or {})
            (tmp / META_FILE).write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return Path(directory)

    @classmethod
    def from_meta(cls, directory: Path, meta: dict[str, Any], model_file: str = MODEL_FILE) -> CRFTagger:
        """Rebuild a fitted tagger from a model directory's ``model.json`` and model file."""
        check_meta(directory, meta)
        files = meta.get("files", {})
        config = meta.get("featurizer")
        table = files.get("clusters")
        if table and isinstance(config, dict) and config.get("clusters") == table:  # the table saved with the model
            path = directory / table
            expected = files.get("sha256", {}).get(table)
            if not path.is_file() or (expected and _sha256(path) != expected):
                raise ModelError(f"word-cluster table {table} is missing or does not match its checksum",
                                 path=directory)
            config = {**config, "clusters": str(path)}
        try:
            feat = Featurizer.from_config(config)  # type: ignore[arg-type]  # checked by the except below
            dec = meta.get("decoding", {})
            tagger = cls(feat, scheme=meta["scheme"], sequence=meta["sequence"], name=meta.get("name", "crf"),
                         bias=float(dec.get("bias", 0.0)), threshold=dec.get("threshold"),
                         label_bias=dec.get("label_bias"))
        except (KeyError, TypeError, ConfigError) as exc:
            raise ModelError(f"model.json is invalid: {exc}", path=directory / META_FILE) from None
        path = directory / model_file
        if not path.is_file():
            raise ModelError(f"model file {model_file} is missing", path=directory)
        expected = meta.get("files", {}).get("sha256", {}).get(model_file)
        if expected and _sha256(path) != expected:
            raise ModelError(f"{model_file} does not match the checksum in model.json (corrupt or replaced)",
                             path=directory)
        try:
            tagger._set_model_bytes(path.read_bytes())
        except ModelError as exc:
            raise ModelError(exc.reason, path=path) from None
        tagger.training_ = meta.get("training", {})
        return tagger

    @classmethod
    def load(cls, directory: str | Path) -> CRFTagger:
        from notescrub.registry import read_model_meta

        d = Path(directory)
        return cls.from_meta(d, read_model_meta(d))


def check_meta(directory: Path, meta: dict[str, Any]) -> None:
    """Refuse models of another kind, format or notescrub version (major.minor)."""
    from notescrub import __version__

    if meta.get("kind") != "crf":
        raise ModelError(f"not a CRF model (kind {meta.get('kind')!r})", path=directory)
    if meta.get("format") != FORMAT_VERSION:
        raise ModelError(f"CRF model format {meta.get('format')!r} is not supported (expected {FORMAT_VERSION})",
                         path=directory)
    theirs = str(meta.get("notescrub_version", "?"))
    if theirs.split(".")[:2] != __version__.split(".")[:2]:
        raise ModelError(
            f"model was saved by notescrub {theirs}, this is {__version__}: retrain it with this version",
            path=directory,
        )


def rank_for_review(docs: Iterable[Document], key: str = "crf", per_token: bool = False) -> list[Document]:
    """Documents ordered least confident first (lowest sequence log-probability).

    Uses ``doc.metadata[key]["logprob"]``, stored by the pipeline from :meth:`CRFTagger.detect_with_info`;
    ``per_token`` divides by the number of tokens (length-neutral ranking).
    """
    def score(d: Document) -> float:
        m = d.metadata.get(key)
        if not m:
            raise ModelError(f"document {doc_ref(d.id)} has no {key!r} confidence: annotate it with a CRF first")
        return m["logprob"] / max(1, m["tokens"]) if per_token else m["logprob"]

    return sorted(docs, key=score)
