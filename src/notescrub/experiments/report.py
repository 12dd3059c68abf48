"""Writing an experiments report: ``results.json``, one CSV per table, ``index.html``, ``report.md``.

The HTML page is self-contained (inline CSS, plots as base64 PNG from
:mod:`notescrub.evaluate.plots`, no scripts or external URLs) and holds one section
per experiment, each with its settings-independent paper comparison. Everything is
written atomically (:mod:`notescrub.io.atomic`); nothing contains note text.

>>> import tempfile, pathlib
>>> from notescrub.experiments.common import Section
>>> sec = Section("systems", "Systems table")
>>> sec.table("t", "A table", ["system", "F"], [["Carafe", 0.9]])
>>> sec.compare("Carafe beats LingPipe", "0.97 vs 0.93", "0.90 vs 0.80", {"verdict": "agrees", "test": "t"})
>>> out = write_report(pathlib.Path(tempfile.mkdtemp()), {"corpus": "toy"}, [sec])
>>> sorted(p.name for p in out.iterdir())
['index.html', 'report.md', 'results.json', 'systems-t.csv']
>>> "<script" in (out / "index.html").read_text(encoding="utf-8")
False
"""

from __future__ import annotations

import base64
import csv
import json
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

from notescrub.evaluate.report import write_json
from notescrub.experiments.caps import training_line
from notescrub.experiments.common import Section
from notescrub.experiments.verdicts import AGREES, DIFFERS, verdict_of
from notescrub.io.atomic import atomic_file

__all__ = ["render_html", "render_markdown", "training_html", "write_report"]

_CSS = """
body { font-family: "DejaVu Sans", Arial, Helvetica, sans-serif; margin: 2em; color: #222; max-width: 1200px; }
h1 { font-size: 1.5em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 2px solid #ccc; }
h3 { font-size: 1.0em; margin-top: 1.2em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.8em; }
th, td { border: 1px solid #ccc; padding: 2px 7px; } th { background: #f0f3f7; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.agree { background: #e6f4e6; } .differ { background: #fbe9e7; } .undecided { background: #f5f5f5; }
.note, .training { color: #555; font-size: 0.85em; } img { max-width: 100%; } .wide { overflow-x: auto; }
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
        word = verdict_of(c)
        cls = {AGREES: "agree", DIFFERS: "differ"}.get(word, "undecided")
        rows.append(f'<tr class="{cls}"><td>{escape(c["claim"])}</td><td>{escape(c["paper"])}</td>'
                    f'<td>{escape(c["ours"])}</td><td>{escape(c.get("test", ""))}</td><td>{escape(word)}</td></tr>')
    return ("<h3>Comparison with the paper</h3><table><thead><tr><th>claim</th><th>paper</th><th>ours</th>"
            f"<th>test</th><th>verdict</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def training_html(key: str, settings: dict[str, Any] | None) -> str:
    """The section's training-cap line as HTML (empty without settings or CRFs)."""
    line = training_line(key, settings) if settings else None
    return f'<p class="training">{escape(line)}</p>' if line else ""


def _section_html(sec: Section, settings: dict[str, Any] | None = None) -> str:
    parts = [f'<h2 id="{escape(sec.key)}">{escape(sec.title)}</h2>', training_html(sec.key, settings)]
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
            + "".join(_section_html(s, settings) for s in sections))
    return ('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
            f"<title>notescrub experiments</title><style>{_CSS}</style></head><body>{body}</body></html>\n")


def _md_cell(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{v:.4f}"
    return "" if v is None else str(v).replace("|", "\\|").replace("\n", " ")


def _md_table(columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(_md_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(_md_cell(v) for v in r) + " |" for r in rows]
    return lines


_SETTING_WORDS = (("crf_iterations", "CRF iterations"), ("manchester_iterations", "Manchester CRF iterations"),
                  ("lc_folds", "label-consistency folds"), ("pos", "POS features in WI-deId/Aramaki"),
                  ("biases", "biases"))


def _settings_phrases(st: dict[str, Any]) -> list[str]:
    """The run settings in words; keys this renderer does not know are listed as ``key value``."""
    words = [f"{w} {st[k]}" for k, w in _SETTING_WORDS if k in st]
    if "curve_fractions" in st:
        words.append(f"curve fractions {st['curve_fractions']} x {st.get('curve_repeats')} repeat(s)")
    words += [f"{w} {st[k]}" for k, w in (("max_train_docs", "max training notes"),
                                           ("max_test_docs", "max test notes"), ("bootstrap", "bootstrap")) if k in st]
    known = {k for k, _ in _SETTING_WORDS} | {"curve_fractions", "curve_repeats", "max_train_docs", "max_test_docs",
                                              "bootstrap", "name", "curve_bias", "curve_folds", "systems",
                                              "product_models", "corpora_styles", "corpora_systems", "ablation_groups",
                                              "seed", "jobs", "sections", "extra"}
    return words + [f"{k} {v}" for k, v in st.items() if k not in known]


def render_markdown(results: dict[str, Any]) -> str:
    """The report as Markdown (GitHub tables), from the ``results.json`` structure.

    Tables, paper comparisons and notes of every section; plots stay in ``index.html``.

    >>> print(render_markdown({"command": "notescrub experiments --quick", "sections": [
    ...     {"title": "Systems table", "tables": [{"columns": ["system", "F"], "rows": [["Carafe", 0.9]]}],
    ...      "comparisons": [{"claim": "c", "paper": "p", "ours": "o", "test": "z", "verdict": "agrees"}],
    ...      "notes": ["n"]}]}))
    Command: `notescrub experiments --quick`
    <BLANKLINE>
    #### Systems table
    <BLANKLINE>
    | system | F |
    |---|---|
    | Carafe | 0.9000 |
    <BLANKLINE>
    | claim | paper | ours | test | verdict |
    |---|---|---|---|---|
    | c | p | o | z | agrees |
    <BLANKLINE>
    Note: n
    <BLANKLINE>
    """
    out = [f"Command: `{results.get('command', '')}`", ""]
    ds, st = results.get("dataset"), results.get("settings")
    if ds:
        splits = ds.get("splits", [])
        out.append(f"Data: {ds.get('split', '')}; {len(splits)} split(s), training notes per split "
                   f"{[s['train_docs'] for s in splits]}, test notes in total {sum(s['test_docs'] for s in splits)} "
                   f"(gold spans {sum(s['test_gold_spans'] for s in splits)}).")
    if st:
        out.append("Settings: " + ", ".join(_settings_phrases(st)) + ".")
    if "wall_seconds" in results:
        per = ", ".join(f"{k} {v:.0f} s" for k, v in results.get("section_seconds", {}).items())
        out.append(f"Wall time: {results['wall_seconds']} s in total; per section: {per}")
    if ds or st or "wall_seconds" in results:
        out.append("")
    for sec in results.get("sections", []):
        out += [f"#### {sec['title']}", ""]
        line = training_line(sec.get("key", ""), st) if st else None
        if line:
            out += [line, ""]
        for t in sec.get("tables", []):
            out += _md_table(t["columns"], t["rows"]) + [""]
        comps = sec.get("comparisons") or []
        if comps:
            out += _md_table(["claim", "paper", "ours", "test", "verdict"],
                             [[c["claim"], c["paper"], c["ours"], c.get("test", ""), verdict_of(c)]
                              for c in comps]) + [""]
        for n in sec.get("notes") or []:
            out.append(f"Note: {n}")
        if sec.get("notes"):
            out.append("")
    return "\n".join(out)


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
    results = {**meta, "sections": [s.to_json() for s in sections]}
    write_json(results, out / "results.json")
    with atomic_file(out / "report.md") as tmp:
        tmp.write_text(render_markdown(results), encoding="utf-8")
    with atomic_file(out / "index.html") as tmp:
        tmp.write_text(render_html(meta, sections), encoding="utf-8")
    return out
