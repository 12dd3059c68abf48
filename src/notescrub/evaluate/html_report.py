"""Self-contained HTML report: tables plus matplotlib plots embedded as base64 PNG.

The page has inline CSS, no scripts, no web fonts and no external URL of any
kind, so it opens offline. It is built from the result dict only (no note text).
``extra_plots`` adds plots the result cannot hold:

* ``"operating_points"``: ``[{"precision", "recall", "label"?, "series"?}, ...]``;
  with two or more points a precision/recall curve is drawn;
* ``"learning_curve"``: ``[{"size", "f1", "series"?}, ...]`` (repeats at the
  same size are averaged, ± SD).

>>> import tempfile, pathlib
>>> from notescrub.types import Document, Span
>>> from notescrub.evaluate import evaluate
>>> g = [Document("a", "Dr. Ruiz on 3/18.", layers={"gold": [Span(4, 8, "DOCTOR"), Span(12, 16, "DATE")]})]
>>> out = write_html_report(evaluate(g, g, bootstrap_resamples=0), pathlib.Path(tempfile.mkdtemp()) / "rep")
>>> html = out.read_text(encoding="utf-8")
>>> out.name, "<script" in html, "http" in html, html.count("data:image/png;base64,")
('index.html', False, False, 2)
"""

from __future__ import annotations

import base64
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.evaluate import plots
from notescrub.evaluate.tables import comparison_lines, per_type, summary_rows
from notescrub.io.atomic import atomic_file

__all__ = ["EXTRA_PLOT_KEYS", "render_html", "write_html_report"]

EXTRA_PLOT_KEYS = ("operating_points", "learning_curve")

_CSS = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 2em; color: #222; max-width: 1100px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; } th { background: #f0f3f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.headline { font-size: 1.1em; background: #eef6ee; padding: 0.6em 1em; display: inline-block; }
.note { color: #555; font-size: 0.85em; } img { max-width: 100%; } .wide { overflow-x: auto; }
"""


def _cell(v: Any) -> str:
    if isinstance(v, float):
        return f'<td class="num">{v:.4f}</td>'
    if isinstance(v, int):
        return f'<td class="num">{v}</td>'
    return f"<td>{escape(str(v))}</td>"


def _table(header: Sequence[str], body: Iterable[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    rows = "".join("<tr>" + "".join(_cell(v) for v in r) + "</tr>" for r in body)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _img(png: bytes, alt: str) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<p><img alt="{escape(alt)}" src="data:image/png;base64,{data}"></p>'


def _summary(result: Mapping[str, Any]) -> str:
    d = result["documents"]
    s = result["spans"]
    facts = [
        ("scheme", result["scheme"]), ("labels compared", result["labels"]),
        ("compat-official", str(result["compat_official"]).lower()),
        ("gold documents", d["gold"]), ("documents scored", d["scored"]),
        ("missing predictions (scored empty)", d["missing_predictions"]),
        ("missing predictions skipped", d["skipped_missing"]),
        ("gold spans scored", s["gold"]), ("predicted spans scored", s["pred"]),
    ]
    for side in ("gold", "pred"):
        for lab, n in sorted(s["unscored"][side].items()):
            facts.append((f"{side} spans not scored ({lab})", n))
    html = _table(["item", "value"], facts)
    head = result.get("headline")
    if head:
        ci = head.get("f1_ci95")
        ci_txt = f" (95% bootstrap CI {ci[0]:.4f} to {ci[1]:.4f})" if ci else ""
        html += (f'<p class="headline">{escape(head["measure"])}: P {head["precision"]:.4f}, '
                 f'R {head["recall"]:.4f}, <b>F1 {head["f1"]:.4f}</b>{escape(ci_txt)}</p>')
    return html


def _measures(result: Mapping[str, Any]) -> str:
    cols = ("measure", "average", "type", "precision", "recall", "f1", "tp", "fp", "fn", "value")
    return _table(cols, ([r[c] for c in cols] for r in summary_rows(result)))


def _per_type(result: Mapping[str, Any]) -> str:
    title, table = per_type(result)
    body = [[t, d["precision"], d["recall"], d["f1"], d["tp"], d["fp"], d["fn"]] for t, d in table.items()]
    html = f"<h2>{escape(title)}</h2>" + _table(("type", "precision", "recall", "f1", "tp", "fp", "fn"), body)
    if table:
        html += _img(plots.prf_bars(table, title=title), f"bar chart: {title}")
    return html


def _errors(result: Mapping[str, Any]) -> str:
    ea = result.get("error_analysis")
    if not ea:
        return ""
    kinds = list(ea["totals"])
    html = "<h2>Error analysis</h2>"
    html += _table(["type", *kinds], ([t, *(c[k] for k in kinds)] for t, c in ea["counts"].items()))
    html += _table(["total", *kinds], [["ALL", *(ea["totals"][k] for k in kinds)]])
    conf = ea["confusion"]
    if len(conf["rows"]) > 1 or len(conf["columns"]) > 1:
        html += "<h2>Confusion matrix (gold rows, predicted columns)</h2>"
        html += _img(plots.confusion_heatmap(conf), "confusion matrix heat map")
        html += '<div class="wide">' + _table(
            ["gold \\ predicted", *conf["columns"]],
            ([r, *(conf["matrix"][r][c] for c in conf["columns"])] for r in conf["rows"])) + "</div>"
    return html


def _comparison(result: Mapping[str, Any]) -> str:
    c = result.get("comparison")
    if not c:
        return ""
    return "<h2>Comparison with a second system</h2><ul>" + "".join(
        f"<li>{escape(line.strip())}</li>" for line in comparison_lines(c)) + "</ul>"


def _check_extra(extra: Mapping[str, Any] | None) -> Mapping[str, Any]:
    extra = extra or {}
    unknown = set(extra) - set(EXTRA_PLOT_KEYS)
    if unknown:
        raise ConfigError(f"unknown extra plot(s) {sorted(unknown)}; known: {', '.join(EXTRA_PLOT_KEYS)}")
    need = {"operating_points": ("precision", "recall"), "learning_curve": ("size", "f1")}
    for key, fields in need.items():
        for i, p in enumerate(extra.get(key, [])):
            missing = [f for f in fields if f not in p]
            if missing:
                raise ConfigError(f"extra plot {key!r} point {i} lacks {', '.join(missing)}")
    return extra


def _extra(extra: Mapping[str, Any]) -> str:
    html = ""
    pts = extra.get("operating_points", [])
    if len(pts) >= 2:
        html += "<h2>Operating points</h2>" + _img(plots.pr_curve(pts), "precision/recall curve")
    lc = extra.get("learning_curve", [])
    if lc:
        html += "<h2>Learning curve</h2>" + _img(plots.learning_curve(lc), "learning curve")
    return html


def render_html(result: Mapping[str, Any], extra_plots: Mapping[str, Any] | None = None) -> str:
    """The report page as a string."""
    extra = _check_extra(extra_plots)
    notes = "".join(f'<li class="note">{escape(n)}</li>' for n in result.get("notes", []))
    body = (
        f"<h1>notescrub evaluation: {escape(result['scheme'])}</h1>"
        + _summary(result)
        + "<h2>Measures</h2>" + _measures(result)
        + _per_type(result)
        + _errors(result)
        + _comparison(result)
        + _extra(extra)
        + (f"<h2>Notes</h2><ul>{notes}</ul>" if notes else "")
    )
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>notescrub evaluation</title><style>{_CSS}</style></head><body>{body}</body></html>\n")


def write_html_report(
    result: Mapping[str, Any], out_dir: str | Path, extra_plots: Mapping[str, Any] | None = None
) -> Path:
    """Write ``out_dir/index.html`` atomically (``out_dir`` is created); return its path."""
    html = render_html(result, extra_plots)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / "index.html"
    with atomic_file(target) as tmp:
        tmp.write_text(html, encoding="utf-8")
    return target
