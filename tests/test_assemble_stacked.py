"""The 'stacked' component kind: feeders are built with the options of the preset in use."""

import pathlib

from notescrub.assemble import load_pipeline
from notescrub.config import ComponentSpec
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.features import Featurizer
from notescrub.modeldir import HybridModel
from notescrub.types import Document, Span


def _model(tmp_path: pathlib.Path) -> pathlib.Path:
    docs = [Document(f"d{i}", "Seen by Dr. Ruiz on 03/18/2091.", layers={"gold": [
        Span(12, 16, "DOCTOR"), Span(20, 30, "DATE")]}) for i in range(3)]
    crf = CRFTagger(Featurizer(groups=("lexical",)), max_iterations=5)
    from notescrub.detect.crf.stacked import StackedCRF
    from notescrub.detect.rules.detector import RulesDetector

    StackedCRF(crf, [RulesDetector()]).fit(docs)
    comps = [ComponentSpec("rules", "rules", options={"enabled": False}),
             ComponentSpec("crf", "stacked", dir="crf", options={"feeders": ["rules"]})]
    presets = {"dates-only": {"components": {"rules": {"labels": ["DATE"]}}}}
    return HybridModel(comps, objects={"crf": crf}, presets=presets).save(tmp_path / "m")


def test_feeders_follow_the_preset(tmp_path):
    out = _model(tmp_path)
    default = load_pipeline(out).detectors[0].inner.feeders[0]
    narrowed = load_pipeline(out, preset="dates-only").detectors[0].inner.feeders[0]
    assert default.labels is None
    assert list(narrowed.labels) == ["DATE"]
