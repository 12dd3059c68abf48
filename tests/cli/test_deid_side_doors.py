"""``notescrub deid`` carries nothing but text, spans and id: PHI side doors (issue: reliability §1)."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.detect.base import Detector
from notescrub.docref import reveal_ids
from notescrub.pipeline import Pipeline
from notescrub.replace import Replacer, SurrogateKey
from notescrub.replace.batch import deidentify
from notescrub.types import Document, Span

SECRETS = ("Bob Jones", "900-11-2233", "4482911", "real name")


@pytest.fixture
def key_file(tmp_path):
    return str(SurrogateKey(bytes(range(32))).save(tmp_path / "k.key"))


def _leaks(text: str) -> list[str]:
    return [s for s in SECRETS if s in text]


def test_jsonl_patient_and_meta_are_not_passed_through(tmp_path, key_file):
    src = tmp_path / "in.jsonl"
    rec = {"id": "n1", "patient": "4482911", "text": "Seen by Ruiz.",
           "spans": [{"start": 8, "end": 12, "type": "DOCTOR", "comment": "real name Bob Jones"}],
           "meta": {"name": "Bob Jones", "ssn": "900-11-2233", "site": "north"}}
    src.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["-q", "deid", str(src), "-o", str(out), "--spans-from-input", "--key-file", key_file]) == 0
    raw = out.read_text(encoding="utf-8")
    assert _leaks(raw) == [] and "north" not in raw
    got = json.loads(raw)
    assert got["id"] == "n1" and got["patient"].startswith("pt-") and got["meta"] == {"deidentified": True}
    # the same patient gets the same pseudonym in every run with this key
    out2 = tmp_path / "out2.jsonl"
    assert main(["-q", "deid", str(src), "-o", str(out2), "--spans-from-input", "--key-file", key_file]) == 0
    assert json.loads(out2.read_text(encoding="utf-8"))["patient"] == got["patient"]
    # explicit allow-list
    out3 = tmp_path / "out3.jsonl"
    assert main(["-q", "deid", str(src), "-o", str(out3), "--spans-from-input", "--key-file", key_file,
                 "--keep-field", "site", "--keep-field", "patient"]) == 0
    kept = json.loads(out3.read_text(encoding="utf-8"))
    assert kept["patient"] == "4482911" and kept["meta"] == {"site": "north", "deidentified": True}


def test_csv_extra_columns_are_dropped(tmp_path, key_file):
    src = tmp_path / "in.csv"
    src.write_text('id,patient,text,mrn,ward\nn1,P1,"Seen by Ruiz.",4482911,north\n', encoding="utf-8")
    out = tmp_path / "out.csv"
    assert main(["-q", "deid", str(src), "-o", str(out), "--model", "rules-en", "--key-file", key_file]) == 0
    raw = out.read_text(encoding="utf-8")
    assert "4482911" not in raw and "north" not in raw
    assert main(["-q", "deid", str(src), "-o", str(tmp_path / "o2.csv"), "--model", "rules-en",
                 "--key-file", key_file, "--keep-field", "ward"]) == 0
    assert "north" in (tmp_path / "o2.csv").read_text(encoding="utf-8")


def test_brat_notes_and_normalisations_are_dropped(tmp_path, key_file):
    folder = tmp_path / "brat"
    folder.mkdir()
    (folder / "n1.txt").write_text("Seen by Ruiz today.\n", encoding="utf-8")
    (folder / "n1.ann").write_text("T1\tDOCTOR 8 12\tRuiz\n#1\tAnnotatorNotes T1\treal name Bob Jones\n"
                                   "N1\tReference T1 Wikidata:Q1\tBob Jones\n", encoding="utf-8")
    out = tmp_path / "out"
    for mode_args in (["--spans-from-input"], ["--model", "rules-en"]):
        assert main(["-q", "deid", str(folder), "-o", str(out), "--key-file", key_file, "--force", *mode_args]) == 0
        ann = (out / "n1.ann").read_text(encoding="utf-8")
        assert _leaks(ann) == [] and "#1" not in ann and "N1" not in ann


def test_i2b2_xml_attributes_are_dropped(tmp_path, key_file):
    folder = tmp_path / "xml"
    folder.mkdir()
    (folder / "n1.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<deIdi2b2><TEXT><![CDATA[Seen by Ruiz.]]></TEXT><TAGS>'
        '<NAME id="P0" start="8" end="12" text="Ruiz" TYPE="DOCTOR" comment="real name Bob Jones" '
        'mrn="4482911"/></TAGS></deIdi2b2>\n', encoding="utf-8")
    out = tmp_path / "out"
    assert main(["-q", "deid", str(folder), "-o", str(out), "--spans-from-input", "--key-file", key_file]) == 0
    xml = (out / "n1.xml").read_text(encoding="utf-8")
    assert _leaks(xml) == [] and "Ruiz" not in xml and "<deIdi2b2>" in xml


@pytest.mark.parametrize("text, label", [("99887766 Ana Ruiz", "PATIENT"), ("Lee (pager 4417", "DOCTOR"),
                                         ("RUIZ 4482911", "PATIENT")])
def test_digits_inside_a_name_span_are_replaced(text, label):
    doc = Document("n1", f"Seen: {text}) today", "P1", layers={"gold": [Span(6, 6 + len(text), label)]})
    new = Replacer("surrogate", key=SurrogateKey(bytes(32)), layer="gold").replace(doc).text
    digits = [t for t in text.replace("(", " ").split() if t.isdigit()]
    assert digits and not any(d in new for d in digits)
    assert sum(c.isdigit() for c in new) == sum(c.isdigit() for c in text)  # digits by digits


class _Quoting(Detector):
    """A detector whose error message quotes the note (as many library errors do)."""

    name = "quoting"

    def detect(self, doc):
        raise ValueError(f"cannot parse {doc.text!r}")


def test_failure_messages_quote_neither_note_text_nor_ids(tmp_path, capsys):
    docs = [Document("MRN-4482911", "Bob Jones was seen.", "P1")]
    with pytest.raises(Exception) as err:
        deidentify(docs, Replacer("tag"), pipeline=Pipeline([_Quoting()]))
    msg = str(err.value)
    assert "Bob Jones" not in msg and "4482911" not in msg
    assert "ValueError" in msg and "quoting" in msg and "document 1 (doc#" in msg
    reveal_ids(True)
    try:
        with pytest.raises(Exception) as err:
            deidentify(docs, Replacer("tag"), pipeline=Pipeline([_Quoting()]))
        assert "MRN-4482911" in str(err.value) and "Bob Jones" not in str(err.value)
    finally:
        reveal_ids(False)


def test_original_offsets_are_opt_in(tmp_path, key_file):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "n1", "text": "Seen by Ruiz.",
                               "spans": [{"start": 8, "end": 12, "type": "DOCTOR"}]}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    base = ["-q", "deid", str(src), "-o", str(out), "--spans-from-input", "--key-file", key_file, "--keep-annotations"]
    assert main(base) == 0
    span = json.loads((tmp_path / "out.jsonl.spans.jsonl").read_text(encoding="utf-8"))["spans"][0]
    assert "original_start" not in span and "original_end" not in span
    assert main([*base, "--force", "--keep-original-offsets"]) == 0
    span = json.loads((tmp_path / "out.jsonl.spans.jsonl").read_text(encoding="utf-8"))["spans"][0]
    assert (span["original_start"], span["original_end"]) == (8, 12)
    assert main(["-q", "deid", str(src), "-o", str(tmp_path / "x.jsonl"), "--spans-from-input",
                 "--key-file", key_file, "--keep-original-offsets"]) == 2


def test_reversed_input_gives_the_same_surrogates(tmp_path, key_file, en_dev_dir):
    """Surrogates do not depend on processing order (reliability issue §2), end to end."""
    src = en_dev_dir / "en-dev.jsonl"
    lines = src.read_text(encoding="utf-8").splitlines()
    rev = tmp_path / "rev.jsonl"
    rev.write_text("\n".join(reversed(lines)) + "\n", encoding="utf-8")
    outs = []
    for name, path in (("fwd", src), ("rev", rev)):
        out = tmp_path / f"{name}.jsonl"
        assert main(["-q", "deid", str(path), "-o", str(out), "--spans-from-input", "--key-file", key_file]) == 0
        outs.append({r["id"]: r["text"] for r in map(json.loads, out.read_text(encoding="utf-8").splitlines())})
    assert len(outs[0]) == len(lines) and outs[0] == outs[1]


def test_key_file_must_be_a_regular_file(tmp_path, capsys):
    import os

    fifo = tmp_path / "k.fifo"
    os.mkfifo(fifo)
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "n1", "text": "Seen by Ruiz."}) + "\n", encoding="utf-8")
    for bad in (fifo, "/dev/zero"):
        assert main(["-q", "deid", str(src), "-o", str(tmp_path / "o.jsonl"), "--model", "rules-en",
                     "--key-file", str(bad)]) == 2  # refused at once: no hang
        assert "not a regular file" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_group_readable_key_file_gets_a_warning(tmp_path, caplog):
    import logging
    import os

    path = SurrogateKey(bytes(32)).save(tmp_path / "keys" / "k.key")
    assert os.stat(path.parent).st_mode & 0o777 == 0o700
    os.chmod(path, 0o644)
    with caplog.at_level(logging.WARNING):
        SurrogateKey.load(path)
    assert "chmod 600" in caplog.text and "0000" not in caplog.text


def test_failed_run_saves_no_key(tmp_path, monkeypatch):
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(tmp_path / "keys"))
    src = tmp_path / "notes"
    src.mkdir()
    (src / "a.txt").write_text("Seen by Dr. Ruiz.", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x", encoding="utf-8")
    assert main(["-q", "deid", str(src), "-o", str(out), "--model", "rules-en"]) == 2
    assert not (tmp_path / "keys").exists() and (out / "keep.txt").exists()
