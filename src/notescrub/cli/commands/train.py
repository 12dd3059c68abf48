"""``notescrub train``: train a sequence tagger from annotated notes with a recipe."""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError

NAME = "train"
HELP = ("train a de-identification model with a seed paper's recipe "
        "(carafe, wi-deid, aramaki, stat-deid, crfd, h-d, lingpipe, manchester) or en-default's")
DESCRIPTION = """\
Train a model on the annotated spans (layer "gold") of TRAIN, in any format
notescrub reads (i2b2 XML, brat, JSONL, ...), with a recipe reproducing a seed
paper's configuration, and write the model directory MODEL_DIR atomically
(model.crfsuite + model.json with labels, tagging scheme, feature configuration,
training data, date and, with --dev, the development scores).

Overlapping or crossing gold spans are resolved by the policy in
notescrub.text.align (longest kept) and counted in model.json ("alignment").

Recipes:
  carafe    whole-record CRF, 3 left / 2 right context, regex classes, lexicons,
            bias -1.0 (Wellner et al. 2007); --set pp=true: Carafe-ALL+PP, bias -1.5
            plus the paper's regex post-processing (English only)
  wi-deid   sentence CRF, +/-2 window of lexical, orthographic, dictionary features
            over He et al.'s Table 1 tokens (He et al. 2015); --pos adds spaCy POS tags
  aramaki   sentence features + a second, label-consistency CRF (Aramaki et al. 2006)
  stat-deid per-token linear SVM over local context incl. syntactic bigrams (Uzuner et al.
            2008; needs the [svm] extra, and [syntax] for English); crfd: a CRF on the
            same features
  h-d       Stat De-id's heuristic + dictionary baseline (no learning)
  lingpipe  character n-gram language-model HMM chunker with n-best rescoring
            (the LingPipe system of Wellner et al. 2007)
  manchester rules/dictionaries + per-type IO CRFs, post-processing, two-pass patient
            dictionary, priority integration, 3 operating points (Dehghan et al. 2015)
  en-default the packaged English model's recipe on its own training set (en-dev, its
            re-populated and re-cased copies, the writers' corpus, synthetic notes; found
            beside a source checkout, or --set en_dev=FILE --set writers=DIR); --train is
            optional and, like --add, adds notes. Other parameters: --set iterations=100,
            c1, c2, synth_patients=80, seed=7, recase=false, context_bag=4,
            holdout_writers=w01,... Takes long: the packaged model trained for 3,925 s
            (65 min, 2,901 documents, 100 iterations) on a 2-core machine whose other core
            was busy (docs/en-default.md).

Progress (as for deid and annotate, on stderr): on a terminal a bar per CRF being
trained with L-BFGS iterations done / max, the loss and the elapsed time; otherwise
a line every 10 s and one when a CRF's optimisation ends; nothing with -q. Recipes
without a CRF (h-d, lingpipe, stat-deid) report no iterations, nor do the per-type
CRFs that manchester trains in parallel worker processes.

--add NOTES (repeatable; any annotated format) adds notes to the training data of any
recipe, e.g. the notes corrected in 'notescrub review' and exported with --export.
model.json records how many were added (data.added_notes).

examples:
  notescrub train --recipe carafe --train corpus/train/xml -o models/carafe-en
  notescrub train --recipe wi-deid --lang es --train meddocan/train/brat --dev meddocan/dev/brat -o m/
  notescrub train --recipe carafe --train notes.jsonl -o m/ --set c1=0.1 --set max_iterations=100
  notescrub train --recipe carafe --train notes.jsonl --add reviewed.jsonl -o m/
  notescrub train --recipe carafe --train notes.jsonl -o m/ --set pp=true
  notescrub train --recipe en-default --add reviewed.jsonl -o models/en-site
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--recipe", required=True, metavar="NAME",
                   help="carafe, wi-deid, aramaki, stat-deid, crfd, h-d, lingpipe, manchester or en-default")
    p.add_argument("--train", metavar="PATH",
                   help="annotated training notes (file or folder; required except for en-default)")
    p.add_argument("--add", action="append", default=[], metavar="NOTES",
                   help="annotated notes added to the training data (repeatable), e.g. 'notescrub review --export'")
    p.add_argument("--dev", metavar="PATH", help="annotated development notes, scored after training")
    p.add_argument("-o", "--output", required=True, metavar="MODEL_DIR", help="model directory to write")
    p.add_argument("--format", metavar="F", help="input format (default: detected)")
    p.add_argument("--layer", default="gold", help="layer holding the training spans (default: gold)")
    p.add_argument("--lang", default="en", choices=("en", "es"), help="language of lexicons/patterns (default: en)")
    p.add_argument("--pos", action="store_true", help="add POS features (needs the [syntax] extra)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="override a tagger parameter (c1, c2, max_iterations, scheme, sequence, bias...)")
    p.add_argument("--name", metavar="NAME", help="model name stored in model.json")
    p.add_argument("--force", action="store_true", help="replace an existing MODEL_DIR")


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["c1=0.1", "scheme=BILOU"]`` -> ``{"c1": 0.1, "scheme": "BILOU"}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, val = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set expects KEY=VALUE, got {item!r}")
        out[key.strip()] = _value(val.strip())
    return out


def dev_scores(model: Any, dev_docs: list, labels: list[str]) -> dict[str, Any]:
    """Strict typed micro P/R/F1 of ``model`` on annotated ``dev_docs`` (notescrub.evaluate)."""
    from notescrub.evaluate import evaluate
    from notescrub.taxonomy import scheme_labels

    preds = []
    for d in dev_docs:
        p = d.copy(layers=False)
        p.add_layer("gold", model.detect(p))
        preds.append(p)
    meddocan = set(labels) <= set(scheme_labels("meddocan"))
    scheme = "meddocan" if meddocan else "i2b2-2014"
    res = evaluate(dev_docs, preds, scheme=scheme, bootstrap_resamples=0)
    strict = res["meddocan"]["subtask1"] if meddocan else res["i2b2_2014"]["strict"]["micro"]
    return {"scheme": scheme, "strict_micro": {k: strict.get(k) for k in ("precision", "recall", "f1", "tp", "fp", "fn")},
            "documents": len(dev_docs)}


#: Recipes whose training needs an extra (notescrub.extras).
_EXTRAS = {"stat-deid": "svm"}
#: Recipes that bring their own training set (--train only adds notes to it).
_OWN_DATA = frozenset({"en-default"})


def run(args: argparse.Namespace) -> int:
    from notescrub.io import read_corpus
    from notescrub.recipes import get_recipe

    log = logging.getLogger("notescrub.train")
    build = get_recipe(args.recipe)
    if args.recipe in _EXTRAS:  # fail before reading the corpus, not after
        from notescrub.extras import require

        require(_EXTRAS[args.recipe], f"training recipe {args.recipe}")
    if args.dev and args.recipe in _OWN_DATA:
        raise ConfigError(f"--dev is not available with recipe {args.recipe}: score the saved model with "
                          "'notescrub annotate' and 'notescrub evaluate'")
    out = Path(args.output)
    if out.is_dir() and any(out.iterdir()) and not args.force:  # fail before minutes of training
        raise ConfigError("output directory exists and is not empty (use --force to replace it)", path=out)
    overrides = parse_overrides(args.set)
    kwargs: dict[str, Any] = {"lang": args.lang, **overrides}
    if args.pos:
        if args.recipe == "carafe":
            kwargs["features"] = {"groups": ("lexical", "orthographic", "dictionary", "pos")}
        else:
            kwargs["pos"] = True
    try:
        model = build(**kwargs)
    except TypeError as exc:
        raise ConfigError(f"recipe {args.recipe!r}: bad parameter ({exc})") from None
    own_data = args.recipe in _OWN_DATA
    if args.train is None and not own_data:
        raise ConfigError(f"recipe {args.recipe} needs --train PATH (annotated training notes)")
    train = list(read_corpus(args.train, args.format)) if args.train else []
    added = [d for path in args.add for d in read_corpus(path)]
    if args.train and not any(d.layer(args.layer) for d in train):
        raise ConfigError(f"no annotated spans in layer {args.layer!r} of the training data", path=args.train)
    if args.add and not any(d.layer(args.layer) for d in added):
        log.warning("the --add notes hold no spans in layer %r: they teach the model that they hold no PHI",
                    args.layer)
    train += added
    log.info("training %s on %d documents%s", args.recipe, len(train),
             f" ({len(added)} added)" if added else "" if not own_data else " plus the recipe's own")
    from notescrub.cli.progress import TrainingProgress
    from notescrub.detect.crf.train_events import listening

    t0 = time.perf_counter()
    with TrainingProgress(quiet=bool(getattr(args, "quiet", False))) as progress, listening(progress):
        model.fit(train, layer=args.layer)
    seconds = time.perf_counter() - t0
    labels = list(getattr(model, "second_", model).types_)
    data: dict[str, Any] = {"train": str(args.train) if args.train else None, "dev": args.dev}
    if args.add:
        data.update(added=list(args.add), added_notes=len(added))
    extra: dict[str, Any] = {"recipe": args.recipe, "data": data, "training_seconds": round(seconds, 1)}
    if args.name:
        extra["model_name"] = args.name
    if args.dev:
        dev = list(read_corpus(args.dev, args.format))
        extra["metrics"] = {"dev": dev_scores(model, dev, labels)}
        m = extra["metrics"]["dev"]["strict_micro"]
        log.info("dev strict micro P %.4f R %.4f F1 %.4f", m["precision"], m["recall"], m["f1"])
    model.save(args.output, overwrite=args.force, extra=extra)
    log.info("model written to %s (%.1f s training)", args.output, seconds)
    return 0
