"""The recipe of the packaged English model ``en-default``, with optional added notes.

The training set (docs/en-default.md, "Training data") is assembled by
:func:`training_corpus`: the en-dev notes (minus held-out patients), the same notes
re-populated with surrogates (styles ``random`` and ``oov``), case variants of those,
the writers' corpus (``corpora/en-writers``) as written, synthetic notes, and, new,
**added notes** (e.g. notes corrected in ``notescrub review``, exported with
``--export``), which go in as written, like the writers' notes. The model: rules +
dictionary detectors feed a stacked CRF, then the two-pass patient dictionary,
post-processing rules and the recall-first ``cover`` resolver; four presets set the
CRF's O-bias.

``notescrub train --recipe en-default --add reviewed.jsonl -o MODEL`` uses
:class:`EnDefaultTrainer`; ``scripts/build_en_default.py`` builds the packaged model
with the same code. The en-dev and writers' corpora are found beside a source checkout
(``../shared/corpora/en-dev/en-dev.jsonl`` and ``corpora/en-writers``) or given with
``--set en_dev=PATH --set writers=DIR``.

>>> trainer = build(iterations=5, synth_patients=0)
>>> trainer.iterations, trainer.recase, sorted(PRESETS)[:2]
(5, True, ['balanced', 'high-recall'])
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from notescrub.errors import ConfigError
from notescrub.io import read_corpus
from notescrub.types import Document

__all__ = ["DEFAULT_PRESET", "EN_DEV", "POST_FILE", "POST_RULES", "PRESETS", "WRITERS", "EnDefaultTrainer",
           "build", "training_corpus", "writer_notes"]

log = logging.getLogger(__name__)

_CHECKOUT = Path(__file__).resolve().parents[3]
#: en-dev notes beside a source checkout (the shared corpora folder)
EN_DEV = _CHECKOUT.parent / "shared" / "corpora" / "en-dev" / "en-dev.jsonl"
#: the English notes written for this project by independent writers (corpora/en-writers/README.md)
WRITERS = _CHECKOUT / "corpora" / "en-writers"
#: the model's own post-processing rule file (copied into every build)
POST_FILE = Path(__file__).resolve().parents[1] / "models" / "en-default" / "post.toml"

#: O-bias of the stacked CRF at each operating point (negative = more recall)
PRESETS = {
    "precision": 0.0,
    "balanced": -1.0,
    "high-recall": -1.7,
    "max-recall": -3.5,
}
DEFAULT_PRESET = "high-recall"
#: the leftover safety net (notescrub.risk.net): its threshold, and the presets that switch it on
#: (max-recall: -3.5 with the net at 0.2, chosen for the w01-w128 release on w147-w152 with
#: cross-fitted calibrations; -3.0 with 0.05 for the w01-w110 release: docs/en-default.md)
NET_THRESHOLD = 0.2
NET_PRESETS = frozenset({"max-recall"})
#: post-processing rules applied to the CRF's spans (recall-first: no rule that drops names
#: because they are also medical words, e.g. the patient "Mr. Foley")
POST_RULES = ["extend-facility-head", "drop-date-in-slash-chain", "drop-date-in-decimal-ratio",
              "drop-date-blood-pressure", "drop-no-alphanumeric", "drop-eponym-term",
              # the model's own rules (post.toml, shipped in the model directory)
              "split-at-column-gap", "split-name-at-parenthesis", "grow-name-initial", "merge-name-particle",
              "merge-name-across-initial", "extend-facility-specialty", "drop-date-test-score",
              "drop-date-range-of-values", "drop-date-bp-range", "drop-initial-of-organism", "drop-header-keyword",
              "drop-drug-name", "drop-device-maker", "split-profession-at-clause", "drop-organism-binomial",
              "grow-name-after-title", "drop-date-number-table", "drop-date-visual-acuity",
              "drop-date-impossible-fraction", "drop-date-value-range", "drop-id-short-range",
              "drop-date-symptom-score", "drop-date-count-fraction", "drop-date-secondary-to", "drop-date-per-unit",
              "drop-date-pressure-ratio", "drop-language-name", "strip-phone-extension-letter",
              "split-date-range", "grow-profession-retired",
              "fill-age-column", "fill-initials-column", "fill-name-column",
              "drop-sequence-variant", "drop-grading-scale", "drop-us-ultrasound",
              "drop-year-of-guideline", "drop-year-of-guideline-body",
              "drop-ordinal-of-anatomy", "drop-date-motor-grade", "drop-date-spine-level",
              "drop-date-day-of-course", "drop-handoff-mnemonic", "drop-date-zero-fraction",
              "drop-gene-symbol", "drop-chemo-regimen", "drop-date-pain-score", "drop-credential-span",
              "drop-form-number", "drop-regulation-citation",
              # gaps the tagger left (action "add")
              "add-state-after-city", "add-postcode-before-city", "add-spoken-day-of-month", "add-day-month-date",
              "add-airport-code-from", "add-airport-code-to", "add-airport-code-in-brackets", "add-us-as-country",
              "add-foreign-street", "add-foreign-street-number-first", "add-foreign-month-date",
              "add-state-in-brackets-after-city", "add-state-before-law-or-plate", "add-native-script-after-name",
              "add-native-script-before-name", "add-east-asian-date", "add-east-asian-street",
              "add-military-mail-address", "add-profession-after-age", "add-phone-extension", "add-dashed-extension",
              "add-age-in-years-other-language", "add-day-after-month-date",
              "add-weekday-list", "split-weekday-list", "add-month-day-at-line-start",
              "add-airport-code-from-after-flight-number", "add-airport-code-to-after-flight-number",
              "add-holiday", "add-first-day-of-day-month-range", "add-day-range-month",
              "add-profession-after-field-label", "add-licence-after-council",
              "add-age-day-of-life", "add-age-day-of-life-range-end", "add-age-after-age-word", "add-age-range-end",
              "add-day-month-abbreviation-year", "add-month-day-range", "add-hebrew-calendar-date",
              "add-ocr-numeric-date", "add-day-month-after-timing-word", "add-first-day-of-dotted-range",
              "add-dotted-range-end",
              "drop-eponym-exam-term", "drop-eponym-with-exam-term",
              "drop-date-susceptibility-value", "drop-treatment-cycle", "drop-omim-number",
              "drop-pulmonary-artery-state",
              # sixth batch
              "add-acronym-after-organization", "grow-street-block-number", "grow-street-unit", "grow-place-mount",
              "add-gps-coordinates", "add-trauma-alias", "add-age-after-foreign-age-word", "add-latin-american-licence", "add-profession-after-person",
              # seventh batch
              "grow-name-patronymic", "grow-organization-legal-suffix", "grow-street-off-road", "grow-street-unit-before",
              "grow-street-house-number", "add-photo-file-initials", "add-age-after-kin",
              # eighth batch
              "add-continental-weekday-list", "add-continental-weekday-before-date", "add-state-before-licence",
              "add-state-before-credential-number", "add-state-after-licence-number", "add-initials-before-username",
              "add-dictation-initials", "add-typist-initials", "drop-variant-classification", "drop-tissue-block-id",
              "drop-lab-row-values", "drop-cytogenetic-band",
              # ninth batch (hn01-dev false positives of the w01-w128 release)
              "drop-department-only-facility",
              # tenth batch (examination eponyms among the same false positives)
              "drop-eponym-exam-result", "drop-double-eponym",
              # eleventh batch (guideline bodies and decimals among the same false positives)
              "drop-guideline-body", "drop-date-zero-decimal"]


def writer_notes(root: Path = WRITERS, exclude: Iterable[str] = frozenset()) -> dict[str, list[Document]]:
    """{writer: notes} of the writers' corpus (``<root>/<writer>/PNNN-K.txt``), minus ``exclude``."""
    out = {}
    skip = set(exclude)
    for folder in sorted(p for p in root.iterdir() if any(p.glob("P*.txt"))):
        if folder.name not in skip:
            docs = list(read_corpus(folder, "inline"))
            for d in docs:
                d.metadata["writer"] = folder.name
            out[folder.name] = docs
    return out


def training_corpus(holdout: Iterable[str], synth_patients: int, seed: int, recase: bool = True,
                    holdout_writers: Iterable[str] = frozenset(), writers_root: Path | None = WRITERS,
                    en_dev: Path | None = EN_DEV, added: Sequence[Document] = (),
                    repopulate_writers: float = 0.0) -> tuple[list[Document], dict]:
    """Training documents and a record of what went in.

    ``holdout`` removes en-dev patients; ``holdout_writers`` removes whole writers of the
    writers' corpus (``"en-dev"`` names the en-dev notes themselves); ``added`` notes
    (annotated in layer ``gold``) are appended as written. ``repopulate_writers`` (0-1) adds
    a re-populated copy (style ``random``) of that share of the writers' notes, chosen by
    a seeded draw per note (an experiment of docs/en-default.md; 0 in the shipped recipe).
    """
    from notescrub.replace.repopulate import repopulate_corpus
    from notescrub.synth import generate_corpus
    from notescrub.synth.recase import recased_corpus

    held, held_writers = set(holdout), set(holdout_writers)
    use_dev = "en-dev" not in held_writers and en_dev is not None
    if use_dev and not en_dev.is_file():  # type: ignore[union-attr]  # checked just above
        raise ConfigError("the en-dev notes of the en-default recipe are not here (give --set en_dev=PATH)",
                          path=en_dev)
    dev = [d for d in read_corpus(en_dev) if d.patient_id not in held] if use_dev else []  # type: ignore[arg-type]
    by_writer = writer_notes(writers_root, held_writers) if writers_root and writers_root.is_dir() else {}
    written = [d for docs in by_writer.values() for d in docs]
    rep: dict[str, list] = {}
    for style, s in (("random", seed + 1), ("oov", seed + 2)):
        rep[style] = list(repopulate_corpus([d.copy() for d in dev], style=style, seed=s))
    if not 0.0 <= repopulate_writers <= 1.0:
        raise ConfigError(f"repopulate_writers must lie in [0, 1], not {repopulate_writers}")
    chosen = [d for d in written if _draw(f"{seed}:{d.id}") < repopulate_writers]
    rep_writers = list(repopulate_corpus([d.copy() for d in chosen], style="random", seed=seed + 5))
    cased: list[Document] = []
    if recase:
        cased = list(recased_corpus(rep["random"], "lower", share=1.0, seed=seed + 3))
        cased += recased_corpus(rep["oov"], "upper", share=0.25, seed=seed + 4)
    syn = list(generate_corpus(synth_patients, (1, 4), seed=seed)) if synth_patients else []
    data = {
        "writers": {w: len(docs) for w, docs in by_writer.items()},
        "heldout_writers": sorted(held_writers),
        "writer_notes": len(written),
        "en_dev_notes": len(dev),
        "en_dev_patients": sorted({d.patient_id for d in dev if d.patient_id is not None}),
        "repopulated_notes": sum(len(v) for v in rep.values()),
        "repopulation_styles": ["random", "oov"],
        "recased_notes": {"lower (all random)": sum(d.metadata.get("recased") == "lower" for d in cased),
                          "upper (25% of oov)": sum(d.metadata.get("recased") == "upper" for d in cased)},
        "repopulated_writer_notes": len(rep_writers),
        "synthetic_notes": len(syn),
        "synthetic_patients": synth_patients,
        "seed": seed,
        "heldout_patients": sorted(held),
    }
    if added:
        data["added_notes"] = len(added)
        data["added_spans"] = sum(len(d.layer("gold")) for d in added)
    # the writers' notes go in as written: eight writers bring the variety of names and
    # contexts that re-population adds to en-dev, at a quarter of the training cost
    return dev + rep["random"] + rep["oov"] + cased + written + rep_writers + syn + list(added), data


def _draw(key: str) -> float:
    """A number in [0, 1) that depends on ``key`` only (stable across runs and platforms)."""
    import hashlib

    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2 ** 64


class EnDefaultTrainer:
    """``fit(added_docs)`` trains en-default on its training set plus ``added_docs``; ``save`` writes it.

    Parameters follow ``scripts/build_en_default.py``: ``iterations`` (L-BFGS), ``c1``,
    ``c2``, ``synth_patients``, ``seed``, ``recase``, ``holdout`` and ``holdout_writers``
    (comma-separated), ``repopulate_writers`` (share of the writers' notes also added
    re-populated), ``context_bag`` (the featurizer's context-word bag: 4 words on each side,
    as shipped; 0 = none), ``min_freq`` (CRFsuite's ``feature.minfreq``: features seen fewer
    times in training are dropped, which keeps the model small; 3 as shipped) and the corpus locations
    ``en_dev`` and ``writers``.
    """

    def __init__(self, *, iterations: int = 100, c1: float = 0.05, c2: float = 0.05, synth_patients: int = 80,
                 seed: int = 7, recase: bool = True, holdout: str = "", holdout_writers: str = "",
                 en_dev: str | Path | None = None, writers: str | Path | None = None, lang: str = "en",
                 repopulate_writers: float = 0.0, context_bag: int = 4, min_freq: int = 3) -> None:
        if min_freq < 1:
            raise ConfigError(f"min_freq must be at least 1 (got {min_freq})")
        self.iterations, self.c1, self.c2, self.min_freq = iterations, c1, c2, min_freq
        self.synth_patients, self.seed, self.recase = synth_patients, seed, recase
        self.holdout, self.holdout_writers = holdout, holdout_writers
        self.en_dev, self.writers, self.lang = en_dev, writers, lang
        self.repopulate_writers, self.context_bag = repopulate_writers, context_bag

    def training_documents(self, added: Sequence[Document] = ()) -> tuple[list[Document], dict]:
        """The whole training set with ``added`` appended, and its record (``model.json`` ``data``)."""
        if self.lang != "en":
            raise ConfigError("recipe en-default is English only (--lang en)")
        return training_corpus(
            {p for p in self.holdout.split(",") if p}, self.synth_patients, self.seed, self.recase,
            {w for w in self.holdout_writers.split(",") if w},
            Path(self.writers) if self.writers else WRITERS, Path(self.en_dev) if self.en_dev else EN_DEV, added,
            self.repopulate_writers)

    def fit(self, docs: Sequence[Document] = (), layer: str = "gold") -> EnDefaultTrainer:
        """Train on the recipe's training set plus ``docs`` (spans of ``layer``)."""
        from notescrub.detect.crf.stacked import StackedCRF
        from notescrub.detect.crf.tagger import CRFTagger
        from notescrub.detect.dictionary import DictionaryDetector
        from notescrub.detect.rules.detector import RulesDetector
        from notescrub.features import Featurizer

        if layer != "gold":  # the recipe's own notes carry their spans in gold: move the added ones there
            moved = []
            for d in docs:
                c = d.copy(layers=False)
                c.add_layer("gold", d.layer(layer))
                moved.append(c)
            docs = moved
        train, self.data_ = self.training_documents(docs)
        log.info("training en-default on %d documents (%d added)", len(train), len(docs))
        self.crf_ = CRFTagger(Featurizer(context_bag=self.context_bag), scheme="BIO", sequence="record",
                              c1=self.c1, c2=self.c2, max_iterations=self.iterations, min_freq=self.min_freq)
        t0 = time.time()
        StackedCRF(self.crf_, [RulesDetector(), DictionaryDetector()]).fit(train)
        self.training_seconds_ = round(time.time() - t0, 1)
        self.documents_ = len(train)
        return self

    @property
    def types_(self) -> list[str]:
        """Labels the trained CRF produces."""
        return list(self.crf_.types_)

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write the hybrid model directory atomically (as the packaged en-default is laid out)."""
        from notescrub.config import ComponentSpec
        from notescrub.modeldir import HybridModel

        comps = [
            ComponentSpec("rules", "rules", options={"enabled": False}),
            ComponentSpec("dictionary", "dictionary", options={"enabled": False}),
            ComponentSpec("crf", "stacked", dir="crf", options={"feeders": ["rules", "dictionary"],
                                                               "bias": PRESETS[DEFAULT_PRESET]}),
            ComponentSpec("two_pass", "two_pass", options={"sources": ["crf"], "min_score": 0.7, "derived_forms": True}),
            ComponentSpec("net", "leftover_net", options={"enabled": False, "threshold": NET_THRESHOLD}),
            ComponentSpec("post", "postprocess", options={"targets": ["crf", "two_pass"], "rules": POST_RULES,
                                                          "files": ["default.toml", POST_FILE.name]}),
        ]
        presets: dict[str, Any] = {name: {"description": f"stacked CRF O-bias {b:+.1f}", "components": {"crf": {"bias": b}}}
                                   for name, b in PRESETS.items()}
        for name in NET_PRESETS:
            presets[name]["description"] += f", leftover net at P(PHI) >= {NET_THRESHOLD:g}"
            presets[name]["components"]["net"] = {"enabled": True}
        model = HybridModel(comps, objects={"crf": self.crf_}, resolver={"name": "cover", "base": {"name": "longest"}},
                            presets=presets, default_preset=DEFAULT_PRESET)
        info = {
            "model_name": "en-default",
            "description": "English clinical de-identifier: rules + dictionaries feeding a stacked CRF, "
                           "two-pass patient dictionary, recall-first cover resolution (i2b2-2014 subtypes).",
            "lang": "en",
            "data": self.data_,
            "training_seconds": self.training_seconds_,
            "training": {"iterations": self.iterations, "c1": self.c1, "c2": self.c2, "documents": self.documents_,
                         "context_bag": self.context_bag, "min_freq": self.min_freq},
        }
        for k, v in (extra or {}).items():
            if k == "data" and isinstance(v, dict):
                info["data"] = {**self.data_, **v}
            else:
                info[k] = v
        post = POST_FILE.read_bytes()  # read before saving: ``directory`` may be the packaged model itself
        return model.save(directory, overwrite=overwrite, extra=info, files={POST_FILE.name: post})


def build(**params: Any) -> EnDefaultTrainer:
    """The unfitted en-default trainer (what ``RECIPES["en-default"]`` builds)."""
    return EnDefaultTrainer(**params)
