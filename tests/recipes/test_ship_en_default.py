"""scripts/ship_en_default.py: a build's CRF and training record go into the package; the
package's decode-time rules and presets stay."""

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("ship_en_default", ROOT / "scripts" / "ship_en_default.py")
ship_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ship_mod)


def _model(folder: Path, **extra) -> dict:
    m = {"kind": "hybrid", "lang": "en", "model_name": "en-default", "default_preset": "high-recall",
         "components": [{"name": "crf", "kind": "stacked", "dir": "crf", "options": {"bias": -1.9}},
                        {"name": "post", "kind": "postprocess", "options": {"rules": ["old-rule"]}}],
         "presets": {"high-recall": {"description": "stacked CRF O-bias -1.9", "components": {"crf": {"bias": -1.9}}}},
         "data": {"writers": {"w01": 52}}, "training_seconds": 10.0, "training": {"documents": 52}}
    m.update(extra)
    (folder / "crf").mkdir(parents=True)
    (folder / "crf" / "model.crfsuite").write_bytes(b"crf of " + folder.name.encode())
    (folder / "model.json").write_text(json.dumps(m), encoding="utf-8")
    (folder / "post.toml").write_text(f"# rules of {folder.name}\n", encoding="utf-8")
    return m


def test_the_build_brings_its_crf_and_training_record_only(tmp_path):
    build, package = tmp_path / "build", tmp_path / "package"
    _model(build, data={"writers": {"w01": 52, "w92": 45}}, training_seconds=7000.0, training={"documents": 4792})
    pkg = _model(package)
    pkg["components"][1]["options"]["rules"] = ["old-rule", "new-rule"]
    (package / "model.json").write_text(json.dumps(pkg), encoding="utf-8")
    ship_mod.ship(build, package, high_recall_bias=-2.0)
    shipped = json.loads((package / "model.json").read_text(encoding="utf-8"))
    assert (package / "crf" / "model.crfsuite").read_bytes() == b"crf of build"
    assert shipped["training"] == {"documents": 4792} and shipped["training_seconds"] == 7000.0
    assert shipped["data"] == {"writers": {"w01": 52, "w92": 45}}
    assert shipped["components"][1]["options"]["rules"] == ["old-rule", "new-rule"]     # the package's rules stay
    assert (package / "post.toml").read_text(encoding="utf-8") == "# rules of package\n"
    assert shipped["presets"]["high-recall"] == {"description": "stacked CRF O-bias -2.0",
                                                 "components": {"crf": {"bias": -2.0}}}
    assert shipped["components"][0]["options"]["bias"] == -2.0
    assert sorted(p.name for p in package.iterdir()) == ["crf", "model.json", "post.toml"]   # no staging left


@pytest.mark.parametrize("break_build, message", [
    (lambda b: (b / "crf" / "model.crfsuite").unlink(), "missing"),
    (lambda b: (b / "model.json").write_text("{", encoding="utf-8"), "not valid JSON"),
    (lambda b: (b / "model.json").write_text(json.dumps({"kind": "crf", "lang": "en", "model_name": "en-default"}),
                                             encoding="utf-8"), "kind is 'crf'"),
])
def test_a_broken_build_changes_nothing(tmp_path, break_build, message):
    build, package = tmp_path / "build", tmp_path / "package"
    _model(build)
    _model(package)
    before = (package / "model.json").read_bytes()
    break_build(build)
    with pytest.raises(ship_mod.ShipError, match=message):
        ship_mod.ship(build, package)
    assert (package / "model.json").read_bytes() == before
    assert (package / "crf" / "model.crfsuite").read_bytes() == b"crf of package"


def test_an_oversized_crf_is_refused(tmp_path, monkeypatch):
    build, package = tmp_path / "build", tmp_path / "package"
    _model(build)
    _model(package)
    monkeypatch.setattr(ship_mod, "MAX_CRF_BYTES", 5)
    assert ship_mod.main([str(build), "--package", str(package)]) == 2
    assert (package / "crf" / "model.crfsuite").read_bytes() == b"crf of package"
