"""Section 1: the systems table -- every seed system and the product model side by side.

Each seed recipe is trained on every split's training notes and applied to its test
notes; the pooled predictions are scored at binary token level (PHI / non-PHI, as
Uzuner et al. 2008 Tables 4-15), strict and token level (i2b2 2014), per type, with
Stat De-id's z-test of each system against Stat De-id and the wall times of training
and annotation. The packaged product model of the corpus's language (``es-meddocan``
or ``en-default``) gets a row when it is installed; it is not retrained.

>>> product_model_for("es"), product_model_for("en")
('es-meddocan', 'en-default')
"""

from __future__ import annotations

import time
from typing import Any

from notescrub.experiments.common import Context, Section, build_system, z_vs
from notescrub.experiments.config import SYSTEM_TITLES
from notescrub.experiments.papers import UZUNER, WELLNER
from notescrub.experiments.verdicts import z_verdict

__all__ = [
    "compare_section",
    "pipeline_of",
    "product_model_for",
    "run_section",
    "system_run",
]


def product_model_for(lang: str) -> str:
    return "es-meddocan" if lang == "es" else "en-default"


def pipeline_of(name: str) -> Any:
    """How to get a system's pipeline (Manchester: its default operating point, patients together)."""
    if name == "manchester":
        return lambda m: m.pipeline()
    return None


def system_run(ctx: Context, dataset: Any, name: str) -> Any:
    """The (cached) run of seed system ``name`` on ``dataset``."""
    return ctx.run(name, dataset, lambda: build_system(name, dataset.lang, ctx.settings),
                   pipeline_of=pipeline_of(name))


def _product_run(ctx: Context, dataset: Any) -> tuple[str, Any]:
    from notescrub.registry import load_model, packaged_models

    name = product_model_for(dataset.lang)
    if name not in packaged_models():
        return name, None
    return name, ctx.run("product:" + name, dataset, lambda: load_model(name), fit=False)


def run_section(ctx: Context, dataset: Any) -> Section:
    t0 = time.perf_counter()
    s = ctx.settings
    sec = Section("systems", "Systems table",
                  intro=("Every seed system trained on the same training notes and scored on the same test notes "
                         f"({dataset.kind}). Binary token figures are PHI vs non-PHI over notescrub tokens "
                         "(Uzuner et al. 2008); strict and token are the i2b2 2014 micro measures with the "
                         "corpus's own labels; z is the two-proportion z-test of the token F-measure against "
                         "Stat De-id (eq. 6-7, n = gold tokens of the class; * = significant at 0.05)."))
    rows_by_name: dict[str, dict[str, Any]] = {}
    runs = {}
    for name in s.systems:
        runs[SYSTEM_TITLES[name]] = system_run(ctx, dataset, name)
    if s.product_models:
        pname, prun = _product_run(ctx, dataset)
        if prun is None:
            sec.notes.append(f"product model {pname!r} is not installed in this checkout: its row is absent.")
        else:
            runs[f"{pname} (product)"] = prun
            sec.notes.append(f"{pname} is the packaged product model, applied as shipped (not retrained on these "
                             "splits); if it was trained or tuned on this corpus its figures are optimistic.")
    ref = None
    if "Stat De-id" in runs and not runs["Stat De-id"].error:
        ref = ctx.score_run(runs["Stat De-id"])
    table: list[list[Any]] = []
    per_type: dict[str, dict[str, Any]] = {}
    for title, run in runs.items():
        if run.error:
            table.append([title] + [None] * 14 + [run.error[:120]])
            continue
        sc = ctx.score_run(run)
        rows_by_name[title] = sc
        z = z_vs(sc, ref) if ref is not None and title != "Stat De-id" else None
        def zc(k: str, z: Any = z) -> str | None:
            return None if z is None or z[k]["z"] is None else f"{z[k]['z']:+.2f}{'*' if z[k]['significant'] else ''}"

        b, nb, st, tk = sc["binary_phi"], sc["binary_non_phi"], sc["strict"], sc["token"]
        table.append([title, b["precision"], b["recall"], b["f1"], zc("phi"), nb["f1"], zc("non_phi"),
                      st["precision"], st["recall"], st["f1"], tk["precision"], tk["recall"], tk["f1"],
                      run.train_seconds, run.annotate_seconds, ""])
        for t, v in sc["by_type"].items():
            per_type.setdefault(t, {})[title] = v["f1"]
        sec.data[title] = {"scores": sc, "z_vs_stat_deid": z, "train_seconds": run.train_seconds,
                           "annotate_seconds": run.annotate_seconds, "train_docs": run.train_docs,
                           "test_docs": run.test_docs}
    sec.table("systems", "Binary token, strict and token P/R/F; z-test against Stat De-id; wall times (s)",
              ["system", "PHI P", "PHI R", "PHI F", "z PHI", "non-PHI F", "z non-PHI", "strict P", "strict R",
               "strict F", "token P", "token R", "token F", "train s", "annotate s", "error"], table)
    titles = [t for t in runs if t in rows_by_name]
    sec.table("per_type", "Strict F per type (labels as annotated)", ["type", *titles],
              [[t, *(per_type[t].get(x) for x in titles)] for t in sorted(per_type)])
    _plot(sec, rows_by_name)
    compare_section(sec)
    sec.differences += [
        "Corpus: the papers used i2b2 2006 / 2014 and Partners/BIDMC discharge summaries; here the open corpus "
        f"{dataset.name!r} ({dataset.lang}) with its own label set, and fewer training notes.",
        "Training is capped (CRF iterations, documents: see the settings), so CRF systems are under-trained "
        "compared with the papers; SVM, H+D and LingPipe are not affected by the iteration cap.",
        "Stat De-id's parser features use spaCy (English only) instead of Link Grammar; for Spanish they are off, "
        "and MeSH is replaced by a packaged medical term list.",
    ]
    sec.seconds = time.perf_counter() - t0
    return sec


def _plot(sec: Section, rows: dict[str, dict[str, Any]]) -> None:
    if not rows:
        return
    from notescrub.evaluate import plots

    data = {t: {"precision": r["strict"]["precision"], "recall": r["strict"]["recall"], "f1": r["strict"]["f1"]}
            for t, r in rows.items()}
    sec.plots.append(("Strict P/R/F per system", plots.prf_bars(data, title="Strict micro P/R/F per system")))


def _n_gold(sc: dict[str, Any], node: str) -> int:
    return int((sc[node].get("tp") or 0) + (sc[node].get("fn") or 0))


def compare_section(sec: Section) -> None:
    """The paper comparisons of the systems table, from ``sec.data`` alone (JSON-ready)."""
    rows = {t: d["scores"] for t, d in sec.data.items() if isinstance(d, dict) and "scores" in d}

    def f(t: str, node: str = "binary_phi") -> float | None:
        return rows[t][node]["f1"] if t in rows else None

    up = UZUNER["table14_challenge"]
    for other in ("CRFD", "H+D"):
        a, b = f("Stat De-id"), f(other)
        if a is None or b is None:
            continue
        sec.compare(f"Stat De-id beats {other} on PHI token F",
                    f"{up['Stat De-id']['phi_f']:.2f} vs {up[other]['phi_f']:.2f} (challenge corpus, Table 14; "
                    "significant on every corpus)",
                    f"{100 * a:.2f} vs {100 * b:.2f}",
                    z_verdict(a, b, _n_gold(rows["Stat De-id"], "binary_phi"), claim_first_higher=True,
                              what="PHI token F", unit="gold PHI tokens"))
    a, b = f("Carafe", "strict"), f("LingPipe", "strict")
    if a is not None and b is not None:
        w = WELLNER["table1"]
        sec.compare("Carafe beats LingPipe at phrase level",
                    f"{w['Carafe-ALL (b=-1.0)']['phrase_f']:.4f} vs {w['LingPipe']['phrase_f']:.4f} (Table 1)",
                    f"strict F {a:.4f} vs {b:.4f}",
                    z_verdict(a, b, _n_gold(rows["Carafe"], "strict"), claim_first_higher=True, what="strict F",
                              unit="gold spans"))
    strict = {t: r["strict"]["f1"] for t, r in rows.items() if not t.endswith("(product)")}
    if strict:
        best = max(strict, key=lambda t: strict[t])
        sec.compare("Best seed system by strict F", "each paper reports its own system best on its own data",
                    f"{best} ({strict[best]:.4f})", {"verdict": "-", "test": "no test (descriptive)"})
