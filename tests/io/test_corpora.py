"""Whole-corpus integration tests on ../shared (skipped when the corpora are absent)."""

from xml.etree import ElementTree as ET

import pytest

from notescrub.cli.main import main
from notescrub.io import read_corpus
from notescrub.types import Document

pytestmark = pytest.mark.slow


def _view(doc):
    return doc.text, doc.patient_id, sorted((s.start, s.end, s.label, s.meta.get("id")) for s in doc.layer("gold"))


def test_meddocan_xml_and_brat_are_identical(meddocan_dir):
    n = 0
    for split in ("train", "dev"):
        xml = {d.id: d for d in read_corpus(meddocan_dir / split / "xml")}
        brat = {d.id: d for d in read_corpus(meddocan_dir / split / "brat")}
        assert xml.keys() == brat.keys()
        for k in xml:
            assert _view(xml[k]) == _view(brat[k]), k
        n += len(xml)
    assert n == 750


def _raw_text(data: bytes) -> bytes:
    return data[data.index(b"<TEXT>") + len(b"<TEXT>") : data.index(b"</TEXT>")]


def _tags(path):
    tags = ET.parse(path).getroot().find("TAGS")
    return sorted((t.tag, *sorted(t.attrib.items())) for t in tags)


def test_meddocan_xml_jsonl_xml_is_exact(meddocan_dir, tmp_path):
    src = meddocan_dir / "train" / "xml"
    assert main(["-q", "convert", str(src), "-o", str(tmp_path / "x.jsonl"), "--to", "jsonl"]) == 0
    assert main(["-q", "convert", str(tmp_path / "x.jsonl"), "-o", str(tmp_path / "xml"), "--to", "i2b2-xml"]) == 0
    files = sorted(src.glob("*.xml"))
    assert len(files) == 500 and len(list((tmp_path / "xml").iterdir())) == 500
    for f in files:
        g = tmp_path / "xml" / f.name
        assert _raw_text(g.read_bytes()) == _raw_text(f.read_bytes()), f.name
        assert _tags(g) == _tags(f), f.name


def test_meddocan_brat_jsonl_brat_is_exact(meddocan_dir, tmp_path):
    src = meddocan_dir / "train" / "brat"
    assert main(["-q", "convert", str(src), "-o", str(tmp_path / "b.jsonl"), "--to", "jsonl"]) == 0
    assert main(["-q", "convert", str(tmp_path / "b.jsonl"), "-o", str(tmp_path / "brat"), "--to", "brat"]) == 0
    txts = sorted(src.glob("*.txt"))
    assert len(txts) == 500
    for f in txts:
        assert (tmp_path / "brat" / f.name).read_bytes() == f.read_bytes(), f.name
        a = f.with_suffix(".ann").read_text(encoding="utf-8").splitlines()
        b = (tmp_path / "brat" / f.with_suffix(".ann").name).read_text(encoding="utf-8").splitlines()
        assert sorted(x for x in a if x.strip()) == sorted(b), f.name


def test_en_dev_inline_notes_match_jsonl(en_dev_dir):
    notes = {d.id: d for d in read_corpus(en_dev_dir / "notes")}
    jsonl = {d.id: d for d in read_corpus(en_dev_dir / "en-dev.jsonl")}
    assert len(notes) == 65 and notes.keys() == jsonl.keys()
    def strip(d: Document) -> tuple:
        return d.text, d.patient_id, [(s.start, s.end, s.label) for s in d.layer("gold")]

    for k in notes:
        assert strip(notes[k]) == strip(jsonl[k]), k
    assert sum(len(d.layer("gold")) for d in notes.values()) == 1664
    assert len({d.patient_id for d in notes.values()}) == 20
