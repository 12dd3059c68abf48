"""Report writing: files, HTML safety, CSV content."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from notescrub.experiments.common import Section
from notescrub.experiments.report import render_html, write_report
from notescrub.experiments.verdicts import z_verdict


def _sec() -> Section:
    s = Section("carafe", "Carafe <study>")
    s.table("bias", "Bias", ["bias", "F"], [[-1.0, 0.91234567], [0.0, None]])
    s.compare("claim", "paper", "ours", z_verdict(0.80, 0.90, 1000, claim_first_higher=True, what="strict F",
                                                   unit="gold spans"))
    s.compare("claim2", "paper", "ours", None)
    s.plots.append(("plot", b"\x89PNG\r\n\x1a\nfake"))
    s.differences.append("different corpus")
    return s


def test_files_and_content(tmp_path: Path) -> None:
    out = write_report(tmp_path / "r", {"corpus": "toy", "settings": {"folds": 2}}, [_sec()])
    with open(out / "carafe-bias.csv", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))
    assert rows == [["bias", "F"], ["-1.0", "0.9123"], ["0.0", ""]]
    res = json.loads((out / "results.json").read_text(encoding="utf-8"))
    first = res["sections"][0]["comparisons"][0]
    assert first["verdict"] == "differs" and first["test"].startswith("z-test (Uzuner eq. 6-7) on strict F")
    html = (out / "index.html").read_text(encoding="utf-8")
    assert "Carafe &lt;study&gt;" in html and "data:image/png;base64," in html
    assert "<script" not in html and "http" not in html and 'class="differ"' in html


def test_rewrite_is_atomic_and_idempotent(tmp_path: Path) -> None:
    write_report(tmp_path, {"corpus": "toy"}, [_sec()])
    first = (tmp_path / "index.html").read_text(encoding="utf-8")
    write_report(tmp_path, {"corpus": "toy"}, [_sec()])
    assert (tmp_path / "index.html").read_text(encoding="utf-8") == first
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_render_lists_every_section() -> None:
    html = render_html({"corpus": "x"}, [_sec(), Section("systems", "Systems table")])
    assert html.count("<h2") == 2


def test_markdown_report_has_tables_comparisons_and_settings(tmp_path: Path) -> None:
    out = write_report(tmp_path, {"corpus": "toy", "command": "notescrub experiments --quick",
                                  "settings": {"crf_iterations": 5, "folds": 2}}, [_sec()])
    md = (out / "report.md").read_text(encoding="utf-8")
    assert md.startswith("Command: `notescrub experiments --quick`")
    assert "Settings: CRF iterations 5, folds 2." in md
    assert "#### Carafe <study>" in md and "| -1.0000 | 0.9123 |" in md and "| 0.0000 |  |" in md
    assert "| claim | paper | ours | z-test (Uzuner eq. 6-7) on strict F, n = 1000 gold spans: z = -6.26, p = 0.000 | differs |" in md
    assert "| claim2 | paper | ours | no test (not tested) | - |" in md


def test_markdown_matches_the_json(tmp_path: Path) -> None:
    from notescrub.experiments.report import render_markdown

    out = write_report(tmp_path, {"corpus": "toy"}, [_sec()])
    res = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert render_markdown(res) == (out / "report.md").read_text(encoding="utf-8")
