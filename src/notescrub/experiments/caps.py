"""How far an experiments run trains each CRF, against the recipe's own setting, in words.

``notescrub experiments`` caps the L-BFGS iterations of every CRF recipe
(``Settings.crf_iterations``; ``manchester_iterations`` for Manchester's per-type CRFs)
and cross-fits Aramaki's label consistency on ``lc_folds`` folds, to keep a full run
within hours. A recipe trained by ``notescrub train`` uses its own defaults, which are
read here from the recipes themselves. Each report section opens with
:func:`training_line` for the CRF systems its tables show, so no table is read as if
its CRFs were trained as the recipe trains them.

>>> print(training_line("wi-deid", {"crf_iterations": 40}))
Training: CRF L-BFGS iterations capped at WI-deId 40 (its recipe: 200). The seed systems' CRF figures in this section come from these capped models.
>>> training_line("corpora", {"corpora_systems": ["stat-deid", "h-d"]}) is None
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

__all__ = ["CRF_SYSTEMS", "recipe_training", "section_systems", "training_line"]

#: seed systems that train CRFs (Stat De-id is an SVM, H+D rules, LingPipe a character LM)
CRF_SYSTEMS = ("crfd", "carafe", "wi-deid", "aramaki", "manchester")
_TITLES = {"crfd": "CRFD", "carafe": "Carafe", "wi-deid": "WI-deId", "aramaki": "Aramaki", "manchester": "Manchester"}
#: the systems whose models each section's tables show (besides ``systems``/``corpora``, set by the run)
_SECTION_SYSTEMS = {"carafe": ("carafe",), "wi-deid": ("wi-deid",), "aramaki": ("aramaki",),
                    "manchester": ("manchester",)}


@cache
def recipe_training() -> dict[str, dict[str, int]]:
    """The recipes' own CRF training settings: ``{system: {"iterations": n[, "folds": k]}}``."""
    from notescrub.recipes import get_recipe

    out: dict[str, dict[str, int]] = {}
    for name in ("crfd", "carafe", "wi-deid", "manchester"):
        out[name] = {"iterations": int(get_recipe(name)().max_iterations)}
    aramaki = get_recipe("aramaki")()
    out["aramaki"] = {"iterations": int(aramaki.first.max_iterations), "folds": int(aramaki.folds)}
    return out


def section_systems(key: str, settings: Mapping[str, Any]) -> list[str]:
    """The CRF systems trained for section ``key`` of a run with ``settings``."""
    from notescrub.experiments.config import SYSTEMS

    if key == "systems":
        names: Sequence[str] = settings.get("systems", SYSTEMS)
    elif key == "corpora":
        names = settings.get("corpora_systems", ("stat-deid", "crfd", "h-d"))
    else:
        names = _SECTION_SYSTEMS.get(key, ())
    return [n for n in CRF_SYSTEMS if n in names]


def _phrase(name: str, settings: Mapping[str, Any], own: dict[str, int]) -> str:
    if name == "manchester":
        return (f"Manchester {settings.get('manchester_iterations')} per type CRF "
                f"(its recipe: {own['iterations']})")
    if name == "aramaki":
        return (f"Aramaki {settings.get('crf_iterations')} per CRF, both stages and every ablation variant "
                f"(its recipe: {own['iterations']}), label consistency cross-fitted on "
                f"{settings.get('lc_folds')} folds (its recipe: {own['folds']})")
    return f"{_TITLES[name]} {settings.get('crf_iterations')} (its recipe: {own['iterations']})"


def training_line(key: str, settings: Mapping[str, Any]) -> str | None:
    """One sentence stating the training caps behind section ``key``'s tables (None: no CRF)."""
    names = section_systems(key, settings)
    if not names:
        return None
    own = recipe_training()
    return ("Training: CRF L-BFGS iterations capped at " + "; ".join(_phrase(n, settings, own[n]) for n in names)
            + ". The seed systems' CRF figures in this section come from these capped models.")
