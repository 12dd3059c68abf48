"""Section 5: Aramaki et al.'s ablation (2006, Tables 4-5): BASELINE / +SF / +EX / +LC / all.

* BASELINE: a sentence CRF with local features only (words, capitalisation types,
  length, special characters, templates at -2..+2: our ``lexical`` + ``orthographic``);
* +SF: plus the sentence features (line position, sentence lengths, last words of the
  previous sentence; our ``sentence`` group);
* +EX: plus the extra-resource dictionaries (our ``dictionary`` group);
* +LC: BASELINE plus the second, label-consistency CRF (:mod:`notescrub.detect.crf.consistency`);
* all (PROPOSED): the ``aramaki`` recipe, everything together.

Figures: 2-way (PHI vs non-PHI token) P/R/F as Table 4, and typed strict P/R/F.

>>> [v[0] for v in VARIANTS]
['BASELINE', 'BASE+SF', 'BASE+EX', 'BASE+LC', 'PROPOSED']
"""

from __future__ import annotations

import time
from typing import Any

from notescrub.experiments.common import Context, Section
from notescrub.experiments.papers import ARAMAKI
from notescrub.experiments.systems import system_run
from notescrub.experiments.verdicts import z_verdict

__all__ = ["VARIANTS", "build_variant", "compare_section", "run_section"]

_LOCAL = ("lexical", "orthographic")
#: (title, feature groups, label consistency); PROPOSED is the systems table's run
VARIANTS: list[tuple[str, tuple[str, ...] | None, bool]] = [
    ("BASELINE", _LOCAL, False),
    ("BASE+SF", _LOCAL + ("sentence",), False),
    ("BASE+EX", _LOCAL + ("dictionary",), False),
    ("BASE+LC", _LOCAL, True),
    ("PROPOSED", None, True),
]


def build_variant(groups: tuple[str, ...], lc: bool, lang: str, settings: Any) -> Any:
    """An unfitted Aramaki-style tagger with ``groups`` (and the consistency stage when ``lc``)."""
    from notescrub.detect.crf.tagger import CRFTagger
    from notescrub.recipes import aramaki

    if settings.pos_features(lang):  # POS is one of the paper's local features (Table 2)
        groups = (*groups, "pos")
    if lc:
        return aramaki.build(lang, folds=settings.lc_folds, features={"groups": groups},
                             max_iterations=settings.crf_iterations)
    return CRFTagger(aramaki.featurizer(lang, groups=groups), scheme="BIO", sequence="sentence", algorithm="lbfgs",
                     c1=0.0, c2=0.5, max_iterations=settings.crf_iterations)


def run_section(ctx: Context, dataset: Any) -> Section:
    t0 = time.perf_counter()
    s = ctx.settings
    sec = Section("aramaki", "Aramaki: sentence features, extra resources, label consistency",
                  intro="Aramaki et al.'s ablation: 2-way (PHI vs non-PHI token) and typed strict figures.")
    scores: dict[str, dict[str, Any]] = {}
    rows = []
    for title, groups, lc in VARIANTS:
        if groups is None:
            run = system_run(ctx, dataset, "aramaki")
        else:
            run = ctx.run(f"aramaki:{title}", dataset,
                          lambda groups=groups, lc=lc: build_variant(groups, lc, dataset.lang, s))
        paper2 = ARAMAKI["table4_2way"][title]
        if run.error:
            rows.append([title] + [None] * 7 + list(paper2) + [run.error[:120]])
            continue
        sc = scores[title] = ctx.score_run(run)
        b = sc["binary_phi"]
        rows.append([title, b["precision"], b["recall"], b["f1"], sc["strict"]["precision"], sc["strict"]["recall"],
                     sc["strict"]["f1"], run.train_seconds, *paper2, ""])
    sec.table("variants", "2-way token and typed strict P/R/F; paper Table 4 2-way P/R/F (%)",
              ["variant", "2-way P", "2-way R", "2-way F", "strict P", "strict R", "strict F", "train s",
               "paper P", "paper R", "paper F", "error"], rows)
    sec.data = {t: {"binary_phi": sc["binary_phi"], "strict": sc["strict"]} for t, sc in scores.items()}
    compare_section(sec)
    sec.differences += [
        "Aramaki et al. used 671 i2b2 2006 records (cross-validated), Tsuruoka's POS tagger and 46k/22k-entry "
        "name/location dictionaries; we use our own lexicons and "
        + ("spaCy's English POS tags (every variant)." if s.pos_features(dataset.lang) else
           "no POS feature (it needs English text and spaCy's English pipeline, the [syntax] extra)."),
        "Their first-stage labels for the second CRF's training are not described; ours are cross-fitted "
        "(lc_folds in the settings).",
        "CRF++ to convergence in the paper; L-BFGS with an iteration cap here.",
    ]
    sec.seconds = time.perf_counter() - t0
    return sec


def compare_section(sec: Section) -> None:
    """The paper comparisons of the Aramaki ablation, from ``sec.data`` alone (JSON-ready)."""
    scores = {t: d for t, d in sec.data.items() if isinstance(d, dict) and "binary_phi" in d}
    base = scores.get("BASELINE")
    if not base:
        return
    n = int((base["binary_phi"].get("tp") or 0) + (base["binary_phi"].get("fn") or 0))
    paper = ARAMAKI["table4_2way"]
    for title in ("BASE+SF", "BASE+EX", "BASE+LC", "PROPOSED"):
        if title in scores:
            a, b = scores[title]["binary_phi"]["f1"], base["binary_phi"]["f1"]
            sec.compare(f"{title} improves on BASELINE (2-way F)", f"{paper[title][2]:.2f} vs {paper['BASELINE'][2]:.2f}",
                        f"{100 * a:.2f} vs {100 * b:.2f}",
                        z_verdict(a, b, n, claim_first_higher=True, what="2-way (PHI token) F", unit="gold PHI tokens"))
    if "PROPOSED" in scores and len(scores) > 1:
        f = {t: d["binary_phi"]["f1"] for t, d in scores.items()}
        best = max(f, key=lambda t: f[t])
        rival = max((t for t in f if t != "PROPOSED"), key=lambda t: f[t])
        sec.compare("All features together are best", f"PROPOSED {paper['PROPOSED'][2]:.2f} is the best 2-way F",
                    f"best: {best}; PROPOSED {100 * f['PROPOSED']:.2f} vs {rival} {100 * f[rival]:.2f}",
                    z_verdict(f["PROPOSED"], f[rival], n, claim_first_higher=True,
                              what=f"2-way F (PROPOSED vs {rival})", unit="gold PHI tokens"))
