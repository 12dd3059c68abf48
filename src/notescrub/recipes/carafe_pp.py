"""Carafe-ALL+PP (Wellner et al. 2007): Carafe at bias -1.5 plus regular-expression post-processing.

The paper's third official run kept making "certain recall errors" with the bias
alone, so the authors ran the regular expressions of their "Task-driven feature
customizations" section over the text after the CRF. Here those expressions are the
packaged rule file ``resources/rules/carafe_pp.toml`` (validated like every rule
file): PHONE_REG1/2, the ``<INITCAP> ... Hospital|Health|Care Center|Medical
Center|Morgue`` pattern and Table 5's address pattern (street, city, state, ZIP).
Their matches are added to the CRF's spans with the :func:`~notescrub.detect.spans.resolve.union`
policy (recall first: a CRF span and a rule match that overlap become their union,
labelled by the higher-scored, longer one). The CRF decodes with the paper's bias
(-1.5) unless the tagger passed in says otherwise.

The expressions are English (US phone and address shapes), so ``lang="es"`` is refused.
``notescrub train --recipe carafe --set pp=true`` trains it; the saved model is a
``hybrid`` model directory (a ``crf`` component and a ``rules`` component naming the
packaged file, resolver ``union``), loaded like any other.

>>> from notescrub.types import Document, Span
>>> doc = Document("d", "Call 617-555-0148 at Barney Convalescent Hospital.")
>>> [(doc.span_text(s), s.label) for s in post_process(doc, [Span(21, 27, "HOSPITAL", 0.9, "crf")])]
[('617-555-0148', 'PHONE'), ('Barney Convalescent Hospital', 'HOSPITAL')]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from notescrub.detect.base import Detector
from notescrub.detect.crf.tagger import CRFTagger
from notescrub.detect.spans.resolve import union
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.types import Document, Span

__all__ = ["PP_BIAS", "PP_RULES", "CarafePP", "post_process"]

#: the packaged rule file of Carafe-ALL+PP
PP_RULES = ("carafe_pp.toml",)
#: Carafe-ALL+PP's O-bias (Table 1: b = -1.5)
PP_BIAS = -1.5


@lru_cache(maxsize=4)
def _rules(files: tuple[str, ...]) -> Any:
    from notescrub.detect.rules.detector import RulesDetector

    return RulesDetector(list(files), lang="en", name="carafe_pp", propagate=False)


def post_process(doc: Document, spans: Sequence[Span], rules: Sequence[str] = PP_RULES) -> list[Span]:
    """``spans`` (a Carafe CRF's) completed by the Carafe-ALL+PP expressions, without overlaps."""
    return union([*spans, *_rules(tuple(rules)).detect(doc)])


class CarafePP(Params, Detector):
    """Carafe-ALL+PP: ``crf`` (a Carafe tagger; ``None`` = the recipe's, at bias -1.5) + the PP rules."""

    name = "carafe-pp"

    def __init__(self, crf: CRFTagger | None = None, lang: str = "en", rules: Sequence[str] = PP_RULES) -> None:
        self.crf = crf
        self.lang = lang
        self.rules = rules

    def _check(self) -> None:
        if self.lang != "en":
            raise ConfigError(f"Carafe-ALL+PP's post-processing expressions are English; lang={self.lang!r} is refused")
        _rules(tuple(self.rules))  # a bad or missing rule file fails here, before training

    def fit(self, docs: Sequence[Document], layer: str = "gold") -> CarafePP:
        """Train the CRF (a clone of ``crf``) on ``docs``."""
        from notescrub.estimator import clone
        from notescrub.recipes.carafe import build

        self._check()
        crf = clone(self.crf) if self.crf is not None else build(self.lang, bias=PP_BIAS)
        self.crf_ = crf.fit(docs, layer=layer)
        return self

    @property
    def types_(self) -> list[str]:
        """Labels the fitted CRF predicts (the rules add PHONE, HOSPITAL, STREET, CITY, STATE, ZIP)."""
        return list(self._fitted().types_)

    def _fitted(self) -> CRFTagger:
        crf = self.__dict__.get("crf_")
        if crf is None:
            raise ModelError("CarafePP is not fitted: call fit() first")
        return crf

    def detect(self, doc: Document) -> list[Span]:
        return self.detect_with_info(doc)[0]

    def detect_with_info(self, doc: Document) -> tuple[list[Span], dict[str, Any]]:
        """The CRF's spans after the post-processing rules, and the CRF's record confidence."""
        spans, info = self._fitted().detect_with_info(doc)
        return post_process(doc, spans, self.rules), info

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write a ``hybrid`` model directory: the CRF in ``crf/``, the rules by packaged name, ``union``."""
        from notescrub.config import ComponentSpec
        from notescrub.modeldir import HybridModel

        crf = self._fitted()
        model = HybridModel(
            [ComponentSpec("crf", "crf", "crf", {}),
             ComponentSpec("pp", "rules", None, {"lang": "en", "files": list(self.rules), "propagate": False})],
            objects={"crf": crf}, resolver={"name": "union"},
            meta={"name": "carafe-pp", "recipe": "carafe", "lang": self.lang,
                  "description": "Carafe-ALL+PP (Wellner et al. 2007): Carafe CRF plus regex post-processing"})
        return model.save(directory, overwrite=overwrite, extra=extra)
