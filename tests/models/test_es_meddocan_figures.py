"""The MEDDOCAN figures in docs/crf.md are the ones the committed result files hold.

Each row of the train-only table ("Honest figures") names a variant and a setting (first pass,
or the second pass at a min score); its P / R / F1, counts and subtask-2 figures must be those
of ``benchmarks/results/meddocan-train-only-<variant>.json``. The cross-validation tables are
checked the same way against ``meddocan-cv5-<variant>.json``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "crf.md"
RESULTS = ROOT / "benchmarks" / "results"

_FIGURES = re.compile(r"([01]\.\d{4}) / ([01]\.\d{4}) / \*\*([01]\.\d{4})\*\* \((\d+), (\d+), (\d+)\)")
_MIN_SCORE = re.compile(r"min score (0\.\d)")


def _section(title: str) -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(title)
    end = text.find("\n### ", start + len(title))
    return text[start:end if end >= 0 else None].splitlines()


def _setting(label: str) -> str:
    """The result key a row label describes: ``first_pass`` or ``second_pass_min<score>-<resolver>``
    (``cover`` where the row names only the ``cover(longest)`` resolver; ``-dates`` with the date rules)."""
    if "second pass" not in label:
        return "first_pass"
    m = _MIN_SCORE.search(label)
    assert m, f"row names a second pass without its min score: {label!r}"
    resolver = "cover" if "`cover(longest)`" in label and "`longest`" not in label else "longest"
    return f"second_pass_min{m.group(1)}-{resolver}" + ("-dates" if "date rules" in label else "")


def _rows(title: str, variant_of: Any) -> list[tuple[str, str, list[str]]]:
    """(variant, setting, cells) of the table rows of a section that carry full figures."""
    rows = []
    for line in _section(title):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not _FIGURES.search(cells[1]):
            continue
        rows.append((variant_of(cells[0]), _setting(cells[0]), cells))
    return rows


def _check(cells: list[str], result: dict[str, Any]) -> None:
    p, r, f, tp, fp, fn = _FIGURES.search(cells[1]).groups()  # type: ignore[union-attr]
    s1 = result["subtask1"]
    assert (p, r, f) == tuple(f"{s1[k]:.4f}" for k in ("precision", "recall", "f1"))
    assert (int(tp), int(fp), int(fn)) == (s1["tp"], s1["fp"], s1["fn"])


def _train_only_variant(label: str) -> str:
    return re.match(r"`([^`]+)`", label).group(1)  # type: ignore[union-attr]


TRAIN_ONLY = _rows("### Honest figures: trained on MEDDOCAN train only", _train_only_variant)


def test_the_train_only_table_has_the_rows_it_should():
    variants = {v for v, _, _ in TRAIN_ONLY}
    assert {"baseline", "c1-0.1-c2-0.01", "bag4-c1-0.1-c2-0.01", "iter250", "clusters", "document"} <= variants
    assert len(TRAIN_ONLY) >= 12


@pytest.mark.parametrize("variant,setting,cells", TRAIN_ONLY, ids=[f"{v}:{s}" for v, s, _ in TRAIN_ONLY])
def test_train_only_row_matches_its_result_file(variant: str, setting: str, cells: list[str]):
    result = json.loads((RESULTS / f"meddocan-train-only-{variant}.json").read_text(encoding="utf-8"))["dev"][setting]
    _check(cells, result)
    assert cells[2] == f"{result['subtask2_strict']['f1']:.4f}"
    assert cells[3] == f"{result['subtask2_merged']['f1']:.4f}"


def _cv_rows() -> list[tuple[str, str, list[str]]]:
    """Rows of the two cross-validation tables: the previous recipe's, then the weaker net's."""
    lines = _section("### Five-fold cross-validation over train + dev")
    rows, variant = [], "baseline"
    for line in lines:
        if line.startswith("| `c1-0.1-c2-0.01`, 5-fold CV"):
            variant = "c1-0.1-c2-0.01"
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 4 and _FIGURES.search(cells[1]):
            rows.append((variant, _setting(cells[0]), cells))
    return rows


CV = _cv_rows()


@pytest.mark.parametrize("variant,setting,cells", CV, ids=[f"{v}:{s}" for v, s, _ in CV])
def test_cross_validation_row_matches_its_result_file(variant: str, setting: str, cells: list[str]):
    result = json.loads((RESULTS / f"meddocan-cv5-{variant}.json").read_text(encoding="utf-8"))["pooled"][setting]
    _check(cells, result)


def test_both_cross_validation_tables_are_checked():
    assert {v for v, _, _ in CV} == {"baseline", "c1-0.1-c2-0.01"} and len(CV) >= 6
