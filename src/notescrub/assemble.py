"""Assembly: a model (directory, packaged name or :class:`HybridModel`) -> a ready Pipeline.

One entry point, :func:`build`, for every caller (CLI, API, service, Spark, scripts)::

    build(model, preset=None, overrides=None, recall_bias=None, threshold=None) -> Pipeline

It reads the model as a hybrid model (:func:`notescrub.modeldir.read_model`; a single-kind
directory becomes a one-component model), layers the preset and the
``overrides`` over the component options, and turns the decoding knobs into options of
the components that take them (``bias = -recall_bias``, ``threshold``) before anything is
built: nothing is changed on a pipeline after it is made, and no component refers back to
its model. Each component kind's factory is registered in the ``component`` section of the
registry (``notescrub.component.stacked.v1`` -> :func:`build_stacked`); each built detector
is wrapped in :class:`Component`, which renames, filters and post-processes its spans.

>>> from notescrub.config import ComponentSpec
>>> from notescrub.modeldir import HybridModel
>>> from notescrub.types import Document
>>> model = HybridModel([ComponentSpec("rules", "rules", options={"types": ["DATE"]})],
...                     resolver={"name": "priority", "order": ["DATE"]},
...                     presets={"all": {"components": {"rules": {"types": None}}}})
>>> doc = build(model)(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
>>> [(doc.span_text(s), s.label) for s in doc.layer("phi")]
[('03/18/2091', 'DATE')]
>>> doc = build(model, "all")(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
>>> [(doc.span_text(s), s.label) for s in doc.layer("phi")]
[('03/18/2091', 'DATE'), ('Ruiz', 'DOCTOR')]
"""

from __future__ import annotations

import copy
import inspect
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from notescrub.config import META_FILE, ComponentSpec
from notescrub.detect.base import Detector
from notescrub.detect.rules.negative_cues import share_negative_cues
from notescrub.errors import ConfigError, ModelError, NotescrubError
from notescrub.modeldir import HybridModel, read_model
from notescrub.options import (
    DictionaryOptions,
    LeftoverNetOptions,
    NerOptions,
    PostprocessOptions,
    RulesOptions,
    StackedOptions,
    TrainedOptions,
    TwoPassOptions,
    options_for,
)
from notescrub.registry import DEFAULT_MODEL, component, model_dir, read_model_meta, resolve_target
from notescrub.types import Document, Span

__all__ = ["Component", "assemble", "build", "load_pipeline", "resolver_from_spec"]

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- entry points
def build(model: str | Path | HybridModel | None = None, preset: str | None = None,
          overrides: Mapping[str, Mapping[str, Any]] | None = None, *, recall_bias: float | None = None,
          threshold: float | None = None) -> Any:
    """The pipeline of ``model`` (default ``en-default``) at an operating point.

    ``preset`` picks one of a hybrid model's presets (``None``: its default);
    ``overrides`` (``{component: {option: value}}``; a single-kind model's one component is
    named after its detector) come on top of it;
    ``recall_bias`` sets every CRF's O-label bias to ``-recall_bias`` and ``threshold``
    every CRF's minimum marginal. A knob that no component of the model takes is a
    :class:`ConfigError` (rules and dictionaries have no recall knob).
    """
    if isinstance(model, HybridModel):
        return _build_hybrid(model, preset, overrides, recall_bias, threshold, str(model.name))
    d = model_dir(model or DEFAULT_MODEL)
    meta = read_model_meta(d)
    kind = meta.get("kind")
    if preset is not None and kind != "hybrid":
        raise ModelError(f"--preset needs a hybrid model; this one is of kind {kind!r}", path=d)
    hybrid = read_model(d, meta)  # single-kind directories become one-component models
    try:
        return _build_hybrid(hybrid, preset, overrides, recall_bias, threshold, str(model or DEFAULT_MODEL))
    except ConfigError as exc:
        if recall_bias is not None or threshold is not None:
            raise
        raise ModelError(exc.reason, path=d / META_FILE) from None


def load_pipeline(directory: str | Path, preset: str | None = None) -> Any:
    """The pipeline of a model directory at ``preset`` (default: its ``default_preset``); :func:`build` with a path."""
    return build(Path(directory), preset)


def _no_knob(knob: str, model: str) -> str:
    if knob == "bias":
        return (f"--recall-bias: model {model} has no CRF detector to bias "
                "(rules and dictionaries have no recall knob)")
    return "--threshold needs a CRF model; this model has no CRF detector"


def _build_hybrid(model: HybridModel, preset: str | None, overrides: Mapping[str, Mapping[str, Any]] | None,
                  recall_bias: float | None, threshold: float | None, label: str) -> Any:
    over = {k: dict(v) for k, v in (overrides or {}).items()}
    knobs = {"bias": None if recall_bias is None else -float(recall_bias), "threshold": threshold}
    if any(v is not None for v in knobs.values()):
        eff = model.options(preset, overrides)
        tunable = [c for c in model.components
                   if component(c.kind).knobs and eff[c.name].get("enabled", True)]
        for knob, value in knobs.items():
            if value is None:
                continue
            if not tunable:
                raise ConfigError(_no_knob(knob, label))
            for c in tunable:
                over.setdefault(c.name, {})[knob] = value
    return assemble(model, preset, over)


def assemble(model: HybridModel, preset: str | None = None,
             overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
    """A ready :class:`~notescrub.pipeline.Pipeline` of ``model`` at an operating point.

    ``overrides`` (``{component: {option: value}}``) come on top of the preset, e.g.
    ``{"two_pass": {"enabled": False}}`` for a first-pass-only run.
    """
    from notescrub.pipeline import Pipeline
    from notescrub.recipes.shared_crf import share_crf_scoring

    effective = model.options(preset, overrides)
    opts = {c.name: options_for(c.kind, effective[c.name]) for c in model.components}
    detectors: dict[str, Component] = {}
    for c in model.components:
        o = opts[c.name]
        if c.kind == "postprocess" or not o.enabled:
            continue
        try:
            inner = _build(model, c, o, list(detectors), opts)
        except NotescrubError:
            raise
        except (TypeError, ValueError, KeyError) as exc:
            raise ModelError(f"component {c.name!r}: {exc}", path=model.meta_file) from None
        detectors[c.name] = Component(inner, c.name, types=o.types, relabel=o.relabel)
    posts: dict[str, Any] = {}
    for c in model.components:
        o = opts[c.name]
        if c.kind != "postprocess" or not o.enabled:
            continue
        post = build_postprocessor(model, c, o, [], opts)
        for t in o.targets or [n for n, d in detectors.items() if getattr(d.inner, "takes_post", True)]:
            if t in detectors:
                posts[t] = post
    if not detectors:
        raise ModelError("every component is disabled in this operating point", path=model.meta_file)
    comps = [d.with_post(posts[n]) if n in posts else d for n, d in detectors.items()]
    share_crf_scoring((d.inner for d in comps), model.shared.setdefault("crf_stacks", {}))
    share_negative_cues(d.inner for d in comps)
    resolver = resolver_from_spec(model.preset(preset).get("resolver", model.resolver))
    meta = {**model.to_json(), "preset": preset if preset is not None else model.default_preset}
    fingerprint = model_crf_fingerprint(model)
    if fingerprint is not None:
        meta["crf_sha256"] = fingerprint
    return Pipeline(comps, resolver=resolver, name=model.name, metadata=meta)


def _build(model: HybridModel, c: ComponentSpec, o: Any, earlier: list[str], opts: Mapping[str, Any]) -> Any:
    factory = resolve_target(component(c.kind).target)
    obj = factory(model, c, o, earlier, opts)
    for k in component(c.kind).knobs:
        value = getattr(o, k)
        if value is not None:
            if not hasattr(obj, k):
                raise ModelError(f"component {c.name!r} ({type(obj).__name__}) has no {k!r} knob")
            setattr(obj, k, value)
    return obj


# --------------------------------------------------------------------------- factories
# Each takes (model, spec, the spec's effective options as its dataclass from
# notescrub.options, names of the detectors built before it, every component's options)
# and returns a detector. Built objects that do not depend on the operating point are
# kept in ``model.shared``.
def _lang(model: HybridModel, lang: str | None) -> str:
    return str(lang if lang is not None else model.meta.get("lang", "en"))


def _list(v: Sequence[str] | None) -> list[str] | None:
    return None if v is None else list(v)


def build_rules(model: HybridModel, c: ComponentSpec, o: RulesOptions, earlier: list[str],
                opts: Mapping[str, Any]) -> Any:
    """``rules``: a :class:`~notescrub.detect.rules.detector.RulesDetector` (packaged rules or ``files``)."""
    from notescrub.detect.rules.detector import RulesDetector

    files, labels, lang = model.local_files(o.files), _list(o.labels), _lang(model, o.lang)
    key = json.dumps(["rules", files, lang, labels, o.propagate])
    if key not in model.shared:
        model.shared[key] = RulesDetector(files, lang=lang, labels=labels, name=c.name, propagate=bool(o.propagate))
    return model.shared[key]


def build_dictionary(model: HybridModel, c: ComponentSpec, o: DictionaryOptions, earlier: list[str],
                     opts: Mapping[str, Any]) -> Any:
    """``dictionary``: a :class:`~notescrub.detect.dictionary.DictionaryDetector` over packaged lexicons."""
    from notescrub.detect.dictionary import KINDS, DictionaryDetector

    return DictionaryDetector(kinds=tuple(o.kinds or KINDS), mode=o.mode, lang=_lang(model, o.lang), name=c.name)


def build_ner(model: HybridModel, c: ComponentSpec, o: NerOptions, earlier: list[str],
              opts: Mapping[str, Any]) -> Any:
    """``ner``: spaCy's entities as a detector (needs the ``[syntax]`` extra)."""
    from notescrub.detect.ner import NerDetector

    labels = None if o.labels is None else dict(o.labels)
    key = json.dumps(["ner", labels, _list(o.cues), c.name], sort_keys=True)
    if key not in model.shared:
        try:
            model.shared[key] = NerDetector(labels, _list(o.cues), name=c.name)
        except ConfigError as exc:
            raise ModelError(f"component {c.name!r}: {exc.reason}", path=model.directory) from None
    return model.shared[key]


def build_two_pass(model: HybridModel, c: ComponentSpec, o: TwoPassOptions, earlier: list[str],
                   opts: Mapping[str, Any]) -> Any:
    """``two_pass``: the patient dictionary over the layers of ``sources`` (default: every earlier detector)."""
    from notescrub.detect.two_pass import DEFAULT_TYPES, PatientDictionary

    sources = [s for s in o.sources if s in earlier] if o.sources is not None else list(earlier)
    kw: dict[str, Any] = {"min_score": float(o.min_score), "types": _list(o.harvest_types) or DEFAULT_TYPES}
    for k in ("min_chars", "max_zipf", "split_names", "derived_forms", "declared_min_score"):
        if getattr(o, k) is not None:
            kw[k] = getattr(o, k)
    # "lang" only when given: the model's own "lang" would change older models' second pass
    return PatientDictionary(sources, name=c.name, lang=o.lang if o.lang is not None else "en", **kw)


def build_trained(model: HybridModel, c: ComponentSpec, o: TrainedOptions, earlier: list[str],
                  opts: Mapping[str, Any]) -> Any:
    """``crf``, ``svm``, ``lingpipe``: a copy of the trained sub-model (knobs never leak between pipelines)."""
    return copy.copy(model.trained(c))


def build_stacked(model: HybridModel, c: ComponentSpec, o: StackedOptions, earlier: list[str],
                  opts: Mapping[str, Any]) -> Any:
    """``stacked``: the trained CRF fed by its ``feeders``, built from their own specs even when disabled."""
    from notescrub.detect.crf.stacked import StackedCRF

    specs = {x.name: x for x in model.components}
    feeders = [_build(model, specs[f], opts[f], earlier, opts) for f in (o.feeders or [])]
    share_negative_cues(feeders)  # the rules and dictionary feeders compute a note's block ranges once
    return StackedCRF(copy.copy(model.trained(c)), feeders, name=c.name)


def build_postprocessor(model: HybridModel, c: ComponentSpec, o: PostprocessOptions, earlier: list[str],
                        opts: Mapping[str, Any]) -> Any:
    """``postprocess``: a :class:`~notescrub.detect.spans.postprocess.PostProcessor` (attached to its targets)."""
    from notescrub.detect.spans.postprocess import PostProcessor

    files, rules = model.local_files(o.files), _list(o.rules)
    key = json.dumps(["post", files, rules])
    if key not in model.shared:
        model.shared[key] = PostProcessor(files, only=rules)
    return model.shared[key]


def model_crf_fingerprint(model: HybridModel) -> str | None:
    """The checksum of ``model``'s (first) CRF file as its component records it, ``None`` without one.

    Pipelines carry it in their metadata (``crf_sha256``), so that a risk calibration fitted
    with another CRF can be noticed wherever it is used.
    """
    from notescrub.risk.calibration import crf_fingerprint

    crf = next((x for x in model.components if x.kind in ("stacked", "crf") and x.dir), None)
    if crf is None or model.directory is None:
        return None
    return crf_fingerprint(model.directory, str(crf.dir))


def build_leftover_net(model: HybridModel, c: ComponentSpec, o: LeftoverNetOptions, earlier: list[str],
                       opts: Mapping[str, Any]) -> Any:
    """``leftover_net``: :class:`~notescrub.risk.net.LeftoverNet` over the layers of ``sources``
    (default: every earlier detector) with the model's risk calibration."""
    from notescrub.risk.calibration import Calibration, fitted_with_other_crf, packaged_calibration
    from notescrub.risk.net import LeftoverNet

    name = o.calibration
    if name is None:
        cal = packaged_calibration(str(model.name))
    elif name.endswith(".json"):
        cal = Calibration.load((model.local_files([name]) or [name])[0])
    else:
        cal = packaged_calibration(name)
    if cal is None:
        raise ConfigError(f"component {c.name!r}: no risk calibration "
                          f"{name or 'ships for model ' + repr(str(model.name))}: set its 'calibration' option "
                          "to a packaged calibration or a file in the model directory (docs/review-risk.md)")
    if fitted_with_other_crf(cal, model_crf_fingerprint(model)):
        log.warning("component %r: the risk calibration %r was fitted with another CRF than this model's "
                    "(a retrained model?): the leftover net's probabilities are approximate; fit a calibration "
                    "for this model (docs/review-risk.md) and set the component's 'calibration' option",
                    c.name, cal.model)
    sources = [s for s in o.sources if s in earlier] if o.sources is not None else list(earlier)
    return LeftoverNet(cal, float(o.threshold), sources, lang=_lang(model, None), name=c.name)


# --------------------------------------------------------------------------- resolvers
def resolver_from_spec(spec: Mapping[str, Any]) -> Any:
    """A resolver from its JSON description (``{"name": "cover", "base": {"name": "longest"}}``)."""
    from notescrub.detect.spans.resolve import Cover, Priority, get_resolver
    from notescrub.detect.spans.vote import Vote

    name = spec.get("name", "longest")
    if name == "priority":
        return Priority(list(spec["order"]))
    if name == "cover":
        return Cover(resolver_from_spec(spec.get("base", {"name": "longest"})))
    if name == "vote":
        return Vote(int(spec.get("min_votes", 2)), str(spec.get("extent", "best")))
    return get_resolver(str(name))


# --------------------------------------------------------------------------- component wrapper
@dataclass(frozen=True, eq=False)
class Component(Detector):
    """A detector as a hybrid component: relabel, keep ``types``, post-process its spans.

    The wrapped detector is :attr:`inner` (:func:`notescrub.detect.base.inner_detector`
    unwraps any detector); the wrapper forwards nothing else.

    >>> from notescrub.detect.rules.detector import RulesDetector
    >>> c = Component(RulesDetector(), "rules", types=frozenset({"DATE"}), relabel={"DATE": "FECHAS"})
    >>> [(s.label, s.source) for s in c.detect(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))]
    [('FECHAS', 'rules')]
    """

    inner: Any
    name: str
    types: frozenset[str] | None = None
    relabel: Mapping[str, str] | None = None
    post: Any = None

    def __post_init__(self) -> None:
        if self.types is not None and not isinstance(self.types, frozenset):
            object.__setattr__(self, "types", frozenset(self.types))

    def with_post(self, post: Any) -> Component:
        return Component(self.inner, self.name, self.types, self.relabel, post)

    @property
    def patient_level(self) -> bool:
        return bool(getattr(self.inner, "patient_level", False))

    def _finish(self, doc: Document, spans: Sequence[Span]) -> list[Span]:
        relabel = self.relabel or {}
        out = []
        for s in spans:
            new = relabel.get(s.label) or relabel.get(s.phi or "")
            if new and new != s.label:
                s = s.with_(label=new)
            if s.source != self.name:
                s = s.with_(source=self.name)
            if self.types is None or s.label in self.types or (s.phi or "") in self.types:
                out.append(s)
        if self.post is not None:
            out = self.post.apply(doc, out)
        return out

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_with_info(doc)[0]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        feat = _crf_featurizer(self.inner)
        if feat is None:
            spans, info = self.inner.detect_with_info(doc)
            return self._finish(doc, spans), info
        # CRFs with the same feature configuration share one featurisation of the document
        config = json.dumps(feat.to_config(), sort_keys=True)
        if "parts" in inspect.signature(self.inner.decode).parameters and hasattr(feat, "parts"):
            decoded = self.inner.decode(doc, parts=doc.cached("notescrub.hybrid.parts:" + config, feat.parts),
                                        marginals=True)
        else:
            decoded = self.inner.decode(doc, doc.cached("notescrub.hybrid.attrs:" + config, feat.attributes),
                                        marginals=True)
        from notescrub.detect.crf.posteriors import remember

        remember(doc, self.name, self.inner.tags_, decoded.marginals, feeder=None)  # for notescrub.risk
        return self._finish(doc, decoded.spans), decoded.info()

    def detect_many(self, docs: Iterable[Document]) -> list[list[Span]]:
        return [spans for spans, _ in self.detect_many_with_info(docs)]

    def detect_many_with_info(self, docs: Iterable[Document]) -> list[tuple[list[Span], dict[str, Any]]]:
        docs = list(docs)
        if not self.patient_level:
            return [self.detect_with_info(d) for d in docs]
        return [(self._finish(d, spans), {}) for d, spans in zip(docs, self.inner.detect_many(docs))]

    def __repr__(self) -> str:
        return f"Component({self.name!r}, {type(self.inner).__name__})"


def _crf_featurizer(inner: Any) -> Any:
    """The featurizer of a plain CRF tagger (``None`` for anything else)."""
    from notescrub.detect.crf.tagger import CRFTagger

    if type(inner) is not CRFTagger or inner.featurizer is None:
        return None
    return inner.featurizer
