"""notescrub: de-identification of clinical text.

The package root re-exports the everyday API (loaded on first use, so ``import
notescrub`` stays cheap): :func:`deidentify`, :func:`analyze`, :func:`load_model`,
:class:`Pipeline`, :class:`Document`, :class:`Span`, :class:`Replacer`, :class:`SurrogateKey`.

>>> from notescrub import Document, Span
>>> Document("n1", "Seen 3/18.", layers={"gold": [Span(5, 9, "DATE")]}).layer("gold")[0].phi
'DATE'
>>> import notescrub
>>> notescrub.deidentify("Seen 3/18/2024.", mode="tag", model="rules-en").text
'Seen [**DATE**].'
"""

from typing import Any

from notescrub.errors import NotescrubError
from notescrub.types import GOLD, PHI, Document, Span

__version__ = "0.1.0"

__all__ = [
    "GOLD",
    "PHI",
    "Document",
    "NotescrubError",
    "Pipeline",
    "Replacer",
    "Span",
    "SurrogateKey",
    "__version__",
    "analyze",
    "deidentify",
    "load_model",
]

#: name -> module it lives in (imported on first access)
_LAZY = {
    "deidentify": "notescrub.api",
    "analyze": "notescrub.api",
    "load_model": "notescrub.registry",
    "Pipeline": "notescrub.pipeline",
    "Replacer": "notescrub.replace.engine",
    "SurrogateKey": "notescrub.replace.keys",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'notescrub' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
