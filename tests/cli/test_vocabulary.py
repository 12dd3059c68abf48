"""One vocabulary across commands: -q/-v anywhere, summaries of per-document warnings."""

import re

import pytest

from notescrub.cli.main import build_parser, main
from notescrub.io import read_corpus, write_corpus
from notescrub.types import Document

SPANISH = ("Paciente de 70 años, minero jubilado, sin alergias medicamentosas conocidas, que presenta "
           "como antecedentes un accidente laboral con fracturas costales y una neumonía.")


@pytest.mark.parametrize("argv", [
    ["synth", "generate", "-n", "2", "-o", "{out}", "-q"],
    ["synth", "generate", "-q", "-n", "2", "-o", "{out}"],
    ["-q", "synth", "generate", "-n", "2", "-o", "{out}"],
    ["synth", "-q", "generate", "-n", "2", "-o", "{out}"],
    ["synth", "generate", "-n", "2", "-o", "{out}", "-v"],
])
def test_quiet_and_verbose_anywhere(argv, tmp_path):
    out = tmp_path / "s.jsonl"
    assert main([a.replace("{out}", str(out)) for a in argv]) == 0
    assert len(list(read_corpus(out))) == 2


def test_quiet_after_the_command_is_seen(tmp_path):
    args = build_parser().parse_args(["stats", "x.jsonl", "-q", "-v"])
    assert args.quiet and args.verbose
    args = build_parser().parse_args(["stats", "x.jsonl"])
    assert not getattr(args, "quiet", False)


def test_language_warnings_become_one_summary_line(tmp_path, capsys):
    notes = tmp_path / "es.jsonl"
    write_corpus([Document(f"es{i}", SPANISH) for i in range(5)], notes)
    out = tmp_path / "o.jsonl"
    assert main(["annotate", str(notes), "-o", str(out), "--model", "rules-en", "-q"]) == 0
    err = capsys.readouterr().err
    lines = [x for x in err.splitlines() if "look like English" in x]
    expected = ("notescrub: WARNING: 5 documents do not look like English: the model may miss PHI in them; "
                "for Spanish use --model es-meddocan; their ids with -v")
    assert lines == [expected], err
    assert "Paciente" not in err
    # with -v each document is named as well (by id), and the summary is still there
    assert main(["annotate", str(notes), "-o", str(tmp_path / "o2.jsonl"), "--model", "rules-en", "-v"]) == 0
    err = capsys.readouterr().err
    assert sum("'es3' does not look like English" in x for x in err.splitlines()) == 1
    assert any(x.endswith("5 documents do not look like English: the model may miss PHI in them; "
                          "for Spanish use --model es-meddocan") for x in err.splitlines())


NOTE = "Mr. John Smith was seen by Dr. Ruiz on 03/18/2091 at Lakeshore Hospital. Call 617-555-0199."


def test_annotate_defaults_to_en_default_like_deid(tmp_path):
    import json

    notes = tmp_path / "n.jsonl"
    write_corpus([Document("a", NOTE)], notes)
    out = tmp_path / "o.jsonl"
    assert main(["-q", "annotate", str(notes), "-o", str(out)]) == 0
    spans = json.loads(out.read_text())["spans"]
    assert {"PATIENT", "DATE", "PHONE"} <= {s["type"] for s in spans}
    assert all(s["source"] in ("crf", "two_pass") for s in spans)


@pytest.mark.parametrize("command", ["annotate", "deid"])
def test_old_bias_spelling_says_what_to_use(command, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        main([command, "in.jsonl", "-o", str(tmp_path / "o.jsonl"), "--bias", "-1.5"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--recall-bias 1.5" in err and "opposite sign" in err
    assert not (tmp_path / "o.jsonl").exists()


def test_recall_bias_has_one_sign_in_annotate_and_deid(tmp_path):
    import json

    notes = tmp_path / "n.jsonl"
    text = (f"{NOTE}\nSeen with her daughter Maria at home in Springfield on Tuesday.\n"
            "Follow up with Hernandez clinic, phone 555 0101, fax 555 0102.")
    write_corpus([Document("a", text)], notes)
    counts = {}
    for b in ("-4", "4"):
        out = tmp_path / f"a{b}.jsonl"
        assert main(["-q", "annotate", str(notes), "-o", str(out), "--recall-bias", b]) == 0
        # characters tagged (a count of spans can stay put when neighbouring spans merge)
        counts[("annotate", b)] = sum(s["end"] - s["start"] for s in json.loads(out.read_text())["spans"])
        out = tmp_path / f"d{b}.jsonl"
        assert main(["-q", "deid", str(notes), "-o", str(out), "--mode", "tag", "--recall-bias", b]) == 0
        # characters of the note left in clear
        counts[("deid", b)] = -len(re.sub(r"\[\*\*.*?\*\*\]", "", next(read_corpus(out)).text))
    assert counts[("annotate", "4")] > counts[("annotate", "-4")]
    assert counts[("deid", "4")] > counts[("deid", "-4")]


@pytest.mark.parametrize("command", ["annotate", "deid", "audit"])
def test_help_lists_every_preset_from_the_model(command, capsys):
    import json
    from importlib import resources

    meta = json.loads(resources.files("notescrub.models").joinpath("en-default/model.json").read_text())
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert meta["presets"] and "precision" in meta["presets"]
    for name in meta["presets"]:
        assert name in out
    assert f"{meta['default_preset']} [default]" in out


def test_explain_en_default_shows_the_stacked_crf_features(tmp_path, capsys):
    import json

    notes = tmp_path / "n.jsonl"
    write_corpus([Document("a", NOTE, "P1"), Document("b", "Smith called back about the results.", "P1")], notes)
    out = tmp_path / "o.jsonl"
    assert main(["-q", "annotate", str(notes), "-o", str(out), "--explain"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    crf = [s for r in records for s in r["spans"] if s["source"] == "crf"]
    assert crf and all(s["explain"] for s in crf)
    feats = {f for s in crf for f, _ in s["explain"]}
    assert any(f.startswith("stk=") for f in feats)  # the feeders' detections pushed the label
    assert all(not any(w in f for w in ("Smith", "Ruiz", "Lakeshore")) for f in feats)


def test_explain_says_which_spans_cannot_be_explained(tmp_path, capsys):
    """A hybrid model whose rules component also outputs spans: those have no CRF weights."""
    import json
    import shutil
    from importlib import resources

    model = tmp_path / "model"
    shutil.copytree(str(resources.files("notescrub.models").joinpath("en-default")), model)
    meta = json.loads((model / "model.json").read_text())
    for c in meta["components"]:
        if c["name"] == "rules":
            c["options"]["enabled"] = True
    (model / "model.json").write_text(json.dumps(meta))
    notes = tmp_path / "n.jsonl"
    write_corpus([Document("a", NOTE)], notes)
    out = tmp_path / "o.jsonl"
    # a CRF biased hard towards precision leaves some PHI to the rules
    assert main(["-q", "annotate", str(notes), "-o", str(out), "--model", str(model), "--explain",
                 "--recall-bias", "-12"]) == 0
    spans = json.loads(out.read_text())["spans"]
    rules = [s for s in spans if s["source"] == "rules"]
    assert rules and all(s["explain"] == [] for s in rules)
    assert all(s["explain"] for s in spans if s["source"] == "crf")
    err = capsys.readouterr().err
    assert f"{len(rules)} span(s) found by components that are not CRFs" in err and f"rules {len(rules)}" in err


def test_explain_refused_for_a_model_without_crf(tmp_path, capsys):
    notes = tmp_path / "n.jsonl"
    write_corpus([Document("a", NOTE)], notes)
    assert main(["-q", "annotate", str(notes), "-o", str(tmp_path / "o.jsonl"), "--model", "rules-en",
                 "--explain"]) == 2
    assert "cannot be explained" in capsys.readouterr().err and not (tmp_path / "o.jsonl").exists()
