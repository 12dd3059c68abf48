"""Section 4: WI-deId's ablations (He et al. 2015, Table 5 and Figs. 2-3).

* with and without the fused-token preprocessing (the recipe's tokenizer, He et al.'s
  Table 1 rules ``fused="he2015"``, against the plain tokenizer ``fused=False``: the
  "comparison system" of Table 5);
* feature sets added greedily: Lex, Lex+Ort, Lex+Ort+Dic (Fig. 2 per category, Fig. 3
  overall), all at the i2b2 strict level.

>>> [v[0] for v in VARIANTS]
['WI-deId', 'no preprocessing', 'Lex', 'Lex+Ort']
"""

from __future__ import annotations

import time
from typing import Any

from notescrub.experiments.common import Context, Section, build_system
from notescrub.experiments.papers import HE
from notescrub.experiments.systems import system_run
from notescrub.experiments.verdicts import combine, z_verdict

__all__ = ["VARIANTS", "compare_section", "run_section"]

#: (title, featurizer overrides; None = the systems table's WI-deId run). With POS features
#: on (``Settings.pos``), POS joins every variant's groups: it is one of He et al.'s lexical
#: features; ``POS_VARIANT`` then measures WI-deId without it.
VARIANTS: list[tuple[str, dict[str, Any] | None]] = [
    ("WI-deId", None),
    ("no preprocessing", {"fused": False}),
    ("Lex", {"groups": ("lexical",), "window_groups": ("lexical",)}),
    ("Lex+Ort", {"groups": ("lexical", "orthographic"), "window_groups": ("lexical", "orthographic")}),
]
POS_VARIANT = "WI-deId without POS"


def variants(pos: bool) -> list[tuple[str, dict[str, Any] | None]]:
    """The variants run when POS features are ``pos`` (on: each group list gains ``pos``).

    >>> [t for t, _ in variants(True)][-1], variants(True)[2][1]["groups"]
    ('WI-deId without POS', ('lexical', 'pos'))
    """
    if not pos:
        return list(VARIANTS)
    out: list[tuple[str, dict[str, Any] | None]] = [
        (t, None if f is None else {**f, "groups": (*f["groups"], "pos")} if "groups" in f else dict(f))
        for t, f in VARIANTS]
    return [*out, (POS_VARIANT, {"pos": False})]


def run_section(ctx: Context, dataset: Any) -> Section:
    t0 = time.perf_counter()
    s = ctx.settings
    sec = Section("wi-deid", "WI-deId: preprocessing and feature-set ablations",
                  intro=("WI-deId (sentence CRF, BIO, +/-2 window) with and without fused-token preprocessing, and "
                         "with the feature groups added one at a time. WI-deId = Lex+Ort+Dic with preprocessing."))
    scores: dict[str, dict[str, Any]] = {}
    rows = []
    pos = s.pos_features(dataset.lang)
    for title, feats in variants(pos):
        if feats is None:
            run = system_run(ctx, dataset, "wi-deid")
        elif title == POS_VARIANT:
            run = ctx.run(f"wi-deid:{title}", dataset, lambda: build_system("wi-deid", dataset.lang, s, pos=False))
        else:
            run = ctx.run(f"wi-deid:{title}", dataset,
                          lambda feats=feats: build_system("wi-deid", dataset.lang, s, features=dict(feats)))
        if run.error:
            rows.append([title] + [None] * 7 + [run.error[:120]])
            continue
        sc = scores[title] = ctx.score_run(run)
        rows.append([title, sc["strict"]["precision"], sc["strict"]["recall"], sc["strict"]["f1"],
                     sc["token"]["f1"], sc["binary_phi"]["f1"], run.train_seconds, run.annotate_seconds, ""])
    sec.table("variants", "Strict / token / binary-token figures per variant",
              ["variant", "strict P", "strict R", "strict F", "token F", "PHI token F", "train s", "annotate s",
               "error"], rows)
    cats = sorted({c for sc in scores.values() for c in sc["by_category"]})
    order = ["no preprocessing", "Lex", "Lex+Ort", POS_VARIANT, "WI-deId"]
    titles = [t for t in order if t in scores]
    sec.table("categories", "Strict F per category (paper Table 5 / Fig. 2 columns)",
              ["category", *titles, "paper: no preprocessing", "paper: WI-deId"],
              [[c, *(scores[t]["by_category"].get(c, {}).get("f1") for t in titles),
                HE["table5_no_preprocessing"].get(c), HE["table5_wideid"].get(c)] for c in cats])
    sec.data = {t: {"strict": sc["strict"], "token": sc["token"], "by_category": sc["by_category"]}
                for t, sc in scores.items()}
    if len(titles) >= 2:
        from notescrub.evaluate import plots

        sec.plots.append(("Feature sets", plots.prf_bars(
            {t: {"precision": scores[t]["strict"]["precision"], "recall": scores[t]["strict"]["recall"],
                 "f1": scores[t]["strict"]["f1"]} for t in titles}, title="WI-deId variants: strict P/R/F")))
    compare_section(sec)
    sec.differences += [
        "He et al. tokenised with OpenNLP plus their regexes (Table 1); we apply the same Table 1 regexes "
        "(notescrub.text.he2015) on top of a plain tokenizer that splits whitespace and every punctuation "
        "character (our stand-in for OpenNLP and their punctuation step), and 'no preprocessing' is that plain "
        "tokenizer alone. Their test set was the i2b2 2014 test data (514 notes).",
        ("POS tags from spaCy's English pipeline instead of GENIA, in every variant (Lex includes POS, as in the "
         f"paper); '{POS_VARIANT}' is WI-deId with it removed." if pos else
         "No POS feature here (GENIA in the paper; spaCy's English pipeline, the [syntax] extra, gives it on "
         "English corpora).") + " Our dictionaries are "
        "larger (names, places, professions) than their state/street/country/date lists.",
        "CRF++ trained to convergence in the paper; here L-BFGS with an iteration cap (see settings).",
    ]
    sec.seconds = time.perf_counter() - t0
    return sec


def _gold(node: dict[str, Any]) -> int:
    return int((node.get("tp") or 0) + (node.get("fn") or 0))


def compare_section(sec: Section) -> None:
    """The paper comparisons of the WI-deId study, from ``sec.data`` alone (JSON-ready)."""
    st = {t: d["strict"] for t, d in sec.data.items() if isinstance(d, dict) and "strict" in d}
    f = {t: v["f1"] for t, v in st.items()}
    if "WI-deId" in f and "no preprocessing" in f:
        sec.compare("Fused-token preprocessing helps", f"strict F {HE['table5_no_preprocessing']['ALL']:.4f} without vs {HE['table5_wideid']['ALL']:.4f} with (Table 5)",
                    f"{f['no preprocessing']:.4f} without vs {f['WI-deId']:.4f} with",
                    z_verdict(f["WI-deId"], f["no preprocessing"], _gold(st["WI-deId"]), claim_first_higher=True,
                              what="strict F", unit="gold spans"))
    if all(t in f for t in ("Lex", "Lex+Ort", "WI-deId")):
        n = _gold(st["WI-deId"])
        sec.compare("Each feature group adds to F (Lex < Lex+Ort < Lex+Ort+Dic)", HE["fig3"],
                    f"Lex {f['Lex']:.4f}, Lex+Ort {f['Lex+Ort']:.4f}, Lex+Ort+Dic {f['WI-deId']:.4f}",
                    combine([z_verdict(f["Lex+Ort"], f["Lex"], n, claim_first_higher=True,
                                       what="strict F (Lex+Ort vs Lex)", unit="gold spans"),
                             z_verdict(f["WI-deId"], f["Lex+Ort"], n, claim_first_higher=True,
                                       what="strict F (Lex+Ort+Dic vs Lex+Ort)", unit="gold spans")]))
    if "WI-deId" in f and POS_VARIANT in f:
        sec.compare("POS tags help", "He et al. include the token's POS tag among the lexical features as helpful for NER (Section 2.2; no ablation figure)",
                    f"{f[POS_VARIANT]:.4f} without POS vs {f['WI-deId']:.4f} with",
                    z_verdict(f["WI-deId"], f[POS_VARIANT], _gold(st["WI-deId"]), claim_first_higher=True,
                              what="strict F (with vs without POS)", unit="gold spans"))
