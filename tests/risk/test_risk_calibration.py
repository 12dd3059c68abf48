"""Calibration files: validated on reading, shipped for the packaged models with their provenance."""

from __future__ import annotations

import json

import numpy as np
import pytest

from notescrub.errors import ConfigError
from notescrub.risk import FEATURES, Calibration, fit_logistic, packaged_calibration

GOOD = {"format": 1, "model": "m", "kind": "logistic", "intercept": -3.0, "weights": {"digit": 1.5},
        "fitted_on": {"notes": 3}}


@pytest.mark.parametrize("change, message", [
    ({"format": 2}, "format 2 is not supported"),
    ({"kind": "isotonic"}, "kind must be 'logistic'"),
    ({"model": ""}, "model must be a non-empty string"),
    ({"weights": {}}, "weights must be a non-empty object"),
    ({"weights": {"digit": "high"}}, "digit must be a finite number"),
    ({"weights": {"digit": float("nan")}}, "digit must be a finite number"),
    ({"weights": {"digit": True}}, "digit must be a finite number"),
    ({"weights": {"shoe_size": 1.0}}, "unknown feature"),
    ({"intercept": None}, "intercept must be a finite number"),
    ({"fitted_on": []}, "fitted_on must be an object"),
    ({"extra": 1}, "unknown key"),
])
def test_bad_calibrations_are_refused(change, message):
    with pytest.raises(ConfigError, match=message):
        Calibration.from_json({**GOOD, **change})


def test_missing_keys_and_bad_files_name_the_file(tmp_path):
    with pytest.raises(ConfigError, match=r"missing key\(s\) \['fitted_on'\]"):
        Calibration.from_json({k: v for k, v in GOOD.items() if k != "fitted_on"})
    bad = tmp_path / "cal.json"
    bad.write_text("[1, 2", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cal\.json: not valid JSON"):
        Calibration.load(bad)
    with pytest.raises(ConfigError, match="cannot be read"):
        Calibration.load(tmp_path / "absent.json")


def test_save_load_round_trip(tmp_path):
    cal = Calibration.from_json(GOOD)
    again = Calibration.load(cal.save(tmp_path / "c.json"))
    assert again == cal
    x = np.zeros((1, len(FEATURES)))
    x[0, FEATURES.index("digit")] = 1.0
    assert again.probability(x)[0] == pytest.approx(1 / (1 + np.exp(1.5)))


@pytest.mark.parametrize("model, crf", [("en-default", True), ("es-meddocan", True), ("rules-en", False)])
def test_packaged_calibrations_record_their_data(model, crf):
    cal = packaged_calibration(model)
    assert cal is not None and cal.model == model
    assert cal.uses_crf is crf
    assert cal.fitted_on["notes"] > 0 and cal.fitted_on["positives"] > 0 and cal.fitted_on["description"]
    assert cal.validation  # figures measured on other notes than the fit's


def test_packaged_lookup_ignores_paths():
    assert packaged_calibration("../en-default") is None
    assert packaged_calibration("") is None


def test_fit_logistic_recovers_a_known_relation():
    rng = np.random.default_rng(1)
    x = np.zeros((3000, len(FEATURES)))
    x[:, FEATURES.index("capital")] = rng.integers(0, 2, 3000)
    logit = -2.0 + 2.5 * x[:, FEATURES.index("capital")]
    y = (rng.random(3000) < 1 / (1 + np.exp(-logit))).astype(float)
    b, w = fit_logistic(x, y, names=("capital",), l2=0.0)
    assert b == pytest.approx(-2.0, abs=0.25) and w["capital"] == pytest.approx(2.5, abs=0.3)
    json.dumps(w)  # plain floats: writable as calibration JSON


TAGGED = {**GOOD, "tagged": {"intercept": 2.0, "weights": {"common": -3.0}, "fitted_on": {"tokens": 10}}}


@pytest.mark.parametrize("change, message", [
    ({"tagged": []}, "tagged: expected an object"),
    ({"tagged": {"intercept": 1.0}}, r"tagged: .*missing key\(s\) \['weights'\]"),
    ({"tagged": {"intercept": 1.0, "weights": {"digit": 1.0}, "colour": 1}}, r"tagged: unknown key\(s\) \['colour'\]"),
    ({"tagged": {"intercept": 1.0, "weights": {"shoe_size": 1.0}}}, "tagged: unknown feature"),
    ({"tagged": {"intercept": "x", "weights": {"digit": 1.0}}}, "tagged: intercept must be a finite number"),
    ({"tagged": {"intercept": 1.0, "weights": {"digit": 1.0}, "fitted_on": 3}}, "tagged: fitted_on must be an object"),
])
def test_bad_tagged_parts_are_refused(change, message):
    with pytest.raises(ConfigError, match=message):
        Calibration.from_json({**GOOD, **change})


def test_tagged_part_round_trips(tmp_path):
    cal = Calibration.from_json(TAGGED)
    assert cal.tagged is not None and cal.tagged.weights == {"common": -3.0}
    again = Calibration.load(cal.save(tmp_path / "c.json"))
    assert again == cal and again.to_json()["tagged"]["fitted_on"] == {"tokens": 10}
    assert "tagged" not in Calibration.from_json(GOOD).to_json()



@pytest.mark.parametrize("model", ["en-default", "es-meddocan"])
def test_packaged_crf_models_have_a_tagged_part(model):
    cal = packaged_calibration(model)
    assert cal is not None and cal.tagged is not None and cal.tagged.uses_crf


def test_es_meddocan_calibration_describes_the_shipped_form():
    """Fitted with the second pass in the model (the first fit described the CRF alone)."""
    cal = packaged_calibration("es-meddocan")
    assert cal is not None and "second pass" in cal.fitted_on["description"]
