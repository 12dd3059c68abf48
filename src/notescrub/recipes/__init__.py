"""Training recipes: each seed paper's configuration as a named builder.

``RECIPES[name](lang="en", **overrides)`` returns an *unfitted* estimator with
``fit(docs, layer="gold") -> self`` and ``save(directory, overwrite=False, extra=None)``.
Adding a recipe is one line here (``"name": "module:function"``, imported lazily).

>>> sorted(RECIPES)[:2]
['aramaki', 'carafe']
>>> type(get_recipe("carafe")(lang="es")).__name__
'CRFTagger'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from notescrub.errors import ConfigError

__all__ = ["RECIPES", "get_recipe"]

#: recipe name -> "module:function" building an unfitted estimator
RECIPES: dict[str, str] = {
    "carafe": "notescrub.recipes.carafe:build",
    "wi-deid": "notescrub.recipes.wi_deid:build",
    "aramaki": "notescrub.recipes.aramaki:build",
    "h-d": "notescrub.recipes.h_d:build",
    "manchester": "notescrub.recipes.manchester:build",
    "stat-deid": "notescrub.recipes.stat_deid:build",
    "crfd": "notescrub.recipes.crfd:build",
    "lingpipe": "notescrub.recipes.lingpipe:build",
    "en-default": "notescrub.recipes.en_default:build",
}


def get_recipe(name: str) -> Callable[..., Any]:
    """The builder of recipe ``name`` (:class:`ConfigError` if unknown)."""
    try:
        target = RECIPES[name]
    except KeyError:
        raise ConfigError(f"unknown recipe {name!r}; known: {', '.join(sorted(RECIPES))}") from None
    mod, func = target.split(":")
    return getattr(importlib.import_module(mod), func)
