"""Optional dependencies (pip extras) and the one-line error when one is missing.

The base install holds what ``notescrub deid`` needs. Everything else is an extra,
installed with ``pip install 'notescrub[NAME]'``:

========= ======================== ===================================================
extra     packages                 needed for
========= ======================== ===================================================
parquet   pyarrow                  reading and writing ``.parquet`` tables
reports   matplotlib               HTML reports with plots (``evaluate --report``,
                                   ``experiments``)
svm       scikit-learn             training SVM taggers (``train --recipe stat-deid``)
fast      numba                    compiled CRF kernels (same spans, faster batches)
syntax    spacy, en-core-web-sm    POS and syntactic features (Stat De-id),
                                   Manchester's organisation feeder (NER)
spark     pyspark, pandas, pyarrow ``notescrub.spark`` and ``notescrub spark`` (needs
                                   Java 17 or later)
all       every extra above, ``serve`` and ``presidio``
========= ======================== ===================================================

A command that needs a missing extra stops with one line that names it:

>>> import sys
>>> saved = sys.modules.get("pyarrow")
>>> sys.modules["pyarrow"] = None  # what a base install looks like to ``import``
>>> try:
...     require("parquet", "reading Parquet")
... except MissingExtraError as exc:
...     print(exc)
reading Parquet needs pyarrow: pip install 'notescrub[parquet]'
>>> if saved is None: del sys.modules["pyarrow"]
... else: sys.modules["pyarrow"] = saved
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import NamedTuple

from notescrub.errors import MissingExtraError

__all__ = ["EXTRAS", "Extra", "MissingExtraError", "require"]


class Extra(NamedTuple):
    """An extra: the module ``require`` imports and the distribution it comes from."""

    module: str
    package: str


#: The extras that commands check for (``notescrub[NAME]``).
EXTRAS: dict[str, Extra] = {
    "parquet": Extra("pyarrow", "pyarrow"),
    "reports": Extra("matplotlib", "matplotlib"),
    "svm": Extra("sklearn", "scikit-learn"),
    "fast": Extra("numba", "numba"),
    "syntax": Extra("spacy", "spaCy"),
    "spark": Extra("pyspark", "pyspark"),
}


def require(extra: str, purpose: str, module: str | None = None) -> ModuleType:
    """Import the module behind ``extra`` (or ``module``), or raise :class:`MissingExtraError`.

    ``purpose`` starts the message ("reading Parquet needs pyarrow: pip install
    'notescrub[parquet]'"). An installed module that fails to import (a broken
    install) is reported as such, with the same install line. A ``module`` from another
    package than the extra's main one (pandas for ``spark``) is named by its own name.
    """
    spec = EXTRAS[extra]
    name = module or spec.module
    if name.split(".")[0] != spec.module.split(".")[0]:
        spec = Extra(spec.module, name.split(".")[0])
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as exc:
        root = name.split(".")[0]
        if exc.name is not None and exc.name.split(".")[0] != root:  # the module is there, one of its imports is not
            raise MissingExtraError(
                f"{purpose} needs {spec.package}, which is installed but cannot import {exc.name!r}: "
                f"pip install 'notescrub[{extra}]'"
            ) from None
        raise MissingExtraError(f"{purpose} needs {spec.package}: pip install 'notescrub[{extra}]'") from None
    except ImportError as exc:
        raise MissingExtraError(
            f"{purpose} needs {spec.package}, which is installed but failed to import ({type(exc).__name__}): "
            f"pip install 'notescrub[{extra}]'"
        ) from None
