"""Put a finished en-default build into the package, keeping the package's decode-time rules.

A build (``scripts/build_en_default.py -o DIR``) trains for about two hours on a 2-core
machine, and the decode-time rules (the model's ``post.toml`` and the post component's rule
list) often change while it trains. Shipping the build's directory as it is would roll them
back. This script copies only what training produced into the packaged model
(``src/notescrub/models/en-default``): the CRF (``crf/``) and the record of its data and
settings (``data``, ``training_seconds`` and ``training`` of ``model.json``). The package's
rules, presets, resolver and description stay as they are, except the O-bias of the default
preset when ``--high-recall-bias`` gives the one the release rule chose (docs/en-default.md:
the most recall at which the build loses no precision against the shipped model on the wave
that chooses).

The copy is checked first (same kind of model, a CRF no larger than 25 MB) and written
atomically: a failure leaves the package as it was::

    python scripts/ship_en_default.py /work/builds/en-default-w01-w92 --high-recall-bias -2.0

Afterwards: refit the risk calibration (``benchmarks/risk_eval.py --ship-current``), update the
model card's "This release" section and run the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "notescrub" / "models" / "en-default"
#: the largest CRF a packaged model may carry (the project's limit on shipped models)
MAX_CRF_BYTES = 25_000_000
#: what a build contributes; everything else comes from the package
TRAINED_KEYS = ("data", "training_seconds", "training")


class ShipError(Exception):
    """The build cannot be shipped (the message names the file and the problem)."""


def _read_model(folder: Path) -> dict:
    path = folder / "model.json"
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ShipError(f"{path}: no model.json (is this a finished build?)") from None
    except json.JSONDecodeError as e:
        raise ShipError(f"{path}: not valid JSON ({e.msg}, line {e.lineno})") from None


def set_high_recall_bias(model: dict, bias: float) -> None:
    """Set the O-bias of the ``high-recall`` preset and, when it is the default preset, of the
    CRF component itself.

    >>> m = {"default_preset": "high-recall", "components": [{"name": "crf", "options": {"bias": -1.9}}],
    ...      "presets": {"high-recall": {"description": "stacked CRF O-bias -1.9",
    ...                                  "components": {"crf": {"bias": -1.9}}}}}
    >>> set_high_recall_bias(m, -2.0)
    >>> m["presets"]["high-recall"], m["components"][0]["options"]["bias"]
    ({'description': 'stacked CRF O-bias -2.0', 'components': {'crf': {'bias': -2.0}}}, -2.0)
    """
    preset = model["presets"]["high-recall"]
    preset["components"].setdefault("crf", {})["bias"] = bias
    preset["description"] = f"stacked CRF O-bias {bias:+.1f}"
    if model.get("default_preset") == "high-recall":
        crf = next(c for c in model["components"] if c["name"] == "crf")
        crf.setdefault("options", {})["bias"] = bias


def ship(build: Path, package: Path = PACKAGE, high_recall_bias: float | None = None) -> dict:
    """Copy ``build``'s CRF and training record into ``package``; return the new model.json.

    Raises ShipError (nothing changed) when the build is unfinished, of another kind, or its
    CRF is over the size limit.
    """
    built, shipped = _read_model(build), _read_model(package)
    crf = build / "crf" / "model.crfsuite"
    if not crf.is_file():
        raise ShipError(f"{crf}: missing (is this a finished build?)")
    if crf.stat().st_size > MAX_CRF_BYTES:
        raise ShipError(f"{crf}: {crf.stat().st_size / 1e6:.1f} MB, over the {MAX_CRF_BYTES / 1e6:.0f} MB limit "
                        "for shipped models (train with a higher --min-freq)")
    for key in ("kind", "lang", "model_name"):
        if built.get(key) != shipped.get(key):
            raise ShipError(f"{build / 'model.json'}: {key} is {built.get(key)!r}, the package's is "
                            f"{shipped.get(key)!r}")
    missing = [k for k in TRAINED_KEYS if k not in built]
    if missing:
        raise ShipError(f"{build / 'model.json'}: no {', '.join(missing)} (is this a finished build?)")
    model = dict(shipped)
    for key in TRAINED_KEYS:
        model[key] = built[key]
    if high_recall_bias is not None:
        set_high_recall_bias(model, high_recall_bias)
    # stage both parts next to their targets, then swap them in (a rename never half-writes)
    staged_crf = Path(tempfile.mkdtemp(prefix=".crf-", dir=package))
    try:
        shutil.copytree(build / "crf", staged_crf, dirs_exist_ok=True)
        fd, staged_json = tempfile.mkstemp(prefix=".model-", suffix=".json", dir=package)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(model, f, indent=2, ensure_ascii=False)
            f.write("\n")
        old_crf = package / "crf"
        retired = package / ".crf-retired"
        shutil.rmtree(retired, ignore_errors=True)
        if old_crf.exists():
            os.replace(old_crf, retired)
        try:
            os.replace(staged_crf, old_crf)
            os.replace(staged_json, package / "model.json")
        except OSError:
            if retired.exists():  # put the old CRF back: the package stays as it was
                shutil.rmtree(old_crf, ignore_errors=True)
                os.replace(retired, old_crf)
            raise
        shutil.rmtree(retired, ignore_errors=True)
    finally:
        shutil.rmtree(staged_crf, ignore_errors=True)
        for leftover in package.glob(".model-*.json"):
            leftover.unlink()
    return model


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", type=Path, help="a finished build directory (scripts/build_en_default.py -o)")
    ap.add_argument("--package", type=Path, default=PACKAGE, help="the packaged model directory")
    ap.add_argument("--high-recall-bias", type=float, default=None,
                    help="the high-recall preset's O-bias chosen by the release rule")
    args = ap.parse_args(argv)
    try:
        model = ship(args.build, args.package, args.high_recall_bias)
    except ShipError as e:
        print(f"ship_en_default: {e}", file=sys.stderr)
        return 2
    print(f"shipped {args.build} into {args.package}: {model['training'].get('documents')} training documents, "
          f"high-recall {model['presets']['high-recall']['description']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
