#!/usr/bin/env python
"""Train the packaged Spanish model ``es-meddocan`` (CRF + document-level second pass, native MEDDOCAN labels).

Steps (the variants are the table of docs/crf.md; ``SHIPPED`` names the packaged one):

  python scripts/train_es_meddocan.py validate [--variant NAME]   # train on train only, score dev
  python scripts/train_es_meddocan.py cv --work DIR [--variant NAME]  # 5-fold CV over train+dev
  python scripts/train_es_meddocan.py ship                        # train SHIPPED on train+dev

``validate`` trains the variant on MEDDOCAN train only, annotates dev with the first pass
alone and with the document-level second pass (every ``SECOND_PASS`` setting), writes each
run as brat under ``--pred`` and scores it with ``notescrub evaluate --scheme meddocan``
(subtask 1 strict, subtask 2 strict and merged); the figures and the training time go to
``benchmarks/results/meddocan-train-only-<variant>.json``. ``cv`` splits train + dev (750
documents, sorted by id, document ``i`` in fold ``i % 5``), trains the variant on four folds
and annotates the fifth, five times; each fold's model is kept in ``--work`` (a rerun
resumes), every fold and the pooled predictions are scored like ``validate``'s, and the
report goes to ``benchmarks/results/meddocan-cv5-<variant>.json``. ``ship`` trains ``SHIPPED`` on
train + dev and writes the hybrid model directory ``src/notescrub/models/es-meddocan/``
(the CRF in ``crf/``, the second pass in ``model.json``).

The corpus (MEDDOCAN, CC BY 4.0, Marimon et al. 2019) is read from ../shared/corpora/meddocan
(override with --corpus). Timing is reported both as wall clock and CPU time, with the
load average, because the training machine may be shared.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from notescrub.cli.main import main as cli
from notescrub.config import ComponentSpec
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.io import read_corpus, write_corpus
from notescrub.modeldir import HybridModel
from notescrub.recipes import carafe
from notescrub.types import Document

ROOT = Path(__file__).resolve().parents[1]
MODEL_DIR = ROOT / "src" / "notescrub" / "models" / "es-meddocan"
RESULTS = ROOT / "benchmarks" / "results"
#: es-meddocan's post-processing rules (dates the CRF leaves), shipped in the model directory.
POST_FILE = MODEL_DIR / "post.toml"

#: Featurizer and tagger settings of the 2019-11 model (chosen on the dev split, see docs/crf.md).
FEATURES: dict[str, Any] = {
    "groups": ("lexical", "orthographic", "dictionary", "sentence", "position"), "window": (2, 2), "affixes": 4,
    "window_affixes": False, "bigrams": True, "window_groups": ("lexical", "orthographic", "dictionary")}
TAGGER: dict[str, Any] = {"scheme": "BIO", "sequence": "record", "algorithm": "lbfgs", "c1": 0.3, "c2": 0.05,
                          "max_iterations": 100, "bias": 0.0}

#: The variants measured in docs/crf.md: overrides of FEATURES / TAGGER.
VARIANTS: dict[str, dict[str, Any]] = {
    "baseline": {"features": {}, "tagger": {}},
    # where else in the document the word occurs (notescrub.features.document)
    "document": {"features": {"groups": (*FEATURES["groups"], "document")}, "tagger": {}},
    # word clusters learnt from the training documents' text (notescrub.features.clusters)
    "clusters": {"features": {"groups": (*FEATURES["groups"], "clusters"),
                              "window_groups": (*FEATURES["window_groups"], "clusters")}, "tagger": {}},
    # the same, with the clusters learnt from the training text plus the (unlabelled) text of the
    # documents to be annotated: transductive, what a user can do with their own notes before training
    "clusters-with-test-text": {"features": {"groups": (*FEATURES["groups"], "clusters"),
                                             "window_groups": (*FEATURES["window_groups"], "clusters")},
                                "tagger": {}, "cluster_text": "train+test"},
    # L-BFGS run longer (the 2026-11 recipe stops at 100 iterations, before convergence)
    "iter250": {"features": {}, "tagger": {"max_iterations": 250}},
    # weaker elastic net (more active features)
    "c1-0.1-c2-0.01": {"features": {}, "tagger": {"c1": 0.1, "c2": 0.01}},
    # the shipped elastic net plus en-default's context bag (the 4 nearest words on each side in
    # the sentence, without their distance: notescrub.features.context.context_bag)
    "bag4-c1-0.1-c2-0.01": {"features": {"context_bag": 4}, "tagger": {"c1": 0.1, "c2": 0.01}},
}
#: How variants with the ``clusters`` group learn their table (from the text they are trained on).
CLUSTERS: dict[str, Any] = {"sizes": (64, 256, 1024), "dims": 100, "min_count": 2, "contexts": 2000, "seed": 0}
#: Second-pass settings measured by ``validate`` on every variant's dev annotation.
SECOND_PASS: dict[str, dict[str, Any]] = {
    "min0.5-longest": {"min_score": 0.5, "resolver": {"name": "longest"}},
    "min0.5-cover": {"min_score": 0.5, "resolver": {"name": "cover", "base": {"name": "longest"}}},
    "min0.9-longest": {"min_score": 0.9, "resolver": {"name": "longest"}},
    "min0.9-cover": {"min_score": 0.9, "resolver": {"name": "cover", "base": {"name": "longest"}}},
    # the shipped second pass, then the date rules of the model's post.toml on the CRF's spans
    "min0.5-longest-dates": {"min_score": 0.5, "resolver": {"name": "longest"}, "post": True},
}
#: What ``ship`` trains: a variant and a second-pass setting (None: first pass only).
SHIPPED: tuple[str, str | None] = ("c1-0.1-c2-0.01", "min0.5-longest-dates")

CREDIT = {
    "corpus": "MEDDOCAN (SPACCC_MEDDOCAN) train and dev splits",
    "license": "CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/)",
    "attribution": "Marimon M, Gonzalez-Agirre A, Intxaurrondo A, et al. Automatic De-identification of Medical "
                   "Texts in Spanish: the MEDDOCAN Track, Corpus, Guidelines, Methods and Evaluation of Results. "
                   "IberLEF 2019. Copyright (c) 2019 Secretaría de Estado para el Avance Digital (SEAD).",
    "source": "PlanTL-GOB-ES/SPACCC_MEDDOCAN, commit 783a6df385c975b328c99bcffb54196a9ba4078a",
    "changes": "the model's weights are learned from the corpus; no corpus text is distributed with the model "
               "except as feature strings (words, affixes) inside the CRFsuite weight file",
}


README = """\
# es-meddocan

Spanish clinical de-identification model for notescrub (`--model es-meddocan`): a CRF
(python-crfsuite weights + notescrub decoding, in `crf/`) predicting the native MEDDOCAN labels
(NOMBRE_SUJETO_ASISTENCIA, FECHAS, TERRITORIO, ...; `phi` gives the i2b2-2014 subtype),
followed by a document-level second pass that tags again, everywhere in the document,
the strings the CRF tagged, and two date rules (`post.toml`: day-first numeric dates and
Spanish month + year, added where the CRF left a gap) (the hybrid `model.json`). Built by
`scripts/train_es_meddocan.py ship`; configuration and figures (trained on train only,
scored on dev) in docs/crf.md and model.json. The model has seen MEDDOCAN dev: its own
dev score is not a held-out figure.

## Credit and licence of the training data

Trained on the train and dev splits of MEDDOCAN (SPACCC_MEDDOCAN), licensed under
Creative Commons Attribution 4.0 (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/).
Marimon M, Gonzalez-Agirre A, Intxaurrondo A, et al. Automatic De-identification of Medical
Texts in Spanish: the MEDDOCAN Track, Corpus, Guidelines, Methods and Evaluation of Results.
IberLEF 2019. Copyright (c) 2019 Secretaría de Estado para el Avance Digital (SEAD).
Changes: only learned feature weights are distributed (feature strings include words and
affixes seen in the corpus); no document text is included.
"""


def build(variant: str = "baseline", lang: str = "es", clusters: str | None = None) -> CRFTagger:
    """The recipe's CRF (``lang`` picks the lexicons of the dictionary features; the model ships with "es").

    ``clusters``: the word-cluster table of a variant with the ``clusters`` group (a path or a packaged name).
    """
    v = VARIANTS[variant]
    features = {**FEATURES, **v["features"]}
    if "clusters" in features["groups"]:
        features["clusters"] = clusters
    return carafe.build(lang=lang, features=features, **{**TAGGER, **v["tagger"], "name": "crf"})


def uses_clusters(variant: str) -> bool:
    return "clusters" in VARIANTS[variant]["features"].get("groups", ())


def learn_table(docs: list[Document], path: Path) -> Path:
    """Learn the word clusters of ``docs``' text (settings ``CLUSTERS``) and save them to ``path``."""
    from notescrub.features.clusters import learn_clusters

    path.parent.mkdir(parents=True, exist_ok=True)
    return learn_clusters([d.text for d in docs], **CLUSTERS).save(path)


def hybrid(tagger: CRFTagger, second_pass: str | None, lang: str = "es", post_file: str = str(POST_FILE)
           ) -> HybridModel:
    """The model directory's content: the CRF, then (optionally) the document-level second pass and,
    for a setting with ``post``, the date rules of ``post_file`` applied to the CRF's spans (a
    shipped model names its own copy, ``post.toml``)."""
    comps = [ComponentSpec("crf", "crf", "crf")]
    resolver: dict[str, Any] = {"name": "longest"}
    if second_pass is not None:
        sp = SECOND_PASS[second_pass]
        comps.append(ComponentSpec("two_pass", "two_pass", options={"sources": ["crf"], "min_score": sp["min_score"],
                                                                    "lang": lang}))
        resolver = sp["resolver"]
        if sp.get("post"):
            comps.append(ComponentSpec("post", "postprocess", options={"targets": ["crf"], "files": [post_file]}))
    return HybridModel(comps, {"crf": tagger}, resolver, meta={"lang": lang})


def train(docs: list, variant: str = "baseline", lang: str = "es", clusters: Path | None = None,
          test_docs: list[Document] = ()) -> tuple[CRFTagger, dict]:
    """Train ``variant`` on ``docs``; a variant with word clusters first learns them from ``docs`` into ``clusters``.

    ``test_docs``: the documents the model will annotate; only their text is used, and only by a
    variant whose ``cluster_text`` is ``train+test`` (their words then get clusters too).
    """
    load0 = os.getloadavg()[0]
    w0, c0 = time.perf_counter(), time.process_time()
    table = None
    if uses_clusters(variant):
        if clusters is None:
            raise ValueError(f"variant {variant!r} needs a path for its word-cluster table")
        text_docs = docs + list(test_docs) if VARIANTS[variant].get("cluster_text") == "train+test" else docs
        table = str(learn_table(text_docs, clusters))
    model = build(variant, lang, table).fit(docs)
    timing = {"wall_s": round(time.perf_counter() - w0, 1), "cpu_s": round(time.process_time() - c0, 1),
              "load_average_1min_start": round(load0, 2), "load_average_1min_end": round(os.getloadavg()[0], 2),
              "cpus": os.cpu_count()}
    return model, timing


def score(model: HybridModel, docs: list[Document], gold_dir: Path, pred_dir: Path,
          overrides: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Annotate ``docs``, write them as brat to ``pred_dir`` and score with ``notescrub evaluate``."""
    pipe = model.pipeline(overrides=overrides)
    preds = []
    for d in pipe.pipe(d.copy(layers=False) for d in docs):
        p = d.copy(layers=False)
        p.add_layer("gold", d.layer("phi"))
        preds.append(p)
    write_corpus(preds, pred_dir, "brat", overwrite=True)
    return _score_dirs(gold_dir, pred_dir)


def _score_dirs(gold_dir: Path, pred_dir: Path) -> dict[str, Any]:
    """``notescrub evaluate GOLD PRED --scheme meddocan``: subtask 1, subtask 2 (strict, merged), per type."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "scores.json"
        with contextlib.redirect_stdout(io.StringIO()):  # the table; the figures are read from the JSON
            rc = cli(["-q", "evaluate", str(gold_dir), str(pred_dir), "--scheme", "meddocan", "--json", str(out)])
        if rc != 0:
            raise SystemExit("notescrub evaluate failed")
        res = json.loads(out.read_text(encoding="utf-8"))["meddocan"]
    keep = ("precision", "recall", "f1", "tp", "fp", "fn")
    return {"subtask1": {k: res["subtask1"][k] for k in keep},
            "subtask2_strict": {k: res["subtask2_strict"][k] for k in keep},
            "subtask2_merged": {k: res["subtask2_merged"][k] for k in keep},
            "subtask1_by_type_f1": {t: round(v["f1"], 4) for t, v in res["subtask1_by_type"].items()}}


def _config(variant: str) -> dict[str, Any]:
    """The variant's settings as the reports record them."""
    v = VARIANTS[variant]
    cfg: dict[str, Any] = {"features": {**FEATURES, **v["features"]}, "tagger": {**TAGGER, **v["tagger"]}}
    if uses_clusters(variant):
        cfg["clusters"] = {**CLUSTERS, "learnt_from": (
            "the text of the documents the CRF is trained on and of those it annotates (no labels)"
            if v.get("cluster_text") == "train+test" else "the text of the documents the CRF is trained on")}
    return cfg


def _settings() -> dict[str, str | None]:
    """Report key -> second-pass setting (None: the CRF alone) of every scored run."""
    return {"first_pass": None, **{f"second_pass_{name}": name for name in SECOND_PASS}}


def _link_brat(docs_dirs: list[Path], ids: set[str], dest: Path) -> None:
    """Symlink the .txt/.ann pairs of ``ids`` from ``docs_dirs`` into ``dest`` (a gold folder)."""
    dest.mkdir(parents=True, exist_ok=True)
    for d in docs_dirs:
        for f in d.iterdir():
            if f.stem in ids and f.suffix in (".txt", ".ann") and not (dest / f.name).exists():
                (dest / f.name).symlink_to(f.resolve())


def cross_validate(docs: list[Document], brat_dirs: list[Path], variant: str, work: Path,
                   folds: int = 5) -> dict[str, Any]:
    """``folds``-fold cross-validation of ``variant`` (with every second-pass setting) over ``docs``."""
    docs = sorted(docs, key=lambda d: d.id)
    fold_of = {d.id: i % folds for i, d in enumerate(docs)}
    gold_all = work / "gold" / "all"
    _link_brat(brat_dirs, set(fold_of), gold_all)
    per_fold: list[dict[str, Any]] = []
    for k in range(folds):
        held = [d for d in docs if fold_of[d.id] == k]
        model_dir = work / f"fold{k}" / "crf"
        if (model_dir / "model.json").is_file():
            tagger = CRFTagger.load(model_dir)
            table = str(work / f"fold{k}" / "clusters.tsv.gz") if uses_clusters(variant) else None
            if tagger.featurizer.to_config() != build(variant, clusters=table).featurizer.to_config():
                raise SystemExit(f"{model_dir}: not a training of variant {variant!r}; use another --work")
            timing = json.loads((work / f"fold{k}" / "timing.json").read_text(encoding="utf-8"))
        else:
            tagger, timing = train([d for d in docs if fold_of[d.id] != k], variant,
                                   clusters=work / f"fold{k}" / "clusters.tsv.gz", test_docs=held)
            tagger.save(model_dir, overwrite=True)
            (work / f"fold{k}" / "timing.json").write_text(json.dumps(timing), encoding="utf-8")
        gold_k = work / "gold" / f"fold{k}"
        _link_brat(brat_dirs, {d.id for d in held}, gold_k)
        fold_report: dict[str, Any] = {"fold": k, "documents": len(held), "training": timing}
        for key, sp in _settings().items():
            fold_report[key] = score(hybrid(tagger, sp), held, gold_k, work / "pred" / key / f"fold{k}")
        per_fold.append(fold_report)
        logging.info("fold %d: first pass F1 %.4f", k, fold_report["first_pass"]["subtask1"]["f1"])
    pooled: dict[str, Any] = {}
    for key in _settings():
        merged = work / "pred" / key / "all"  # every fold's predictions in one folder, scored at once
        merged.mkdir(parents=True, exist_ok=True)
        for k in range(folds):
            for f in (work / "pred" / key / f"fold{k}").iterdir():
                target = merged / f.name
                if not target.exists():
                    target.symlink_to(f.resolve())
        pooled[key] = _score_dirs(gold_all, merged)
        f1s = [fr[key]["subtask1"]["f1"] for fr in per_fold]
        mean = sum(f1s) / folds
        pooled[key]["fold_subtask1_f1"] = {"values": f1s, "mean": round(mean, 4), "sd": round(
            (sum((x - mean) ** 2 for x in f1s) / (folds - 1)) ** 0.5, 4)}
    return {"folds": folds, "fold_rule": "documents sorted by id, document i in fold i % folds",
            "documents": len(docs), "per_fold": per_fold, "pooled": pooled}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("step", choices=("validate", "cv", "ship"))
    ap.add_argument("--work", default=None, help="cv: folder for the fold models and predictions (resumable); "
                                                 "validate: folder for the word-cluster table of a clusters variant")
    ap.add_argument("--variant", choices=sorted(VARIANTS), default=SHIPPED[0])
    ap.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpora" / "meddocan"))
    ap.add_argument("--pred", default=None, help="folder for the dev predictions (default: a temporary folder)")
    ap.add_argument("--crf", default=None,
                    help="ship: package this CRF model directory (trained on train+dev with the shipped variant, "
                         "e.g. the crf/ of an earlier ship) instead of training one")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    corpus = Path(args.corpus)
    train_docs = list(read_corpus(corpus / "train" / "brat"))
    dev_dir = corpus / "dev" / "brat"
    dev_docs = list(read_corpus(dev_dir))
    if args.step == "cv":
        if not args.work:
            raise SystemExit("cv needs --work DIR")
        report: dict[str, Any] = {
                  "command": f"python scripts/train_es_meddocan.py cv --work DIR --variant {args.variant}",
                  "variant": args.variant, "config": _config(args.variant),
                  "scored_with": "notescrub evaluate GOLD PRED --scheme meddocan (per fold and pooled)",
                  **cross_validate(train_docs + dev_docs, [corpus / "train" / "brat", dev_dir], args.variant,
                                   Path(args.work))}
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"meddocan-cv5-{args.variant}.json"
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(json.dumps({k: v["subtask1"]["f1"] for k, v in report["pooled"].items()}, indent=2))
        return 0
    if args.step == "validate":
        work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="meddocan-validate-"))
        tagger, timing = train(train_docs, args.variant, clusters=work / "clusters.tsv.gz", test_docs=dev_docs)
        report = {
            "command": f"python scripts/train_es_meddocan.py validate --variant {args.variant}",
            "variant": args.variant, "config": _config(args.variant),
            "train_documents": len(train_docs), "dev_documents": len(dev_docs), "training": timing,
            "scored_with": "notescrub evaluate DEV PRED --scheme meddocan", "model_bytes": len(tagger.model_bytes_),
            "dev": {}}
        with tempfile.TemporaryDirectory() as tmp:
            pred_root = Path(args.pred) if args.pred else Path(tmp)
            for key, sp in _settings().items():
                res = score(hybrid(tagger, sp), dev_docs, dev_dir, pred_root / key)
                report["dev"][key] = res if sp is None else {"settings": SECOND_PASS[sp], **res}
        RESULTS.mkdir(parents=True, exist_ok=True)
        out = RESULTS / f"meddocan-train-only-{args.variant}.json"
        out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
        print(json.dumps({k: report["dev"][k]["subtask1"]["f1"] for k in report["dev"]}, indent=2))
        return 0
    variant, second_pass = SHIPPED
    if args.crf:  # an earlier training of the same recipe: keep its weights and its recorded time
        tagger = CRFTagger.load(args.crf)
        if tagger.featurizer.to_config() != build(variant).featurizer.to_config():
            raise SystemExit(f"{args.crf}: its features are not those of variant {variant!r}")
        crf_meta = json.loads((Path(args.crf) / "model.json").read_text(encoding="utf-8"))
        timing = crf_meta.get("training_time") or crf_meta.get("meta", {}).get("training", {}).get("time", {})
        parent = Path(args.crf).parent / "model.json"  # the crf/ of an earlier ship: its time is recorded there
        if not timing and parent.is_file():
            timing = json.loads(parent.read_text(encoding="utf-8")).get("training", {}).get("time", {})
    else:
        tagger, timing = train(train_docs + dev_docs, variant)
    post = bool(second_pass and SECOND_PASS[second_pass].get("post"))
    rules = POST_FILE.read_bytes() if post else None  # read before the directory is replaced
    model = hybrid(tagger, second_pass, post_file=POST_FILE.name)
    extra: dict[str, Any] = {
        "model_name": "es-meddocan", "recipe": f"carafe (tuned; variant {variant!r}, second pass "
                                               f"{second_pass!r}; see scripts/train_es_meddocan.py)",
        "data": {"train": "MEDDOCAN train + dev (750 documents)", "credit": CREDIT},
        "training": {"time": timing}}
    report_file = RESULTS / f"meddocan-train-only-{variant}.json"
    if report_file.is_file():
        dev = json.loads(report_file.read_text(encoding="utf-8"))["dev"]
        key = "first_pass" if second_pass is None else f"second_pass_{second_pass}"
        extra["metrics"] = {"dev_train_only_model": {k: dev[key][k] for k in ("subtask1", "subtask2_strict",
                                                                                "subtask2_merged")}}
    model.save(MODEL_DIR, overwrite=True, extra=extra, files={POST_FILE.name: rules} if rules is not None else None)
    (MODEL_DIR / "README.md").write_text(README, encoding="utf-8")
    size = sum(f.stat().st_size for f in MODEL_DIR.rglob("*") if f.is_file())
    print(json.dumps({"model_dir": str(MODEL_DIR), "bytes": size, "training": timing}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
