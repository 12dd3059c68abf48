"""``notescrub deid``."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.io import read_corpus, write_corpus
from notescrub.replace.keys import SurrogateKey
from notescrub.types import Document, Span

NOTE = "Seen by Dr. Ruiz on 03/18/2091 at Lakeshore Hospital. MRN 7730-1185.\n"


def _doc(doc_id="n1", patient="P1"):
    spans = []
    for sub, label in [("Ruiz", "DOCTOR"), ("03/18/2091", "DATE"), ("Lakeshore Hospital", "HOSPITAL"),
                       ("7730-1185", "MEDICALRECORD")]:
        i = NOTE.index(sub)
        spans.append(Span(i, i + len(sub), label))
    return Document(doc_id, NOTE, patient, layers={"gold": spans})


@pytest.fixture
def key_dir(tmp_path, monkeypatch):
    d = tmp_path / "keys"
    monkeypatch.setenv("NOTESCRUB_KEY_DIR", str(d))
    return d


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "in.jsonl"
    write_corpus([_doc("n1"), _doc("n2", "P2")], path)
    return path


def test_spans_from_input_jsonl_with_new_key(tmp_path, corpus, key_dir, capsys):
    out = tmp_path / "out.jsonl"
    assert main(["deid", str(corpus), "-o", str(out), "--spans-from-input"]) == 0
    err = capsys.readouterr().err
    keys = list(key_dir.iterdir())
    assert len(keys) == 1 and str(keys[0]) in err and "--key-file" in err
    assert keys[0].read_text().split()[1] not in err  # the key itself is never printed
    docs = list(read_corpus(out))
    for d in docs:
        assert "Ruiz" not in d.text and "7730-1185" not in d.text and "Lakeshore" not in d.text
        assert [s.label for s in d.layer("gold")] == ["DOCTOR", "DATE", "HOSPITAL", "MEDICALRECORD"]
        assert d.text.endswith(" Hospital. MRN " + d.span_text(d.layer("gold")[3]) + ".\n")
    # same key -> same output; the two patients got independent surrogates
    out2 = tmp_path / "out2.jsonl"
    assert main(["deid", str(corpus), "-o", str(out2), "--spans-from-input", "--key-file", str(keys[0])]) == 0
    assert [d.text for d in read_corpus(out2)] == [d.text for d in docs]
    assert docs[0].text != docs[1].text


def test_i2b2_xml_output_is_an_annotated_corpus(tmp_path, key_dir):
    src = tmp_path / "xml"
    write_corpus([_doc("110-01")], src, "i2b2-xml")
    key = SurrogateKey.generate().save(tmp_path / "k.key")
    out = tmp_path / "deid_xml"
    assert main(["-q", "deid", str(src), "-o", str(out), "--spans-from-input", "--key-file", str(key)]) == 0
    (doc,) = read_corpus(out)
    assert [s.label for s in doc.layer("gold")] == ["DOCTOR", "DATE", "HOSPITAL", "MEDICALRECORD"]
    assert doc.span_text(doc.layer("gold")[2]).endswith(" Hospital") and "Ruiz" not in doc.text
    assert not key_dir.exists()  # a given key: nothing generated


def test_single_text_note_to_stdout(tmp_path, capsys, monkeypatch):
    note = tmp_path / "note.txt"
    note.write_text(NOTE, encoding="utf-8")
    from notescrub.cli.commands import deid as cmd
    from notescrub.detect.base import Detector
    from notescrub.pipeline import Pipeline

    class Ruiz(Detector):
        name = "ruiz"

        def detect(self, doc):
            i = doc.text.index("Ruiz")
            return [Span(i, i + 4, "DOCTOR", source=self.name)]

    monkeypatch.setattr(cmd, "_pipeline", lambda args: Pipeline([Ruiz()]))
    assert main(["deid", str(note), "--mode", "tag"]) == 0
    assert capsys.readouterr().out == NOTE.replace("Ruiz", "[**DOCTOR**]")
    assert main(["deid", str(note), "--mode", "mask", "--keep-annotations"]) == 0
    rec = json.loads(capsys.readouterr().out)
    assert rec["text"] == NOTE.replace("Ruiz", "****")
    assert rec["spans"][0]["start"] == NOTE.index("Ruiz") and rec["spans"][0]["type"] == "DOCTOR"
    out = tmp_path / "deid.txt"
    assert main(["deid", str(note), "--mode", "redact", "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == NOTE.replace("Ruiz", "")


def test_keep_annotations_sidecar_in_input_order(tmp_path, corpus):
    out = tmp_path / "tags.jsonl"
    assert main(["deid", str(corpus), "-o", str(out), "--spans-from-input", "--mode", "tag", "--types", "hipaa",
                 "--keep-annotations"]) == 0
    recs = [json.loads(line) for line in (tmp_path / "tags.jsonl.spans.jsonl").read_text().splitlines()]
    assert [s["type"] for s in recs[0]["spans"]] == ["DATE", "MEDICALRECORD"]  # DOCTOR/HOSPITAL are not HIPAA
    for s in recs[0]["spans"]:
        assert recs[0]["text"][s["start"]:s["end"]] == f"[**{s['type']}**]"
    assert "Ruiz" in recs[0]["text"]


def test_bad_key_file_writes_nothing(tmp_path, corpus, capsys):
    bad = tmp_path / "bad.key"
    bad.write_text("not a key at all")
    out = tmp_path / "out.jsonl"
    assert main(["deid", str(corpus), "-o", str(out), "--spans-from-input", "--key-file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "bad.key" in err and "not a key at all" not in err and not out.exists()
    assert main(["deid", str(corpus), "-o", str(out), "--spans-from-input", "--key-file", str(tmp_path / "no")]) == 2
    assert not out.exists()


def test_overlapping_input_fails_closed(tmp_path, capsys):
    path = tmp_path / "in.jsonl"
    bad = Document("bad1", "John Smith", "P1", layers={"gold": [Span(0, 10, "PATIENT"), Span(5, 10, "DOCTOR")]})
    write_corpus([_doc("ok1"), bad], path)
    out = tmp_path / "out.jsonl"
    assert main(["deid", str(path), "-o", str(out), "--spans-from-input", "--mode", "tag"]) == 2
    err = capsys.readouterr().err
    assert "document 2 (doc#" in err and "bad1" not in err and not out.exists()  # ids may be MRNs: hashed
    assert main(["deid", str(path), "-o", str(out), "--spans-from-input", "--mode", "tag", "--skip-bad"]) == 1
    assert [d.id for d in read_corpus(out)] == ["ok1"]
    assert main(["deid", str(path), "-o", str(tmp_path / "r.jsonl"), "--spans-from-input", "--mode", "tag",
                 "--resolve", "longest"]) == 0


def test_unknown_label_reported(tmp_path, caplog):
    path = tmp_path / "in.jsonl"
    write_corpus([Document("s1", "Sexo: mujer", "P1", layers={"gold": [Span(6, 11, "ODD_LABEL")]})], path)
    key = SurrogateKey.generate().save(tmp_path / "k.key")
    assert main(["deid", str(path), "-o", str(tmp_path / "o.jsonl"), "--spans-from-input", "--key-file", str(key)]) == 0
    assert any("ODD_LABEL" in r.getMessage() and "tag" in r.getMessage() for r in caplog.records)


def test_needs_output_for_corpora(corpus, capsys):
    assert main(["deid", str(corpus), "--spans-from-input", "--mode", "tag"]) == 2
    assert "-o OUTPUT" in capsys.readouterr().err


def test_rules_model_if_packaged(tmp_path):
    from notescrub.registry import packaged_models

    if "rules-en" not in packaged_models():
        pytest.skip("rules-en model not packaged")
    note = tmp_path / "n.txt"
    note.write_text("Call 617-555-0199 on 03/18/2091.\n", encoding="utf-8")
    out = tmp_path / "o.txt"
    assert main(["-q", "deid", str(note), "--model", "rules-en", "--mode", "tag", "-o", str(out)]) == 0
    assert "617-555-0199" not in out.read_text() and "03/18/2091" not in out.read_text()


@pytest.mark.slow
def test_meddocan_round_trip(meddocan_dir, tmp_path):
    key = SurrogateKey.generate().save(tmp_path / "k.key")
    out = tmp_path / "out"
    src = meddocan_dir / "dev" / "xml"
    assert main(["-q", "deid", str(src), "-o", str(out), "--spans-from-input", "--key-file", str(key)]) == 0
    a = {d.id: d for d in read_corpus(src)}
    for d in read_corpus(out):
        assert len(d.layer("gold")) == len(a[d.id].layer("gold"))
