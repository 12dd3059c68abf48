"""Model registry: names of packaged models and loaders for model directories.

A model directory holds ``model.json`` with at least ``{"kind": KIND, "notescrub_version": ...}``;
``KIND`` selects the loader below. Packaged models live in ``notescrub/models/<name>/``
and are selected by name (``--model es-meddocan``); anything else is a path.

Loaders are registered explicitly here (lazy import paths, so importing the
registry stays cheap).

>>> sorted(KIND_LOADERS)[:2]
['crf', 'crfd']
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from notescrub.errors import ModelError

__all__ = ["DEFAULT_MODEL", "KIND_LOADERS", "load_model", "model_dir", "packaged_models", "read_model_meta"]

DEFAULT_MODEL = "en-default"

#: kind -> "module:function" taking the model directory and returning a Pipeline
KIND_LOADERS: dict[str, str] = {
    "crf": "notescrub.detect.crf:load_pipeline",
    "crfd": "notescrub.detect.crfd:load_pipeline",
    "svm": "notescrub.detect.svm:load_pipeline",
    "hybrid": "notescrub.recipes.loader:load_pipeline",
    "lingpipe": "notescrub.detect.lingpipe:load_pipeline",
    "rules": "notescrub.detect.rules:load_pipeline",
}


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
    if preset is not None:
        from notescrub.recipes.loader import load_with_preset

        return load_with_preset(name_or_path or DEFAULT_MODEL, preset)
    directory = model_dir(name_or_path or DEFAULT_MODEL)
    meta = read_model_meta(directory)
    target = KIND_LOADERS.get(meta["kind"])
    if target is None:
        raise ModelError(f"unknown model kind {meta['kind']!r}; known: {', '.join(KIND_LOADERS)}", path=directory)
    mod, func = target.split(":")
    loader: Callable[[Path], Any] = getattr(importlib.import_module(mod), func)
    return loader(directory)
