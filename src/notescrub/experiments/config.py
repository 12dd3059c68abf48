"""Settings of one ``notescrub experiments`` run: sizes, iterations, repeats, sections.

Three presets exist: ``full`` (the documented default), ``quick`` (the ``--quick``
smoke run, ≤ 10 minutes on two shared cores) and ``tiny`` (the CI test: seconds).
Every figure in a report comes with the :class:`Settings` that produced it
(``Settings.as_dict()`` is written into the JSON and the HTML).

>>> s = preset("quick")
>>> s.folds, s.crf_iterations <= preset("full").crf_iterations
(2, True)
>>> preset("full", crf_iterations=25).crf_iterations
25
>>> SECTIONS[0], len(SECTIONS)
('systems', 6)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from notescrub.errors import ConfigError

__all__ = ["PRESETS", "SECTIONS", "SYSTEMS", "Settings", "preset"]

#: report sections, in report order
SECTIONS = ("systems", "corpora", "carafe", "wi-deid", "aramaki", "manchester")
#: recipe names of the seed systems, in table order (the papers' names are in SYSTEM_TITLES)
SYSTEMS = ("stat-deid", "crfd", "h-d", "carafe", "lingpipe", "wi-deid", "manchester", "aramaki")
SYSTEM_TITLES = {
    "stat-deid": "Stat De-id", "crfd": "CRFD", "h-d": "H+D", "carafe": "Carafe", "lingpipe": "LingPipe",
    "wi-deid": "WI-deId", "manchester": "Manchester", "aramaki": "Aramaki",
}


@dataclass(frozen=True)
class Settings:
    """What one run does (every field is recorded in the report).

    ``max_train_docs``/``max_test_docs`` cut each split to a seeded random subset
    (``None``: all). ``crf_iterations`` caps L-BFGS iterations of every CRF recipe
    (the recipes' own defaults are 100-200; each report section states both, see
    :mod:`notescrub.experiments.caps`); ``manchester_iterations`` those of the
    Manchester per-type CRFs; ``lc_folds`` the cross-fitting folds of Aramaki's label
    consistency stage. ``pos``: part-of-speech features in the two systems whose papers
    used them (WI-deId: GENIA; Aramaki: Tsuruoka's tagger), from spaCy's English pipeline
    (``[syntax]`` extra): ``"auto"`` when the corpus is English and the pipeline is
    installed, ``"on"`` (an error without them), ``"off"``.
    """

    name: str = "full"
    folds: int = 5
    max_train_docs: int | None = None
    max_test_docs: int | None = None
    crf_iterations: int = 40
    manchester_iterations: int = 30
    lc_folds: int = 2
    pos: str = "auto"
    biases: tuple[float, ...] = (2.0, 1.0, 0.0, -0.5, -1.0, -1.5, -1.75, -2.5, -3.5)
    curve_bias: float = -1.75
    curve_fractions: tuple[float, ...] = (0.02, 0.05, 0.1, 0.25, 0.5, 0.75, 1.0)
    curve_repeats: int = 2
    curve_folds: int = 1
    systems: tuple[str, ...] = SYSTEMS
    product_models: bool = True
    corpora_styles: tuple[str, ...] = ("random", "ambiguous", "oov")
    corpora_systems: tuple[str, ...] = ("stat-deid", "crfd", "h-d")
    ablation_groups: tuple[str, ...] = ("target_word", "lexical_bigrams", "syntactic_bigrams", "pos",
                                        "dictionary", "medical_vocabulary", "orthographic")
    bootstrap: int = 200
    seed: int = 0
    jobs: int = 1
    sections: tuple[str, ...] = SECTIONS
    extra: dict[str, Any] = field(default_factory=dict)

    def pos_features(self, lang: str) -> bool:
        """Whether WI-deId and Aramaki get POS features on a corpus in ``lang``.

        >>> Settings(pos="off").pos_features("en"), Settings(pos="auto").pos_features("es")
        (False, False)
        """
        if self.pos == "off":
            return False
        if lang != "en":
            if self.pos == "on":
                raise ConfigError("POS features need English text (spaCy's English pipeline); use --pos off or auto")
            return False
        from notescrub.features import pos

        if self.pos == "on":
            pos._nlp()  # ConfigError naming what to install
            return True
        return pos.available()

    def as_dict(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()}

    def check(self) -> Settings:
        bad = [s for s in self.sections if s not in SECTIONS]
        if bad:
            raise ConfigError(f"unknown experiment section(s) {bad}; known: {', '.join(SECTIONS)}")
        bad = [s for s in self.systems if s not in SYSTEMS]
        if bad:
            raise ConfigError(f"unknown system(s) {bad}; known: {', '.join(SYSTEMS)}")
        if self.folds < 2:
            raise ConfigError(f"folds must be >= 2, got {self.folds}")
        if self.crf_iterations < 1 or self.manchester_iterations < 1:
            raise ConfigError("iteration counts must be >= 1")
        if self.curve_repeats < 1 or not self.curve_fractions:
            raise ConfigError("the learning curve needs fractions and repeats >= 1")
        if self.pos not in ("auto", "on", "off"):
            raise ConfigError(f"pos must be auto, on or off, got {self.pos!r}")
        if self.lc_folds < 2:
            raise ConfigError(f"lc_folds must be >= 2, got {self.lc_folds}")
        return self


PRESETS: dict[str, dict[str, Any]] = {
    "full": {},
    "quick": dict(folds=2, max_train_docs=12, max_test_docs=8, crf_iterations=8, manchester_iterations=6,
                  curve_fractions=(0.25, 1.0), curve_repeats=1, biases=(1.0, 0.0, -1.0, -2.0), lc_folds=2,
                  ablation_groups=("target_word", "lexical_bigrams", "dictionary", "orthographic"),
                  corpora_styles=("random", "oov"), bootstrap=50),
    "tiny": dict(folds=2, max_train_docs=8, max_test_docs=6, crf_iterations=4, manchester_iterations=3,
                 curve_fractions=(0.5, 1.0), curve_repeats=1, biases=(0.0, -1.0),
                 systems=("stat-deid", "h-d", "carafe"), product_models=False,
                 ablation_groups=("target_word", "orthographic"), corpora_styles=("oov",),
                 corpora_systems=("stat-deid", "h-d"), bootstrap=0),
}


def preset(name: str, **overrides: Any) -> Settings:
    """The named preset with ``overrides`` applied (validated)."""
    if name not in PRESETS:
        raise ConfigError(f"unknown settings preset {name!r}; known: {', '.join(PRESETS)}")
    params = {**PRESETS[name], **overrides}
    tuples = {k for k, v in asdict(Settings()).items() if isinstance(v, tuple)}
    params = {k: tuple(v) if k in tuples and isinstance(v, list) else v for k, v in params.items()}
    return replace(Settings(name=name), **params).check()
