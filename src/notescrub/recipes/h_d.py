"""H+D recipe: the heuristic + dictionary baseline Stat De-id was compared with.

Uzuner et al. (2008, section 7.1) describe it as a system that "identifies PHI by
checking to see if the target words occur in hospital, location, and name
dictionaries, but not in a list of common words", plus "simple contextual clues, such
as titles, e.g. *Mr.*, and manually determined bigrams, e.g. *lives in*", and the usual
patterns for dates, phone numbers and identifiers. Here:

* **dictionaries**: :class:`~notescrub.detect.dictionary.DictionaryDetector` with
  ``mode="hd"`` (names, cities, states, countries, hospital words; a token is PHI when
  it is in one of them and not in the wordfreq-derived common-word list);
* **heuristics**: the packaged rules (:class:`~notescrub.detect.rules.detector.RulesDetector`):
  patterns (dates, ages, phones, IDs...), titles (``Dr.``, ``Mr.``) and hand bigrams
  (``lives in``, ``works as``, ``daughter X``);
* conflicts resolved by ``highest_score`` (rules score above dictionary hits).

Differences from the paper: our dictionaries come from Faker and GeoNames rather than
the US Census and WorldAtlas, and our rule set is larger. Nothing is learned: ``fit``
only records the training data's size for the model card.

>>> from notescrub.types import Document
>>> doc = build_pipeline()(Document("a", "Mr. Okafor lives in Boston since 03/18/2091."))
>>> [(doc.span_text(s), s.label) for s in doc.layer("phi")]
[('Okafor', 'PATIENT'), ('Boston', 'CITY'), ('03/18/2091', 'DATE')]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.dictionary import DictionaryDetector
from notescrub.detect.rules.detector import RulesDetector
from notescrub.detect.spans.resolve import highest_score
from notescrub.pipeline import Pipeline
from notescrub.types import Document, Span

__all__ = ["DICTIONARY_LABELS", "MODEL_META", "HDBaseline", "build", "build_pipeline"]

#: labels the H+D dictionaries can produce (``DictionaryDetector(mode="hd")``)
DICTIONARY_LABELS = ("CITY", "COUNTRY", "DOCTOR", "HOSPITAL", "ORGANIZATION", "PATIENT", "PROFESSION", "STATE")

#: model.json content of an H+D model directory (kind "rules", read by notescrub.modeldir.read_rules)
MODEL_META: dict[str, Any] = {
    "kind": "rules",
    "name": "h-d",
    "recipe": "h-d",
    "lang": "en",
    "dictionary": {"mode": "hd", "lang": "en"},
    "resolver": "highest_score",
    "description": "Heuristic + dictionary baseline (Uzuner et al. 2008): packaged rules plus "
                   "name/location/hospital dictionaries filtered by a common-word list.",
}


def build_pipeline(lang: str = "en") -> Pipeline:
    """The H+D pipeline: rules (patterns, titles, bigrams) + H+D dictionaries -> ``phi``."""
    return Pipeline([RulesDetector(lang=lang), DictionaryDetector(mode="hd", lang=lang)],
                    resolver=highest_score, name="h-d", metadata={**MODEL_META, "lang": lang})


class HDBaseline(Detector):
    """The H+D baseline with the recipe contract (``fit`` learns nothing; ``save`` writes a model dir)."""

    name = "h-d"

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self._pipeline = build_pipeline(lang)
        self.training_: dict[str, Any] = {}

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> HDBaseline:
        docs = list(docs)
        self.training_ = {"documents": len(docs), "note": "H+D has no learned parameters"}
        return self

    @property
    def types_(self) -> list[str]:
        """Labels this baseline can produce: its rules' labels plus the dictionaries' (i2b2-2014).

        >>> "DATE" in HDBaseline().types_ and "CITY" in HDBaseline().types_
        True
        """
        from notescrub.detect.rules.detector import load_rules

        rules = {r.label for r in load_rules(None, self.lang).rules if not r.block}
        return sorted(rules | set(DICTIONARY_LABELS))

    def detect(self, doc: Document) -> list[Span]:
        work = doc.copy(layers=False)
        return list(self._pipeline(work).layer("phi"))

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write a model directory (``model.json`` of kind ``"rules"``) atomically."""
        from notescrub import __version__
        from notescrub.io.atomic import atomic_dir

        meta = {**MODEL_META, "lang": self.lang, "notescrub_version": __version__, "training": self.training_}
        meta["dictionary"] = {"mode": "hd", "lang": self.lang}
        meta.update(extra or {})
        with atomic_dir(directory, overwrite=overwrite) as tmp:
            (tmp / "model.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        return Path(directory)


def build(lang: str = "en", **overrides: Any) -> HDBaseline:
    """Recipe entry point (``notescrub train --recipe h-d``)."""
    return HDBaseline(lang=lang, **overrides)
