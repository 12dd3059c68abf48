"""Reports of an evaluation result: terminal table, JSON, CSV and HTML.

All writers are atomic (temporary file, then rename) and only use the result
dict, which never holds note text. The CSV has one row per figure
(:func:`notescrub.evaluate.tables.rows`, columns ``CSV_COLUMNS``).
:func:`write_html_report` lives in :mod:`notescrub.evaluate.html_report` and is
re-exported here, imported on first use: its plots need matplotlib (extra ``reports``),
the other writers do not.

>>> from notescrub.types import Document, Span
>>> from notescrub.evaluate import evaluate
>>> g = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR"), Span(12, 16, "DATE")]})]
>>> import tempfile, pathlib
>>> r = evaluate(g, g, bootstrap_resamples=0)
>>> out = pathlib.Path(tempfile.mkdtemp())
>>> write_csv(r, out / "r.csv").read_text(encoding="utf-8").splitlines()[1]
'i2b2_2014,strict,micro,ALL,1.0,1.0,1.0,2,0,0,'
>>> import json; json.loads(write_json(r, out / "r.json").read_text(encoding="utf-8"))["scheme"]
'i2b2-2014'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from notescrub.evaluate.tables import (
    CSV_COLUMNS,
    comparison_lines,
    per_type,
    rows,
    summary_rows,
)
from notescrub.io.atomic import atomic_file

__all__ = [
    "CSV_COLUMNS",
    "per_type",
    "render_terminal",
    "rows",
    "summary_rows",
    "write_csv",
    "write_html_report",
    "write_json",
]

def write_html_report(
    result: Mapping[str, Any], out_dir: str | Path, extra_plots: Mapping[str, Any] | None = None
) -> Path:
    """:func:`notescrub.evaluate.html_report.write_html_report` (``MissingExtraError`` without matplotlib)."""
    from notescrub.evaluate.html_report import write_html_report as write

    return write(result, out_dir, extra_plots)


def write_json(result: Mapping[str, Any], path: str | Path) -> Path:
    """Write ``result`` as indented UTF-8 JSON, atomically."""
    target = Path(path)
    with atomic_file(target) as tmp:
        tmp.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return target


def write_csv(result: Mapping[str, Any], path: str | Path) -> Path:
    """Write :func:`rows` as CSV (header :data:`CSV_COLUMNS`), atomically."""
    target = Path(path)
    with atomic_file(target) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=CSV_COLUMNS)
        w.writeheader()
        w.writerows(rows(result))
    return target


def _fmt(v: Any) -> str:
    return f"{v:.4f}" if isinstance(v, float) else str(v)


def render_terminal(result: Mapping[str, Any], console: Any = None, *, per_type_rows: bool = True) -> None:
    """Print summary (and per-type) tables with rich."""
    from rich.console import Console
    from rich.table import Table

    con = console or Console()
    if console is None and not con.is_terminal:
        con = Console(width=160)  # piped or redirected: do not truncate numbers to 80 columns
    docs = result["documents"]
    title = (f"notescrub evaluate: {result['scheme']} ({result['labels']} labels), "
             f"{docs['scored']} documents scored")
    t = Table(title=title, title_justify="left")
    srows = summary_rows(result)
    keys = ["precision", "recall", "f1", "tp", "fp", "fn"] + (["value"] if any(r["value"] != "" for r in srows) else [])
    for c in ("measure", "avg", "type", "P", "R", "F1", "TP", "FP", "FN", "value")[: 3 + len(keys)]:
        t.add_column(c, justify="left" if c in ("measure", "avg", "type") else "right", no_wrap=True)
    for r in srows:
        t.add_row(r["measure"], r["average"], r["type"], *(_fmt(r[k]) for k in keys))
    con.print(t)
    head = result.get("headline", {})
    if "f1_ci95" in head:
        lo, hi = head["f1_ci95"]
        con.print(f"headline {head['measure']}: F1 {head['f1']:.4f} (95% bootstrap CI over documents {lo:.4f}-{hi:.4f})")
    if per_type_rows:
        name, table = per_type(result)
        pt = Table(title=name, title_justify="left")
        for c in ("type", "P", "R", "F1", "TP", "FP", "FN"):
            pt.add_column(c, justify="left" if c == "type" else "right", no_wrap=True)
        for k, d in table.items():
            pt.add_row(k, *(_fmt(d.get(x, "")) for x in ("precision", "recall", "f1", "tp", "fp", "fn")))
        con.print(pt)
    cmp_ = result.get("comparison")
    if cmp_:
        for line in comparison_lines(cmp_):
            con.print(line)
    tot = result.get("error_analysis", {}).get("totals")
    if tot:
        con.print("errors: " + ", ".join(f"{k} {v}" for k, v in tot.items() if k != "correct")
                  + f" (correct {tot['correct']})")
    for n in result.get("notes", []):
        con.print(f"note: {n}", style="dim")
