"""docs/review-risk.md quotes the note-ranking comparison of benchmarks/results/risk-en-current.json correctly."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "review-risk.md").read_text(encoding="utf-8")
RANKINGS = json.loads((ROOT / "benchmarks" / "results" / "risk-en-current.json").read_text(encoding="utf-8"))[
    "other_note_rankings_top10pct"]

QUOTES = {  # quoted label in the doc -> ranking in the JSON
    "the shipped sum": "sum",
    "only leftovers\nabove 0.1:": "sum of p > 0.1",
    "above 0.3:": "sum of p > 0.3",
    "the 5 likeliest\nleftovers:": "top 5 leftovers",
    "the 20 likeliest:": "top 20 leftovers",
    "tagged tokens (more PHI, more leaks):": "tagged tokens",
    "token:": "sum + 0.02 x tagged tokens",
    "the expected false alarms:": "expected false alarms among the tagged",
    "1 − expected F:": "1 - expected_f",
}


@pytest.mark.parametrize("label", sorted(QUOTES))
def test_quoted_top10_shares(label: str) -> None:
    row = RANKINGS[QUOTES[label]]
    want = " / ".join(f"{100 * row[h]:.1f}" for h in ("half 1", "half 2", "pooled")) + " %"
    pattern = re.escape(label).replace("\\\n", r"\s+") + r"\s+" + re.escape(want).replace("\\ ", r"\s+")
    assert re.search(pattern, DOC), f"{label!r} should quote {want}"


def test_the_shipped_sum_is_the_pooled_risk_figure() -> None:
    data = json.loads((ROOT / "benchmarks" / "results" / "risk-en-current.json").read_text(encoding="utf-8"))
    assert RANKINGS["sum"]["pooled"] == data["pooled"]["leaks_found_top10pct"]["risk"]
    assert RANKINGS["oracle"]["pooled"] == data["pooled"]["leaks_found_top10pct"]["oracle"]


def test_new_wave_check_is_quoted() -> None:
    data = json.loads((ROOT / "benchmarks" / "results" / "risk-en-current.json").read_text(encoding="utf-8"))
    r = data["new_wave"]["report"]
    text = " ".join(DOC.split())
    assert f"Spearman(expected_f, F) **{r['spearman_expected_f_f']:.3f}**" in text
    assert f"Spearman(−risk, F) {r['spearman_risk_f']:.3f}, log-probability {r['spearman_logprob_f']:.3f}" in text
    top = r["leaks_found_top10pct"]
    assert (f"hold {100 * top['risk']:.1f} % of the {r['leaked_tokens']} leaked tokens (log-probability "
            f"{100 * top['logprob']:.1f} %, random {100 * r['leaks_found_top10pct_random_expectation']:.1f} %, "
            f"oracle {100 * top['oracle']:.1f} %)") in text
    assert f"cover **{100 * r['top20_suspects_cover']:.1f} %**" in text
    expected, actual = r["expected_vs_actual_leftover_phi"]
    assert f"{expected} PHI leftovers expected against {actual}" in text
