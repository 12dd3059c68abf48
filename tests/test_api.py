"""The one-call API (notescrub.deidentify / notescrub.analyze) and the root re-exports."""

import subprocess
import sys

import pytest

import notescrub
from notescrub.errors import ConfigError

NOTE = "Seen by Dr. Ruiz on 3/18/2024. Call 555-123-4567."


def test_root_reexports_are_the_library_objects():
    from notescrub.pipeline import Pipeline
    from notescrub.registry import load_model
    from notescrub.replace.engine import Replacer
    from notescrub.replace.keys import SurrogateKey

    assert notescrub.Pipeline is Pipeline and notescrub.load_model is load_model
    assert notescrub.Replacer is Replacer and notescrub.SurrogateKey is SurrogateKey
    assert {"deidentify", "analyze", "Document", "Span"} <= set(dir(notescrub))
    with pytest.raises(AttributeError):
        notescrub.no_such_name  # noqa: B018


def test_import_root_stays_cheap():
    code = "import sys, notescrub; print('notescrub.replace.engine' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_deidentify_tag_mode_locates_spans_in_new_text():
    out = notescrub.deidentify(NOTE, mode="tag", model="rules-en")
    assert "Ruiz" not in out.text and "555-123-4567" not in out.text
    assert [out.text[s.start:s.end] for s in out.spans] == ["[**DOCTOR**]", "[**DATE**]", "[**PHONE**]"]


def test_deidentify_surrogates_are_consistent_with_one_key_only():
    key = notescrub.SurrogateKey.from_seed(7)
    a = notescrub.deidentify(NOTE, key=key, model="rules-en", patient_id="P1")
    b = notescrub.deidentify(NOTE, key=key, model="rules-en", patient_id="P1")
    assert a.text == b.text and "Ruiz" not in a.text
    c = notescrub.deidentify(NOTE, key=notescrub.SurrogateKey.from_seed(8), model="rules-en", patient_id="P1")
    assert c.text != a.text


def test_deidentify_key_file_and_errors(tmp_path):
    path = notescrub.SurrogateKey.from_seed(1).save(tmp_path / "k.key")
    assert notescrub.deidentify(NOTE, key=path, model="rules-en").text == \
        notescrub.deidentify(NOTE, key=str(path), model="rules-en").text
    with pytest.raises(ConfigError):
        notescrub.deidentify(NOTE, mode="shred", model="rules-en")
    with pytest.raises(TypeError):
        notescrub.deidentify(b"bytes", model="rules-en")


def test_analyze_types_filter_and_default_model():
    spans = notescrub.analyze(NOTE, model="rules-en")
    assert [s.phi for s in spans] == ["DOCTOR", "DATE", "PHONE"]
    assert [s.phi for s in notescrub.analyze(NOTE, model="rules-en", types="PHONE")] == ["PHONE"]
    found = {NOTE[s.start:s.end] for s in notescrub.analyze(NOTE)}  # en-default
    assert "Ruiz" in found and "555-123-4567" in found


def test_load_model_with_preset():
    assert notescrub.load_model("en-default", preset="max-recall") is not None
