"""Span-only predictions (notescrub annotate output) are scored against the gold texts."""

import json

import pytest

from notescrub.cli.main import main
from notescrub.errors import InputFormatError, OffsetError
from notescrub.io.jsonl import is_span_only, read_span_only
from notescrub.types import Document


def _gold(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": "Dr. Ruiz saw Ann on 3/18.",
                                "spans": [{"start": 4, "end": 8, "type": "DOCTOR"},
                                          {"start": 20, "end": 24, "type": "DATE"}]}) + "\n")
    return gold


def test_read_span_only_attaches_gold_text(tmp_path):
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "a", "spans": [{"start": 4, "end": 8, "type": "DOCTOR", "score": 0.7}]}) + "\n")
    assert is_span_only(pred)
    docs = read_span_only(pred, [Document("a", "Dr. Ruiz saw Ann on 3/18.")])
    assert [(d.span_text(s), s.score) for d in docs for s in d.layer("gold")] == [("Ruiz", 0.7)]


def test_unknown_id_and_bad_offsets_are_errors(tmp_path):
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "zz", "spans": []}) + "\n")
    with pytest.raises(InputFormatError, match="zz"):
        read_span_only(pred, [Document("a", "text")])
    pred.write_text(json.dumps({"id": "a", "spans": [{"start": 0, "end": 99, "type": "DATE"}]}) + "\n")
    with pytest.raises(OffsetError, match="outside the text"):
        read_span_only(pred, [Document("a", "text")])


def test_evaluate_cli_scores_annotate_style_output(tmp_path):
    gold = _gold(tmp_path)
    pred = tmp_path / "pred.jsonl"
    pred.write_text(json.dumps({"id": "a", "spans": [{"start": 4, "end": 8, "type": "DOCTOR", "phi": "DOCTOR"}]}) + "\n")
    out = tmp_path / "r.json"
    assert main(["-q", "evaluate", str(gold), str(pred), "--json", str(out), "--bootstrap", "0"]) == 0
    strict = json.loads(out.read_text())["i2b2_2014"]["strict"]["micro"]
    assert (strict["precision"], strict["recall"]) == (1.0, 0.5)


def test_undecodable_span_only_file_is_a_clean_error(tmp_path):
    from notescrub.errors import EncodingError

    pred = tmp_path / "pred.jsonl"
    pred.write_bytes(b'{"id": "a", "spans": []}\n\xff\xfe\n')
    with pytest.raises(EncodingError):
        read_span_only(pred, [Document("a", "text")])
