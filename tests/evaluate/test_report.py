import csv
import json

import pytest
from rich.console import Console

from notescrub.errors import ConfigError
from notescrub.evaluate import evaluate
from notescrub.evaluate.report import (
    CSV_COLUMNS,
    render_terminal,
    rows,
    write_csv,
    write_html_report,
    write_json,
)
from notescrub.types import Document, Span

TEXT = "Zyxwvut seen on 3/18 by Dr. Ruiz."


def result(scheme="i2b2-2014"):
    g = [Document("a", TEXT, layers={"gold": [Span(0, 7, "PATIENT"), Span(16, 20, "DATE"), Span(28, 32, "DOCTOR")]})]
    p = [Document("a", TEXT, layers={"gold": [Span(0, 7, "DOCTOR"), Span(16, 20, "DATE")]})]
    return evaluate(g, p, scheme=scheme, bootstrap_resamples=50)


EXTRA = {
    "operating_points": [{"precision": 0.9, "recall": 0.7, "label": "b0"}, {"precision": 0.8, "recall": 0.85}],
    "learning_curve": [{"size": 10, "f1": 0.5}, {"size": 10, "f1": 0.6}, {"size": 20, "f1": 0.7, "series": "crf"}],
}


def test_json_and_csv(tmp_path):
    r = result()
    assert json.loads(write_json(r, tmp_path / "out" / "r.json").read_text(encoding="utf-8")) == r
    with open(write_csv(r, tmp_path / "r.csv"), encoding="utf-8", newline="") as fh:
        table = list(csv.DictReader(fh))
    assert tuple(table[0]) == CSV_COLUMNS and len(table) == len(rows(r))
    strict = next(x for x in table if x["measure"] == "strict" and x["average"] == "micro" and x["type"] == "ALL")
    assert (strict["tp"], strict["fp"], strict["fn"]) == ("1", "1", "2")
    assert any(x["section"] == "errors" and x["measure"] == "type" and x["value"] == "1" for x in table)
    assert [p.name for p in tmp_path.iterdir()] != [] and not list(tmp_path.glob(".*.tmp"))


@pytest.mark.parametrize("scheme", ["i2b2-2014", "i2b2-2006", "binary"])
def test_html_is_self_contained(tmp_path, scheme):
    path = write_html_report(result(scheme), tmp_path / "rep", extra_plots=EXTRA)
    html = path.read_text(encoding="utf-8")
    assert path == tmp_path / "rep" / "index.html"
    for banned in ("<script", "http:", "https:", "@import", "url(", "<link"):
        assert banned not in html
    # per-type bars, confusion heat map, P/R curve, learning curve
    assert html.count('src="data:image/png;base64,') == 4
    assert "Zyxwvut" not in html and "Ruiz" not in html


def test_html_without_extras_and_with_one_operating_point(tmp_path):
    html = write_html_report(result(), tmp_path, extra_plots={"operating_points": [EXTRA["operating_points"][0]]})
    assert html.read_text(encoding="utf-8").count("data:image/png") == 2


@pytest.mark.parametrize("extra", [{"roc": []}, {"operating_points": [{"precision": 0.5}]},
                                   {"learning_curve": [{"f1": 0.5}]}])
def test_bad_extra_plots(tmp_path, extra):
    with pytest.raises(ConfigError):
        write_html_report(result(), tmp_path, extra_plots=extra)
    assert not (tmp_path / "index.html").exists()


def test_terminal_tables():
    con = Console(record=True, width=200)
    render_terminal(result(), console=con)
    out = con.export_text()
    assert "strict" in out and "hipaa_token" in out and "per subtype" in out and "DOCTOR" in out
    assert "95% bootstrap CI" in out and "Zyxwvut" not in out


def test_rows_cover_every_scheme():
    for scheme, expect in (("i2b2-2006", "weighted_token_f_with_true_negatives"), ("binary", "token")):
        assert any(r["measure"] == expect for r in rows(result(scheme)))
    med = evaluate([Document("a", TEXT, layers={"gold": [Span(16, 20, "FECHAS")]})],
                   [Document("a", TEXT, layers={"gold": [Span(16, 20, "FECHAS")]})], scheme="meddocan")
    assert {r["measure"] for r in rows(med)} >= {"subtask1", "subtask2_strict", "subtask2_merged", "leak"}
