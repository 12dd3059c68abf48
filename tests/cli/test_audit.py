"""``notescrub audit``."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.io import write_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document, Span

TEXT = "Seen by Dr. Ruiz on 03/18/2091. Call 617-555-0199."


def _orig():
    return Document("a", TEXT, "P1", layers={"gold": [Span(12, 16, "DOCTOR"), Span(20, 30, "DATE"),
                                                      Span(37, 49, "PHONE")]})


def test_pair_exit_status_and_no_values(tmp_path, capsys):
    orig, out = tmp_path / "o.jsonl", tmp_path / "d.jsonl"
    write_corpus([_orig()], orig)
    write_corpus([Document("a", TEXT.replace("03/18/2091", "[**DATE**]"))], out)
    assert main(["audit", str(orig), str(out)]) == 1
    text = capsys.readouterr().out
    assert "still present in the output: 2" in text and "DOCTOR" in text and "PHONE" in text
    assert "Ruiz" not in text and "617-555-0199" not in text
    write_corpus([Document("a", "Seen by Dr. [**DOCTOR**] on [**DATE**]. Call [**PHONE**].")], out)
    assert main(["audit", str(orig), str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["leaked"] == 0


def test_output_only_and_strict(tmp_path, capsys):
    out = tmp_path / "d.jsonl"
    write_corpus([Document("a", "Call 617-555-0199.")], out)
    assert main(["audit", "--output-only", str(out)]) == 0
    assert "phone" in capsys.readouterr().out
    assert main(["audit", "--output-only", str(out), "--strict"]) == 1


def test_usage_errors(tmp_path, capsys):
    out = tmp_path / "d.jsonl"
    write_corpus([Document("a", "x")], out)
    assert main(["audit", str(out)]) == 2
    assert main(["audit", "--output-only", str(out), str(out)]) == 2
    assert main(["audit", str(out), str(out), "--format", "nope"]) == 2


NOTES = {
    "a.txt": "Mr. John Smith was seen by Dr. Ruiz on 03/18/2091 at Lakeshore Hospital. Call 617-555-0199.\n",
    "b.txt": "Follow-up for Maria Gonzalez (MRN 7730-1185) on 04/02/2091 with Dr. Ruiz. Phone 617-555-0142.\n",
    "c.txt": "Patient states the cough is better. No fever. Continue the inhaler.\n",
}


@pytest.fixture
def plain(tmp_path):
    """A folder of plain notes, their de-identified copy (surrogates) and the key."""
    notes = tmp_path / "notes"
    notes.mkdir()
    for name, text in NOTES.items():
        (notes / name).write_text(text, encoding="utf-8")
    # a fixed key: with a fresh random key, the keyed draw for one name can land on another
    # person's real name in the same note (rare), which the audit rightly reports
    key = SurrogateKey.from_seed("test-audit").save(tmp_path / "site.key")
    deid = tmp_path / "deid"
    assert main(["-q", "deid", str(notes), "-o", str(deid), "--key-file", str(key)]) == 0
    return notes, deid


def test_plain_notes_clean_output_passes(plain, capsys):
    notes, deid = plain
    capsys.readouterr()
    assert main(["-q", "audit", str(notes), str(deid)]) == 0
    out = capsys.readouterr().out
    assert "model en-default on the original" in out and "still present in the output: 0" in out
    assert "PHI-like patterns" not in out  # the surrogates are not reported as leftovers
    assert main(["-q", "audit", str(notes), str(deid), "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep["documents"] == 3 and rep["phi_checked"] >= 8 and rep["leftovers"] == []


def test_plain_notes_leftovers_by_type_and_position(plain, capsys):
    notes, deid = plain
    leaky = deid.parent / "leaky"
    leaky.mkdir()
    for name in NOTES:
        (leaky / name).write_text((deid / name).read_text(encoding="utf-8"), encoding="utf-8")
    b = (leaky / "b.txt").read_text(encoding="utf-8")
    planted = ["maria  GONZALEZ", "(617) 5550142", "Ruiz", "7730 1185"]
    b += " Seen with " + " and ".join(planted) + ".\n"
    (leaky / "b.txt").write_text(b, encoding="utf-8")
    capsys.readouterr()
    assert main(["-q", "audit", str(notes), str(leaky), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    found = {(x["type"], b[x["start"]:x["end"]], x["matched"]) for x in rep["leftovers"]}
    assert ("PATIENT", "maria  GONZALEZ", "normalised") in found
    assert ("PHONE", "617) 5550142", "digits") in found
    assert ("DOCTOR", "Ruiz", "exact") in found
    assert ("MEDICALRECORD", "7730 1185", "normalised") in found
    assert all(x["document"] == "b" and x["position"] == 2 and "text" not in x for x in rep["leftovers"])
    a = (leaky / "a.txt").read_text(encoding="utf-8") + "Mr. SMITH again.\n"
    (leaky / "a.txt").write_text(a, encoding="utf-8")
    assert main(["-q", "audit", str(notes), str(leaky), "--json"]) == 1
    rep = json.loads(capsys.readouterr().out)
    assert {(x["type"], a[x["start"]:x["end"]], x["matched"]) for x in rep["leftovers"] if x["document"] == "a"} \
        == {("PATIENT", "SMITH", "name-part")}
    assert main(["-q", "audit", str(notes), str(leaky)]) == 1
    out = capsys.readouterr().out
    assert "leftovers" in out and "PHONE" in out and "digits" in out
    assert not any(v in out.lower() for v in ("gonzalez", "555", "ruiz", "smith", "7730"))
    assert main(["-q", "audit", str(notes), str(leaky), "--show-text"]) == 1
    out = capsys.readouterr().out
    assert "'maria  GONZALEZ'" in out and "'SMITH'" in out


def test_plain_notes_patterns_only_on_request(plain, capsys):
    notes, deid = plain
    capsys.readouterr()
    assert main(["-q", "audit", str(notes), str(deid), "--patterns"]) == 0
    assert "PHI-like patterns left in the output" in capsys.readouterr().out
