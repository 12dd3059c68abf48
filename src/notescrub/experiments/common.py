"""Shared machinery of the experiment sections: build, train, predict, score, cache.

* :func:`build_system` builds an unfitted seed system from its recipe with the run's
  iteration caps (product models are loaded, not trained);
* :func:`predict` annotates copies of test documents (patient-level pipelines get a
  patient's notes together) and returns them with the predicted spans in ``gold``;
* :func:`score` gives the figures every table uses: binary PHI / non-PHI token
  P/R/F (Uzuner et al. 2008), i2b2-2014 strict and token micro P/R/F, per-type and
  per-category strict F, the error taxonomy (labels compared as written);
* :class:`Context` trains each (system, variant, corpus, split) once per run and keeps
  the fitted models, predictions and wall times, so the Carafe, WI-deId, Aramaki and
  Manchester sections reuse the systems table's models;
* :class:`Section` is what a section returns: tables, plots, paper comparisons, notes.

>>> from notescrub.types import Document, Span
>>> g = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR"), Span(12, 16, "DATE")]})]
>>> p = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR")]})]
>>> s = score(g, p, bootstrap=0)
>>> s["strict"]["recall"], s["binary_phi"]["recall"]  # "3/18" is three tokens
(0.5, 0.25)
>>> z_vs(s, s)["phi"]["z"]
0.0
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from notescrub.errors import ConfigError, NotescrubError
from notescrub.evaluate import evaluate
from notescrub.evaluate.stats import z_test_two_proportions
from notescrub.types import Document

__all__ = ["Context", "Run", "Section", "build_system", "fmt", "predict", "prf", "record_f1", "score", "z_vs"]

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------- building
def build_system(name: str, lang: str, settings: Any, **extra: Any) -> Any:
    """An unfitted seed system (recipe ``name``) with the run's iteration caps."""
    from notescrub.recipes import get_recipe

    build = get_recipe(name)
    kw: dict[str, Any] = {"lang": lang}
    if name in ("carafe", "wi-deid", "crfd"):
        kw["max_iterations"] = settings.crf_iterations
    elif name == "aramaki":
        kw.update(max_iterations=settings.crf_iterations, folds=settings.lc_folds)
    elif name == "manchester":
        kw.update(max_iterations=settings.manchester_iterations, n_jobs=max(1, settings.jobs))
    if name in ("wi-deid", "aramaki"):  # the two papers that used POS tags
        kw["pos"] = settings.pos_features(lang)
    kw.update(extra)
    return build(**kw)


# --------------------------------------------------------------------------- predicting
def _as_pred(src: Document, spans: Sequence[Any], metadata: dict[str, Any]) -> Document:
    return Document(src.id, src.text, src.patient_id, dict(metadata), {"gold": list(spans)})


def predict(model: Any, docs: Sequence[Document], *, pipeline: Any = None) -> list[Document]:
    """Copies of ``docs`` whose ``gold`` layer holds the model's spans (metadata kept).

    ``pipeline``: a ready :class:`~notescrub.pipeline.Pipeline` used instead of
    ``model.detect`` (its ``phi`` layer is taken; patients are processed together).
    """
    if pipeline is None and hasattr(model, "detectors") and callable(model):
        pipeline = model
    if pipeline is not None:
        work = [d.copy(layers=False) for d in docs]
        done = {d.id: d for d in pipeline.pipe(work)}
        return [_as_pred(d, done[d.id].layer("phi"), done[d.id].metadata) for d in docs]
    out = []
    for d in docs:
        copy = d.copy(layers=False)
        with_info = getattr(model, "detect_with_info", None)
        spans, info = with_info(copy) if with_info is not None else (model.detect(copy), {})
        if info:
            copy.metadata[getattr(model, "name", "model")] = info
        out.append(_as_pred(d, spans, copy.metadata))
    return out


# --------------------------------------------------------------------------- scoring
def prf(d: dict[str, Any]) -> dict[str, Any]:
    """The P/R/F/TP/FP/FN of a result node."""
    return {k: d.get(k) for k in ("precision", "recall", "f1", "tp", "fp", "fn")}


def score(gold: Sequence[Document], pred: Sequence[Document], *, bootstrap: int = 0) -> dict[str, Any]:
    """Binary token, strict and token figures, per type and category, errors (no note text)."""
    b = evaluate(gold, pred, scheme="binary", bootstrap_resamples=0)
    r = evaluate(gold, pred, scheme="i2b2-2014", labels="native", bootstrap_resamples=bootstrap)
    sec = r["i2b2_2014"]
    out = {
        "binary_phi": prf(b["binary"]["phi"]),
        "binary_non_phi": prf(b["binary"]["non_phi"]),
        "strict": prf(sec["strict"]["micro"]),
        "token": prf(sec["token"]["micro"]),
        "binary_strict": prf(sec["binary_strict"]["micro"]),
        "by_type": {t: prf(v) for t, v in sec["strict"]["by_subtype"].items()},
        "by_category": {t: prf(v) for t, v in sec["strict"]["by_category"].items()},
        "errors": r["error_analysis"]["totals"],
        "errors_by_type": r["error_analysis"]["counts"],
        "documents": len(gold),
    }
    if "f1_ci95" in r["headline"]:
        out["strict"]["f1_ci95"] = r["headline"]["f1_ci95"]
    return out


def z_vs(a: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any]:
    """Uzuner et al.'s z-test (eq. 6-7) of ``a`` against ``ref`` on PHI and non-PHI token F."""
    out: dict[str, dict[str, Any]] = {}
    for key, node in (("phi", "binary_phi"), ("non_phi", "binary_non_phi")):
        n = (ref[node]["tp"] or 0) + (ref[node]["fn"] or 0)
        if n == 0:
            out[key] = {"z": None, "p_value": None, "significant": False, "n": 0}
            continue
        t = z_test_two_proportions(float(a[node]["f1"]), n, float(ref[node]["f1"]), n)
        out[key] = {"z": round(t.z, 4), "p_value": t.p_value, "significant": t.significant, "n": n}
    return out


def record_f1(gold: Document, pred: Document) -> float:
    """Strict typed F1 of one record (1.0 when the record has neither gold nor predicted PHI)."""
    g = {(s.start, s.end, s.label) for s in gold.layer("gold")}
    p = {(s.start, s.end, s.label) for s in pred.layer("gold")}
    if not g and not p:
        return 1.0
    tp = len(g & p)
    return 2 * tp / (len(g) + len(p))


def fmt(v: Any, digits: int = 4) -> Any:
    """Round floats for tables (None stays None)."""
    return round(v, digits) if isinstance(v, float) else v


# --------------------------------------------------------------------------- runs and cache
@dataclass
class Run:
    """One system trained and applied on every split of a dataset (predictions pooled)."""

    key: str
    models: list[Any]
    preds: list[Document]
    train_seconds: float
    annotate_seconds: float
    train_docs: int
    test_docs: int
    error: str | None = None

    def scores(self, ctx: Context) -> dict[str, Any]:
        return ctx.score_run(self)


@dataclass
class Context:
    """Per-run cache of trained systems and their predictions (see the module docstring)."""

    settings: Any
    cache: dict[tuple[str, str, int], Run] = field(default_factory=dict)
    score_cache: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    gold_by_run: dict[tuple[str, int], list[Document]] = field(default_factory=dict)

    def run(self, key: str, dataset: Any, make: Callable[..., Any], *, fit: bool = True,
            pipeline_of: Callable[[Any], Any] | None = None) -> Run:
        """Train ``make()`` on every split's train set and predict its test set (cached by key).

        Failures of one system are recorded (``Run.error``) instead of stopping the run.
        """
        ck = (key, dataset.name + ":" + dataset.variant, id(dataset))
        if ck in self.cache:
            return self.cache[ck]
        models, preds = [], []
        t_train = t_ann = 0.0
        n_train = n_test = 0
        try:
            for sp in dataset.splits:
                model = make()
                t0 = time.perf_counter()
                if fit:
                    model.fit(sp.train, layer="gold")
                t1 = time.perf_counter()
                preds += predict(model, sp.test, pipeline=pipeline_of(model) if pipeline_of else None)
                t2 = time.perf_counter()
                t_train += t1 - t0
                t_ann += t2 - t1
                n_train += len(sp.train)
                n_test += len(sp.test)
                models.append(model)
            run = Run(key, models, preds, round(t_train, 2), round(t_ann, 2), n_train, n_test)
            log.info("%s on %s/%s: train %.1f s, annotate %.1f s", key, dataset.name, dataset.variant, t_train, t_ann)
        except (NotescrubError, ImportError, MemoryError, ValueError, RuntimeError) as exc:
            log.warning("%s on %s/%s failed: %s", key, dataset.name, dataset.variant, exc)
            run = Run(key, models, [], round(t_train, 2), round(t_ann, 2), n_train, n_test,
                      error=f"{type(exc).__name__}: {exc}")
        self.cache[ck] = run
        self.gold_by_run[(key, id(run))] = dataset.test_docs
        return run

    def cache_lookup(self, key: str, dataset: Any) -> Run | None:
        """The cached run of ``key`` on ``dataset``, if any."""
        return self.cache.get((key, dataset.name + ":" + dataset.variant, id(dataset)))

    def score_run(self, run: Run) -> dict[str, Any]:
        if run.error:
            raise ConfigError(f"{run.key} did not run: {run.error}")
        k = (run.key, id(run))
        if k not in self.score_cache:
            self.score_cache[k] = score(self.gold_by_run[k], run.preds, bootstrap=self.settings.bootstrap)
        return self.score_cache[k]


# --------------------------------------------------------------------------- section results
@dataclass
class Section:
    """The output of one section (JSON-ready except ``plots``, which are PNG bytes)."""

    key: str
    title: str
    intro: str = ""
    tables: list[dict[str, Any]] = field(default_factory=list)
    plots: list[tuple[str, bytes]] = field(default_factory=list)
    comparisons: list[dict[str, Any]] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0

    def table(self, name: str, title: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
        self.tables.append({"name": name, "title": title, "columns": list(columns),
                            "rows": [[fmt(v) for v in r] for r in rows]})

    def compare(self, claim: str, paper: str, ours: str, verdict: dict[str, Any] | bool | None) -> None:
        """One paper-vs-ours line.

        ``verdict`` is a :mod:`notescrub.experiments.verdicts` result (verdict word and the
        test named); a bare bool or None is recorded as an untested, descriptive verdict.
        """
        from notescrub.experiments.verdicts import descriptive

        v = verdict if isinstance(verdict, dict) else descriptive(verdict, "not tested")
        self.comparisons.append({"claim": claim, "paper": paper, "ours": ours, "verdict": v["verdict"],
                                 "test": v["test"]})

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "intro": self.intro, "tables": self.tables,
                "plots": [t for t, _ in self.plots], "comparisons": self.comparisons,
                "differences": self.differences, "notes": self.notes, "data": self.data,
                "seconds": round(self.seconds, 1)}
