"""One-call Python API: :func:`deidentify` and :func:`analyze` a note given as a string.

Both load the model once per process (``model``, ``preset``) and reuse it. They are the
same detection and replacement as ``notescrub deid`` and ``notescrub annotate``.

>>> from notescrub import analyze, deidentify
>>> out = deidentify("Seen by Dr. Ruiz on 3/18/2024.", mode="tag", model="rules-en")
>>> out.text
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s.label, out.text[s.start:s.end]) for s in out.spans]
[('DOCTOR', '[**DOCTOR**]'), ('DATE', '[**DATE**]')]
>>> found = analyze("Call 555-123-4567.", model="rules-en")
>>> [(s.phi, s.start, s.end) for s in found]
[('PHONE', 5, 17)]
>>> found.risk >= 0.0, [(x.start, x.end) for x in found.suspects]
(True, [(0, 4)])
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

__all__ = ["Analysis", "Deidentified", "analyze", "deidentify", "get_pipeline"]

_PIPELINES: dict[tuple[str, str | None], Any] = {}
_LOCK = threading.Lock()


def get_pipeline(model: str | Path = "en-default", preset: str | None = None) -> Any:
    """The loaded :class:`~notescrub.pipeline.Pipeline` of ``model`` at ``preset`` (cached per process).

    >>> get_pipeline("rules-en") is get_pipeline("rules-en")
    True
    """
    from notescrub.assemble import build

    cache_key = (str(model), preset)
    with _LOCK:
        pipe = _PIPELINES.get(cache_key)
        if pipe is None:
            pipe = _PIPELINES[cache_key] = build(str(model), preset)
    return pipe


@dataclass(frozen=True)
class Deidentified:
    """The de-identified text and the replaced spans, located in that new text.

    Only what the release policy allows: no original offsets and no original values.
    """

    text: str
    spans: list[Span] = field(default_factory=list)


class Analysis(list[Span]):
    """The spans :func:`analyze` found (a plain list of :class:`Span`) plus the note's review risk.

    ``risk`` is the expected number of PHI tokens the model left untagged and ``suspects``
    the untagged tokens most likely to be PHI, best first (offsets into the analysed
    text; see :mod:`notescrub.risk`). Both are ``None`` for a model with no risk
    calibration.
    """

    risk: float | None
    suspects: list[Any] | None

    def __init__(self, spans: Iterable[Span] = (), risk: float | None = None,
                 suspects: list[Any] | None = None) -> None:
        super().__init__(spans)
        self.risk = risk
        self.suspects = suspects


def _risk(doc: Document, pipe: Any, top_k: int) -> tuple[float | None, list[Any] | None]:
    from notescrub.risk import packaged_risk

    r = packaged_risk(doc, pipe, top_k)
    return (None, None) if r is None else (r.risk, r.suspects)


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
    suspects: int = 20,
) -> Analysis:
    """The PHI spans of ``text`` (offsets into ``text``; ``span.phi`` is the canonical type).

    ``types`` keeps only these types (canonical subtypes or native labels, or ``"hipaa"``).
    The result is a list of spans with two attributes: ``risk`` and the ``suspects`` most
    likely missed PHI tokens (at most ``suspects``), computed on all the model's spans
    (see :class:`Analysis`).
    """
    from notescrub.replace.engine import parse_types

    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    pipe = get_pipeline(model, preset)
    doc = pipe(Document("text", text, patient_id=patient_id))
    keep = parse_types(types)
    spans = doc.layer(getattr(pipe, "output_layer", "phi"))
    risk, listed = _risk(doc, pipe, suspects)
    return Analysis([s for s in spans if keep is None or s.label in keep or (s.phi or "") in keep], risk, listed)


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
