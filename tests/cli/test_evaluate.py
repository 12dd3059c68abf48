"""`notescrub evaluate` end to end on small corpora written to a temporary folder."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.io import write_corpus
from notescrub.types import Document, Span

TEXT = "Zyxwvut Quorble seen by Dr. Ann Lee on 2019-03-04."


def sp(sub, label):
    i = TEXT.index(sub)
    return Span(i, i + len(sub), label)


GOLD = [Document("100-01", TEXT, layers={"gold": [sp("Zyxwvut Quorble", "PATIENT"), sp("Ann Lee", "DOCTOR"),
                                                  sp("2019-03-04", "DATE")]}),
        Document("100-02", TEXT, layers={"gold": [sp("2019-03-04", "DATE")]})]
PRED = [Document("100-01", TEXT, layers={"gold": [sp("Zyxwvut Quorble", "PATIENT"), sp("Ann Lee", "PATIENT"),
                                                  sp("2019-03-0", "DATE")]}),
        Document("100-02", TEXT, layers={"gold": [sp("2019-03-04", "DATE")]})]


@pytest.fixture
def corpora(tmp_path):
    write_corpus(GOLD, tmp_path / "gold", "i2b2-xml")
    write_corpus(PRED, tmp_path / "pred", "i2b2-xml")
    return tmp_path


def test_json_csv_report_and_table(corpora, capsys):
    out = corpora
    rc = main(["evaluate", str(out / "gold"), str(out / "pred"), "--json", str(out / "r.json"),
               "--csv", str(out / "r.csv"), "--report", str(out / "rep")])
    assert rc == 0
    r = json.loads((out / "r.json").read_text(encoding="utf-8"))
    s = r["i2b2_2014"]["strict"]["micro"]
    # 100-01: PATIENT ok, DOCTOR->PATIENT (fp+fn), DATE 1 short (fp+fn); 100-02: DATE ok
    assert (s["tp"], s["fp"], s["fn"]) == (2, 2, 2)
    assert r["i2b2_2014"]["relaxed"]["micro"]["tp"] == 3
    assert (out / "r.csv").read_text(encoding="utf-8").startswith("section,measure,average,type,")
    html = (out / "rep" / "index.html").read_text(encoding="utf-8")
    assert "<script" not in html and "Zyxwvut" not in html
    printed = capsys.readouterr().out
    assert "strict" in printed and "hipaa_strict" in printed and "Zyxwvut" not in printed


def test_show_errors_prints_context_only_on_request(corpora, capsys):
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred")]) == 0
    assert "Zyxwvut" not in capsys.readouterr().out
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--show-errors"]) == 0
    printed = capsys.readouterr().out
    assert "100-01\ttype\tgold=DOCTOR" in printed and "[Ann Lee]" in printed
    assert "100-01\textent_short\tgold=DATE" in printed


def test_missing_document_reported_and_compat(corpora, tmp_path, capsys):
    write_corpus(PRED[:1], tmp_path / "partial", "i2b2-xml")
    js = tmp_path / "m.json"
    assert main(["evaluate", str(corpora / "gold"), str(tmp_path / "partial"), "--json", str(js)]) == 0
    r = json.loads(js.read_text(encoding="utf-8"))
    assert r["documents"]["missing_ids"] == ["100-02"] and r["i2b2_2014"]["strict"]["micro"]["fn"] == 3
    assert main(["evaluate", str(corpora / "gold"), str(tmp_path / "partial"), "--json", str(js),
                 "--compat-official"]) == 0
    r = json.loads(js.read_text(encoding="utf-8"))
    assert r["documents"]["skipped_missing"] == 1 and r["i2b2_2014"]["strict"]["micro"]["fn"] == 2


def test_text_mismatch_fails_cleanly(corpora, tmp_path, capsys):
    other = [Document("100-01", TEXT.replace("Quorble", "Quarble"), layers={"gold": []}), PRED[1]]
    write_corpus(other, tmp_path / "bad", "i2b2-xml")
    assert main(["evaluate", str(corpora / "gold"), str(tmp_path / "bad")]) == 2
    err = capsys.readouterr().err
    assert "100-01" in err and "texts differ" in err and "Qu" not in err.split("texts differ")[1]
    assert "Quorble" not in err and "Quarble" not in err


def test_other_schemes_and_formats(corpora, tmp_path, capsys):
    write_corpus(GOLD, tmp_path / "gold_brat", "brat")
    js = tmp_path / "b.json"
    assert main(["evaluate", str(tmp_path / "gold_brat"), str(corpora / "pred"), "--scheme", "binary",
                 "--json", str(js)]) == 0
    r = json.loads(js.read_text(encoding="utf-8"))
    # PHI tokens: Zyxwvut Quorble Ann Lee 2019 - 03 - 04 (x2 documents minus names) = 14; the short DATE
    # still touches the token "04", so it counts as predicted PHI and nothing is missed
    p = r["binary"]["phi"]
    assert (p["tp"], p["fp"], p["fn"]) == (14, 0, 0)
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--scheme", "i2b2-2006",
                 "--json", str(js)]) == 0
    assert "weighted_token_f_with_true_negatives" in json.loads(js.read_text(encoding="utf-8"))["i2b2_2006"]
    # MEDDOCAN compares native MEDDOCAN labels: English labels are a clear error
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--scheme", "meddocan"]) == 2
    assert "not a meddocan label" in capsys.readouterr().err
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--scheme", "meddocan",
                 "--labels", "canonical", "--json", str(js)]) == 0
    assert json.loads(js.read_text(encoding="utf-8"))["meddocan"]["subtask1"]["tp"] == 2


def test_extra_plots_file(corpora, tmp_path):
    extra = tmp_path / "extra.json"
    extra.write_text(json.dumps({"learning_curve": [{"size": 5, "f1": 0.4}, {"size": 10, "f1": 0.6}]}))
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--report", str(tmp_path / "rep"),
                 "--extra-plots", str(extra)]) == 0
    assert "Learning curve" in (tmp_path / "rep" / "index.html").read_text(encoding="utf-8")
    extra.write_text("[1, 2]")
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--extra-plots", str(extra)]) == 2


def test_compare_second_system(corpora, tmp_path, capsys):
    js = tmp_path / "c.json"
    assert main(["evaluate", str(corpora / "gold"), str(corpora / "pred"), "--compare", str(corpora / "gold"),
                 "--json", str(js), "--bootstrap", "100"]) == 0
    c = json.loads(js.read_text(encoding="utf-8"))["comparison"]
    assert c["b"]["f1"] == 1.0 and c["f1_difference"]["estimate"] < 0
    assert "paired bootstrap F1 difference" in capsys.readouterr().out
