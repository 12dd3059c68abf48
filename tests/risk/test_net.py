"""The leftover safety net: a detector that tags leftovers the calibration finds likely PHI."""

from __future__ import annotations

import json

import pytest

from notescrub.assemble import build
from notescrub.config import ComponentSpec
from notescrub.errors import ConfigError, ModelError
from notescrub.modeldir import HybridModel
from notescrub.risk.calibration import Calibration
from notescrub.risk.net import LeftoverNet
from notescrub.types import Document, Span

#: capitalised name-lexicon words score 0.73, capitalised others 0.12, lower-case words 0.02
CAL = Calibration("demo", -4.0, {"capital": 2.0, "name_lexicon": 3.0})


def _doc(text: str, layers: dict[str, list[Span]] | None = None) -> Document:
    return Document("d", text, layers=layers or {"crf": []})


def test_threshold_decides_which_leftovers_are_tagged() -> None:
    doc = _doc("Seen by Ruiz at Oakhurst today.")
    strict = LeftoverNet(CAL, 0.5, default_type="PATIENT")
    loose = LeftoverNet(CAL, 0.1, default_type="PATIENT")
    assert [doc.span_text(s) for s in strict.detect(doc)] == ["Ruiz"]
    assert [doc.span_text(s) for s in loose.detect(doc)] == ["Seen", "Ruiz", "Oakhurst"]
    assert all(s.source == "net" and 0.1 <= s.score <= 1.0 for s in loose.detect(doc))


def test_tokens_already_tagged_by_a_source_layer_are_left_alone() -> None:
    doc = _doc("Seen by Ruiz today.", {"crf": [Span(8, 12, "DOCTOR")], "gold": []})
    assert LeftoverNet(CAL, 0.5, sources=["crf"], default_type="PATIENT").detect(doc) == []
    # a layer that is not a source (gold, here empty) does not count as output
    doc = _doc("Seen by Ruiz today.", {"crf": [], "gold": [Span(8, 12, "DOCTOR")]})
    assert [doc.span_text(s) for s in LeftoverNet(CAL, 0.5, sources=["crf"], default_type="X").detect(doc)] == ["Ruiz"]


def test_neighbours_on_one_line_join_but_not_across_a_line_break() -> None:
    doc = _doc("Maria Ruiz\nJose today")
    spans = LeftoverNet(CAL, 0.5, default_type="PATIENT").detect(doc)
    assert [doc.span_text(s) for s in spans] == ["Maria Ruiz", "Jose"]


def test_untyped_tokens_are_skipped_without_a_default_type() -> None:
    """Without a CRF the calibration gives no type, and the net writes nothing it cannot label."""
    assert LeftoverNet(CAL, 0.5).detect(_doc("Seen by Ruiz today.")) == []


@pytest.mark.parametrize("bad", [0.0, -0.1, 1.5])
def test_threshold_out_of_range_is_refused(bad: float) -> None:
    with pytest.raises(ConfigError, match="threshold"):
        LeftoverNet(CAL, bad)


def _hybrid(net_options: dict, tmp_path=None) -> HybridModel:
    comps = [ComponentSpec("rules", "rules", options={"types": ["DATE"]}),
             ComponentSpec("net", "leftover_net", options=net_options)]
    return HybridModel(comps, meta={"model_name": "demo-net"}, directory=tmp_path)


def test_the_net_is_off_unless_enabled_and_needs_a_calibration(tmp_path) -> None:
    text = "Seen 03/18/2091 by Ruiz."
    assert [c.name for c in build(_hybrid({})).detectors] == ["rules"]
    with pytest.raises((ConfigError, ModelError), match="no risk calibration"):
        build(_hybrid({"enabled": True}))
    (tmp_path / "cal.json").write_text(json.dumps(CAL.to_json()), encoding="utf-8")
    pipe = build(_hybrid({"enabled": True, "threshold": 0.5, "calibration": "cal.json"}, tmp_path))
    doc = pipe(Document("a", text))
    # the rules tag the date; without a CRF the leftovers have no type, so the net adds nothing
    assert [doc.span_text(s) for s in doc.layer("phi")] == ["03/18/2091"]
    assert isinstance(pipe.detectors[-1].inner, LeftoverNet) and pipe.detectors[-1].inner.sources == ["rules"]


def test_en_default_switches_the_net_on_at_max_recall_only() -> None:
    for preset in ("precision", "balanced", "high-recall"):
        assert "net" not in [c.name for c in build("en-default", preset).detectors]
    net = build("en-default", "max-recall").detectors[-1].inner
    assert isinstance(net, LeftoverNet) and net.sources == ["crf", "two_pass"] and net.threshold == 0.2
    assert net.calibration.model == "en-default"


def test_the_recipe_writes_the_packaged_models_net() -> None:
    """`train --recipe en-default` builds the net and its presets as the shipped model has them."""
    from importlib import resources

    from notescrub.recipes.en_default import NET_PRESETS, NET_THRESHOLD

    meta = json.loads(resources.files("notescrub.models").joinpath("en-default", "model.json").read_text("utf-8"))
    net = next(c for c in meta["components"] if c["kind"] == "leftover_net")
    assert net["options"] == {"enabled": False, "threshold": NET_THRESHOLD}
    on = {name for name, p in meta["presets"].items() if p["components"].get("net", {}).get("enabled")}
    assert on == set(NET_PRESETS)


def test_a_calibration_fitted_with_another_crf_is_flagged(tmp_path, caplog) -> None:
    """The shipped calibration records its CRF; a calibration fitted with another CRF gets a warning."""
    import logging
    import shutil
    from importlib import resources

    from notescrub.risk.calibration import crf_fingerprint, packaged_calibration

    shipped = resources.files("notescrub.models").joinpath("en-default")
    cal = packaged_calibration("en-default")
    assert cal is not None and cal.fitted_on["crf_sha256"] == crf_fingerprint(str(shipped))
    with caplog.at_level(logging.WARNING, logger="notescrub.assemble"):
        build("en-default", "max-recall")
    assert not [r for r in caplog.records if "another CRF" in r.getMessage()]
    copy = tmp_path / "retrained"
    shutil.copytree(str(shipped), copy)
    other = cal.to_json()
    other["fitted_on"]["crf_sha256"] = "0" * 64  # as if fitted with a CRF trained on other notes
    (copy / "cal.json").write_text(json.dumps(other), encoding="utf-8")
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="notescrub.assemble"):
        build(str(copy), "max-recall", {"net": {"calibration": "cal.json"}})
    assert [r for r in caplog.records if "another CRF" in r.getMessage()]
