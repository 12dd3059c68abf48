"""Every report section with a CRF system states its training caps next to the recipe's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.experiments.caps import recipe_training, section_systems, training_line
from notescrub.experiments.common import Section
from notescrub.experiments.reassess import reassess_report
from notescrub.experiments.report import render_markdown, write_report
from notescrub.recipes import get_recipe

ROOT = Path(__file__).resolve().parents[2]


def test_recipe_counts_are_read_from_the_recipes():
    own = recipe_training()
    assert own["carafe"]["iterations"] == get_recipe("carafe")().max_iterations
    assert own["crfd"]["iterations"] == get_recipe("crfd")().max_iterations
    assert own["manchester"]["iterations"] == get_recipe("manchester")().max_iterations
    assert own["aramaki"] == {"iterations": get_recipe("aramaki")().first.max_iterations,
                              "folds": get_recipe("aramaki")().folds}


def test_line_names_the_run_caps_and_the_recipe_counts():
    st = {"crf_iterations": 7, "manchester_iterations": 3, "lc_folds": 2, "systems": ["h-d", "carafe", "aramaki"]}
    line = training_line("systems", st)
    assert line is not None
    assert f"Carafe 7 (its recipe: {recipe_training()['carafe']['iterations']})" in line
    assert "label consistency cross-fitted on 2 folds" in line and "Manchester" not in line
    assert training_line("manchester", st).startswith("Training: CRF L-BFGS iterations capped at Manchester 3 ")
    assert training_line("systems", {"systems": ["h-d", "lingpipe", "stat-deid"]}) is None
    assert section_systems("corpora", {"corpora_systems": ["crfd", "h-d"]}) == ["crfd"]


def test_markdown_and_html_carry_the_line(tmp_path):
    sec = Section("carafe", "Carafe study")
    sec.table("t", "T", ["bias", "F"], [[0.0, 0.9]])
    plain = Section("unknown", "No CRF here")
    st = {"crf_iterations": 5}
    out = write_report(tmp_path, {"corpus": "toy", "settings": st}, [sec, plain])
    md = (out / "report.md").read_text(encoding="utf-8")
    line = training_line("carafe", st)
    assert f"#### Carafe study\n\n{line}\n\n| bias | F |" in md
    assert md.count("Training:") == 1
    assert (out / "index.html").read_text(encoding="utf-8").count('<p class="training">') == 1


def test_reassess_writes_the_html_line_once(tmp_path):
    sec = Section("wi-deid", "WI-deId")
    write_report(tmp_path, {"corpus": "toy", "settings": {"crf_iterations": 5}}, [sec])
    html = tmp_path / "index.html"
    html.write_text(html.read_text(encoding="utf-8").replace('<p class="training">', '<p class="x">'), encoding="utf-8")
    reassess_report(tmp_path)
    reassess_report(tmp_path)
    assert html.read_text(encoding="utf-8").count('<p class="training">') == 1


@pytest.mark.parametrize("corpus", ["meddocan", "en-dev"])
def test_committed_reports_state_the_caps_of_every_crf_section(corpus):
    src = ROOT / "docs" / "experiments" / corpus
    res = json.loads((src / "results.json").read_text(encoding="utf-8"))
    md = (src / "report.md").read_text(encoding="utf-8")
    assert render_markdown(res) == md
    keyed = [s["key"] for s in res["sections"] if section_systems(s["key"], res["settings"])]
    assert keyed, "no CRF section in the report"
    for s in res["sections"]:
        line = training_line(s["key"], res["settings"])
        if line:
            assert f"#### {s['title']}\n\n{line}\n" in md
    html = (src / "index.html").read_text(encoding="utf-8")
    assert html.count('<p class="training">') == len(keyed)


def test_en_dev_summary_states_the_caps():
    doc = (ROOT / "docs" / "experiments.md").read_text(encoding="utf-8")
    part = doc[doc.index("### en-dev (5-fold"):doc.index("## Discussion")]
    st = json.loads((ROOT / "docs" / "experiments" / "en-dev" / "results.json").read_text(encoding="utf-8"))["settings"]
    for key in ("systems", "corpora"):
        assert training_line(key, st) in part
    for key in ("carafe", "wi-deid", "aramaki", "manchester"):
        body = training_line(key, st).split("capped at ", 1)[1].split(". The seed", 1)[0]
        assert body in part
