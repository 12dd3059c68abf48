"""The generic ``hybrid`` model-directory format: components + integration + operating points.

A hybrid model directory holds ``model.json`` and one sub-directory per trained
component. ``model.json`` (format 1; every key is checked, unknown keys are refused)::

    {"kind": "hybrid", "format": 1, "notescrub_version": "0.1.0",
     "components": [
        {"name": "rules", "kind": "rules", "options": {"lang": "en"}},
        {"name": "dictionary", "kind": "dictionary", "options": {"kinds": ["hospitals"]}},
        {"name": "crf_date", "kind": "crf", "dir": "crf_date", "options": {"bias": 0.0}},
        {"name": "post", "kind": "postprocess", "options": {"targets": ["crf_date"]}},
        {"name": "two_pass", "kind": "two_pass", "options": {"min_score": 0.8}}],
     "resolver": {"name": "priority", "order": ["AGE", "DATE", "DOCTOR", "PATIENT"]},
     "presets": {"precision": {"components": {"crf_date": {"enabled": false}}}},
     "default_preset": "precision",
     "training": {...}}

Component kinds: ``rules``, ``dictionary`` (built from options), ``crf``, ``svm``,
``lingpipe`` (a trained model in ``dir``, itself a model directory of that kind),
``ner`` (:class:`~notescrub.detect.ner.NerDetector`: spaCy's entities in the sentences
with one of its ``cues``, mapped by its ``labels`` option, default ``{"ORG":
"ORGANIZATION"}``; needs the ``[syntax]`` extra),
``two_pass`` (:class:`~notescrub.detect.two_pass.PatientDictionary` over the layers of
the components before it, or of ``sources``; ``lang`` picks its ambiguity lexicons, ``"en"``
unless given), ``stacked`` (a CRF in ``dir`` wrapped as
:class:`~notescrub.detect.stacked.StackedCRF`, fed by the components named in its
``feeders`` option, which are built even when disabled as outputs) and ``postprocess``
(:class:`~notescrub.detect.postprocess.PostProcessor` applied to the output of its
``targets``; it makes no layer of its own). Every detector component also takes
``enabled``, ``types`` (keep only spans whose label or canonical subtype is listed) and
``relabel`` (``{label or subtype: new label}``, applied first). Each component's spans
end in a layer named after it; the ``resolver`` (``longest``, ``highest_score``,
``union``, ``vote``, ``priority`` with ``order``, ``cover`` with ``base``) makes ``phi``.
A preset overrides component options and the resolver: that is how one model offers
several operating points (``notescrub annotate --preset recall``).

>>> import tempfile, pathlib
>>> from notescrub.types import Document
>>> model = HybridModel([ComponentSpec("rules", "rules", options={"types": ["DATE"]})],
...                     resolver={"name": "priority", "order": ["DATE"]},
...                     presets={"all": {"components": {"rules": {"types": None}}}})
>>> out = model.save(pathlib.Path(tempfile.mkdtemp()) / "m")
>>> doc = load_pipeline(out)(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
>>> [(doc.span_text(s), s.label) for s in doc.layer("phi")]
[('03/18/2091', 'DATE')]
>>> doc = load_pipeline(out, preset="all")(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))
>>> [(doc.span_text(s), s.label) for s in doc.layer("phi")]
[('03/18/2091', 'DATE'), ('Ruiz', 'DOCTOR')]
"""

from __future__ import annotations

import copy
import inspect
import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.negative_cues import share_negative_cues
from notescrub.errors import ConfigError, ModelError, NotescrubError
from notescrub.types import Document, Span

__all__ = [
    "COMPONENT_KINDS",
    "FORMAT",
    "Component",
    "ComponentSpec",
    "HybridModel",
    "load_pipeline",
    "load_with_preset",
    "resolver_from_spec",
    "save_pipeline",
    "validate_meta",
]

log = logging.getLogger(__name__)

FORMAT = 1
META_FILE = "model.json"
#: component kind -> whether it is a trained model stored in a sub-directory
COMPONENT_KINDS: dict[str, bool] = {
    "rules": False, "dictionary": False, "crf": True, "svm": True, "lingpipe": True, "two_pass": False,
    "postprocess": False, "stacked": True, "ner": False,
}
_SUBMODEL_KINDS = {"crf": ("crf", "crfd"), "svm": ("svm",), "lingpipe": ("lingpipe",), "stacked": ("crf",)}
_COMMON_OPTIONS = {"enabled", "types", "relabel"}
_OPTIONS: dict[str, set[str]] = {
    "rules": _COMMON_OPTIONS | {"lang", "files", "labels", "propagate"},
    "dictionary": _COMMON_OPTIONS | {"kinds", "mode", "lang"},
    "crf": _COMMON_OPTIONS | {"bias", "threshold"},
    "svm": _COMMON_OPTIONS,
    "lingpipe": _COMMON_OPTIONS,
    "two_pass": _COMMON_OPTIONS | {"sources", "min_score", "harvest_types", "min_chars", "max_zipf", "split_names",
                                    "derived_forms", "lang"},
    "postprocess": {"enabled", "targets", "files", "rules"},
    "stacked": _COMMON_OPTIONS | {"bias", "threshold", "feeders"},
    "ner": _COMMON_OPTIONS | {"labels", "cues"},
}
_TOP_KEYS = {
    "kind", "format", "notescrub_version", "name", "model_name", "description", "lang", "labels", "components",
    "resolver", "presets", "default_preset", "recipe", "training", "training_seconds", "data", "metrics", "meta",
}
_COMPONENT_KEYS = {"name", "kind", "dir", "options"}
_PRESET_KEYS = {"components", "resolver", "description"}
_RESOLVER_KEYS = {"name", "order", "base", "min_votes", "extent"}


# --------------------------------------------------------------------------- specs
@dataclass
class ComponentSpec:
    """One entry of ``components``: a name (its layer), a kind, a sub-directory, options."""

    name: str
    kind: str
    dir: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.dir is not None:
            out["dir"] = self.dir
        out["options"] = dict(self.options)
        return out


def _fail(msg: str, path: Path | str | None) -> ModelError:
    return ModelError(msg, path=path)


def _check_keys(obj: Any, allowed: set[str], what: str, path: Path | str | None) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise _fail(f"{what} must be a JSON object", path)
    unknown = set(obj) - allowed
    if unknown:
        raise _fail(f"{what} has unknown keys {sorted(unknown)}; allowed: {sorted(allowed)}", path)
    return obj


def _str_list(v: Any, what: str, path: Path | str | None, allow_none: bool = True) -> None:
    if v is None and allow_none:
        return
    if not isinstance(v, list) or not all(isinstance(x, str) and x for x in v):
        raise _fail(f"{what} must be a list of non-empty strings", path)


def _check_options(kind: str, name: str, opts: Any, path: Path | str | None, where: str) -> None:
    _check_keys(opts, _OPTIONS[kind], f"{where} options of component {name!r} ({kind})", path)
    if "enabled" in opts and not isinstance(opts["enabled"], bool):
        raise _fail(f"component {name!r}: 'enabled' must be true or false", path)
    for key in ("types", "labels", "files", "sources", "harvest_types", "kinds", "targets", "rules", "feeders"):
        if key in opts:
            _str_list(opts[key], f"component {name!r} option {key!r}", path)
    if "relabel" in opts:
        rl = opts["relabel"]
        if not isinstance(rl, dict) or not all(isinstance(k, str) and isinstance(v, str) and v for k, v in rl.items()):
            raise _fail(f"component {name!r}: 'relabel' must map labels to labels", path)
    for key in ("bias", "min_score", "max_zipf"):
        v = opts.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise _fail(f"component {name!r}: {key!r} must be a number", path)
    if opts.get("threshold") is not None and not (isinstance(opts["threshold"], (int, float))
                                                  and 0 < opts["threshold"] <= 1):
        raise _fail(f"component {name!r}: 'threshold' must be a number in (0, 1]", path)


def _check_resolver(spec: Any, path: Path | str | None, where: str = "resolver") -> None:
    _check_keys(spec, _RESOLVER_KEYS, where, path)
    name = spec.get("name")
    known = ("longest", "highest_score", "union", "vote", "priority", "cover")
    if name not in known:
        raise _fail(f"{where}: unknown resolver {name!r}; known: {', '.join(known)}", path)
    if name == "priority":
        _str_list(spec.get("order"), f"{where}.order", path, allow_none=False)
        if len(set(spec["order"])) != len(spec["order"]):
            raise _fail(f"{where}.order lists a type twice", path)
    elif "order" in spec:
        raise _fail(f"{where}: 'order' is only for the priority resolver", path)
    if name == "cover":
        _check_resolver(spec.get("base", {"name": "longest"}), path, f"{where}.base")
    elif "base" in spec:
        raise _fail(f"{where}: 'base' is only for the cover resolver", path)
    if ("min_votes" in spec or "extent" in spec) and name != "vote":
        raise _fail(f"{where}: 'min_votes'/'extent' are only for the vote resolver", path)


def validate_meta(meta: Any, path: Path | str | None = None) -> dict[str, Any]:
    """Check a hybrid ``model.json`` object; raise :class:`ModelError` naming ``path``."""
    _check_keys(meta, _TOP_KEYS, "model.json", path)
    if meta.get("kind") != "hybrid":
        raise _fail(f"model kind is {meta.get('kind')!r}, expected 'hybrid'", path)
    if meta.get("format", FORMAT) != FORMAT:
        raise _fail(f"hybrid model format {meta.get('format')!r} is not supported (expected {FORMAT})", path)
    comps = meta.get("components")
    if not isinstance(comps, list) or not comps:
        raise _fail("'components' must be a non-empty list", path)
    names: list[str] = []
    for i, c in enumerate(comps):
        _check_keys(c, _COMPONENT_KEYS, f"components[{i}]", path)
        name, kind = c.get("name"), c.get("kind")
        if not isinstance(name, str) or not name or name in (meta.get("output_layer", "phi"),):
            raise _fail(f"components[{i}] needs a 'name' (a non-empty string other than 'phi')", path)
        if name in names:
            raise _fail(f"component name {name!r} is used twice", path)
        if kind not in COMPONENT_KINDS:
            raise _fail(f"component {name!r}: unknown kind {kind!r}; known: {', '.join(COMPONENT_KINDS)}", path)
        if COMPONENT_KINDS[kind]:
            d = c.get("dir")
            if not isinstance(d, str) or not d or Path(d).is_absolute() or ".." in Path(d).parts:
                raise _fail(f"component {name!r} ({kind}) needs 'dir', a relative sub-directory", path)
        elif "dir" in c:
            raise _fail(f"component {name!r} ({kind}) is not trained and takes no 'dir'", path)
        _check_options(kind, name, c.get("options", {}), path, "the")
        names.append(name)
    kinds = {c["name"]: c["kind"] for c in comps}
    for c in comps:
        opts = c.get("options", {})
        for key in ("targets", "sources", "feeders"):
            for t in opts.get(key) or []:
                if t not in kinds or kinds[t] == "postprocess":
                    raise _fail(f"component {c['name']!r}: {key} names {t!r}, which is not a detector component", path)
    _check_resolver(meta.get("resolver", {"name": "longest"}), path)
    presets = meta.get("presets", {})
    if not isinstance(presets, dict):
        raise _fail("'presets' must be a JSON object", path)
    for pname, p in presets.items():
        _check_keys(p, _PRESET_KEYS, f"preset {pname!r}", path)
        over = p.get("components", {})
        if not isinstance(over, dict):
            raise _fail(f"preset {pname!r}: 'components' must be a JSON object", path)
        for cname, opts in over.items():
            if cname not in kinds:
                raise _fail(f"preset {pname!r} names unknown component {cname!r}", path)
            _check_options(kinds[cname], cname, opts, path, f"preset {pname!r}")
        if "resolver" in p:
            _check_resolver(p["resolver"], path, f"preset {pname!r} resolver")
    dp = meta.get("default_preset")
    if dp is not None and dp not in presets:
        raise _fail(f"default_preset {dp!r} is not one of the presets {sorted(presets)}", path)
    return meta


# --------------------------------------------------------------------------- resolvers
def resolver_from_spec(spec: Mapping[str, Any]) -> Any:
    """A resolver callable from its JSON description (see the module docstring)."""
    from notescrub.detect.resolve import Cover, Priority, get_resolver
    from notescrub.detect.vote import Vote

    name = spec.get("name", "longest")
    if name == "priority":
        return Priority(list(spec["order"]))
    if name == "cover":
        return Cover(resolver_from_spec(spec.get("base", {"name": "longest"})))
    if name == "vote":
        return Vote(int(spec.get("min_votes", 2)), str(spec.get("extent", "best")))
    return get_resolver(str(name))


# --------------------------------------------------------------------------- component wrapper
class Component(Detector):
    """A detector as a hybrid component: relabel, keep ``types``, post-process its spans.

    Attribute reads it does not define go to the wrapped detector (``types_``,
    ``final_attributes``...), so CLI knobs and explanations keep working.

    >>> from notescrub.detect.rules import RulesDetector
    >>> c = Component(RulesDetector(), "rules", types=["DATE"], relabel={"DATE": "FECHAS"})
    >>> [(s.label, s.source) for s in c.detect(Document("a", "Seen 03/18/2091 by Dr. Ruiz."))]
    [('FECHAS', 'rules')]
    """

    def __init__(self, inner: Any, name: str, *, types: Iterable[str] | None = None,
                 relabel: Mapping[str, str] | None = None, post: Any = None) -> None:
        self.__dict__["inner"] = inner
        self.__dict__["name"] = name
        self.__dict__["types"] = frozenset(types) if types is not None else None
        self.__dict__["relabel"] = dict(relabel or {})
        self.__dict__["post"] = post

    @property
    def patient_level(self) -> bool:
        return bool(getattr(self.inner, "patient_level", False))

    def __getattr__(self, item: str) -> Any:
        if item.startswith("__"):
            raise AttributeError(item)
        return getattr(self.__dict__["inner"], item)

    def __setattr__(self, key: str, value: Any) -> None:
        # decoding knobs (--recall-bias/--threshold) go to the wrapped model
        if key in ("bias", "threshold") and hasattr(self.inner, key):
            setattr(self.inner, key, value)
        else:
            self.__dict__[key] = value

    def _finish(self, doc: Document, spans: Sequence[Span]) -> list[Span]:
        out = []
        for s in spans:
            new = self.relabel.get(s.label) or self.relabel.get(s.phi or "")
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
        feat = _crf_featurizer(self.inner)
        if feat is None:
            return self._finish(doc, self.inner.detect(doc))
        # CRFs with the same feature configuration share one featurisation of the document
        config = json.dumps(feat.to_config(), sort_keys=True)
        if "parts" in inspect.signature(self.inner.decode).parameters and hasattr(feat, "parts"):
            decoded = self.inner.decode(doc, parts=doc.cached("notescrub.hybrid.parts:" + config, feat.parts),
                                        marginals=True)
        else:
            decoded = self.inner.decode(doc, doc.cached("notescrub.hybrid.attrs:" + config, feat.attributes),
                                        marginals=True)
        doc.metadata[self.inner.name] = {"logprob": round(decoded.logprob, 4), "tokens": decoded.n_tokens}
        from notescrub.detect.token_posteriors import remember

        remember(doc, self.name, self.inner.tags_, decoded.marginals, feeder=None)  # for notescrub.risk
        return self._finish(doc, decoded.spans)

    def detect_many(self, docs: Iterable[Document]) -> list[list[Span]]:
        docs = list(docs)
        if not self.patient_level:
            return [self.detect(d) for d in docs]
        return [self._finish(d, spans) for d, spans in zip(docs, self.inner.detect_many(docs))]

    def __repr__(self) -> str:
        return f"Component({self.name!r}, {type(self.inner).__name__})"


def _crf_featurizer(inner: Any) -> Any:
    """The featurizer of a plain CRF tagger (``None`` for anything else)."""
    from notescrub.detect.crf import CRFTagger

    if type(inner) is not CRFTagger or inner.featurizer is None:
        return None
    return inner.featurizer


class _SubPipeline(Detector):
    """A multi-detector sub-model used as one component (its final layer)."""

    def __init__(self, pipeline: Any, name: str) -> None:
        self.pipeline = pipeline
        self.name = name

    def detect(self, doc: Document) -> list[Span]:
        work = doc.copy(layers=False)
        return list(self.pipeline(work).layer(self.pipeline.output_layer))


# --------------------------------------------------------------------------- the model
class HybridModel:
    """Component specifications, their trained objects, the integration policy and presets.

    Parameters
    ----------
    components:
        :class:`ComponentSpec` list, in pipeline order.
    objects:
        Trained objects of the components with a ``dir`` (``name -> detector`` with
        ``save(directory, overwrite=..., extra=...)``).
    resolver, presets, default_preset:
        As in ``model.json``.
    meta:
        Other ``model.json`` fields (``name``, ``lang``, ``labels``, ``training``...).
    """

    def __init__(self, components: Sequence[ComponentSpec], objects: Mapping[str, Any] | None = None,
                 resolver: Mapping[str, Any] | None = None, presets: Mapping[str, Any] | None = None,
                 default_preset: str | None = None, meta: Mapping[str, Any] | None = None,
                 directory: Path | None = None) -> None:
        self.components = list(components)
        self.objects = dict(objects or {})
        self.resolver = dict(resolver or {"name": "longest"})
        self.presets = {k: dict(v) for k, v in (presets or {}).items()}
        self.default_preset = default_preset
        self.meta = dict(meta or {})
        self.directory = directory
        self._cache: dict[str, Any] = {}
        self._crf_stacks: dict[Any, Any] = {}  # shared CRF scorers, reused by every pipeline of this model
        validate_meta(self.to_json(), directory / META_FILE if directory else None)

    # -- serialisation ----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        from notescrub import __version__

        out: dict[str, Any] = {"kind": "hybrid", "format": FORMAT, "notescrub_version": __version__}
        out.update({k: v for k, v in self.meta.items() if k not in ("kind", "format", "notescrub_version")})
        out["components"] = [c.to_json() for c in self.components]
        out["resolver"] = self.resolver
        out["presets"] = self.presets
        if self.default_preset is not None:
            out["default_preset"] = self.default_preset
        return out

    @classmethod
    def load(cls, directory: str | Path) -> HybridModel:
        """Read and validate ``model.json``; trained components are loaded lazily."""
        from notescrub import __version__
        from notescrub.registry import read_model_meta

        d = Path(directory)
        meta = validate_meta(read_model_meta(d), d / META_FILE)
        theirs = str(meta.get("notescrub_version", "?"))
        if theirs.split(".")[:2] != __version__.split(".")[:2]:
            raise ModelError(f"model was saved by notescrub {theirs}, this is {__version__}: retrain it",
                             path=d / META_FILE)
        comps = [ComponentSpec(c["name"], c["kind"], c.get("dir"), dict(c.get("options", {})))
                 for c in meta["components"]]
        rest = {k: v for k, v in meta.items()
                if k not in ("kind", "format", "notescrub_version", "components", "resolver", "presets",
                             "default_preset")}
        return cls(comps, {}, meta.get("resolver"), meta.get("presets"), meta.get("default_preset"), rest,
                   directory=d)

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: Mapping[str, Any] | None = None,
             files: Mapping[str, bytes] | None = None) -> Path:
        """Write the model directory atomically (``model.json`` + one sub-directory per trained component).

        ``extra`` keys are merged into ``model.json`` (known keys) or under ``meta``; ``files``
        (``{file name: content}``) are written next to it, e.g. a post-processing rule file that
        a ``postprocess`` component names in its ``files`` option.
        """
        from notescrub.io.atomic import atomic_dir

        doc = self.to_json()
        for k, v in (extra or {}).items():
            if k in _TOP_KEYS and k not in ("kind", "format", "components", "resolver", "presets"):
                doc[k] = v
            else:
                doc.setdefault("meta", {})[k] = v
        validate_meta(doc, Path(directory) / META_FILE)
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            for c in self.components:
                if c.dir is not None:
                    self._object(c).save(tmp / c.dir, overwrite=False)
            for name, content in (files or {}).items():
                if Path(name).name != name or name == META_FILE:
                    raise ModelError(f"extra model file {name!r} must be a plain file name other than {META_FILE}")
                (tmp / name).write_bytes(content)
            (tmp / META_FILE).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return Path(directory)

    # -- building pipelines -----------------------------------------------------------
    def _object(self, c: ComponentSpec) -> Any:
        """The trained object of component ``c`` (loaded from its sub-directory on first use)."""
        obj = self.objects.get(c.name)
        if obj is not None:
            return obj
        if self.directory is None:
            raise ModelError(f"component {c.name!r} has no trained object and the model has no directory")
        obj = self.objects[c.name] = _load_submodel(self.directory, c)
        return obj

    def options(self, preset: str | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None
                ) -> dict[str, dict[str, Any]]:
        """Effective options of every component under ``preset`` plus ``overrides``."""
        p = self._preset(preset)
        out = {}
        for c in self.components:
            opts = dict(c.options)
            opts.update(p.get("components", {}).get(c.name, {}))
            opts.update((overrides or {}).get(c.name, {}))
            _check_options(c.kind, c.name, opts, self.directory, "effective")
            out[c.name] = opts
        return out

    def _preset(self, preset: str | None) -> dict[str, Any]:
        name = preset if preset is not None else self.default_preset
        if name is None:
            return {}
        if name not in self.presets:
            raise ConfigError(f"unknown preset {name!r}; this model has {sorted(self.presets) or 'none'}")
        return self.presets[name]

    def pipeline(self, preset: str | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
        """A ready :class:`~notescrub.pipeline.Pipeline` for an operating point.

        ``overrides`` (``{component: {option: value}}``) come on top of the preset, e.g.
        ``{"two_pass": {"enabled": False}}`` for a first-pass-only run.
        """
        from notescrub.pipeline import Pipeline

        where = self.directory / META_FILE if self.directory else None
        opts = self.options(preset, overrides)
        detectors: dict[str, Component] = {}
        for c in self.components:
            o = opts[c.name]
            if c.kind == "postprocess" or not o.get("enabled", True):
                continue
            try:
                inner = self._build(c, o, list(detectors), opts)
            except NotescrubError:
                raise
            except (TypeError, ValueError, KeyError) as exc:
                raise ModelError(f"component {c.name!r}: {exc}", path=where) from None
            detectors[c.name] = Component(inner, c.name, types=o.get("types"), relabel=o.get("relabel"))
        for c in self.components:
            o = opts[c.name]
            if c.kind != "postprocess" or not o.get("enabled", True):
                continue
            post = self._postprocessor(c, o)
            for t in o.get("targets") or [n for n, d in detectors.items() if d.inner.__class__.__name__ != "PatientDictionary"]:
                if t in detectors:
                    detectors[t].__dict__["post"] = post
        if not detectors:
            raise ModelError("every component is disabled in this operating point", path=where)
        from notescrub.recipes.shared_crf import share_crf_scoring

        share_crf_scoring((d.inner for d in detectors.values()), self._crf_stacks)  # CRFs with one featurizer score together
        share_negative_cues(d.inner for d in detectors.values())
        p = self._preset(preset)
        resolver = resolver_from_spec(p.get("resolver", self.resolver))
        name = str(self.meta.get("model_name") or self.meta.get("name") or (self.directory.name if self.directory else "hybrid"))
        meta = {**self.to_json(), "preset": preset if preset is not None else self.default_preset}
        pipe = Pipeline(list(detectors.values()), resolver=resolver, name=name, metadata=meta)
        pipe.hybrid = self  # type: ignore[attr-defined]  # for save_pipeline
        return pipe

    def _build(self, c: ComponentSpec, o: Mapping[str, Any], earlier: list[str],
               opts: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
        if c.kind == "rules":
            from notescrub.detect.rules import RulesDetector

            files = o.get("files")
            if files is not None and self.directory is not None:
                files = [str(self.directory / f) if (self.directory / f).is_file() else f for f in files]
            key = json.dumps(["rules", files, o.get("lang", self.meta.get("lang", "en")), o.get("labels"),
                              o.get("propagate", True)])
            if key not in self._cache:
                self._cache[key] = RulesDetector(files, lang=o.get("lang", self.meta.get("lang", "en")),
                                                 labels=o.get("labels"), name=c.name,
                                                 propagate=bool(o.get("propagate", True)))
            return self._cache[key]
        if c.kind == "dictionary":
            from notescrub.detect.dictionary import KINDS, DictionaryDetector

            return DictionaryDetector(kinds=tuple(o.get("kinds") or KINDS), mode=o.get("mode", "filtered"),
                                      lang=o.get("lang", self.meta.get("lang", "en")), name=c.name)
        if c.kind == "ner":
            from notescrub.detect.ner import NerDetector

            key = json.dumps(["ner", o.get("labels"), o.get("cues"), c.name], sort_keys=True)
            if key not in self._cache:
                try:
                    self._cache[key] = NerDetector(o.get("labels"), o.get("cues"), name=c.name)
                except ConfigError as exc:
                    raise ModelError(f"component {c.name!r}: {exc.reason}", path=self.directory) from None
            return self._cache[key]
        if c.kind == "two_pass":
            from notescrub.detect.two_pass import DEFAULT_TYPES, PatientDictionary

            sources = o.get("sources")
            sources = [s for s in sources if s in earlier] if sources is not None else list(earlier)
            kw: dict[str, Any] = {"min_score": float(o.get("min_score", 0.5)),
                                  "types": o.get("harvest_types") or DEFAULT_TYPES}
            for k in ("min_chars", "max_zipf", "split_names", "derived_forms"):
                if k in o:
                    kw[k] = o[k]
            # "lang" only when given: the model's own "lang" would change older models' second pass
            return PatientDictionary(sources, name=c.name, lang=o.get("lang", "en"), **kw)
        obj = copy.copy(self._object(c))  # run-time knobs must not leak into other pipelines
        if c.kind == "stacked":
            # feeders are built from their own specs even when disabled as outputs
            from notescrub.detect.stacked import StackedCRF

            specs = {x.name: x for x in self.components}
            eff = opts if opts is not None else self.options()  # the operating point being built
            feeders = [self._build(specs[f], eff[f], earlier, eff) for f in (o.get("feeders") or [])]
            share_negative_cues(feeders)  # the rules and dictionary feeders compute a note's block ranges once
            obj = StackedCRF(obj, feeders, name=c.name)
        for k in ("bias", "threshold"):
            if k in o:
                if not hasattr(obj, k):
                    raise ModelError(f"component {c.name!r} ({type(obj).__name__}) has no {k!r} knob")
                setattr(obj, k, o[k])
        return obj

    def _postprocessor(self, c: ComponentSpec, o: Mapping[str, Any]) -> Any:
        from notescrub.detect.postprocess import PostProcessor

        files = o.get("files")
        if files is not None and self.directory is not None:
            files = [str(self.directory / f) if (self.directory / f).is_file() else f for f in files]
        key = json.dumps(["post", files, o.get("rules")])
        if key not in self._cache:
            self._cache[key] = PostProcessor(files, only=o.get("rules"))
        return self._cache[key]


def _load_submodel(directory: Path, c: ComponentSpec) -> Any:
    from notescrub.registry import load_model, read_model_meta

    sub = directory / str(c.dir)
    if not sub.is_dir():
        raise ModelError(f"component {c.name!r}: sub-directory {c.dir!r} is missing", path=directory / META_FILE)
    kind = read_model_meta(sub).get("kind")
    if kind not in _SUBMODEL_KINDS[c.kind]:
        raise ModelError(f"component {c.name!r} is declared {c.kind!r} but {c.dir}/model.json has kind {kind!r}",
                         path=directory / META_FILE)
    if c.kind in ("crf", "stacked"):
        from notescrub.detect.crf import load_tagger

        return load_tagger(sub)
    pipe = load_model(sub)
    return pipe.detectors[0] if len(pipe.detectors) == 1 else _SubPipeline(pipe, c.name)


# --------------------------------------------------------------------------- entry points
def load_pipeline(directory: str | Path, preset: str | None = None) -> Any:
    """Registry loader for kind ``hybrid``: the model's pipeline at ``preset`` (default: ``default_preset``)."""
    model = HybridModel.load(directory)
    try:
        return model.pipeline(preset)
    except ConfigError as exc:
        raise ModelError(exc.reason, path=Path(directory) / META_FILE) from None


def load_with_preset(name_or_path: str | Path, preset: str | None) -> Any:
    """Like :func:`notescrub.registry.load_model`, with an operating point for hybrid models."""
    from notescrub.registry import DEFAULT_MODEL, load_model, model_dir, read_model_meta

    if preset is None:
        return load_model(name_or_path)
    d = model_dir(name_or_path or DEFAULT_MODEL)
    kind = read_model_meta(d).get("kind")
    if kind != "hybrid":
        raise ModelError(f"--preset needs a hybrid model; this one is of kind {kind!r}", path=d)
    return load_pipeline(d, preset)


def save_pipeline(pipeline: Any, directory: str | Path, *, overwrite: bool = False,
                  extra: Mapping[str, Any] | None = None) -> Path:
    """Write the hybrid model behind ``pipeline`` (built by :meth:`HybridModel.pipeline`) atomically."""
    model = getattr(pipeline, "hybrid", None)
    if not isinstance(model, HybridModel):
        raise ModelError("this pipeline was not built from a hybrid model; build a HybridModel and save it")
    return model.save(directory, overwrite=overwrite, extra=extra)
