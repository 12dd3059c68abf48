"""Leave-writers-out evaluation of the en-default recipe (how it does on notes by writers it never saw).

The English training notes come from independent writers (``corpora/en-writers/<writer>/``,
plus ``en-dev``, the notes of ``../shared/corpora/en-dev``, as one more writer). Each fold
holds out whole writers: its model is built by ``scripts/build_en_default.py
--holdout-writers ...`` from everything else, then every preset is run on the held-out
writers' notes. Folds are built two at a time (one core each) and reused when their model
directory already exists.

Reported per writer and pooled over all held-out notes: binary-token precision/recall
(type-blind: the privacy figure), strict typed F1 (i2b2-2014), leaked PHI tokens by type
(a gold token not fully covered by a predicted span) and notes with at least one leak.
``--before MODEL`` also scores an existing model (e.g. the shipped ``en-default``) on the
same writers, for a before/after table.

    python scripts/lowo_en_default.py --folds "w01,w05;w02,w06;w03,w07;w04,w08" --work /tmp/lowo \\
        --before en-default -o benchmarks/results/en-default-lowo.json

Writers added after a model was built are unseen by it without any fold: ``--score`` runs
existing models on them only (no training); ``--extra DIR`` adds a folder outside the writers'
corpus (the hard-negative set; ``--extra hn01-test`` is the half of
``corpora/en-hard-negatives/hn01`` nobody read, ``hn01-dev`` the other) as one more writer,
reported on its own and left out of the pooled figures; ``--sweep B1,B2,...`` also scores
each model at those CRF O-biases (pooled over the writers), to choose a preset's bias on
writers the model never saw; ``--set two_pass.min_score=0.7`` (any
``COMPONENT.OPTION=VALUE``; the value is read as JSON, else as a string) changes a
component option of every model scored::

    python scripts/lowo_en_default.py --score en-default --writers w09,w10,w11,w12 --sweep=-2.1,-2.5 \\
        -o benchmarks/results/en-default-new-writers.json

``--leaks FILE.jsonl`` also writes what a rule writer reads: every gold span the model (at
``high-recall``) left a token of and every predicted span with a token outside all gold PHI,
with their context. It holds note text, so it refuses folders outside the repository's
fictional corpora; reading a wave's leaks makes that wave "read" (docs/en-default.md, "Rules
are training data too")::

    python scripts/lowo_en_default.py --score en-default --writers w105,w106,w107,w108,w109,w110 \\
        -o scores.json --leaks leaks.jsonl
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from notescrub.assemble import build
from notescrub.evaluate import evaluate
from notescrub.io import read_corpus
from notescrub.io.atomic import atomic_file
from notescrub.taxonomy import canonical

ROOT = Path(__file__).resolve().parents[1]
WRITERS = ROOT / "corpora" / "en-writers"
EN_DEV = ROOT.parent / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"
HARD_NEGATIVES = ROOT / "corpora" / "en-hard-negatives"
_HARD_NEGATIVE_HALF = re.compile(r"(hn\d+)-(dev|test)")
PRESETS = ("balanced", "high-recall", "max-recall")
_TOKEN = re.compile(r"\w+")


def writer_docs(extra: list[Path] | None = None, only: Iterable[str] | None = None) -> dict[str, list]:
    """{writer: gold documents}; en-dev is the writer ``en-dev``; each ``extra`` folder of inline
    notes (e.g. ``corpora/en-hard-negatives/hn01``) is one more writer named by the folder.
    ``only`` reads just those writers (a folder being written meanwhile is never opened)."""
    wanted = None if only is None else set(only)
    out = {w.name: list(read_corpus(w, "inline")) for w in sorted(WRITERS.iterdir())
           if (wanted is None or w.name in wanted) and any(w.glob("P*.txt"))}
    if EN_DEV.is_file() and (wanted is None or "en-dev" in wanted):
        out["en-dev"] = list(read_corpus(EN_DEV))
    for folder in extra or []:
        if folder.name in out:
            raise SystemExit(f"--extra {folder}: a writer named {folder.name!r} exists already")
        out[folder.name] = extra_docs(folder)
    return out


def scored_writers(writers: str | None, extra: list[Path]) -> list[str]:
    """The writers ``--score`` reports on: those named by ``--writers``, then every ``--extra``
    folder (scored apart from the pooled figures) that ``--writers`` did not name already.

    >>> scored_writers("w111,w112", [Path("hn01-test")])
    ['w111', 'w112', 'hn01-test']
    """
    names = [w.strip() for w in (writers or "").split(",") if w.strip()]
    return names + [folder.name for folder in extra if folder.name not in names]


def extra_docs(folder: Path) -> list:
    """The notes of an ``--extra`` folder. ``hn01-dev`` / ``hn01-test`` (when no such folder
    exists) are the odd- / even-numbered patients of ``corpora/en-hard-negatives/hn01``: the
    half read to write rules and the half nobody read (corpora/en-hard-negatives/README.md)."""
    m = _HARD_NEGATIVE_HALF.fullmatch(str(folder))
    if not folder.is_dir() and m and (HARD_NEGATIVES / m.group(1)).is_dir():
        parity = 1 if m.group(2) == "dev" else 0
        return [d for d in read_corpus(HARD_NEGATIVES / m.group(1), "inline")
                if int(re.sub(r"\D", "", d.patient_id or "") or 0) % 2 == parity]
    return list(read_corpus(folder, "inline"))


#: component options set on every model this run builds (``--set crf.option=value``), e.g. the
#: two-pass harvest threshold; filled by main()
OVERRIDES: dict[str, dict[str, object]] = {}


def predict(model: str, preset: str | None, golds: list, recall_bias: float | None = None) -> list:
    """Predicted copies of ``golds`` (predictions in layer ``gold``, as the scorer wants)."""
    pipe = build(model, preset, OVERRIDES or None, recall_bias=recall_bias)
    preds = []
    for p in pipe.pipe([g.copy(layers=False) for g in golds]):
        q = p.copy(layers=False)
        q.add_layer("gold", p.layer("phi"))
        preds.append(q)
    return preds


def _covered(doc) -> bytearray:
    """One byte per character of ``doc``: 1 where a span of its ``gold`` layer covers it."""
    mask = bytearray(len(doc.text) + 1)
    for s in doc.layer("gold"):
        mask[s.start:s.end] = b"\x01" * (s.end - s.start)
    return mask


def leaks(gold, pred) -> Counter:
    """Gold PHI tokens (``\\w+``) of one note not fully covered by predicted spans, by type."""
    covered = _covered(pred)
    out: Counter = Counter()
    for s in gold.layer("gold"):
        for m in _TOKEN.finditer(gold.text, s.start, s.end):
            if not all(covered[m.start():m.end()]):
                out[canonical(s.label) or s.label] += 1
    return out


def error_rows(writer: str, gold, pred, context: int = 60) -> list[dict]:
    """What a reader of the errors needs, one row per gold span with a leaked token (``LEAK``:
    type, text, the missed tokens) and per predicted span with a token outside all gold PHI
    (``FP``: predicted label, text, those tokens), each with ``context`` characters either side
    (line breaks shown as `` / ``). Only for the repository's fictional notes: it holds note text.

    >>> from notescrub.types import Document, Span
    >>> g = Document("n1", "Seen by Ann Lee at Foley today.")
    >>> g.add_layer("gold", [Span(8, 15, "PATIENT")])
    >>> p = g.copy(layers=False)
    >>> p.add_layer("gold", [Span(12, 15, "PATIENT"), Span(19, 24, "DOCTOR")])
    >>> [(r["kind"], r["text"], r["tokens"]) for r in error_rows("w01", g, p)]
    [('LEAK', 'Ann Lee', ['Ann']), ('FP', 'Foley', ['Foley'])]
    """
    def row(kind: str, span, label: str, tokens: list[str]) -> dict:
        text = gold.text
        ctx = (text[max(0, span.start - context):span.start] + "[[" + text[span.start:span.end] + "]]"
               + text[span.end:span.end + context])
        return {"writer": writer, "doc": gold.id, "kind": kind, "type": label, "text": text[span.start:span.end],
                "tokens": tokens, "context": ctx.replace("\n", " / ")}

    predicted, true = _covered(pred), _covered(gold)
    rows = []
    for sp in gold.layer("gold"):
        missed = [m.group() for m in _TOKEN.finditer(gold.text, sp.start, sp.end) if not all(predicted[m.start():m.end()])]
        if missed:
            rows.append(row("LEAK", sp, canonical(sp.label) or sp.label, missed))
    for sp in pred.layer("gold"):
        extra = [m.group() for m in _TOKEN.finditer(gold.text, sp.start, sp.end) if not any(true[m.start():m.end()])]
        if extra:
            rows.append(row("FP", sp, sp.label, extra))
    return rows


def scores(golds: list, preds: list) -> dict:
    r = evaluate(golds, preds, scheme="i2b2-2014", bootstrap_resamples=0)["i2b2_2014"]
    bt, st = r["binary_token"]["micro"], r["strict"]["micro"]
    leaked: Counter = Counter()
    notes_with_leak = 0
    for g, p in zip(golds, preds):
        lk = leaks(g, p)
        leaked.update(lk)
        notes_with_leak += bool(lk)
    return {"notes": len(golds), "phi_tokens": bt["tp"] + bt["fn"],
            "binary_token": {k: round(bt[k], 4) for k in ("precision", "recall", "f1")},
            "strict": {k: round(st[k], 4) for k in ("precision", "recall", "f1")},
            "leaked_tokens": sum(leaked.values()), "leaked_by_type": dict(leaked.most_common()),
            "notes_with_leak": notes_with_leak}


def build_folds(folds: list[list[str]], work: Path, iterations: int, jobs: int) -> dict[str, Path]:
    """Model directory of every fold, building the missing ones ``jobs`` at a time."""
    dirs = {",".join(f): work / "-".join(f) for f in folds}
    todo = [(name, d) for name, d in dirs.items() if not (d / "model.json").exists()]
    running: list[tuple[str, subprocess.Popen, float]] = []
    while todo or running:
        while todo and len(running) < jobs:
            name, d = todo.pop(0)
            shutil.rmtree(d, ignore_errors=True)
            log = open(work / f"{d.name}.log", "w")  # noqa: SIM115 - the child process writes it while it runs
            cmd = [sys.executable, str(ROOT / "scripts" / "build_en_default.py"), "--holdout-writers", name,
                   "--iterations", str(iterations), "-o", str(d)]
            running.append((name, subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT), time.time()))
        time.sleep(5)
        for item in list(running):
            name, proc, t0 = item
            if proc.poll() is not None:
                running.remove(item)
                if proc.returncode:
                    raise SystemExit(f"building fold {name} failed (see {work}/{dirs[name].name}.log)")
                print(f"fold {name} built in {time.time() - t0:.0f} s", flush=True)
    return dirs


def table(results: dict, preset: str) -> str:
    rows = ["| held-out writer | notes | PHI tokens | binary P | binary R | strict F1 | leaked tokens | notes with a leak |",
            "|---|---|---|---|---|---|---|---|"]
    for w, r in results.items():
        x = r[preset]
        rows.append(f"| {w} | {x['notes']} | {x['phi_tokens']} | {x['binary_token']['precision']:.3f} | "
                    f"{x['binary_token']['recall']:.3f} | {x['strict']['f1']:.3f} | {x['leaked_tokens']} | "
                    f"{x['notes_with_leak']} ({x['notes_with_leak'] / max(x['notes'], 1):.0%}) |")
    return "\n".join(rows)


def evaluate_model(model: str | dict[str, str], by_writer: dict[str, list], writers: list[str],
                   presets=PRESETS, apart: frozenset[str] = frozenset(), errors: list[dict] | None = None) -> dict:
    """{writer and "pooled": {preset: scores}} on ``writers``; ``model`` is one model for all
    writers or ``{writer: model}`` (each fold's model on its held-out writers). Writers in
    ``apart`` (the ``--extra`` folders, e.g. the hard negatives) are scored but left out of
    the pooled figures, which stay those of the writers' notes. With ``errors`` given, the
    :func:`error_rows` of the `high-recall` predictions are appended to it."""
    out: dict = {}
    pooled: dict[str, tuple[list, list]] = {p: ([], []) for p in presets}
    for w in writers:
        out[w] = {}
        for preset in presets:
            golds = by_writer[w]
            preds = predict(model if isinstance(model, str) else model[w], preset, golds)
            out[w][preset] = scores(golds, preds)
            if errors is not None and preset == "high-recall":
                errors.extend(r for gold, pred in zip(golds, preds) for r in error_rows(w, gold, pred))
            if w not in apart:
                pooled[preset][0].extend(golds)
                pooled[preset][1].extend(preds)
    out["pooled"] = {p: scores(*pooled[p]) for p in presets}
    return out


def sweep(model_of: dict[str, str], by_writer: dict[str, list], biases: list[float]) -> dict:
    """Pooled scores at each CRF O-bias (the recall knob) over the writers of ``model_of``
    (``{writer: model}``: each fold's model on its held-out writers, or one model on all)."""
    out = {}
    for bias in biases:
        golds, preds = [], []
        for w, model in model_of.items():
            # an O-bias b is --recall-bias -b (components forward no attributes: the knob goes through build())
            preds += predict(model, "high-recall", by_writer[w], recall_bias=-bias)
            golds += by_writer[w]
        out[f"{bias:+.2f}"] = scores(golds, preds)
        r = out[f"{bias:+.2f}"]
        print(f"bias {bias:+.2f}: binary P {r['binary_token']['precision']:.4f} R {r['binary_token']['recall']:.4f} "
              f"strict F1 {r['strict']['f1']:.4f} leaked {r['leaked_tokens']} "
              f"notes with a leak {r['notes_with_leak']}/{r['notes']}", flush=True)
    return out


def _write_report(path: Path, report: dict) -> None:
    """Write the JSON report atomically (a killed run leaves the previous file whole)."""
    with atomic_file(path) as tmp:
        tmp.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--folds", help="writers held out together, folds separated by ';'")
    ap.add_argument("--work", type=Path, help="folder of the fold models (reused)")
    ap.add_argument("--score", action="append", default=[],
                    help="only score this model (name or directory; repeatable) on --writers, no folds")
    ap.add_argument("--writers", default="", help="with --score: comma-separated writers the models never saw")
    ap.add_argument("--extra", type=Path, action="append", default=[],
                    help="a folder of inline notes scored as one more writer (repeatable), e.g. the hard negatives")
    ap.add_argument("--before", help="also score this model (name or directory) on every held-out writer")
    ap.add_argument("--iterations", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sweep", default="",
                    help="comma-separated CRF O-biases to score the fold models (or each --score model) at, pooled")
    ap.add_argument("--set", dest="overrides", action="append", default=[], metavar="COMPONENT.OPTION=VALUE",
                    help="set a component option on every model scored (JSON value), e.g. two_pass.min_score=0.7")
    ap.add_argument("--leaks", type=Path, metavar="FILE.jsonl",
                    help="with --score: also write every leaked gold span and false-positive span of each model at "
                         "high-recall, with context (note text: the repository's fictional corpora only)")
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    if args.leaks:
        if not args.score:
            raise SystemExit("--leaks needs --score")
        # the rows hold note text: only the repository's fictional corpora (and en-dev) may be listed
        outside = [str(f) for f in args.extra
                   if not _HARD_NEGATIVE_HALF.fullmatch(str(f)) and ROOT / "corpora" not in f.resolve().parents]
        if outside:
            raise SystemExit(f"--leaks writes note text, so only for the repository's fictional corpora, not {outside}")
    for item in args.overrides:
        key, _, value = item.partition("=")
        component, _, option = key.partition(".")
        if not (component and option and value):
            raise SystemExit(f"--set {item!r}: give COMPONENT.OPTION=VALUE")
        try:
            parsed = json.loads(value)
        except json.JSONDecodeError:
            parsed = value  # a bare word: a string option
        OVERRIDES.setdefault(component, {})[option] = parsed
    if args.score:
        writers = scored_writers(args.writers, args.extra)
        by_writer = writer_docs(args.extra, only=writers)
        unknown = set(writers) - set(by_writer)
        if not writers or unknown:
            raise SystemExit(f"--score needs --writers that exist (unknown: {sorted(unknown)})")
        extras = frozenset(folder.name for folder in args.extra)
        errors: dict[str, list[dict]] = {m: [] for m in args.score}
        report = {"writers": writers, "presets": list(PRESETS), "pooled_without": sorted(extras & set(writers)),
                  "overrides": OVERRIDES,
                  "models": {m: evaluate_model(m, by_writer, writers, apart=extras,
                                               errors=errors[m] if args.leaks else None) for m in args.score}}
        if args.sweep:
            biases = [float(b) for b in args.sweep.split(",")]
            report["sweep"] = {m: sweep({w: m for w in writers if w not in extras}, by_writer, biases)
                               for m in args.score}
        _write_report(args.out, report)
        if args.leaks:
            with atomic_file(args.leaks) as tmp, tmp.open("w", encoding="utf-8") as fh:
                for m, rows in errors.items():
                    for r in rows:
                        fh.write(json.dumps({"model": m, **r}, ensure_ascii=False) + "\n")
        for m, res in report["models"].items():
            for preset in PRESETS:
                print(f"\n{m} / {preset}\n" + table(res, preset))
        return
    if not args.folds or not args.work:
        raise SystemExit("give --folds and --work (or --score with --writers)")
    folds = [[w.strip() for w in f.split(",") if w.strip()] for f in args.folds.split(";") if f.strip()]
    by_writer = writer_docs(only=[w for f in folds for w in f])
    unknown = {w for f in folds for w in f} - set(by_writer)
    if unknown:
        raise SystemExit(f"unknown writers: {sorted(unknown)}")
    args.work.mkdir(parents=True, exist_ok=True)
    report: dict = {"folds": folds, "presets": list(PRESETS), "iterations": args.iterations}
    held = [w for f in folds for w in f]
    if args.before:
        # en-dev trained the shipped model: "before" is only measured on the other writers
        unseen = [w for w in held if w != "en-dev"]
        report["before"] = {"model": args.before, "results": evaluate_model(args.before, by_writer, unseen)}
        print(table(report["before"]["results"], "high-recall"), flush=True)
    dirs = build_folds(folds, args.work, args.iterations, args.jobs)
    fold_model = {w: str(dirs[",".join(f)]) for f in folds for w in f}
    after = evaluate_model(fold_model, by_writer, held)
    report["after"] = after
    if args.sweep:
        report["sweep"] = sweep(fold_model, by_writer, [float(b) for b in args.sweep.split(",")])
    _write_report(args.out, report)
    for preset in PRESETS:
        print(f"\n{preset}\n" + table(after, preset))


if __name__ == "__main__":
    main()
