"""Settings presets and validation."""

from __future__ import annotations

import pytest

from notescrub.errors import ConfigError
from notescrub.experiments.config import PRESETS, SECTIONS, preset


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_valid_and_recorded(name: str) -> None:
    s = preset(name)
    d = s.as_dict()
    assert d["name"] == name and isinstance(d["sections"], list)


def test_quick_is_smaller_than_full() -> None:
    q, f = preset("quick"), preset("full")
    assert q.folds <= f.folds and q.crf_iterations < f.crf_iterations
    assert q.max_train_docs is not None and f.max_train_docs is None


@pytest.mark.parametrize("over", [{"sections": ("nope",)}, {"systems": ("idfinder",)}, {"folds": 1},
                                  {"crf_iterations": 0}, {"curve_repeats": 0}, {"lc_folds": 1}])
def test_bad_settings_are_refused(over: dict) -> None:
    with pytest.raises(ConfigError):
        preset("full", **over)


def test_unknown_preset() -> None:
    with pytest.raises(ConfigError):
        preset("huge")


def test_list_overrides_become_tuples() -> None:
    assert preset("full", sections=["systems"]).sections == ("systems",)
    assert SECTIONS[0] == "systems"


def test_pos_setting() -> None:
    from notescrub.features import pos

    with pytest.raises(ConfigError):
        preset("full", pos="maybe")
    assert preset("full").pos == "auto"
    assert preset("full", pos="off").pos_features("en") is False
    assert preset("full").pos_features("es") is False  # no Spanish pipeline: auto stays off
    with pytest.raises(ConfigError, match="English"):
        preset("full", pos="on").pos_features("es")
    assert preset("full").pos_features("en") is pos.available()
