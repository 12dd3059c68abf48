"""Every detector keeps the contract of detect/base.py: ``detect`` returns spans and writes
nothing into the document; document-level figures come back from ``detect_with_info`` and
the pipeline stores them."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import notescrub
from notescrub.assemble import build
from notescrub.detect.base import check_spans, inner_detector
from notescrub.types import Document

NOTE = ("Seen 03/18/2091 by Dr. Ruiz at Mercy Hospital, 12 Oak St, Boston. "
        "Patient Ana Lopez, 67, MRN 4482911, phone (617) 555-0142.")
SPANISH = "Paciente: Ana López, 67 años. Ingresa el 03/01/2019 en el Hospital Clínico de Valencia."


def _writes_metadata(tree: ast.AST) -> list[int]:
    """Lines that assign into ``<something>.metadata[...]``."""
    lines = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        for t in targets:
            if isinstance(t, ast.Subscript) and isinstance(t.value, ast.Attribute) and t.value.attr == "metadata":
                lines.append(node.lineno)
    return lines


def test_no_detector_module_assigns_into_document_metadata():
    root = Path(notescrub.__file__).parent
    files = [*sorted((root / "detect").glob("*.py")), root / "assemble.py", *sorted((root / "recipes").glob("*.py"))]
    found = {}
    for f in files:
        if f.name == "en_default.py":  # builds training corpora (writer names), not a detector
            continue
        lines = _writes_metadata(ast.parse(f.read_text(encoding="utf-8")))
        if lines:
            found[f.name] = lines
    assert found == {}


@pytest.mark.parametrize("model, text", [("en-default", NOTE), ("rules-en", NOTE), ("es-meddocan", SPANISH)])
def test_shipped_detectors_are_pure_and_the_pipeline_stores_their_info(model, text):
    pipe = build(model)
    for det in pipe.detectors:
        for d in {id(det): det, id(inner_detector(det)): inner_detector(det)}.values():
            doc = Document("n1", text, patient_id="P1")
            spans = check_spans(d.detect(doc), doc, d.name)
            assert doc.metadata == {} and doc.layers == {}, (model, d.name)
            again, info = d.detect_with_info(doc)
            assert again == spans and isinstance(info, dict) and doc.metadata == {}
    doc = pipe(Document("n1", text, patient_id="P1"))
    crfs = [d.name for d in pipe.detectors if "logprob" in doc.metadata.get(d.name, {})]
    assert bool(crfs) == (model != "rules-en")  # CRF models: the record confidence is there
