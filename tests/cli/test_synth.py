import importlib.util

import pytest

from notescrub.cli.main import main
from notescrub.io import read_corpus


def test_generate_writes_jsonl(tmp_path, capsys):
    out = tmp_path / "s.jsonl"
    assert main(["-q", "synth", "generate", "-n", "12", "--seed", "3", "-o", str(out)]) == 0
    docs = list(read_corpus(out))
    assert len(docs) == 12
    assert all(d.patient_id and d.layer("gold") for d in docs)
    for d in docs:
        for s in d.layer("gold"):
            assert d.text[s.start:s.end].strip()


def test_generate_is_deterministic(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for p in (a, b):
        assert main(["-q", "synth", "generate", "-n", "6", "--seed", "5", "-o", str(p)]) == 0
    assert a.read_bytes() == b.read_bytes()


def test_generate_patients_and_types(tmp_path):
    out = tmp_path / "t.jsonl"
    assert main(["-q", "synth", "generate", "--patients", "3", "--per-patient", "2", "--types", "icu_nursing,portal", "-o", str(out)]) == 0
    docs = list(read_corpus(out))
    assert len(docs) == 6 and len({d.patient_id for d in docs}) == 3


def test_list_types(capsys):
    assert main(["synth", "generate", "--list-types"]) == 0
    assert "discharge_summary" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [["synth", "generate", "-n", "3"], ["synth", "generate", "-n", "3", "-o", "x.jsonl", "--per-patient", "a-b"],
                                  ["synth"], ["synth", "generate", "-n", "3", "-o", "x.jsonl", "--types", "nope"]])
def test_bad_arguments_exit_2(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    assert not (tmp_path / "x.jsonl").exists()


@pytest.mark.skipif(importlib.util.find_spec("notescrub.replace.repopulate") is None, reason="re-population not available yet")
@pytest.mark.parametrize("style", ["random", "ambiguous", "oov"])
def test_repopulate_round_trip(tmp_path, style):
    src, out = tmp_path / "s.jsonl", tmp_path / f"r-{style}.jsonl"
    assert main(["-q", "synth", "generate", "-n", "8", "--seed", "1", "-o", str(src)]) == 0
    assert main(["-q", "synth", "repopulate", str(src), "-o", str(out), "--style", style, "--seed", "2"]) == 0
    before, after = list(read_corpus(src)), list(read_corpus(out))
    assert [d.id for d in before] == [d.id for d in after]
    assert [len(d.layer("gold")) for d in before] == [len(d.layer("gold")) for d in after]
    assert any(a.text != b.text for a, b in zip(before, after))


def test_recase_round_trip(tmp_path):
    src, out = tmp_path / "s.jsonl", tmp_path / "upper.jsonl"
    assert main(["-q", "synth", "generate", "-n", "6", "--seed", "1", "-o", str(src)]) == 0
    assert main(["-q", "synth", "recase", str(src), "-o", str(out), "--case", "upper", "--share", "0.5"]) == 0
    before = {d.id: d for d in read_corpus(src)}
    after = list(read_corpus(out))
    assert len(after) == 3
    for d in after:
        orig = before[d.id.removesuffix("~upper")]
        assert d.text == d.text.upper() and len(d.text) == len(orig.text)
        assert [(s.start, s.end, s.label) for s in d.layer("gold")] == \
               [(s.start, s.end, s.label) for s in orig.layer("gold")]


def test_recase_bad_share_writes_nothing(tmp_path):
    src, out = tmp_path / "s.jsonl", tmp_path / "x.jsonl"
    assert main(["-q", "synth", "generate", "-n", "2", "-o", str(src)]) == 0
    assert main(["-q", "synth", "recase", str(src), "-o", str(out), "--case", "lower", "--share", "2"]) == 2
    assert not out.exists()
