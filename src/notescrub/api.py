"""One-call Python API: :func:`deidentify` and :func:`analyze` a note given as a string.

Both load the model once per process (``model``, ``preset``) and reuse it. They are the
same detection and replacement as ``notescrub deid`` and ``notescrub annotate``.

>>> from notescrub import analyze, deidentify
>>> out = deidentify("Seen by Dr. Ruiz on 3/18/2024.", mode="tag", model="rules-en")
>>> out.text
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s.label, out.text[s.start:s.end]) for s in out.spans]
[('DOCTOR', '[**DOCTOR**]'), ('DATE', '[**DATE**]')]
>>> [(s.phi, s.start, s.end) for s in analyze("Call 555-123-4567.", model="rules-en")]
[('PHONE', 5, 17)]
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document, Span

__all__ = ["Deidentified", "analyze", "deidentify", "get_pipeline"]

_PIPELINES: dict[tuple[str, str | None], Any] = {}
_LOCK = threading.Lock()


def get_pipeline(model: str | Path = "en-default", preset: str | None = None) -> Any:
    """The loaded :class:`~notescrub.pipeline.Pipeline` of ``model`` at ``preset`` (cached per process).

    >>> get_pipeline("rules-en") is get_pipeline("rules-en")
    True
    """
    from notescrub.recipes.loader import load_with_preset

    cache_key = (str(model), preset)
    with _LOCK:
        pipe = _PIPELINES.get(cache_key)
        if pipe is None:
            pipe = _PIPELINES[cache_key] = load_with_preset(str(model), preset)
    return pipe


@dataclass(frozen=True)
class Deidentified:
    """The de-identified text and the replaced spans, located in that new text.

    Only what the release policy allows: no original offsets and no original values.
    """

    text: str
    spans: list[Span] = field(default_factory=list)


def _key(key: SurrogateKey | str | Path | None, mode: str) -> SurrogateKey | None:
    if isinstance(key, SurrogateKey):
        return key
    if key is not None:
        return SurrogateKey.load(key)
    # no key: a fresh one for this call (surrogates are then not consistent across calls)
    return SurrogateKey.generate() if mode in ("surrogate", "hash") else None


def analyze(
    text: str,
    *,
    model: str | Path = "en-default",
    preset: str | None = None,
    patient_id: str | None = None,
    types: str | Iterable[str] | None = None,
) -> list[Span]:
    """The PHI spans of ``text`` (offsets into ``text``; ``span.phi`` is the canonical type).

    ``types`` keeps only these types (canonical subtypes or native labels, or ``"hipaa"``).
    """
    from notescrub.replace.engine import parse_types

    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    pipe = get_pipeline(model, preset)
    doc = pipe(Document("text", text, patient_id=patient_id))
    keep = parse_types(types)
    spans = doc.layer(getattr(pipe, "output_layer", "phi"))
    return [s for s in spans if keep is None or s.label in keep or (s.phi or "") in keep]


def deidentify(
    text: str,
    *,
    mode: str = "surrogate",
    key: SurrogateKey | str | Path | None = None,
    model: str | Path = "en-default",
    preset: str | None = None,
    patient_id: str | None = None,
    types: str | Iterable[str] | None = None,
) -> Deidentified:
    """Detect and replace the PHI of ``text``; fail closed (an error, never the input back).

    ``mode`` is ``surrogate`` (default), ``tag``, ``mask``, ``redact`` or ``hash``.
    ``key`` (a :class:`SurrogateKey` or a key file) makes surrogates consistent across
    calls; without it each call draws a new random key. ``patient_id`` keys
    per-patient choices (the date shift, name surrogates) to that patient.
    """
    from notescrub.replace.batch import deidentify as deidentify_batch
    from notescrub.replace.engine import MODES, Replacer

    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    if mode not in MODES:
        raise ConfigError(f"unknown replacement mode {mode!r}; known: {', '.join(MODES)}")
    replacer = Replacer(mode, key=_key(key, mode), types=types)
    pipe = get_pipeline(model, preset)
    batch = deidentify_batch([Document("text", text, patient_id=patient_id)], replacer, pipeline=pipe)
    return Deidentified(batch.results[0].text, list(batch.results[0].spans))
