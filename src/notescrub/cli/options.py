"""Model options shared by every command that runs a model: one name, one default, one sign.

``--model`` (default ``en-default``), ``--preset`` (its help lists the presets the packaged
hybrid models define, read from their ``model.json``) and ``--recall-bias B`` (B > 0: more
recall; the CRF detectors' O-label bias becomes ``-B``). The retired ``--bias`` (opposite
sign) is refused with a message saying what to write instead.

>>> import argparse
>>> p = argparse.ArgumentParser(); add_model_options(p)
>>> a = p.parse_args(["--recall-bias", "1.5"])
>>> a.model, a.recall_bias
(None, 1.5)
>>> "en-default: " in preset_help()
True
"""

from __future__ import annotations

import argparse
from typing import Any

from notescrub.errors import ConfigError

__all__ = ["add_model_options", "load_model_from_args", "packaged_presets", "preset_help"]


def packaged_presets() -> dict[str, tuple[list[str], str | None]]:
    """``{model name: ([preset, ...], default preset)}`` for every packaged model that has presets."""
    from notescrub.errors import ModelError
    from notescrub.registry import model_dir, packaged_models, read_model_meta

    out: dict[str, tuple[list[str], str | None]] = {}
    for name in packaged_models():
        try:
            meta = read_model_meta(model_dir(name))
        except ModelError:  # a broken packaged model must not break --help (loading it says what is wrong)
            continue
        presets = meta.get("presets")
        if isinstance(presets, dict) and presets:
            out[name] = (list(presets), meta.get("default_preset"))
    return out


def preset_help() -> str:
    """The ``--preset`` help text, listing the presets each packaged model defines."""
    parts = []
    for name, (presets, default) in packaged_presets().items():
        parts.append(f"{name}: " + ", ".join(f"{p} [default]" if p == default else p for p in presets))
    listed = "; ".join(parts) if parts else "none packaged"
    return (f"operating point of a hybrid model ({listed}; a model directory: the 'presets' of its model.json)")


class _RetiredBias(argparse.Action):
    """``--bias`` had the opposite sign of ``--recall-bias``: refuse it with the translation."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        try:
            new = f"--recall-bias {-float(values):g}"
        except (TypeError, ValueError):
            new = "--recall-bias B"
        parser.error(f"--bias was replaced by --recall-bias, which has the opposite sign (positive = more recall): "
                     f"write {new} instead of --bias {values}")


def add_model_options(p: argparse.ArgumentParser, *, model_help: str | None = None) -> None:
    """Add ``--model``, ``--preset``, ``--recall-bias`` (and the refused ``--bias``) to ``p``."""
    p.add_argument("--model", metavar="M", default=None,
                   help=model_help or "packaged model name or model directory (default: en-default)")
    p.add_argument("--preset", metavar="NAME", default=None, help=preset_help())
    p.add_argument("--recall-bias", type=float, metavar="B", default=None,
                   help="favour recall in CRF-based models: B > 0 lowers the score of the non-PHI label by B "
                        "(more PHI found, more false alarms); B < 0 favours precision")
    p.add_argument("--bias", action=_RetiredBias, metavar="B", help=argparse.SUPPRESS)


def load_model_from_args(args: argparse.Namespace) -> Any:
    """The pipeline named by ``--model`` at ``--preset``, built with ``--recall-bias`` and ``--threshold``."""
    from notescrub.assemble import build
    from notescrub.gcfreeze import freeze_loaded

    pipe = build(args.model, getattr(args, "preset", None), recall_bias=getattr(args, "recall_bias", None),
                 threshold=getattr(args, "threshold", None))
    freeze_loaded()  # one model per command: keep it out of the cyclic collector's walks
    return pipe


def add_batch_options(p: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--resume``, ``--chunk-size`` and the table column options (``deid``, ``annotate``)."""
    g = p.add_argument_group("corpus scale (see docs/scale.md)")
    g.add_argument("--jobs", "-j", metavar="N", default="1",
                   help="worker processes: a number or 'auto' (every CPU); the output is the same for every N "
                        "(default: 1)")
    g.add_argument("--resume", action="store_true",
                   help="finish a run that was interrupted (kill, power cut, full disk): only the chunks it had not "
                        "finished are redone, and the output is the same as an uninterrupted run's")
    g.add_argument("--chunk-size", type=int, metavar="N", default=None,
                   help="notes per unit of work and per resumable chunk (default: 64, or more so that a corpus "
                        "makes at most 800 chunks)")
    t = p.add_argument_group("tables (CSV, TSV, Parquet)")
    t.add_argument("--text-column", metavar="NAME", default=None, help="column holding the note text (default: text)")
    t.add_argument("--id-column", metavar="NAME", default=None, help="column holding the note id (default: id)")
    t.add_argument("--patient-column", metavar="NAME", default=None,
                   help="column holding the patient id (default: patient); a patient's notes are processed together")


def table_options(args: argparse.Namespace, fmt: str) -> dict[str, str]:
    """Reader options from ``--text-column``/``--id-column``/``--patient-column`` (tables only).

    >>> table_options(argparse.Namespace(text_column="note", id_column=None, patient_column=None), "csv")
    {'text_column': 'note'}
    """
    opts = {f"{k}_column": v for k in ("text", "id", "patient")
            if (v := getattr(args, f"{k}_column", None)) is not None}
    if opts and fmt not in ("csv", "parquet"):
        names = ", ".join("--" + k.replace("_", "-") for k in opts)
        raise ConfigError(f"{names} apply to CSV/TSV/Parquet tables; the input is read as {fmt}")
    return opts
