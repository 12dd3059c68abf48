"""Recompute the paper comparisons of a written report from its ``results.json``.

Every section keeps the figures its comparisons need in ``data`` (JSON, no note
text), and each section module's ``compare_section(sec)`` reads only those. So the
verdicts of an existing report can be brought up to date with the current rules
(:mod:`notescrub.experiments.verdicts`) without retraining anything:
:func:`reassess_report` rewrites ``results.json`` and ``report.md`` and replaces the
comparison tables and the training-cap lines (:mod:`notescrub.experiments.caps`) of
``index.html`` in place (its plots are kept).

>>> res = {"sections": [{"key": "aramaki", "title": "Aramaki", "data": {
...     "BASELINE": {"binary_phi": {"f1": 0.86, "tp": 3806, "fn": 965}},
...     "BASE+EX": {"binary_phi": {"f1": 0.8776, "tp": 3900, "fn": 871}}}, "comparisons": []}]}
>>> [(c["claim"], c["verdict"]) for c in reassess(res)["sections"][0]["comparisons"]]
[('BASE+EX improves on BASELINE (2-way F)', 'agrees')]
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import escape
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.experiments.common import Section

__all__ = ["reassess", "reassess_report"]


def _comparers() -> dict[str, Callable[[Section], None]]:
    from notescrub.experiments import aramaki_study, carafe_study, corpora, manchester_study, systems, wi_deid_study

    return {"systems": systems.compare_section, "corpora": corpora.compare_section,
            "carafe": carafe_study.compare_section, "wi-deid": wi_deid_study.compare_section,
            "aramaki": aramaki_study.compare_section, "manchester": manchester_study.compare_section}


def _section(js: dict[str, Any]) -> Section:
    return Section(js["key"], js.get("title", js["key"]), intro=js.get("intro", ""), tables=js.get("tables", []),
                   data=js.get("data", {}))


def reassess(results: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``results`` whose sections' comparisons are recomputed from their data."""
    comparers = _comparers()
    out = dict(results)
    sections = []
    for js in results.get("sections", []):
        js = dict(js)
        if js.get("key") in comparers:
            sec = _section(js)
            comparers[js["key"]](sec)
            js["comparisons"] = sec.comparisons
        sections.append(js)
    out["sections"] = sections
    return out


_BLOCK = re.compile(r"<h3>Comparison with the paper</h3><table>.*?</table>", re.S)


def reassess_report(report_dir: str | Path) -> Path:
    """Rewrite the comparisons of the report in ``report_dir`` (``results.json``, ``report.md``, ``index.html``)."""
    from notescrub.evaluate.report import write_json
    from notescrub.experiments.report import _comparisons, render_markdown
    from notescrub.io.atomic import atomic_file

    d = Path(report_dir)
    path = d / "results.json"
    try:
        results = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{path}: not a readable experiments results.json ({type(exc).__name__})") from None
    new = reassess(results)
    write_json(new, path)
    with atomic_file(d / "report.md") as tmp:
        tmp.write_text(render_markdown(new), encoding="utf-8")
    html_path = d / "index.html"
    if html_path.exists():
        html = html_path.read_text(encoding="utf-8")
        blocks = iter([_comparisons(_with_comparisons(js)) for js in new["sections"] if js.get("comparisons")])
        count = len(_BLOCK.findall(html))
        if count != sum(1 for js in new["sections"] if js.get("comparisons")):
            raise ConfigError(f"{html_path}: {count} comparison tables, which does not match results.json")
        html = _BLOCK.sub(lambda _m: next(blocks), html)
        html = _with_training_lines(html, new)
        with atomic_file(html_path) as tmp:
            tmp.write_text(html, encoding="utf-8")
    return d


def _keep_heading(line: str) -> Callable[[re.Match[str]], str]:
    return lambda m: m.group(1) + line


def _with_training_lines(html: str, results: dict[str, Any]) -> str:
    """``html`` with each section's training-cap line (re)written after its heading."""
    from notescrub.experiments.report import training_html

    settings = results.get("settings")
    for js in results.get("sections", []):
        key = str(js.get("key", ""))
        head = re.compile(r'(<h2 id="' + re.escape(escape(key)) + r'">.*?</h2>)(<p class="training">.*?</p>)?', re.S)
        html = head.sub(_keep_heading(training_html(key, settings)), html, count=1)
    return html


def _with_comparisons(js: dict[str, Any]) -> Section:
    sec = _section(js)
    sec.comparisons = list(js["comparisons"])
    return sec
