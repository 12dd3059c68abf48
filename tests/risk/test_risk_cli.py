"""`annotate` writes risk and suspects; `deid --risk` writes them with offsets into the output text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from notescrub.cli.main import main

NOTES = [
    {"id": "n1", "patient": "P1", "text": "Zebulon Quackenbush (MRN 88812) was seen on 03/18/2091 by Dr. Ruiz."},
    {"id": "n2", "patient": "P2", "text": "Call 555-123-4567. Follow up with Ortega Blanco at Mercy Hospital."},
]


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    path = tmp_path / "notes.jsonl"
    path.write_text("".join(json.dumps(n) + "\n" for n in NOTES), encoding="utf-8")
    return path


def _lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_annotate_writes_risk_and_suspects_on_the_input_text(corpus, tmp_path):
    out = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(corpus), "-o", str(out), "--model", "rules-en", "--suspects", "4"]) == 0
    recs = _lines(out)
    assert [r["id"] for r in recs] == ["n1", "n2"]
    for rec, note in zip(recs, NOTES):
        assert isinstance(rec["risk"], float) and rec["risk"] > 0
        assert len(rec["suspects"]) == 4
        for s in rec["suspects"]:
            assert set(s) == {"start", "end", "score", "type"}
            word = note["text"][s["start"]:s["end"]]
            assert word.strip() == word and any(c.isalnum() for c in word)
            assert not any(p["start"] < s["end"] and s["start"] < p["end"] for p in rec["spans"])
        assert [s["score"] for s in rec["suspects"]] == sorted((s["score"] for s in rec["suspects"]), reverse=True)


def test_annotate_without_a_calibration_warns_and_leaves_the_fields_out(corpus, tmp_path, caplog):
    from notescrub.config import ComponentSpec
    from notescrub.modeldir import HybridModel

    model = HybridModel([ComponentSpec("rules", "rules", options={"types": ["PHONE"]})]).save(tmp_path / "m")
    out = tmp_path / "spans.jsonl"
    assert main(["annotate", str(corpus), "-o", str(out), "--model", str(model)]) == 0
    assert all("risk" not in r and "suspects" not in r for r in _lines(out))
    assert "no risk calibration ships" in caplog.text


def test_annotate_takes_a_calibration_file(corpus, tmp_path):
    cal = tmp_path / "cal.json"
    cal.write_text(json.dumps({"format": 1, "model": "mine", "kind": "logistic", "intercept": -2.0,
                               "weights": {"digit": 1.0}, "fitted_on": {"description": "test"}}), encoding="utf-8")
    out = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(corpus), "-o", str(out), "--model", "rules-en",
                 "--risk-calibration", str(cal)]) == 0
    assert all("risk" in r for r in _lines(out))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["-q", "annotate", str(corpus), "-o", str(tmp_path / "x.jsonl"), "--model", "rules-en",
                 "--risk-calibration", str(bad)]) == 2


def _deid(corpus: Path, out: Path, key: Path, *extra: str) -> int:
    return main(["-q", "deid", str(corpus), "-o", str(out), "--model", "rules-en", "--key-file", str(key), *extra])


def test_deid_output_is_unchanged_without_risk_and_risk_offsets_point_into_the_output(corpus, tmp_path):
    key = tmp_path / "k.key"
    assert main(["-q", "key", "new", str(key)]) == 0
    plain, risky = tmp_path / "plain.jsonl", tmp_path / "risky.jsonl"
    assert _deid(corpus, plain, key, "--mode", "redact") == 0
    assert _deid(corpus, risky, key, "--mode", "redact", "--risk") == 0
    assert plain.read_bytes() == risky.read_bytes()  # the release itself carries nothing more
    assert not Path(str(plain) + ".risk.jsonl").exists()
    sidecar = _lines(Path(str(risky) + ".risk.jsonl"))
    # the same suspects as annotate's, located in the de-identified text instead of the input
    ann = tmp_path / "spans.jsonl"
    assert main(["-q", "annotate", str(corpus), "-o", str(ann), "--model", "rules-en"]) == 0
    outputs = {r["id"]: r["text"] for r in _lines(risky)}
    moved = 0
    for rec, a, note in zip(sidecar, _lines(ann), NOTES):
        assert rec["id"] == a["id"] and rec["risk"] == a["risk"]
        assert len(rec["suspects"]) == len(a["suspects"]) > 0
        for s, t in zip(rec["suspects"], a["suspects"]):
            assert outputs[rec["id"]][s["start"]:s["end"]] == note["text"][t["start"]:t["end"]]
            moved += s["start"] != t["start"]
    assert moved  # redaction shortens the text: suspects after a redacted span moved


@pytest.mark.parametrize("extra, message", [
    (["--spans-from-input", "--risk"], "--risk needs"),
    (["--suspects", "3"], "only apply with --risk"),
])
def test_deid_risk_options_are_checked(corpus, tmp_path, extra, message, capsys):
    key = tmp_path / "k.key"
    assert main(["-q", "key", "new", str(key)]) == 0
    assert _deid(corpus, tmp_path / "o.jsonl", key, *extra) == 2
    assert message in capsys.readouterr().err
