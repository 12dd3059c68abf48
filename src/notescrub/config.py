"""Model configuration: the ``model.json`` of a hybrid model, checked key by key.

A hybrid model directory holds ``model.json`` and one sub-directory per trained
component. ``model.json`` (format 1; every key is checked, unknown keys are refused with
the file and the key)::

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

Component kinds, their options and the resolvers are the ``component`` and ``resolver``
sections of :data:`notescrub.registry.REGISTRY`: ``rules``, ``dictionary`` (built from
options), ``crf``, ``svm``, ``lingpipe`` (a trained model in ``dir``, itself a model
directory of that kind), ``ner`` (spaCy's entities in sentences with one of its ``cues``,
mapped by ``labels``, default ``{"ORG": "ORGANIZATION"}``; needs the ``[syntax]`` extra),
``two_pass`` (the patient dictionary over the layers of the components before it, or of
``sources``), ``stacked`` (a CRF in ``dir`` fed by the components named in ``feeders``,
built even when disabled as outputs) and ``postprocess`` (post-processing rules applied to
the output of its ``targets``; it makes no layer of its own). Every detector component
also takes ``enabled``, ``types`` (keep only spans whose label or canonical subtype is
listed) and ``relabel`` (``{label or subtype: new label}``, applied first). The
``resolver`` (``longest``, ``highest_score``, ``union``, ``vote`` with ``min_votes`` and
``extent``, ``priority`` with ``order``, ``cover`` with ``base``) makes the ``phi`` layer.
A preset overrides component options and the resolver: that is how one model offers
several operating points.

>>> validate_meta({"kind": "hybrid", "components": [{"name": "r", "kind": "rules", "options": {"lang": "en"}}]},
...               "m/model.json")["components"][0]["kind"]
'rules'
>>> validate_meta({"kind": "hybrid", "components": [{"name": "r", "kind": "rules", "options": {"colour": 1}}]},
...               "m/model.json")
Traceback (most recent call last):
notescrub.errors.ModelError: m/model.json: the options of component 'r' (rules) has unknown keys ['colour']; allowed: ['enabled', 'files', 'labels', 'lang', 'propagate', 'relabel', 'types']
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notescrub.errors import ModelError
from notescrub.options import value_shapes
from notescrub.registry import component, entry, kinds

__all__ = ["FORMAT", "META_FILE", "ComponentSpec", "check_options", "check_resolver", "validate_meta"]

FORMAT = 1
META_FILE = "model.json"
_TOP_KEYS = {
    "kind", "format", "notescrub_version", "name", "model_name", "description", "lang", "labels", "components",
    "resolver", "presets", "default_preset", "recipe", "training", "training_seconds", "data", "metrics", "meta",
}
#: keys a caller may add to model.json when saving (the rest of ``extra`` goes under ``meta``)
EXTRA_KEYS = _TOP_KEYS - {"kind", "format", "components", "resolver", "presets"}
_COMPONENT_KEYS = {"name", "kind", "dir", "options"}
_PRESET_KEYS = {"components", "resolver", "description"}


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


def _check_keys(obj: Any, allowed: set[str] | frozenset[str], what: str, path: Path | str | None) -> dict[str, Any]:
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


def check_options(kind: str, name: str, opts: Any, path: Path | str | None, where: str) -> None:
    """Check the options of component ``name`` of ``kind`` (``where``: "the", "effective", a preset)."""
    _check_keys(opts, component(kind).options, f"{where} options of component {name!r} ({kind})", path)
    if "enabled" in opts and not isinstance(opts["enabled"], bool):
        raise _fail(f"component {name!r}: 'enabled' must be true or false", path)
    # each value's shape comes from the kind's options dataclass (ner's labels map spaCy's labels to ours)
    settings = component(kind).settings
    for key, shape in (value_shapes(settings) if settings is not None else {}).items():
        v = opts.get(key)
        if key not in opts or v is None:
            continue
        if shape == "strings":
            _str_list(v, f"component {name!r} option {key!r}", path)
        elif shape == "mapping" and (
                not isinstance(v, dict) or not all(isinstance(k, str) and isinstance(x, str) and x for k, x in v.items())):
            raise _fail(f"component {name!r}: {key!r} must map labels to labels", path)
        elif shape == "number" and key != "threshold" and (isinstance(v, bool) or not isinstance(v, (int, float))):
            raise _fail(f"component {name!r}: {key!r} must be a number", path)
    if opts.get("threshold") is not None and not (isinstance(opts["threshold"], (int, float))
                                                  and 0 < opts["threshold"] <= 1):
        raise _fail(f"component {name!r}: 'threshold' must be a number in (0, 1]", path)


def check_resolver(spec: Any, path: Path | str | None, where: str = "resolver") -> None:
    """Check a resolver description (``{"name": "cover", "base": {"name": "longest"}}``)."""
    known = kinds("resolver")
    if not isinstance(spec, dict):
        raise _fail(f"{where} must be a JSON object", path)
    name = spec.get("name")
    if name not in known:
        raise _fail(f"{where}: unknown resolver {name!r}; known: {', '.join(known)}", path)
    options = entry("resolver", name).options
    for key in set(spec) - {"name"} - options:
        owner = [k for k in known if key in entry("resolver", k).options]
        if owner:
            raise _fail(f"{where}: {key!r} is only for the {' and '.join(owner)} resolver", path)
    _check_keys(spec, options | {"name"}, where, path)
    if name == "priority":
        _str_list(spec.get("order"), f"{where}.order", path, allow_none=False)
        if len(set(spec["order"])) != len(spec["order"]):
            raise _fail(f"{where}.order lists a type twice", path)
    if name == "cover":
        check_resolver(spec.get("base", {"name": "longest"}), path, f"{where}.base")


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
    known = kinds("component")
    for i, c in enumerate(comps):
        _check_keys(c, _COMPONENT_KEYS, f"components[{i}]", path)
        name, kind = c.get("name"), c.get("kind")
        if not isinstance(name, str) or not name or name == "phi":
            raise _fail(f"components[{i}] needs a 'name' (a non-empty string other than 'phi')", path)
        if name in names:
            raise _fail(f"component name {name!r} is used twice", path)
        if kind not in known:
            raise _fail(f"component {name!r}: unknown kind {kind!r}; known: {', '.join(known)}", path)
        if component(kind).trained:
            d = c.get("dir")
            if not isinstance(d, str) or not d or Path(d).is_absolute() or ".." in Path(d).parts:
                raise _fail(f"component {name!r} ({kind}) needs 'dir', a relative sub-directory", path)
        elif "dir" in c:
            raise _fail(f"component {name!r} ({kind}) is not trained and takes no 'dir'", path)
        check_options(kind, name, c.get("options", {}), path, "the")
        names.append(name)
    by_name = {c["name"]: c["kind"] for c in comps}
    for c in comps:
        opts = c.get("options", {})
        for key in ("targets", "sources", "feeders"):
            for t in opts.get(key) or []:
                if t not in by_name or by_name[t] == "postprocess":
                    raise _fail(f"component {c['name']!r}: {key} names {t!r}, which is not a detector component", path)
    check_resolver(meta.get("resolver", {"name": "longest"}), path)
    presets = meta.get("presets", {})
    if not isinstance(presets, dict):
        raise _fail("'presets' must be a JSON object", path)
    for pname, p in presets.items():
        _check_keys(p, _PRESET_KEYS, f"preset {pname!r}", path)
        over = p.get("components", {})
        if not isinstance(over, dict):
            raise _fail(f"preset {pname!r}: 'components' must be a JSON object", path)
        for cname, opts in over.items():
            if cname not in by_name:
                raise _fail(f"preset {pname!r} names unknown component {cname!r}", path)
            check_options(by_name[cname], cname, opts, path, f"preset {pname!r}")
        if "resolver" in p:
            check_resolver(p["resolver"], path, f"preset {pname!r} resolver")
    dp = meta.get("default_preset")
    if dp is not None and dp not in presets:
        raise _fail(f"default_preset {dp!r} is not one of the presets {sorted(presets)}", path)
    return meta
