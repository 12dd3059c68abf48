"""The options of each hybrid component kind, as typed dataclasses.

``model.json`` stores a component's options as a JSON object; presets and overrides are
layered over it as dicts, and :func:`notescrub.config.check_options` refuses unknown keys
and wrong types. Just before a component is built, :func:`options_for` turns the effective
dict into the dataclass its factory takes (``None`` means "not given": the factory then uses
its own default, which may come from the model, e.g. its ``lang``).

>>> o = options_for("two_pass", {"sources": ["crf"], "min_score": 0.9})
>>> o.sources, o.min_score, o.lang, o.enabled
(('crf',), 0.9, None, True)
>>> sorted(field_names(StackedOptions))
['bias', 'enabled', 'feeders', 'relabel', 'threshold', 'types']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = [
    "DetectorOptions", "DictionaryOptions", "LeftoverNetOptions", "NerOptions", "PostprocessOptions", "RulesOptions", "StackedOptions",
    "TrainedOptions", "TwoPassOptions", "field_names", "options_for", "value_shapes",
]


@dataclass(frozen=True)
class DetectorOptions:
    """What every detector component takes: switch it off, keep some types, rename labels."""

    enabled: bool = True
    types: tuple[str, ...] | None = None  # keep spans whose label or canonical subtype is listed
    relabel: Mapping[str, str] | None = None  # {label or subtype: new label}, applied first


@dataclass(frozen=True)
class RulesOptions(DetectorOptions):
    """``rules``: packaged rules of ``lang`` (default: the model's) or rule ``files``."""

    lang: str | None = None
    files: tuple[str, ...] | None = None
    labels: tuple[str, ...] | None = None
    propagate: bool = True


@dataclass(frozen=True)
class DictionaryOptions(DetectorOptions):
    """``dictionary``: lexicon ``kinds`` (default: all) in ``mode`` (default ``filtered``)."""

    kinds: tuple[str, ...] | None = None
    mode: str = "filtered"
    lang: str | None = None


@dataclass(frozen=True)
class TrainedOptions(DetectorOptions):
    """``svm``, ``lingpipe``: a trained sub-model; nothing else to set."""


@dataclass(frozen=True)
class CrfOptions(TrainedOptions):
    """``crf``: a trained CRF; its decoding knobs (``None``: as trained/saved)."""

    bias: float | None = None
    threshold: float | None = None


@dataclass(frozen=True)
class StackedOptions(CrfOptions):
    """``stacked``: a CRF fed by the spans of its ``feeders`` (component names)."""

    feeders: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TwoPassOptions(DetectorOptions):
    """``two_pass``: the patient dictionary over ``sources`` (default: every earlier detector)."""

    sources: tuple[str, ...] | None = None
    min_score: float = 0.5
    harvest_types: tuple[str, ...] | None = None
    min_chars: int | None = None
    max_zipf: float | None = None
    split_names: bool | None = None
    derived_forms: bool | None = None
    declared_min_score: float | None = None
    lang: str | None = None


@dataclass(frozen=True)
class NerOptions(DetectorOptions):
    """``ner``: spaCy's entities in sentences with one of the ``cues``, mapped by ``labels``."""

    labels: Mapping[str, str] | None = None  # {spaCy label: notescrub label}
    cues: tuple[str, ...] | None = None


@dataclass(frozen=True)
class LeftoverNetOptions(DetectorOptions):
    """``leftover_net``: tag leftover tokens with calibrated ``P(PHI) >= threshold`` (off unless a
    preset enables it); ``calibration``: a packaged calibration's name or a file in the model
    directory (``None``: the model's packaged one); ``sources``: default every earlier detector."""

    enabled: bool = False
    threshold: float = 0.1
    calibration: str | None = None
    sources: tuple[str, ...] | None = None


@dataclass(frozen=True)
class PostprocessOptions:
    """``postprocess``: post rules (``files``, allow-list ``rules``) applied to ``targets``."""

    enabled: bool = True
    targets: tuple[str, ...] | None = None
    files: tuple[str, ...] | None = None
    rules: tuple[str, ...] | None = None


_BY_KIND: dict[str, type] = {
    "rules": RulesOptions, "dictionary": DictionaryOptions, "crf": CrfOptions, "svm": TrainedOptions,
    "lingpipe": TrainedOptions, "two_pass": TwoPassOptions, "postprocess": PostprocessOptions,
    "stacked": StackedOptions, "ner": NerOptions, "leftover_net": LeftoverNetOptions,
}


def field_names(cls: type) -> frozenset[str]:
    """The option keys a dataclass of this module accepts."""
    return frozenset(f.name for f in fields(cls))


def value_shapes(cls: type) -> dict[str, str]:
    """What the JSON value of each option must be, read from the dataclass annotations:
    ``"strings"`` (a list of strings), ``"mapping"`` (labels to labels), ``"number"``, or
    ``"other"`` (checked where it is used).

    >>> s = value_shapes(TwoPassOptions)
    >>> s["sources"], s["relabel"], s["min_score"], s["lang"]
    ('strings', 'mapping', 'number', 'other')
    """
    out = {}
    for f in fields(cls):
        hint = str(f.type).replace(" ", "")
        if hint.startswith("tuple[str,"):
            out[f.name] = "strings"
        elif hint.startswith("Mapping[str,str]"):
            out[f.name] = "mapping"
        elif hint.split("|")[0] == "float":
            out[f.name] = "number"
        else:
            out[f.name] = "other"
    return out


def options_class(kind: str) -> type:
    """The options dataclass of component ``kind``."""
    return _BY_KIND[kind]


def options_for(kind: str, options: Mapping[str, Any]) -> Any:
    """The checked options dict of a ``kind`` component as its dataclass (lists become tuples)."""
    return _BY_KIND[kind](**{k: tuple(v) if isinstance(v, list) else v for k, v in options.items()})
