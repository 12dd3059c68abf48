"""Flat views of an evaluation result: CSV rows, summary rows, the per-type table.

>>> from notescrub.types import Document, Span
>>> from notescrub.evaluate import evaluate
>>> g = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR"), Span(12, 16, "DATE")]})]
>>> r = evaluate(g, g, bootstrap_resamples=0)
>>> [(x["measure"], x["average"], x["f1"]) for x in summary_rows(r)][:2]
[('strict', 'micro', 1.0), ('strict', 'macro', 1.0)]
>>> sorted(per_type(r)[1])
['DATE', 'DOCTOR']
>>> rows(r)[0]["section"], CSV_COLUMNS[:3]
('i2b2_2014', ('section', 'measure', 'average'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from notescrub.evaluate.i2b2_2014 import MEASURES

__all__ = ["CSV_COLUMNS", "comparison_lines", "per_type", "rows", "summary_rows"]

CSV_COLUMNS = ("section", "measure", "average", "type", "precision", "recall", "f1", "tp", "fp", "fn", "value")


def _row(section: str, measure: str, average: str, type_: str, d: Mapping[str, Any] | None = None,
         value: Any = "") -> dict[str, Any]:
    d = d or {}
    return {"section": section, "measure": measure, "average": average, "type": type_,
            "precision": d.get("precision", ""), "recall": d.get("recall", ""), "f1": d.get("f1", ""),
            "tp": d.get("tp", ""), "fp": d.get("fp", ""), "fn": d.get("fn", ""), "value": value}


def _i2b2_2014_rows(sec: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for m in MEASURES:
        e = sec[m]
        out.append(_row("i2b2_2014", m, "micro", "ALL", e["micro"]))
        out.append(_row("i2b2_2014", m, "macro", "ALL", e["macro"]))
        for key, prefix in (("by_category", "category:"), ("by_subtype", "subtype:")):
            for t, d in e.get(key, {}).items():
                out.append(_row("i2b2_2014", m, "micro", prefix + t, d))
    return out


def _meddocan_rows(sec: dict[str, Any]) -> list[dict[str, Any]]:
    out = [_row("meddocan", m, "micro", "ALL", sec[m]) for m in ("subtask1", "subtask2_strict", "subtask2_merged")]
    out += [_row("meddocan", "subtask1", "micro", t, d) for t, d in sec["subtask1_by_type"].items()]
    out.append(_row("meddocan", "leak", "micro", "ALL", value=sec["leak"]["micro"]))
    return out


def _i2b2_2006_rows(sec: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for m in ("token", "phrase"):
        out.append(_row("i2b2_2006", m, "micro", "ALL", sec[m]["micro"]))
        out += [_row("i2b2_2006", m, "micro", t, d) for t, d in sec[m]["by_type"].items()]
    out.append(_row("i2b2_2006", "muc", "micro", "ALL", sec["muc"]))
    out.append(_row("i2b2_2006", "binary", "micro", "PHI", sec["binary"]["phi"]))
    out.append(_row("i2b2_2006", "binary", "micro", "non-PHI", sec["binary"]["non_phi"]))
    out.append(_row("i2b2_2006", "weighted_token_f_with_true_negatives", "weighted", "ALL",
                    value=sec["weighted_token_f_with_true_negatives"]["f1"]))
    return out


def _binary_rows(sec: dict[str, Any]) -> list[dict[str, Any]]:
    return [_row("binary", "token", "micro", "PHI", sec["phi"]), _row("binary", "token", "micro", "non-PHI", sec["non_phi"])]


def rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every figure of ``result`` as flat rows (CSV layout), error counts last."""
    makers = {"i2b2_2014": _i2b2_2014_rows, "meddocan": _meddocan_rows, "i2b2_2006": _i2b2_2006_rows,
              "binary": _binary_rows}
    out: list[dict[str, Any]] = []
    for key, fn in makers.items():
        if key in result:
            out += fn(result[key])
    for t, counts in result.get("error_analysis", {}).get("counts", {}).items():
        for kind, n in counts.items():
            out.append(_row("errors", kind, "count", t, value=n))
    return out


def summary_rows(result: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Overall (type ``ALL``/``PHI``/``non-PHI``) rows: what the summary tables show."""
    return [r for r in rows(result) if r["section"] != "errors" and r["type"] in ("ALL", "PHI", "non-PHI")]


def per_type(result: Mapping[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    """Title and per-type P/R/F of the scheme's headline measure."""
    if "i2b2_2014" in result:
        return "i2b2 2014 strict, per subtype", result["i2b2_2014"]["strict"]["by_subtype"]
    if "meddocan" in result:
        return "MEDDOCAN subtask 1, per label", result["meddocan"]["subtask1_by_type"]
    if "i2b2_2006" in result:
        return "i2b2 2006 phrase level, per type", result["i2b2_2006"]["phrase"]["by_type"]
    b = result["binary"]
    return "PHI vs non-PHI tokens", {"PHI": b["phi"], "non-PHI": b["non_phi"]}


def comparison_lines(c: Mapping[str, Any]) -> list[str]:
    """Plain-text lines describing a :func:`notescrub.evaluate.compare.compare_systems` result."""
    lines = [f"compare {c['measure']}: F1 PRED {c['a']['f1']:.4f} vs PRED2 {c['b']['f1']:.4f}"]
    d = c.get("f1_difference")
    if d:
        lines.append(f"  paired bootstrap F1 difference {d['estimate']:+.4f} "
                     f"(95% CI {d['low']:+.4f} to {d['high']:+.4f}, p {d['p_value']:.4f})")
    for k, z in c["z_tests"].items():
        if z["z"] is not None:
            verdict = "significant" if z["significant"] else "not significant"
            lines.append(f"  z-test {k} (n={z['n']}): z {z['z']:.3f}, p {z['p_value']:.4f}, {verdict} at 0.05")
    return lines
