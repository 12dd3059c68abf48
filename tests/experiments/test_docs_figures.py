"""docs/experiments.md quotes the committed reports' results.json correctly.

The MEDDOCAN section is the report's ``report.md`` verbatim (itself rendered from
``results.json``); the en-dev summary and the discussion quote figures by hand, so a
table of (quoted text, where it comes from) is checked here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from notescrub.experiments.report import render_markdown

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")


def _results(corpus: str) -> dict[str, Any]:
    return json.loads((ROOT / "docs" / "experiments" / corpus / "results.json").read_text(encoding="utf-8"))


def _data(corpus: str, section: str) -> dict[str, Any]:
    return next(s for s in _results(corpus)["sections"] if s["key"] == section)["data"]


def _sys(corpus: str, system: str, node: str, key: str = "f1") -> float:
    return _data(corpus, "systems")[system]["scores"][node][key]


def _writers(corpus: str, node: str, key: str) -> float:
    r = json.loads((ROOT / "docs" / "experiments" / "en-writers" / "rule-systems.json").read_text(encoding="utf-8"))
    return r["systems"]["H+D"][corpus][node][key]


@pytest.mark.parametrize("corpus", ["meddocan", "rerun-2026-11-27/aramaki-en-dev", "rerun-2026-11-27/aramaki-meddocan",
                                    "rerun-2026-11-27/manchester-en-dev", "rerun-2026-11-27/wi-deid-en-dev",
                                    "rerun-2026-11-27/carafe-en-dev", "pos-2026-11-27/en-dev"])
def test_report_section_is_the_rendered_results(corpus: str) -> None:
    md = (ROOT / "docs" / "experiments" / corpus / "report.md").read_text(encoding="utf-8")
    assert render_markdown(_results(corpus)) == md
    assert md.rstrip("\n") in DOC


def _endev_rows() -> dict[str, list[str]]:
    part = DOC[DOC.index("### en-dev (5-fold"):]
    table = part[part.index("| system | PHI token P / R / F"):]
    rows = {}
    for line in table.splitlines()[2:]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows[cells[0]] = cells
    return rows


@pytest.mark.parametrize("system", ["Stat De-id", "CRFD", "H+D", "Carafe", "LingPipe", "WI-deId", "Manchester",
                                    "Aramaki"])
def test_en_dev_systems_table(system: str) -> None:
    cells = _endev_rows()[system]
    want = " / ".join(f"{_sys('en-dev', system, 'binary_phi', k):.3f}" for k in ("precision", "recall", "f1"))
    assert cells[1] == want
    want = " / ".join(f"{_sys('en-dev', system, 'strict', k):.3f}" for k in ("precision", "recall", "f1"))
    assert cells[3] == want
    z = _data("en-dev", "systems")[system]["z_vs_stat_deid"]
    if z:
        assert cells[2] == f"{z['phi']['z']:+.2f}".replace("-", "\u2212") + ("*" if z["phi"]["significant"] else "")


RERUN = "rerun-2026-11-27/"
POS = "pos-2026-11-27/en-dev"


def _aramaki(corpus: str, variant: str) -> float:
    return _data(corpus, "aramaki")[variant]["binary_phi"]["f1"]


def _wi(corpus: str, variant: str) -> float:
    return _data(corpus, "wi-deid")[variant]["strict"]["f1"]


def _pp(variant: str, node: str, measure: str) -> float:
    return _data(RERUN + "carafe-en-dev", "carafe")["pp"][variant][node][measure]


def _man(corpus: str, key: str, measure: str) -> float:
    return _data(corpus, "manchester")[key]["strict"][measure]


#: (text in docs/experiments.md, its source, format)
CLAIMS: list[tuple[str, Callable[[], float], str]] = [
    ("best PHI-token F there (94.45", lambda: 100 * _sys("en-dev", "Manchester", "binary_phi"), "{:.2f}"),
    ("above Stat De-id's 89.79", lambda: 100 * _sys("en-dev", "Stat De-id", "binary_phi"), "{:.2f}"),
    ("Carafe is next at 91.22", lambda: 100 * _sys("en-dev", "Carafe", "binary_phi"), "{:.2f}"),
    ("best strict F of the seed systems on en-dev (0.883", lambda: _sys("en-dev", "Manchester", "strict"), "{:.3f}"),
    ("strict F (0.947, then Carafe", lambda: _sys("meddocan", "Manchester", "strict"), "{:.3f}"),
    ("then Carafe 0.946", lambda: _sys("meddocan", "Carafe", "strict"), "{:.3f}"),
    ("best PHI-token F is Carafe's (98.09", lambda: 100 * _sys("meddocan", "Carafe", "binary_phi"), "{:.2f}"),
    ("(89.79 vs 87.37", lambda: 100 * _sys("en-dev", "H+D", "binary_phi"), "{:.2f}"),
    ("(+EX: 2-way F 87.76", lambda: 100 * _aramaki("en-dev", "BASE+EX"), "{:.2f}"),
    ("87.76 vs\n  86.12", lambda: 100 * _aramaki("en-dev", "BASELINE"), "{:.2f}"),
    ("(+SF 83.30)", lambda: 100 * _aramaki("en-dev", "BASE+SF"), "{:.2f}"),
    ("(+LC 81.39)", lambda: 100 * _aramaki("en-dev", "BASE+LC"), "{:.2f}"),
    ("(84.89 vs 87.76)", lambda: 100 * _aramaki("en-dev", "PROPOSED"), "{:.2f}"),
    ("+SF (96.60)", lambda: 100 * _aramaki("meddocan", "BASE+SF"), "{:.2f}"),
    ("PROPOSED (96.71)", lambda: 100 * _aramaki("meddocan", "PROPOSED"), "{:.2f}"),
    ("BASELINE (96.09)", lambda: 100 * _aramaki("meddocan", "BASELINE"), "{:.2f}"),
    ("(+LC 95.82)", lambda: 100 * _aramaki("meddocan", "BASE+LC"), "{:.2f}"),
    ("up on en-dev (0.733", lambda: _wi("en-dev", "WI-deId"), "{:.3f}"),
    ("(0.733 vs 0.723", lambda: _wi("en-dev", "no preprocessing"), "{:.3f}"),
    ("(0.925 with vs 0.928", lambda: _wi("meddocan", "WI-deId"), "{:.3f}"),
    ("Lex\n  0.601", lambda: _wi("en-dev", "Lex"), "{:.3f}"),
    ("Lex+Ort 0.713", lambda: _wi("en-dev", "Lex+Ort"), "{:.3f}"),
    ("highest precision (0.956", lambda: _man("en-dev", "precision/2pass", "precision"), "{:.3f}"),
    ("best F1 (0.883 vs", lambda: _man("en-dev", "f1/2pass", "f1"), "{:.3f}"),
    ("(0.883 vs 0.879", lambda: _man("en-dev", "precision/2pass", "f1"), "{:.3f}"),
    ("strict recall (0.849)", lambda: _man("en-dev", "recall/2pass", "recall"), "{:.3f}"),
    ("F1 preset's\n  (0.856)", lambda: _man("en-dev", "f1/2pass", "recall"), "{:.3f}"),
    ("best F1 (0.947 vs", lambda: _man("meddocan", "f1/2pass", "f1"), "{:.3f}"),
    ("precision preset's 0.938", lambda: _man("meddocan", "precision/2pass", "f1"), "{:.3f}"),
    ("highest precision (0.967 vs 0.962", lambda: _man("meddocan", "precision/2pass", "precision"), "{:.3f}"),
    ("(0.967 vs 0.962", lambda: _man("meddocan", "f1/2pass", "precision"), "{:.3f}"),
    ("strict recall (0.923)", lambda: _man("meddocan", "recall/2pass", "recall"), "{:.3f}"),
    # the reruns after the fixes (docs/experiments/rerun-2026-11-27/)
    ("en-dev +LC 86.48", lambda: 100 * _aramaki(RERUN + "aramaki-en-dev", "BASE+LC"), "{:.2f}"),
    ("PROPOSED 87.45 against", lambda: 100 * _aramaki(RERUN + "aramaki-en-dev", "PROPOSED"), "{:.2f}"),
    ("against BASELINE 86.12", lambda: 100 * _aramaki(RERUN + "aramaki-en-dev", "BASELINE"), "{:.2f}"),
    ("+EX 88.44 stays best", lambda: 100 * _aramaki(RERUN + "aramaki-en-dev", "BASE+EX"), "{:.2f}"),
    ("+LC 96.85 and PROPOSED", lambda: 100 * _aramaki(RERUN + "aramaki-meddocan", "BASE+LC"), "{:.2f}"),
    ("PROPOSED 97.34\n  improve", lambda: 100 * _aramaki(RERUN + "aramaki-meddocan", "PROPOSED"), "{:.2f}"),
    ("BASELINE 96.09 significantly", lambda: 100 * _aramaki(RERUN + "aramaki-meddocan", "BASELINE"), "{:.2f}"),
    ("+EX (96.44)", lambda: 100 * _aramaki(RERUN + "aramaki-meddocan", "BASE+EX"), "{:.2f}"),
    ("Lex 0.5995 <", lambda: _wi(RERUN + "wi-deid-en-dev", "Lex"), "{:.4f}"),
    # POS features in WI-deId and Aramaki (docs/experiments/pos-2026-11-27/)
    ("strict F from 0.7274 (the", lambda: _wi(POS, "WI-deId without POS"), "{:.4f}"),
    ("rerun below without POS) to 0.7423", lambda: _wi(POS, "WI-deId"), "{:.4f}"),
    ("(Lex 0.6519 <", lambda: _wi(POS, "Lex"), "{:.4f}"),
    ("< Lex+Ort 0.7069 <", lambda: _wi(POS, "Lex+Ort"), "{:.4f}"),
    ("0.7298 without, 0.7423", lambda: _wi(POS, "no preprocessing"), "{:.4f}"),
    ("rerun below, 85.19", lambda: 100 * _aramaki(POS, "BASELINE"), "{:.2f}"),
    ("(87.45 → 87.95)", lambda: 100 * _aramaki(POS, "PROPOSED"), "{:.2f}"),
    ("+EX stays best\n  (88.73", lambda: 100 * _aramaki(POS, "BASE+EX"), "{:.2f}"),
    ("< Lex+Ort 0.7036 <", lambda: _wi(RERUN + "wi-deid-en-dev", "Lex+Ort"), "{:.4f}"),
    ("< Lex+Ort+Dic 0.7274, the paper", lambda: _wi(RERUN + "wi-deid-en-dev", "WI-deId"), "{:.4f}"),
    ("strict recall 0.7380 →", lambda: _pp("Carafe-ALL (b=-1.5)", "strict", "recall"), "{:.4f}"),
    ("→\n0.7362 and", lambda: _pp("Carafe-ALL+PP (b=-1.5)", "strict", "recall"), "{:.4f}"),
    ("strict F 0.7513 →", lambda: _pp("Carafe-ALL (b=-1.5)", "strict", "f1"), "{:.4f}"),
    ("→ 0.7481 at bias", lambda: _pp("Carafe-ALL+PP (b=-1.5)", "strict", "f1"), "{:.4f}"),
    ("PHI-token F 0.8859 →", lambda: _pp("Carafe-ALL (b=-1.5)", "binary_phi", "f1"), "{:.4f}"),
    ("→ 0.8863. With", lambda: _pp("Carafe-ALL+PP (b=-1.5)", "binary_phi", "f1"), "{:.4f}"),
    ("strict F 0.8780 /", lambda: _man(RERUN + "manchester-en-dev", "precision/2pass", "f1"), "{:.4f}"),
    ("/ 0.8497 /", lambda: _man(RERUN + "manchester-en-dev", "recall/2pass", "f1"), "{:.4f}"),
    ("/ 0.8822 at the", lambda: _man(RERUN + "manchester-en-dev", "f1/2pass", "f1"), "{:.4f}"),
    ("| en-dev (rules written from its errors) | 65 | 0.902",
     lambda: _writers("en-dev", "binary_phi", "precision"), "{:.3f}"),
    ("| en-writers (held out) | 624 | 0.924 / 0.726 / 0.813",
     lambda: _writers("en-writers", "binary_phi", "f1"), "{:.3f}"),
    ("0.726 / 0.813 | 0.668 / 0.611 / 0.638", lambda: _writers("en-writers", "strict", "f1"), "{:.3f}"),
    ("H+D on held-out notes: PHI-token F 0.813", lambda: _writers("en-writers", "binary_phi", "f1"), "{:.3f}"),
]


@pytest.mark.parametrize(("quote", "source", "form"), CLAIMS, ids=[c[0][:40] for c in CLAIMS])
def test_quoted_figure(quote: str, source: Callable[[], float], form: str) -> None:
    assert quote in DOC, f"quote no longer in docs/experiments.md: {quote!r}"
    value = form.format(source())
    numbers = re.findall(r"\d+\.\d+", quote)
    assert value in numbers, f"{quote!r}: results.json gives {value}"


def test_the_issue_misquote_is_gone() -> None:
    assert "second-best PHI\n  token F on en-dev (0.912" not in DOC and "0–1.19" not in DOC
