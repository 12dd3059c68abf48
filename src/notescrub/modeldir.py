"""Model directories: reading, checking and writing a hybrid model (``model.json`` + sub-models).

:class:`HybridModel` is the data of a model — component specifications, the trained
objects of the components that have a ``dir``, the resolver, presets and metadata. It
loads and saves itself (atomically, with the notescrub version checked on loading) and
computes the effective options of an operating point; turning it into a running
pipeline is :mod:`notescrub.assemble`'s job.

Every model directory is read as a :class:`HybridModel` (:func:`read_model`): a ``hybrid``
one as written; a single-kind one (``crf``, ``crfd``, ``svm``, ``lingpipe``: one trained
detector; ``rules``: packaged or listed rules plus an optional dictionary) as the
equivalent one- or two-component model, so one assembly path builds every model.

>>> import tempfile, pathlib
>>> model = HybridModel([ComponentSpec("rules", "rules", options={"types": ["DATE"]})],
...                     resolver={"name": "priority", "order": ["DATE"]},
...                     presets={"all": {"components": {"rules": {"types": None}}}})
>>> out = model.save(pathlib.Path(tempfile.mkdtemp()) / "m")
>>> sorted(p.name for p in out.iterdir())
['model.json']
>>> HybridModel.load(out).options("all")["rules"]
{'types': None}
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from notescrub.config import EXTRA_KEYS, FORMAT, META_FILE, ComponentSpec, check_options, validate_meta
from notescrub.errors import ConfigError, ModelError
from notescrub.registry import component, model_kind, read_model_meta, resolve_target

__all__ = ["HybridModel", "load_submodel", "read_hybrid", "read_model", "read_rules", "read_trained"]


class HybridModel:
    """Component specifications, their trained objects, the integration policy and presets.

    Parameters
    ----------
    components:
        :class:`ComponentSpec` list, in pipeline order.
    objects:
        Trained objects of the components with a ``dir`` (``name -> detector`` with
        ``save(directory, overwrite=...)``).
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
        #: built resources shared by every pipeline of this model (rule sets, CRF scorers);
        #: filled by :mod:`notescrub.assemble`
        self.shared: dict[Any, Any] = {}
        validate_meta(self.to_json(), self.meta_file)

    @property
    def meta_file(self) -> Path | None:
        """``model.json`` of the directory the model was loaded from (for messages)."""
        return self.directory / META_FILE if self.directory else None

    @property
    def name(self) -> str:
        return str(self.meta.get("model_name") or self.meta.get("name")
                   or (self.directory.name if self.directory else "hybrid"))

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
    def load(cls, directory: str | Path, meta: dict[str, Any] | None = None) -> HybridModel:
        """Read and validate ``model.json`` (or its already read content ``meta``); trained
        components are loaded lazily."""
        from notescrub import __version__

        d = Path(directory)
        meta = validate_meta(read_model_meta(d) if meta is None else meta, d / META_FILE)
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
            if k in EXTRA_KEYS:
                doc[k] = v
            else:
                doc.setdefault("meta", {})[k] = v
        validate_meta(doc, Path(directory) / META_FILE)
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            for c in self.components:
                if c.dir is not None:
                    self.trained(c).save(tmp / c.dir, overwrite=False)
            for name, content in (files or {}).items():
                if Path(name).name != name or name == META_FILE:
                    raise ModelError(f"extra model file {name!r} must be a plain file name other than {META_FILE}")
                (tmp / name).write_bytes(content)
            (tmp / META_FILE).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return Path(directory)

    # -- what an operating point is made of --------------------------------------------
    def trained(self, c: ComponentSpec) -> Any:
        """The trained object of component ``c`` (loaded from its sub-directory on first use)."""
        obj = self.objects.get(c.name)
        if obj is not None:
            return obj
        if self.directory is None:
            raise ModelError(f"component {c.name!r} has no trained object and the model has no directory")
        obj = self.objects[c.name] = load_submodel(self.directory, c)
        return obj

    def local_files(self, files: Sequence[str] | None) -> list[str] | None:
        """``files`` with names that exist in the model directory made absolute."""
        if files is None or self.directory is None:
            return list(files) if files is not None else None
        d = self.directory
        return [str(d / f) if (d / f).is_file() else f for f in files]

    def options(self, preset: str | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None
                ) -> dict[str, dict[str, Any]]:
        """Effective options of every component under ``preset`` plus ``overrides``."""
        p = self.preset(preset)
        out = {}
        for c in self.components:
            opts = dict(c.options)
            opts.update(p.get("components", {}).get(c.name, {}))
            opts.update((overrides or {}).get(c.name, {}))
            check_options(c.kind, c.name, opts, self.directory, "effective")
            out[c.name] = opts
        return out

    def preset(self, preset: str | None) -> dict[str, Any]:
        """The preset ``preset`` (``None``: the default preset, or no preset)."""
        name = preset if preset is not None else self.default_preset
        if name is None:
            return {}
        if name not in self.presets:
            raise ConfigError(f"unknown preset {name!r}; this model has {sorted(self.presets) or 'none'}")
        return self.presets[name]

    def pipeline(self, preset: str | None = None, overrides: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
        """A ready pipeline for an operating point (see :func:`notescrub.assemble.assemble`)."""
        from notescrub.assemble import assemble

        return assemble(self, preset, overrides)


def read_model(directory: Path, meta: dict[str, Any] | None = None) -> HybridModel:
    """Any model directory as a :class:`HybridModel` (through its kind's registered reader);
    ``meta``: its ``model.json`` when the caller has read it already."""
    d = Path(directory)
    meta = read_model_meta(d) if meta is None else meta
    reader = resolve_target(model_kind(meta.get("kind"), d / META_FILE).target)
    return reader(d, meta)


def read_hybrid(directory: Path, meta: dict[str, Any]) -> HybridModel:
    """Reader of kind ``hybrid``."""
    return HybridModel.load(directory, meta)


def _kept(meta: dict[str, Any], name: str) -> dict[str, Any]:
    """The descriptive ``model.json`` fields a single-kind model keeps, with its pipeline ``name``."""
    out = {k: v for k, v in meta.items() if k in EXTRA_KEYS and k not in ("name", "model_name", "meta")}
    if "lang" not in out and isinstance(meta.get("language"), str):
        out["lang"] = meta["language"]
    out["model_name"] = name
    return out


def read_rules(directory: Path, meta: dict[str, Any]) -> HybridModel:
    """Reader of kind ``rules``: ``rules`` (rule files, default all packaged rules of ``lang``),
    ``lang``, ``labels``, ``dictionary`` (``null``/absent: none; a table: the dictionary
    component's options) and ``resolver`` (a name, default ``highest_score``)."""
    d = Path(directory)
    where = d / META_FILE
    lang = meta.get("lang", "en")
    rules: dict[str, Any] = {"lang": lang}
    for key, option in (("rules", "files"), ("labels", "labels")):
        if meta.get(key) is not None:
            rules[option] = meta[key]
    comps = [ComponentSpec("rules", "rules", options=rules)]
    dictionary = meta.get("dictionary")
    if dictionary is not None:
        if not isinstance(dictionary, dict):
            raise ModelError("'dictionary' must be a table of dictionary options or null", path=where)
        comps.append(ComponentSpec("dictionary", "dictionary", options={"lang": "en", **dictionary}))
    resolver = meta.get("resolver", "highest_score")
    if not isinstance(resolver, str):
        raise ModelError("'resolver' of a rules model is a resolver name", path=where)
    return HybridModel(comps, resolver={"name": resolver}, meta=_kept(meta, str(meta.get("name", d.name))),
                       directory=d)


def read_trained(directory: Path, meta: dict[str, Any]) -> HybridModel:
    """Reader of the single-detector kinds (``crf``, ``crfd``, ``svm``, ``lingpipe``): one
    component named after the detector, whose ``dir`` is the model directory itself."""
    d = Path(directory)
    kind = str(meta.get("kind"))
    obj = _load_object(d, kind)
    name = str(meta.get("model_name") or d.name) if kind == "crf" else f"{kind}:{d.name}"
    spec = ComponentSpec(str(obj.name), "crf" if kind in ("crf", "crfd") else kind, dir=".")
    return HybridModel([spec], {spec.name: obj}, meta=_kept(meta, name), directory=d)


def _load_object(directory: Path, kind: str) -> Any:
    loads = model_kind(kind, directory / META_FILE).loads
    if not loads:
        raise ModelError(f"a model of kind {kind!r} is not a trained detector", path=directory / META_FILE)
    return resolve_target(loads)(directory)


def load_submodel(directory: Path, c: ComponentSpec) -> Any:
    """The trained object in ``directory/c.dir``, checked against the component's kind."""
    sub = directory / str(c.dir)
    if not sub.is_dir():
        raise ModelError(f"component {c.name!r}: sub-directory {c.dir!r} is missing", path=directory / META_FILE)
    kind = read_model_meta(sub).get("kind")
    if kind not in component(c.kind).submodels:
        raise ModelError(f"component {c.name!r} is declared {c.kind!r} but {c.dir}/model.json has kind {kind!r}",
                         path=directory / META_FILE)
    return _load_object(sub, str(kind))
