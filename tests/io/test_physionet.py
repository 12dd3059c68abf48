"""PhysioNet deid reader."""

import shutil

import pytest

from notescrub.errors import InputFormatError, OffsetError
from notescrub.io import read_corpus


def test_reads_phrase_file(fixtures):
    docs = list(read_corpus(fixtures / "physionet"))
    assert [(d.id, d.patient_id) for d in docs] == [("12-1", "12"), ("12-2", "12")]
    assert [(s.label, s.phi, docs[0].span_text(s)) for s in docs[0].layer("gold")] == [
        ("HCPName", "DOCTOR", "Fennimore"), ("RelativeProxyName", "PATIENT", "Griselda")]
    assert docs[1].text == "Transferred to Dunmore on 5/6.\n"


def test_falls_back_to_deid_file(fixtures, tmp_path):
    for name in ("id.text", "id.deid"):
        shutil.copy(fixtures / "physionet" / name, tmp_path / name)
    docs = list(read_corpus(tmp_path / "id.text"))
    with_types = list(read_corpus(fixtures / "physionet"))
    assert [[(s.start, s.end) for s in d.layer("gold")] for d in docs] == \
        [[(s.start, s.end) for s in d.layer("gold")] for d in with_types]
    assert {s.label for d in docs for s in d.layer("gold")} == {"PHI"}


@pytest.mark.parametrize(
    "text,phrase,exc,reason,path,line",
    [
        ("START_OF_RECORD=1||||1||||\nabc\n", "", InputFormatError, "never closed", "id.text", 1),
        ("abc\n", "", InputFormatError, "outside a record", "id.text", 1),
        ("START_OF_RECORD=1||||1||||\nabc\n||||END_OF_RECORD\n", "1 1 0 9 Date abc\n", OffsetError, "outside", "id-phi.phrase", 1),
        ("START_OF_RECORD=1||||1||||\nabc\n||||END_OF_RECORD\n", "1 1 0 2 Date zz\n", OffsetError, "does not match", "id-phi.phrase", 1),
        ("START_OF_RECORD=1||||1||||\nabc\n||||END_OF_RECORD\n", "\n1 1 x 2 Date ab\n", InputFormatError, "expected", "id-phi.phrase", 2),
        ("||||END_OF_RECORD\n", "", InputFormatError, "without START", "id.text", 1),
    ],
)
def test_bad_input(tmp_path, text, phrase, exc, reason, path, line):
    (tmp_path / "id.text").write_text(text, encoding="utf-8")
    (tmp_path / "id-phi.phrase").write_text(phrase, encoding="utf-8")
    with pytest.raises(exc) as info:
        list(read_corpus(tmp_path / "id.text"))
    assert reason in str(info.value) and info.value.path == str(tmp_path / path) and info.value.line == line


def test_not_writable(tmp_path, fixtures):
    from notescrub.errors import UnknownFormatError
    from notescrub.io import write_corpus

    with pytest.raises(UnknownFormatError, match=r"cannot be written|not written"):
        write_corpus(read_corpus(fixtures / "physionet"), tmp_path / "x", "physionet")
