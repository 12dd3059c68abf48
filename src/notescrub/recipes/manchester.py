"""Manchester recipe (Dehghan et al. 2015): rules + dictionaries + per-type IO-CRFs, two passes.

What the paper did, and what :class:`ManchesterRecipe` does:

* **Knowledge-driven taggers**: JAPE rules and filtered dictionaries -- here the packaged
  :class:`~notescrub.detect.rules.detector.RulesDetector` and
  :class:`~notescrub.detect.dictionary.DictionaryDetector` of the language.
* **One IO-CRF per entity type** for City, Date, Hospital, Organization, Profession and
  Patient (plus Doctor, which the paper's recall submission used), each with lexical,
  orthographic, semantic (dictionary) and positional features over a +/-2 window --
  here :class:`~notescrub.detect.crf.tagger.CRFTagger` (``scheme="IO"``; BIO for a CRF whose
  training spans of one label often touch, see :func:`adjacency_share`) with the shared
  :class:`~notescrub.features.Featurizer` groups ``lexical``, ``orthographic``,
  ``dictionary`` and ``position``. A type group is a canonical i2b2-2014 subtype, so
  native labels map onto it through ``span.phi`` (MEDDOCAN ``FECHAS`` -> ``DATE``;
  ``HOSPITAL`` and ``CENTRO_SALUD`` -> ``HOSPITAL``); labels without a subtype
  (``SEXO_SUJETO_ASISTENCIA``) are their own group.
* **Which tagger for which type** was decided on development data by comparing the
  rule-based results. Here ``fit`` measures every knowledge tagger per type on the
  training notes (they learn nothing there, so the estimate is fair): a tagger is
  *usable* for a type when its precision and recall reach ``min_precision`` /
  ``min_recall``. Types with no usable knowledge tagger and no per-type CRF are learned by
  one more IO-CRF over all of them (the *residual* CRF) -- the paper had English rules
  for all of them; a corpus in a language without rules (MEDDOCAN) needs this.
* **ML post-processing rules** (:mod:`notescrub.detect.spans.postprocess`, packaged data) on
  the CRFs' output: extend a facility tag to a neighbouring ``Hospital``, drop dates
  inside ``140/4.0/107``-like strings, merge names split by an initial...
* **Two-pass recognition**: :class:`~notescrub.detect.two_pass.PatientDictionary` over the
  first-pass layers, for Patient, Doctor, Zip, Medical record, ID number, City and
  Hospital (the types the paper found it helped).
* **Integration**: each type takes the taggers its operating point selects, then
  conflicts are settled by a per-type priority (Doctor over Patient, Age over Date...),
  an injectable :class:`~notescrub.detect.spans.resolve.Priority` (``priority=``).
* **Three submissions** as presets: ``precision`` (Date, Doctor, Patient from the
  knowledge taggers only), ``recall`` (plus the CRFs for Date, Doctor and Patient, and
  uncovered remainders kept by :class:`~notescrub.detect.spans.resolve.Cover`), ``f1`` (plus
  the CRFs for Date and Patient). Types without a usable knowledge tagger use their CRF
  in every preset.

* **Organisation feeder**: the paper added the Stanford NER tagger's organisations, found
  in sentences with contextual cues ("works in", "runs", "church", "lodge"), directly to
  the final output. Here spaCy's English entity recogniser does
  (:class:`~notescrub.detect.ner.NerDetector`, ``ORG`` -> ``ORGANIZATION``, component
  ``ner`` enabled in every preset) when the ``[syntax]`` extra and its English pipeline
  are installed (``ner=None``, the default: English only, left out cleanly otherwise;
  ``ner=True`` requires it, ``ner=False`` leaves it out).

Differences: no cTAKES/GATE chunks or POS (our tokenizer and lexicons instead), spaCy's
NER instead of Stanford's for organisations, one shared feature set for all CRFs (the paper chose a
subset per type on development data), CRF training capped (``max_iterations``) to fit
the time budget.

>>> r = build(lang="es")
>>> r.crf_types[:3], r.default_preset
(('CITY', 'DATE', 'HOSPITAL'), 'f1')
"""

from __future__ import annotations

import logging
import multiprocessing
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from notescrub.config import ComponentSpec
from notescrub.detect.base import Detector
from notescrub.errors import ConfigError, ModelError
from notescrub.estimator import Params
from notescrub.features import Featurizer
from notescrub.modeldir import HybridModel
from notescrub.types import Document, Span

__all__ = [
    "CRF_BIAS",
    "DEFAULT_PRIORITY",
    "F1_ML_TYPES",
    "MANCHESTER_CRF_TYPES",
    "PRESETS",
    "SWITCH_TYPES",
    "TWO_PASS_TYPES",
    "ManchesterRecipe",
    "adjacency_share",
    "build",
    "featurizer",
    "group_of",
]

log = logging.getLogger(__name__)

#: types with their own IO-CRF (the paper's six, plus Doctor for the recall submission)
MANCHESTER_CRF_TYPES = ("CITY", "DATE", "HOSPITAL", "ORGANIZATION", "PROFESSION", "PATIENT", "DOCTOR")
#: types whose sources differ between the three submissions
SWITCH_TYPES = ("DATE", "DOCTOR", "PATIENT")
#: switch types whose CRF the F1 submission adds to the knowledge taggers
F1_ML_TYPES = ("DATE", "PATIENT")
#: types of the second pass (paper, section 3: where two-pass recognition helped)
TWO_PASS_TYPES = ("PATIENT", "DOCTOR", "ZIP", "MEDICALRECORD", "IDNUM", "CITY", "HOSPITAL")
#: conflict priority, strongest first (Doctor over Patient, Age over Date; facilities over
#: the person names they contain)
DEFAULT_PRIORITY = (
    "EMAIL", "URL", "IPADDR", "SSN", "PHONE", "FAX", "MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "LICENSE", "VEHICLE",
    "DEVICE", "BIOID", "IDNUM", "USERNAME", "AGE", "DATE", "ZIP", "STREET", "HOSPITAL", "ORGANIZATION", "DOCTOR",
    "PATIENT", "CITY", "STATE", "COUNTRY", "LOCATION-OTHER", "PROFESSION",
)
PRESETS = ("precision", "recall", "f1")
#: O-label bias of the CRFs per preset (fixed a priori, not tuned on evaluation data):
#: positive = fewer, surer tags; -1.0 is Carafe's recall setting (Wellner et al. 2007)
CRF_BIAS = {"precision": 1.0, "f1": 0.0, "recall": -1.0}
_KNOWLEDGE = ("rules", "dictionary")
_NER = "ner"
_RESIDUAL = "crf_rest"
_POST = "post"
_TWO_PASS = "two_pass"


def group_of(label: str) -> str:
    """The type group of a native label: its canonical subtype, else the label itself.

    >>> group_of("FECHAS"), group_of("CENTRO_SALUD"), group_of("SEXO_SUJETO_ASISTENCIA")
    ('DATE', 'HOSPITAL', 'SEXO_SUJETO_ASISTENCIA')
    """
    from notescrub.taxonomy import canonical

    return canonical(label) or label


def featurizer(lang: str = "en", **overrides: Any) -> Featurizer:
    """The features of the per-type CRFs: lexical, orthographic, semantic, positional; the +/-2
    window carries the neighbours' words (the paper: their lemmas and POS), not their shapes,
    which halves the features per token (and the training time)."""
    params: dict[str, Any] = {"groups": ("lexical", "orthographic", "dictionary", "position"), "window": (2, 2),
                              "window_groups": ("lexical",), "affixes": 3, "bigrams": True, "lang": lang}
    params.update(overrides)
    return Featurizer(**params)


def _crf_name(group: str) -> str:
    return "crf_" + "".join(c if c.isalnum() else "_" for c in group.lower())


def _fit_one(job: tuple[Any, list[Document], str, list[list[list[str]]]]) -> Any:
    tagger, docs, layer, attrs = job
    return tagger.fit(docs, layer=layer, attrs=attrs)


_FORK_JOBS: list[Any] = []


def _fit_forked(i: int) -> Any:
    return _fit_one(_FORK_JOBS[i])


def _fit_all(jobs: list[tuple[Any, list[Document], str, list[list[list[str]]]]], n_jobs: int) -> list[Any]:
    """Train the CRFs, in ``n_jobs`` forked processes where the platform allows it."""
    n = min(max(1, n_jobs), len(jobs))
    if n == 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [_fit_one(j) for j in jobs]
    global _FORK_JOBS
    _FORK_JOBS = jobs
    try:
        # largest jobs first so the slowest CRF starts at once
        order = sorted(range(len(jobs)), key=lambda i: -len(jobs[i][0].labels or ()))
        with multiprocessing.get_context("fork").Pool(n) as pool:
            fitted = dict(zip(order, pool.map(_fit_forked, order, chunksize=1)))
    finally:
        _FORK_JOBS = []
    return [fitted[i] for i in range(len(jobs))]


def adjacency_share(docs: Iterable[Document], layer: str, labels: Iterable[str]) -> float:
    """Share of the ``labels`` spans that directly follow a span of the same label (only
    whitespace between): an IO tagger merges such neighbours ("28035 Madrid" as two
    TERRITORIO spans), so the recipe then switches that CRF to BIO.

    >>> d = Document("a", "28035 Madrid, Spain", layers={"gold": [Span(0, 5, "CITY"), Span(6, 12, "CITY")]})
    >>> adjacency_share([d], "gold", ["CITY"])
    0.5
    """
    keep = set(labels)
    total = adjacent = 0
    for doc in docs:
        last: dict[str, int] = {}
        for s in sorted(doc.layer(layer), key=Span.sort_key):
            if s.label not in keep:
                continue
            total += 1
            end = last.get(s.label)
            if end is not None and end <= s.start and not doc.text[end : s.start].strip():
                adjacent += 1
            last[s.label] = max(s.end, last.get(s.label, 0))
    return adjacent / total if total else 0.0


def _prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    return {"precision": round(p, 4), "recall": round(r, 4), "tp": tp, "fp": fp, "fn": fn}


class ManchesterRecipe(Params, Detector):
    """The Manchester hybrid as a trainable estimator (see the module docstring).

    Parameters
    ----------
    lang:
        Language of rules, lexicons and features (``"en"``, ``"es"``).
    crf_types:
        Type groups (canonical subtypes or native labels) with their own IO-CRF.
    residual:
        Train one IO-CRF for the types no usable knowledge tagger and no per-type CRF covers.
    min_precision, min_recall:
        Training-set precision and recall a knowledge tagger needs to be used for a type.
    algorithm, c1, c2, max_iterations, min_freq:
        CRFsuite training options of every CRF.
    scheme, adjacent_share:
        Tagging scheme of the CRFs: ``"IO"`` (the paper), ``"BIO"``, or ``"auto"``: IO unless at
        least ``adjacent_share`` of a CRF's training spans directly follow one of the same label
        (see :func:`adjacency_share`), then BIO.
    features:
        Featurizer overrides (see :func:`featurizer`).
    two_pass:
        Include the second pass.
    ner:
        The organisation feeder (spaCy NER): ``None`` when available for English,
        ``True`` required, ``False`` never.
    priority:
        Conflict priority (strongest first); types not listed rank below.
    preset:
        Operating point used by :meth:`detect` and stored as the model's default.
    n_jobs:
        CRFs trained in parallel (forked processes).
    """

    name = "manchester"

    def __init__(
        self,
        lang: str = "en",
        crf_types: Sequence[str] = MANCHESTER_CRF_TYPES,
        residual: bool = True,
        min_precision: float = 0.7,
        min_recall: float = 0.3,
        algorithm: str = "lbfgs",
        c1: float = 0.0,
        c2: float = 0.1,
        max_iterations: int = 40,
        min_freq: int = 2,
        scheme: str = "auto",
        adjacent_share: float = 0.02,
        features: Mapping[str, Any] | None = None,
        two_pass: bool = True,
        ner: bool | None = None,
        priority: Sequence[str] = DEFAULT_PRIORITY,
        preset: str = "f1",
        n_jobs: int = 2,
        verbose: bool = False,
    ) -> None:
        self.lang = lang
        self.crf_types = tuple(crf_types)
        self.residual = residual
        self.min_precision = min_precision
        self.min_recall = min_recall
        self.algorithm = algorithm
        self.c1 = c1
        self.c2 = c2
        self.max_iterations = max_iterations
        self.min_freq = min_freq
        self.scheme = scheme
        self.adjacent_share = adjacent_share
        self.features = dict(features or {})
        self.two_pass = two_pass
        self.ner = ner
        self.priority = tuple(priority)
        self.preset = preset
        self.n_jobs = n_jobs
        self.verbose = verbose

    @property
    def default_preset(self) -> str:
        return self.preset

    # -- checks -------------------------------------------------------------------------
    def _check(self) -> None:
        if self.lang not in ("en", "es"):
            raise ConfigError(f"unsupported language {self.lang!r}; use 'en' or 'es'")
        if self.preset not in PRESETS:
            raise ConfigError(f"unknown preset {self.preset!r}; known: {', '.join(PRESETS)}")
        for k in ("min_precision", "min_recall"):
            v = getattr(self, k)
            if not 0.0 <= float(v) <= 1.0:
                raise ConfigError(f"{k} must be in [0, 1], got {v!r}")
        if self.scheme not in ("IO", "BIO", "auto"):
            raise ConfigError(f"scheme must be 'IO', 'BIO' or 'auto', got {self.scheme!r}")
        if len(set(self.priority)) != len(self.priority):
            raise ConfigError("priority lists a type twice")

    # -- training -----------------------------------------------------------------------
    def fit(self, docs: Sequence[Document], layer: str = "gold") -> ManchesterRecipe:
        """Measure the knowledge taggers, train the CRFs, assemble the hybrid model."""
        self._check()
        docs = list(docs)
        if not any(d.layer(layer) for d in docs):
            raise ModelError(f"no annotated spans in layer {layer!r} of the training documents")
        t0 = time.perf_counter()
        natives = Counter(s.label for d in docs for s in d.layer(layer))
        groups: dict[str, set[str]] = defaultdict(set)
        for lab in natives:
            groups[group_of(lab)].add(lab)
        canonical_scheme = all(group_of(lab) == lab for lab in natives)
        relabel = self._relabel_map(natives)
        knowledge = self._knowledge_components(canonical_scheme, relabel)
        quality = self._measure(knowledge, docs, layer, groups)
        t1 = time.perf_counter()
        plan = self._plan(groups, quality)
        jobs, names = self._crf_jobs(docs, layer, groups, plan)
        t2 = time.perf_counter()
        fitted = _fit_all(jobs, self.n_jobs)
        t3 = time.perf_counter()
        objects = dict(zip(names, fitted))
        self.plan_ = plan
        self.knowledge_quality_ = quality
        self.types_ = sorted(natives) if not canonical_scheme else sorted(set(natives) | self._rule_labels())
        self.model_ = self._assemble(knowledge, objects, groups, plan, canonical_scheme)
        self.training_ = {
            "recipe": "manchester",
            "documents": len(docs),
            "gold_spans": sum(natives.values()),
            "labels": dict(natives.most_common()),
            "knowledge_quality": quality,
            "plan": plan,
            "schemes": dict(self.schemes_),
            "crfs": {n: getattr(o, "training_", {}) for n, o in objects.items()},
            "seconds": {"knowledge": round(t1 - t0, 1), "features": round(t2 - t1, 1), "crf": round(t3 - t2, 1)},
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "params": self._saved_params(),
        }
        self.model_.meta["training"] = self.training_
        self._pipelines: dict[Any, Any] = {}
        return self

    def _saved_params(self) -> dict[str, Any]:
        """The parameters stored in ``training.params`` (JSON: lists for tuples; not ``verbose``)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.get_params(deep=False).items()
                if k != "verbose"}

    def _rule_labels(self) -> set[str]:
        from notescrub.detect.rules.detector import load_rules

        return {r.label for r in load_rules(None, self.rules_lang()).rules if not r.block}

    @staticmethod
    def _relabel_map(natives: Counter[str]) -> dict[str, str]:
        """Canonical subtype -> the most frequent native training label with that subtype."""
        best: dict[str, tuple[int, str]] = {}
        for lab, n in natives.items():
            g = group_of(lab)
            if g != lab and (g not in best or n > best[g][0]):
                best[g] = (n, lab)
        return {g: lab for g, (n, lab) in sorted(best.items())}

    def rules_lang(self) -> str:
        """Language of the rule files: ``lang``, or English when ``lang`` has no packaged rules
        (its language-independent patterns -- e-mail, URL, IP, phone, numeric dates -- are then
        kept only for the types where they pass the training-set check)."""
        from notescrub.detect.rules.detector import packaged_rule_files

        own = [f for f in packaged_rule_files(self.lang) if not f.endswith("_macros.toml")]
        return self.lang if own else "en"

    def use_ner(self) -> bool:
        """Whether the organisation feeder is part of the model (see ``ner``)."""
        from notescrub.detect import ner

        if self.ner is False:
            return False
        if self.ner is None:
            return self.lang == "en" and ner.available()
        if self.lang != "en":
            raise ConfigError(f"the NER organisation feeder is English only, not {self.lang!r}")
        if not ner.available():
            ner._nlp()  # raises the ConfigError that names the missing extra
        return True

    def _knowledge_components(self, canonical_scheme: bool, relabel: dict[str, str]) -> list[ComponentSpec]:
        base: dict[str, Any] = {"relabel": relabel} if relabel else {}
        comps = [ComponentSpec("rules", "rules", options={"lang": self.rules_lang(), **base}),
                 ComponentSpec("dictionary", "dictionary", options={"lang": self.lang, **base})]
        if (canonical_scheme or "ORGANIZATION" in relabel) and self.use_ner():
            comps.append(ComponentSpec(_NER, "ner", options=dict(base)))
        return comps

    def _measure(self, knowledge: list[ComponentSpec], docs: list[Document], layer: str,
                 groups: Mapping[str, set[str]]) -> dict[str, dict[str, Any]]:
        """Per knowledge tagger and type group: exact-span precision/recall on the training notes."""
        model = HybridModel(knowledge)
        pipe = model.pipeline()
        out: dict[str, dict[str, Any]] = {}
        counts: dict[str, dict[str, list[int]]] = {c.name: defaultdict(lambda: [0, 0, 0]) for c in knowledge}
        for doc in docs:
            gold: dict[str, set[tuple[int, int]]] = defaultdict(set)
            for s in doc.layer(layer):
                gold[group_of(s.label)].add((s.start, s.end))
            work = doc.copy(layers=False)
            for det in pipe.detectors:
                pred: dict[str, set[tuple[int, int]]] = defaultdict(set)
                for s in det.detect(work):
                    pred[group_of(s.label)].add((s.start, s.end))
                c = counts[det.name]
                for g in set(gold) | set(pred):
                    tp = len(gold[g] & pred[g])
                    c[g][0] += tp
                    c[g][1] += len(pred[g]) - tp
                    c[g][2] += len(gold[g]) - tp
        for name, per in counts.items():
            out[name] = {g: _prf(*v) for g, v in sorted(per.items())}
        return out

    def _usable(self, q: Mapping[str, Any] | None) -> bool:
        return q is not None and bool(q) and q["tp"] > 0 and q["precision"] >= self.min_precision and q["recall"] >= self.min_recall

    def _plan(self, groups: Mapping[str, set[str]], quality: Mapping[str, Mapping[str, Any]]
              ) -> dict[str, dict[str, Any]]:
        """Per type group: usable knowledge taggers, its CRF, and the sources of each preset."""
        plan: dict[str, dict[str, Any]] = {}
        crf_groups = set(self.crf_types)
        for g in sorted(groups):
            k = [name for name in _KNOWLEDGE if self._usable(quality.get(name, {}).get(g))]
            if g in crf_groups:
                ml: str | None = _crf_name(g)
            elif not k and self.residual:
                ml = _RESIDUAL
            else:
                ml = None
            sources: dict[str, list[str]] = {}
            for preset in PRESETS:
                if ml is None:
                    sources[preset] = k
                elif not k:
                    sources[preset] = [ml]
                elif g in SWITCH_TYPES:
                    use_ml = preset == "recall" or (preset == "f1" and g in F1_ML_TYPES)
                    sources[preset] = k + ([ml] if use_ml else [])
                else:
                    sources[preset] = k + [ml]
            plan[g] = {"labels": sorted(groups[g]), "knowledge": k, "ml": ml, "sources": sources}
        return plan

    def _crf_jobs(self, docs: list[Document], layer: str, groups: Mapping[str, set[str]],
                  plan: Mapping[str, Mapping[str, Any]]) -> tuple[list[Any], list[str]]:
        from notescrub.detect.crf.tagger import CRFTagger

        feat = featurizer(self.lang, **self.features)
        attrs = [feat.attributes(d) for d in docs]
        by_model: dict[str, list[str]] = defaultdict(list)
        for g, p in plan.items():
            if p["ml"]:
                by_model[p["ml"]].extend(sorted(groups[g]))
        jobs, names = [], []
        self.schemes_: dict[str, str] = {}
        for name, labels in sorted(by_model.items()):
            scheme = self.scheme
            if scheme == "auto":
                scheme = "BIO" if adjacency_share(docs, layer, labels) >= self.adjacent_share else "IO"
            self.schemes_[name] = scheme
            tagger = CRFTagger(feat, scheme=scheme, sequence="record", algorithm=self.algorithm, c1=self.c1, c2=self.c2,
                               max_iterations=self.max_iterations, min_freq=self.min_freq, labels=labels, name=name,
                               verbose=self.verbose)
            jobs.append((tagger, docs, layer, attrs))
            names.append(name)
        return jobs, names

    # -- assembling ---------------------------------------------------------------------
    def _assemble(self, knowledge: list[ComponentSpec], objects: Mapping[str, Any], groups: Mapping[str, set[str]],
                  plan: Mapping[str, Mapping[str, Any]], canonical_scheme: bool) -> HybridModel:
        extra_rule_types = sorted(self._rule_labels() - set(groups)) if canonical_scheme else []
        comps = [ComponentSpec(k.name, k.kind, None, dict(k.options)) for k in knowledge]
        crfs = sorted(objects)
        comps += [ComponentSpec(n, "crf", n, {}) for n in crfs]
        if crfs:
            comps.append(ComponentSpec(_POST, "postprocess", options={"targets": crfs}))
        present = [g for g in TWO_PASS_TYPES if g in groups]
        if self.two_pass and present:
            comps.append(ComponentSpec(_TWO_PASS, "two_pass", options={"harvest_types": present, "min_score": 0.5}))
        presets = {p: self._preset(p, comps, plan, extra_rule_types) for p in PRESETS}
        if not canonical_scheme:
            # in a foreign scheme the rules serve a few types only (MEDDOCAN: e-mail addresses):
            # load just the rules of those labels instead of running every rule and filtering
            wanted = sorted({t for p in presets.values() for t in p["components"].get("rules", {}).get("types", [])})
            for c in comps:
                if c.kind == "rules" and wanted:
                    c.options["labels"] = wanted
        # the unpreset defaults are the F1 submission's
        for c in comps:
            c.options.update(presets["f1"]["components"].get(c.name, {}))
        order = [t for t in self.priority] + sorted(g for g in groups if g not in self.priority)
        resolver = {"name": "priority", "order": order}
        presets["recall"]["resolver"] = {"name": "cover", "base": resolver}
        meta = {"name": "manchester", "recipe": "manchester", "lang": self.lang,
                "labels": sorted({lab for g in groups for lab in groups[g]}),
                "description": "Manchester hybrid (Dehghan et al. 2015): rules, dictionaries, per-type IO-CRFs, "
                               "post-processing rules, two-pass recognition, integration by priority."}
        return HybridModel(comps, objects, resolver, presets, self.preset, meta)

    @staticmethod
    def _preset(preset: str, comps: list[ComponentSpec], plan: Mapping[str, Mapping[str, Any]],
                extra_rule_types: list[str]) -> dict[str, Any]:
        chosen: dict[str, list[str]] = defaultdict(list)
        for g, p in plan.items():
            for src in p["sources"][preset]:
                chosen[src].append(g)
        over: dict[str, dict[str, Any]] = {}
        for c in comps:
            if c.kind in ("rules", "dictionary"):
                types = sorted(set(chosen.get(c.name, [])) | (set(extra_rule_types) if c.kind == "rules" else set()))
                over[c.name] = {"enabled": bool(types), "types": types}
            elif c.kind == "crf":
                over[c.name] = {"enabled": bool(chosen.get(c.name)), "types": sorted(chosen.get(c.name, [])),
                                "bias": CRF_BIAS[preset]}
            elif c.kind == "ner":  # the paper added its output directly, in every submission
                over[c.name] = {"enabled": True, "types": ["ORGANIZATION"]}
            elif c.kind == "two_pass":
                over[c.name] = {"min_score": {"precision": 0.9, "f1": 0.7, "recall": 0.5}[preset]}
        descriptions = {
            "precision": "Submission 1: Date, Doctor and Patient from the knowledge taggers only; CRF bias +1.",
            "recall": "Submission 2: all CRFs added, CRF bias -1; uncovered remainders of losing spans kept.",
            "f1": "Submission 3: the CRFs for Date and Patient added to submission 1.",
        }
        return {"description": descriptions[preset], "components": over}

    # -- using --------------------------------------------------------------------------
    def _fitted(self) -> HybridModel:
        m = getattr(self, "model_", None)
        if m is None:
            raise ModelError("ManchesterRecipe is not fitted: call fit() or load the model directory")
        return m

    def pipeline(self, preset: str | None = None, second_pass: bool = True) -> Any:
        """The trained model's :class:`~notescrub.pipeline.Pipeline` at an operating point."""
        model = self._fitted()
        key = (preset or self.preset, second_pass)
        cache = self.__dict__.setdefault("_pipelines", {})
        if key not in cache:
            over = {} if second_pass or _TWO_PASS not in {c.name for c in model.components} else \
                {_TWO_PASS: {"enabled": False}}
            cache[key] = model.pipeline(key[0], over)
        return cache[key]

    def detect(self, doc: Document) -> list[Span]:
        """Spans of one document at the default operating point (second pass within the document)."""
        return list(self.pipeline()(doc.copy(layers=False)).layer("phi"))

    def save(self, directory: str | Path, *, overwrite: bool = False, extra: dict[str, Any] | None = None) -> Path:
        """Write the hybrid model directory atomically (see :mod:`notescrub.modeldir`)."""
        return self._fitted().save(directory, overwrite=overwrite, extra=extra)


def build(lang: str = "en", **overrides: Any) -> ManchesterRecipe:
    """Recipe entry point (``notescrub train --recipe manchester``)."""
    return ManchesterRecipe(lang=lang, **overrides)
