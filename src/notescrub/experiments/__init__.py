"""Reproducing the seed papers' studies: ``notescrub experiments``.

One command reruns the experiments of the five seed papers on an open corpus and
writes one report (HTML + JSON + CSV) in which every seed system has its row:

========== =================================================================== ===========================
section    what                                                                module
========== =================================================================== ===========================
systems    every recipe + product model: binary token / strict / token P/R/F,  :mod:`.systems`
           per type, z-test vs Stat De-id, train/annotate time
corpora    Stat De-id's re-populated corpora, OoV recall, feature ablation     :mod:`.corpora`
carafe     O-bias P/R curve, learning curve, record confidence, errors         :mod:`.carafe_study`
wi-deid    fused-token preprocessing; Lex / Lex+Ort / Lex+Ort+Dic               :mod:`.wi_deid_study`
aramaki    BASELINE / +SF / +EX / +LC / all                                    :mod:`.aramaki_study`
manchester three operating points, with and without the second pass           :mod:`.manchester_study`
========== =================================================================== ===========================

>>> from notescrub.experiments import SECTIONS, preset
>>> SECTIONS[-1], preset("quick").name
('manchester', 'quick')
"""

from typing import Any

from notescrub.experiments.config import SECTIONS, SYSTEMS, Settings, preset

__all__ = ["SECTIONS", "SYSTEMS", "Dataset", "Settings", "load_dataset", "preset", "run_experiments"]


def __getattr__(name: str) -> Any:
    # data and runner pull in the evaluation stack (matplotlib, ...): import them on first
    # use, so that the CLI, which imports the package to list its options, starts fast
    if name in ("Dataset", "load_dataset"):
        from notescrub.experiments import data

        return getattr(data, name)
    if name == "run_experiments":
        from notescrub.experiments.runner import run_experiments

        return run_experiments
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
