"""Writing an experiments report: ``results.json``, one CSV per table, ``index.html``.

The HTML page is self-contained (inline CSS, plots as base64 PNG from
:mod:`notescrub.evaluate.plots`, no scripts or external URLs) and holds one section
per experiment, each with its settings-independent paper comparison. Everything is
written atomically (:mod:`notescrub.io.atomic`); nothing contains note text.

>>> import tempfile, pathlib
>>> from notescrub.experiments.common import Section
>>> sec = Section("systems", "Systems table")
>>> sec.table("t", "A table", ["system", "F"], [["Carafe", 0.9]])
>>> sec.compare("Carafe beats LingPipe", "0.97 vs 0.93", "0.90 vs 0.80", True)
>>> out = write_report(pathlib.Path(tempfile.mkdtemp()), {"corpus": "toy"}, [sec])
>>> sorted(p.name for p in out.iterdir())
['index.html', 'results.json', 'systems-t.csv']
>>> "<script" in (out / "index.html").read_text(encoding="utf-8")
False
"""

from __future__ import annotations

import base64
import csv
import json
from html import escape
from pathlib import Path
from typing import Any, Sequence

from notescrub.evaluate.report import write_json
from notescrub.experiments.common import Section
from notescrub.io.atomic import atomic_file

__all__ = ["write_report", "render_html"]

_CSS = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 2px solid #ccc; }
h3 { font-size: 1.0em; margin-top: 1.2em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.8em; }
th, td { border: 1px solid #ccc; padding: 2px 7px; } th { background: #f0f3f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.agree { background: #e6f4e6; } .differ { background: #fbe9e7; } .undecided { background: #f5f5f5; }
.note { color: #555; font-size: 0.85em; } img { max-width: 100%; } .wide { overflow-x: auto; }
"""


def _cell(v: Any) -> str:
    if isinstance(v, bool):
        return f"<td>{'yes' if v else 'no'}</td>"
    if isinstance(v, float):
        return f'<td class="num">{v:.4f}</td>'
    if isinstance(v, int):
        return f'<td class="num">{v}</td>'
    return f"<td>{escape('' if v is None else str(v))}</td>"


def _table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    body = "".join("<tr>" + "".join(_cell(v) for v in r) + "</tr>" for r in rows)
    return f'<div class="wide"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def _comparisons(sec: Section) -> str:
    if not sec.comparisons:
        return ""
    rows = []
    for c in sec.comparisons:
        cls, word = {True: ("agree", "agrees"), False: ("differ", "differs"), None: ("undecided", "-")}[c["agrees"]]
        rows.append(f'<tr class="{cls}"><td>{escape(c["claim"])}</td><td>{escape(c["paper"])}</td>'
                    f'<td>{escape(c["ours"])}</td><td>{word}</td></tr>')
    return ("<h3>Comparison with the paper</h3><table><thead><tr><th>claim</th><th>paper</th><th>ours</th>"
            f"<th>conclusion</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def _section_html(sec: Section) -> str:
    parts = [f'<h2 id="{escape(sec.key)}">{escape(sec.title)}</h2>']
    if sec.intro:
        parts.append(f"<p>{escape(sec.intro)}</p>")
    for t in sec.tables:
        parts.append(f"<h3>{escape(t['title'])}</h3>" + _table(t["columns"], t["rows"]))
    for title, png in sec.plots:
        data = base64.b64encode(png).decode("ascii")
        parts.append(f'<p><img alt="{escape(title)}" src="data:image/png;base64,{data}"></p>')
    parts.append(_comparisons(sec))
    if sec.differences:
        parts.append("<h3>How our setting differs from the paper's</h3><ul>"
                     + "".join(f"<li>{escape(d)}</li>" for d in sec.differences) + "</ul>")
    if sec.notes:
        parts.append("<ul>" + "".join(f'<li class="note">{escape(n)}</li>' for n in sec.notes) + "</ul>")
    parts.append(f'<p class="note">section wall time: {sec.seconds:.1f} s</p>')
    return "".join(parts)


def render_html(meta: dict[str, Any], sections: Sequence[Section]) -> str:
    """The report page as a string."""
    facts = [[k, json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) else v] for k, v in meta.items()
             if k not in ("settings", "dataset")]
    settings = meta.get("settings", {})
    ds = meta.get("dataset", {})
    toc = "".join(f'<li><a href="#{escape(s.key)}">{escape(s.title)}</a></li>' for s in sections)
    body = (f"<h1>notescrub experiments: {escape(str(meta.get('corpus', '')))}</h1>"
            + _table(["item", "value"], facts)
            + "<h3>Settings</h3>" + _table(["setting", "value"], [[k, json.dumps(v)] for k, v in settings.items()])
            + "<h3>Data</h3>" + _table(["item", "value"], [[k, json.dumps(v, ensure_ascii=False)] for k, v in ds.items()])
            + f"<ul>{toc}</ul>"
            + "".join(_section_html(s) for s in sections))
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>notescrub experiments</title><style>{_CSS}</style></head><body>{body}</body></html>\n")


def _write_csv(path: Path, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    with atomic_file(path) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(columns)
        w.writerows([["" if v is None else v for v in r] for r in rows])


def write_report(out_dir: str | Path, meta: dict[str, Any], sections: Sequence[Section]) -> Path:
    """Write ``results.json``, ``<section>-<table>.csv`` files and ``index.html`` into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for sec in sections:
        for t in sec.tables:
            _write_csv(out / f"{sec.key}-{t['name']}.csv", t["columns"], t["rows"])
    write_json({**meta, "sections": [s.to_json() for s in sections]}, out / "results.json")
    with atomic_file(out / "index.html") as tmp:
        tmp.write_text(render_html(meta, sections), encoding="utf-8")
    return out
