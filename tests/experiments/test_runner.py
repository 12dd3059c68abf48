"""Smoke test of the whole experiments run (every section) on tiny en-dev settings, and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.experiments import SECTIONS, load_dataset, preset, run_experiments


@pytest.mark.slow
def test_every_section_runs_on_en_dev(en_dev_dir: Path, tmp_path: Path) -> None:
    ds = load_dataset("en-dev", shared=en_dev_dir.parents[1], folds=2)
    out = run_experiments(ds, preset("tiny"), tmp_path / "rep")
    res = json.loads((out / "results.json").read_text(encoding="utf-8"))
    keys = [s["key"] for s in res["sections"]]
    assert keys == list(SECTIONS)
    for sec in res["sections"]:
        assert not any(n.startswith("section failed") for n in sec["notes"]), (sec["key"], sec["notes"])
        assert sec["tables"], sec["key"]
    systems = res["sections"][0]["tables"][0]
    names = [r[0] for r in systems["rows"]]
    assert names == ["Stat De-id", "H+D", "Carafe"]
    assert all(r[-1] == "" for r in systems["rows"]), systems["rows"]
    html = (out / "index.html").read_text(encoding="utf-8")
    assert len(html) < 1_500_000 and "<script" not in html
    assert (out / "carafe-bias.csv").is_file() and (out / "corpora-ablation.csv").is_file()
    bias = next(t for t in res["sections"][2]["tables"] if t["name"] == "bias")
    assert [r[0] for r in bias["rows"]] == [0.0, -1.0]
    pp = next(t for t in res["sections"][2]["tables"] if t["name"] == "pp")  # English: Carafe-ALL+PP is compared
    assert [r[0] for r in pp["rows"]] == ["Carafe-ALL (b=-1.0)", "Carafe-ALL (b=-1.5)", "Carafe-ALL+PP (b=-1.5)"]
    assert pp["rows"][2][-1] == 0.9736 and all(0.0 <= r[3] <= 1.0 for r in pp["rows"])
    from notescrub.features import pos  # English + spaCy's pipeline: WI-deId is also run without its POS tags

    wi = next(sec for sec in res["sections"] if sec["key"] == "wi-deid")
    assert ("WI-deId without POS" in [r[0] for r in wi["tables"][0]["rows"]]) is pos.available()


def test_cli_systems_only(en_dev_dir: Path, tmp_path: Path) -> None:
    from notescrub.cli.main import main

    rc = main(["experiments", "--corpus", "en-dev", "--shared", str(en_dev_dir.parents[1]), "--quick",
               "--sections", "systems", "--systems", "h-d", "--no-product", "--max-test-docs", "4",
               "-o", str(tmp_path / "r")])
    assert rc == 0
    res = json.loads((tmp_path / "r" / "results.json").read_text(encoding="utf-8"))
    assert res["settings"]["name"] == "quick" and res["settings"]["systems"] == ["h-d"]
    assert [r[0] for r in res["sections"][0]["tables"][0]["rows"]] == ["H+D"]


def test_cli_bad_section_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from notescrub.cli.main import main

    with pytest.raises(SystemExit) as e:
        main(["experiments", "--sections", "nope", "-o", str(tmp_path)])
    assert e.value.code == 2
