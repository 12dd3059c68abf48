"""The one registry: every named, versioned building block a model file can refer to.

Three sections, one table (:data:`REGISTRY`), each entry under a versioned name
``notescrub.<section>.<kind>.v<N>``:

* ``model`` — model-directory kinds (``model.json``'s ``kind``) and the loader of each;
* ``component`` — component kinds of a hybrid model (``components[].kind``): the factory
  that builds the detector, the options it accepts, the model kinds its trained ``dir``
  may hold, and the decoding knobs (``bias``, ``threshold``) set at build time;
* ``resolver`` — overlap-resolution policies (``resolver.name``) and their options.

Factories are ``"module:function"`` strings imported on first use, so importing the
registry stays cheap. Packaged models live in ``notescrub/models/<name>/`` and are selected
by name (``--model es-meddocan``); anything else is a path.

>>> kinds("model")
['hybrid', 'rules', 'crf', 'crfd', 'svm', 'lingpipe']
>>> component("stacked").name, sorted(component("stacked").knobs)
('notescrub.component.stacked.v1', ['bias', 'threshold'])
>>> lookup("notescrub.resolver.cover.v1").options
frozenset({'base'})
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from notescrub import options as opt
from notescrub.errors import ModelError
from notescrub.options import field_names

__all__ = [
    "DEFAULT_MODEL",
    "REGISTRY",
    "Registered",
    "component",
    "entry",
    "kinds",
    "load_model",
    "lookup",
    "model_dir",
    "model_kind",
    "packaged_models",
    "read_model_meta",
    "resolve_target",
]

DEFAULT_MODEL = "en-default"


@dataclass(frozen=True)
class Registered:
    """One registry entry.

    ``target`` is ``"module:function"`` (``"module:Class.method"`` works too): for a model
    kind, the reader that turns a directory of that kind into a hybrid model (single-kind
    directories become one-component models); ``loads`` (trained model kinds) the function
    that loads the trained object itself; ``options`` the option keys the entry accepts
    (components and resolvers); ``settings`` the options dataclass a component's factory
    receives (:mod:`notescrub.options`); ``submodels`` the model kinds a trained component's ``dir``
    may hold (empty: the component is built from options alone); ``knobs`` the decoding
    knobs a component takes at build time (``--recall-bias`` sets ``bias``).
    """

    section: str
    kind: str
    version: int
    target: str
    options: frozenset[str] = frozenset()
    submodels: tuple[str, ...] = ()
    knobs: frozenset[str] = frozenset()
    settings: type | None = None
    loads: str = ""

    @property
    def name(self) -> str:
        return f"notescrub.{self.section}.{self.kind}.v{self.version}"

    @property
    def trained(self) -> bool:
        return bool(self.submodels)


_KNOBS = frozenset({"bias", "threshold"})


def _component(kind: str, factory: str, settings: type, submodels: tuple[str, ...] = (),
               knobs: frozenset[str] = frozenset()) -> Registered:
    return Registered("component", kind, 1, f"notescrub.assemble:{factory}", field_names(settings), submodels, knobs,
                      settings)


def _entries() -> list[Registered]:
    m = [
        Registered("model", "hybrid", 1, "notescrub.modeldir:read_hybrid"),
        Registered("model", "rules", 1, "notescrub.modeldir:read_rules"),
        *(Registered("model", kind, 1, "notescrub.modeldir:read_trained", loads=loads) for kind, loads in (
            ("crf", "notescrub.detect.crf.load:load_tagger"),
            ("crfd", "notescrub.detect.crf.statdeid:StatDeidCRF.load"),
            ("svm", "notescrub.detect.svm:SVMTagger.load"),
            ("lingpipe", "notescrub.detect.lingpipe.chunker:CharLmHmmChunker.load"),
        )),
    ]
    c = [
        _component("rules", "build_rules", opt.RulesOptions),
        _component("dictionary", "build_dictionary", opt.DictionaryOptions),
        _component("crf", "build_trained", opt.CrfOptions, ("crf", "crfd"), _KNOBS),
        _component("svm", "build_trained", opt.TrainedOptions, ("svm",)),
        _component("lingpipe", "build_trained", opt.TrainedOptions, ("lingpipe",)),
        _component("two_pass", "build_two_pass", opt.TwoPassOptions),
        _component("postprocess", "build_postprocessor", opt.PostprocessOptions),
        _component("stacked", "build_stacked", opt.StackedOptions, ("crf",), _KNOBS),
        _component("ner", "build_ner", opt.NerOptions),
        _component("leftover_net", "build_leftover_net", opt.LeftoverNetOptions),
    ]
    r = [
        Registered("resolver", "longest", 1, "notescrub.detect.spans.resolve:longest"),
        Registered("resolver", "highest_score", 1, "notescrub.detect.spans.resolve:highest_score"),
        Registered("resolver", "union", 1, "notescrub.detect.spans.resolve:union"),
        Registered("resolver", "vote", 1, "notescrub.detect.spans.vote:Vote", frozenset({"min_votes", "extent"})),
        Registered("resolver", "priority", 1, "notescrub.detect.spans.resolve:Priority", frozenset({"order"})),
        Registered("resolver", "cover", 1, "notescrub.detect.spans.resolve:Cover", frozenset({"base"})),
    ]
    return m + c + r


#: versioned name -> entry
REGISTRY: dict[str, Registered] = {e.name: e for e in _entries()}
_BY_KIND: dict[tuple[str, str], Registered] = {(e.section, e.kind): e for e in REGISTRY.values()}


def lookup(name: str) -> Registered:
    """The entry registered under a versioned name (``notescrub.component.crf.v1``)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ModelError(f"nothing is registered as {name!r}") from None


def kinds(section: str) -> list[str]:
    """The kinds of one section, in registration order (``kinds("resolver")``)."""
    return [e.kind for e in REGISTRY.values() if e.section == section]


def entry(section: str, kind: str) -> Registered:
    """The registered ``kind`` of ``section`` as ``model.json`` writes it (current version)."""
    found = _BY_KIND.get((section, kind))
    if found is None:
        raise ModelError(f"unknown {section} kind {kind!r}; known: {', '.join(kinds(section))}")
    return found


def component(kind: str) -> Registered:
    """The registered component kind written ``kind`` in ``model.json`` (current version)."""
    return entry("component", kind)


def resolve_target(target: str) -> Any:
    """Import ``"module:attribute"`` (``attribute`` may be dotted: ``Class.method``) and return it."""
    mod, attr = target.split(":")
    obj: Any = importlib.import_module(mod)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def model_kind(kind: Any, path: Path | None = None) -> Registered:
    """The registered model kind ``kind`` (``model.json``'s ``kind``)."""
    entry = _BY_KIND.get(("model", kind)) if isinstance(kind, str) else None
    if entry is None:
        raise ModelError(f"unknown model kind {kind!r}; known: {', '.join(kinds('model'))}", path=path)
    return entry


def packaged_models() -> list[str]:
    """Names of the models shipped inside the package."""
    root = resources.files("notescrub.models")
    return sorted(p.name for p in root.iterdir() if p.is_dir() and p.joinpath("model.json").is_file())


def model_dir(name_or_path: str | Path) -> Path:
    """Resolve a packaged model name or a directory path to a directory."""
    p = Path(name_or_path)
    if p.is_dir():
        return p
    root = resources.files("notescrub.models").joinpath(str(name_or_path))
    if root.is_dir():
        return Path(str(root))
    raise ModelError(
        f"no model named {str(name_or_path)!r}: not a directory, and packaged models are {packaged_models() or 'none'}"
    )


def read_model_meta(directory: Path) -> dict[str, Any]:
    f = directory / "model.json"
    try:
        meta = json.loads(f.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError("model directory has no model.json", path=directory) from None
    except (OSError, json.JSONDecodeError) as exc:
        raise ModelError(f"model.json cannot be read: {exc}", path=f) from None
    if not isinstance(meta, dict) or "kind" not in meta:
        raise ModelError("model.json lacks the 'kind' field", path=f)
    return meta


def load_model(name_or_path: str | Path | None = None, preset: str | None = None):  # -> Pipeline
    """Load a packaged model by name, or a model directory, as a ready Pipeline.

    ``preset`` picks an operating point of a hybrid model (``en-default``: ``balanced``,
    ``high-recall``, ``max-recall``...); ``None`` is the model's default.
    """
    from notescrub.assemble import build

    return build(name_or_path, preset)
