"""Significance-aware verdicts, and recomputing a report's comparisons from its JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.experiments.common import Section
from notescrub.experiments.reassess import reassess, reassess_report
from notescrub.experiments.report import write_report
from notescrub.experiments.verdicts import VERDICTS, combine, descriptive, verdict_of, z_verdict

DOCS = Path(__file__).resolve().parents[2] / "docs" / "experiments"


@pytest.mark.parametrize(("a", "b", "higher", "expected"), [
    (0.98, 0.90, True, "agrees"), (0.90, 0.98, True, "differs"), (0.90, 0.98, False, "agrees"),
    (0.9877, 0.9873, True, "not significant"), (0.9873, 0.9877, True, "not significant"),
])
def test_three_verdicts(a: float, b: float, higher: bool, expected: str) -> None:
    v = z_verdict(a, b, 5000, claim_first_higher=higher, what="PHI token F", unit="gold PHI tokens")
    assert v["verdict"] == expected
    assert v["test"].startswith("z-test (Uzuner eq. 6-7) on PHI token F, n = 5000 gold PHI tokens: z = ")


def test_the_issue_example_is_not_significant() -> None:
    # MEDDOCAN OoV corpus: Stat De-id 98.77 vs CRFD 98.73 on 20,309 gold PHI tokens (z = +0.28 with unrounded F)
    v = z_verdict(0.9877, 0.9873, 20309, claim_first_higher=True, what="PHI token F", unit="gold PHI tokens")
    assert v["verdict"] == "not significant" and "z = +0." in v["test"]


def test_missing_figures_and_combinations() -> None:
    assert z_verdict(None, 0.5, 10, claim_first_higher=True, what="F", unit="x")["verdict"] == "-"
    assert z_verdict(0.5, 0.5, 0, claim_first_higher=True, what="F", unit="x")["verdict"] == "-"
    yes = z_verdict(0.9, 0.5, 1000, claim_first_higher=True, what="F", unit="x")
    no = z_verdict(0.5, 0.9, 1000, claim_first_higher=True, what="F", unit="x")
    flat = z_verdict(0.5, 0.5, 1000, claim_first_higher=True, what="F", unit="x")
    assert combine([yes, yes])["verdict"] == "agrees"
    assert combine([yes, flat])["verdict"] == "not significant"
    assert combine([yes, no])["verdict"] == "differs"
    assert descriptive(True, "why")["verdict"] == "agrees (no test)"
    assert verdict_of({"agrees": False}) == "differs" and verdict_of({"verdict": "not significant"}) == "not significant"


def _aramaki(base_f: float, lc_f: float) -> Section:
    sec = Section("aramaki", "Aramaki")
    sec.data = {"BASELINE": {"binary_phi": {"f1": base_f, "tp": 900, "fn": 100}},
                "BASE+LC": {"binary_phi": {"f1": lc_f, "tp": 900, "fn": 100}}}
    return sec


def test_reassess_recomputes_old_reports(tmp_path: Path) -> None:
    sec = _aramaki(0.90, 0.905)
    sec.comparisons.append({"claim": "BASE+LC improves on BASELINE (2-way F)", "paper": "p", "ours": "o",
                            "agrees": True})  # the old, significance-blind form
    out = write_report(tmp_path, {"corpus": "toy"}, [sec])
    reassess_report(out)
    res = json.loads((out / "results.json").read_text(encoding="utf-8"))
    [c] = res["sections"][0]["comparisons"]
    assert c["verdict"] == "not significant" and "n = 1000 gold PHI tokens" in c["test"]
    assert "| not significant |" in (out / "report.md").read_text(encoding="utf-8")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "not significant" in html and "<th>test</th>" in html


@pytest.mark.parametrize("corpus", ["en-dev", "meddocan"])
def test_committed_reports_carry_current_verdicts(corpus: str) -> None:
    res = json.loads((DOCS / corpus / "results.json").read_text(encoding="utf-8"))
    for sec in res["sections"]:
        for c in sec["comparisons"]:
            assert c["verdict"] in VERDICTS and c["test"], (corpus, c["claim"])
    assert reassess(res)["sections"] == res["sections"], "rerun notescrub.experiments.reassess.reassess_report"
