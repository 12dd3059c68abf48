"""The executor side of :mod:`notescrub.spark`: pandas frames of notes in, results out.

Spark calls :func:`process` once per patient group (``applyInPandas``) or per Arrow
batch of notes (``mapInPandas``) in a Python worker process. The work is the same
per-group function as ``notescrub deid --jobs N`` (:class:`~notescrub.scale.work.DeidTask`,
:class:`~notescrub.scale.work.AnnotateTask`), built by the commands' own ``build_task``
from the commands' own options, so the output is the CLI's for the same key and model.

What is loaded stays in this process: models in :data:`_MODELS` (keyed by the options
that shape them), tasks in :data:`_TASKS` (keyed by every option and the keys' public
ids). Spark reuses its Python workers between tasks (``spark.python.worker.reuse``, on
by default), so a model is loaded once per worker process, not per group or batch.

Inside a frame, notes are grouped as the CLI groups them: the notes of a patient
together, in input order (``position``), and each note without a patient id alone.
Nothing needs Spark here, only pandas:

>>> import pandas as pd
>>> from notescrub.replace.keys import SurrogateKey
>>> frame = pd.DataFrame({"id": ["n1"], "text": ["Seen by Dr. Ruiz on 3/18/2021."], "pos": [0]})
>>> cols = Columns(text="text", id="id", patient=None, position="pos")
>>> opts = options("deid", model="rules-en", mode="tag")
>>> out = process("deid", frame, cols, opts, (None, SurrogateKey(bytes(32))))
>>> out.loc[0, "text"]
'Seen by Dr. [**DOCTOR**] on [**DATE**].'
>>> [(s["start"], s["type"]) for s in out.loc[0, "spans"]]
[(12, 'DOCTOR'), (28, 'DATE')]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from notescrub.docref import doc_ref, set_ref_key
from notescrub.errors import ConfigError, ProcessingError
from notescrub.replace.keys import SurrogateKey
from notescrub.types import GOLD, Document

__all__ = ["ANNOTATE_OPTIONS", "DEID_OPTIONS", "Columns", "options", "process"]

#: ``notescrub deid`` options that :func:`notescrub.spark.deidentify` takes as keywords
DEID_OPTIONS = frozenset({"model", "preset", "recall_bias", "mode", "types", "resolve", "date_shift", "age_bucket",
                          "real_phone_numbers", "tag_template", "mask_char", "lang", "skip_bad", "max_chars"})
#: ``notescrub annotate`` options that :func:`notescrub.spark.annotate` takes as keywords
ANNOTATE_OPTIONS = frozenset({"model", "preset", "recall_bias", "threshold", "labels"})

#: per Python worker process: models by the options that shape them, tasks by all options
_MODELS: dict[tuple, Any] = {}
_TASKS: dict[tuple, Any] = {}
_MAX_CACHED = 4  # different configurations kept per process (a model is 100-400 MB)


@dataclass(frozen=True)
class Columns:
    """Column names: the note text, its id, the patient id (or ``None``), the row position,
    the columns copied verbatim, and the name of the spans column written."""

    text: str
    id: str
    patient: str | None
    position: str
    keep: tuple[str, ...] = ()
    spans: str = "spans"


def options(command: str, **values: Any) -> argparse.Namespace:
    """The ``deid`` or ``annotate`` command's options: its defaults, with ``values`` set.

    Names are the commands' option names with ``_`` (``date_shift="-365,-30"``); a name
    the Spark functions do not take is refused with the list of those they do.

    >>> options("deid", mode="tag").mode, options("deid").date_shift
    ('tag', '-365,-30')
    """
    allowed = DEID_OPTIONS if command == "deid" else ANNOTATE_OPTIONS
    unknown = sorted(set(values) - allowed)
    if unknown:
        raise ConfigError(f"notescrub.spark: unknown {command} option(s) {', '.join(unknown)}; "
                          f"known: {', '.join(sorted(allowed))}")
    if command == "deid":
        from notescrub.cli.commands.deid import add_arguments
    else:
        from notescrub.cli.commands.annotate import add_arguments
    parser = argparse.ArgumentParser(prog=f"notescrub.spark {command}")
    add_arguments(parser)
    ns = parser.parse_args(["-", "-o", "-"])
    for name, value in values.items():
        setattr(ns, name, value)
    if command == "deid" and ns.mode not in ("surrogate", "tag", "mask", "redact", "hash"):
        raise ConfigError(f"notescrub.spark: unknown mode {ns.mode!r}")
    return ns


def _signature(ns: argparse.Namespace) -> tuple:
    return tuple(sorted((k, repr(v)) for k, v in vars(ns).items()))


def _remember(cache: dict[tuple, Any], key: tuple, build: Any) -> Any:
    if key not in cache:
        if len(cache) >= _MAX_CACHED:
            cache.pop(next(iter(cache)))
        cache[key] = build()
    return cache[key]


def _task(command: str, ns: argparse.Namespace, keys: tuple[SurrogateKey | None, SurrogateKey]) -> Any:
    """The task of ``command`` for these options and keys, built once per process."""
    key, release_key = keys
    sig = (command, _signature(ns), key.id if key is not None else None, release_key.id)

    def build() -> Any:
        set_ref_key(release_key.digest("DOC-REF", None, ""))  # the CLI's references for the same key
        if command == "deid":
            from notescrub.cli.commands import deid

            model = _remember(_MODELS, ("deid", ns.model, ns.preset, ns.recall_bias, ns.max_chars),
                              lambda: deid._pipeline(ns))
            return deid.build_task(ns, key, release_key, pipeline=model)
        from notescrub.cli.commands import annotate
        from notescrub.cli.options import load_model_from_args

        model = _remember(_MODELS, ("annotate", ns.model, ns.preset, ns.recall_bias, ns.threshold),
                          lambda: load_model_from_args(ns))
        # the Spark output schema has no risk columns: do not compute risk and suspects for nothing
        return dataclasses.replace(annotate.build_task(ns, pipeline=model), risk=None)

    return _remember(_TASKS, sig, build)


def _groups(docs: Sequence[tuple[int, Document]]) -> Iterator[list[tuple[int, Document]]]:
    """A patient's notes together in input order; a note without a patient id alone."""
    by_patient: dict[str, list[tuple[int, Document]]] = {}
    for pos, doc in sorted(docs, key=lambda item: item[0]):
        if doc.patient_id is None:
            yield [(pos, doc)]
        else:
            by_patient.setdefault(doc.patient_id, []).append((pos, doc))
    yield from by_patient.values()


def _documents(frame: Any, cols: Columns, skip_bad: bool) -> list[tuple[int, Document]]:
    """The frame's notes as ``(position, Document)``; a note without text fails closed."""
    import logging

    patients = frame[cols.patient] if cols.patient is not None else None
    docs = []
    for i, (pos, did, text) in enumerate(zip(frame[cols.position], frame[cols.id], frame[cols.text])):
        pos = int(pos)
        did = f"row-{pos}" if _missing(did) else str(did)
        if not isinstance(text, str):
            msg = f"{doc_ref(did, position=pos + 1)} has no text (column {cols.text!r} is empty or not text)"
            if not skip_bad:
                raise ProcessingError(msg + "; nothing was written (skip_bad=True leaves such notes out)")
            logging.getLogger("notescrub.spark").warning("%s: skipped", msg)
            continue
        patient = None if patients is None or _missing(patients.iloc[i]) else str(patients.iloc[i])
        docs.append((pos, Document(did, text, patient)))
    return docs


def _missing(value: Any) -> bool:
    if value is None or (isinstance(value, str) and value == ""):
        return True
    import pandas as pd  # type: ignore[import-untyped]

    try:
        return bool(pd.isna(value))  # NaN, NaT, pandas.NA
    except (TypeError, ValueError):  # an array-like cell: not missing
        return False


def _rows(frame: Any, cols: Columns) -> dict[int, int]:
    return {int(p): i for i, p in enumerate(frame[cols.position])}


def process(command: str, frame: Any, cols: Columns, ns: argparse.Namespace,
            keys: tuple[SurrogateKey | None, SurrogateKey]) -> Any:
    """Run ``deid`` or ``annotate`` over the notes of ``frame``; the output frame.

    ``deid``: id, patient (keyed pseudonym, when ``cols.patient``), de-identified text, spans
    ``[{start, end, type, score}]`` located in the new text, kept columns. ``annotate``: id,
    ``logprob``, spans ``[{start, end, type, phi, score, source}]``, kept columns. Rows come
    out in position order; a failing note raises (nothing of the frame is returned) unless
    ``skip_bad``, which leaves it out.
    """
    import pandas as pd

    task = _task(command, ns, keys)
    docs = _documents(frame, cols, bool(getattr(ns, "skip_bad", False)))
    index = _rows(frame, cols)
    out: dict[str, list[Any]] = {name: [] for name in _output_names(command, cols)}
    records: list[tuple[int, Any]] = []
    for group in _groups(docs):
        records.extend(task(group).records)
    records.sort(key=lambda r: r[0])
    for pos, payload in records:
        row = index[pos]
        out[cols.id].append(frame[cols.id].iloc[row])
        if command == "deid":
            new, _ = payload
            if cols.patient is not None:
                out[cols.patient].append(new.patient_id)
            out[cols.text].append(new.text)
            out[cols.spans].append([{"start": s.start, "end": s.end, "type": s.label, "score": float(s.score)}
                                    for s in new.layer(GOLD)])
        else:
            rec = json.loads(payload)
            out["logprob"].append(rec.get("logprob"))
            out[cols.spans].append([{k: s[k] for k in ("start", "end", "type", "phi", "score", "source")}
                                    for s in rec["spans"]])
        for name in cols.keep:
            out[name].append(frame[name].iloc[row])
    # object columns: pandas would make empty ones float64, which Arrow cannot turn into lists of spans
    return pd.DataFrame({name: pd.Series(values, dtype=object) for name, values in out.items()})


def _output_names(command: str, cols: Columns) -> list[str]:
    if command == "deid":
        names = [cols.id] + ([cols.patient] if cols.patient is not None else []) + [cols.text, cols.spans]
    else:
        names = [cols.id, "logprob", cols.spans]
    return names + [c for c in cols.keep if c not in names]
