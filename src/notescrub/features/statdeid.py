"""Stat De-id's local-context features (Uzuner et al. 2008, section 6), on top of the shared featurizer.

:class:`StatDeidFeaturizer` concatenates the shared :class:`~notescrub.features.Featurizer`
(the target word, its orthography - capitalisation, punctuation, digits, length - and the
dictionaries of the target and its ±2 neighbours) with the groups of the paper's own:

================== =============================================================================
group              features
================== =============================================================================
lexical_bigrams    the two words before the target (``lbg=was|admitted``) and the two after it
pos                POS tags of the target and its ±2 neighbours (needs the parser)
syntactic_bigrams  words and link labels within one and two links left and right of the target
                   in a dependency parse (``sL1=prep|in``, ``sL2=pobj|lives``...); a word without
                   left (right) links falls back to the two words before (after) it with link
                   ``NONE``, as in the paper (needs the parser)
medical_np         the phrase containing the target holds a medical-vocabulary term (the paper
                   used the MeSH id of the noun phrase): ``mnp=<term>``; phrases are the parser's
                   noun chunks (``np_source="parser"``) or runs of words between punctuation and
                   function words (``np_source="heuristic"``, for languages without a parser)
section            the normalised heading of the enclosing section, and a heading flag
================== =============================================================================

A group that needs the parser raises :class:`~notescrub.errors.ConfigError` when spaCy, the
model or a parser for the language is missing: results never change silently.
:meth:`StatDeidFeaturizer.describe` gives what was on, for model metadata.

>>> from notescrub.types import Document
>>> f = StatDeidFeaturizer(groups=("lexical_bigrams", "section", "medical_np"), shared_groups=(),
...                        np_source="heuristic", lang="en")
>>> feats = f.attributes(Document("d", "HPI:\\nJohn was admitted for chest pain."))
>>> feats[2]
['lbg=hpi|:', 'rbg=was|admitted', 'sec=HPI']
>>> [a for a in feats[7] if a.startswith("mnp")]
['mnp', 'mnp=chest', 'mnp=pain']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from notescrub.errors import ConfigError
from notescrub.estimator import Params
from notescrub.features.extract import FeatureParts, Featurizer, Unit
from notescrub.text.views import TokenView, token_view
from notescrub.types import Document

__all__ = ["PARSER_GROUPS", "SHARED_GROUPS", "STATDEID_GROUPS", "StatDeidFeaturizer"]

STATDEID_GROUPS = ("lexical_bigrams", "pos", "syntactic_bigrams", "medical_np", "section")
#: the shared featurizer's groups that carry the paper's remaining features
SHARED_GROUPS = ("lexical", "orthographic", "dictionary")
PARSER_GROUPS = ("pos", "syntactic_bigrams")
NP_SOURCES = ("parser", "heuristic")
_MED_LEXICON = {"en": "medical_terms", "es": "es_medical_terms"}
_FUNCTION_LEXICON = {"en": "common_words", "es": "es_common_words"}
_MAX_TERM_WORDS = 4
_EMPTY_UNIT: Unit = ([], {})


class StatDeidFeaturizer(Params):
    """Per-token feature strings for Stat De-id (and CRFD, which uses exactly the same).

    Parameters
    ----------
    groups: Stat De-id groups (subset of :data:`STATDEID_GROUPS`).
    shared_groups: groups of the shared featurizer (window ±2, no bigram/sentence groups).
    lang: ``"en"`` or ``"es"`` (lexicons; the parser groups need ``"en"``).
    np_source: ``"parser"`` or ``"heuristic"`` phrases for ``medical_np``.
    fused: tokenizer setting.
    """

    def __init__(
        self,
        groups: Sequence[str] = STATDEID_GROUPS,
        shared_groups: Sequence[str] = SHARED_GROUPS,
        lang: str = "en",
        np_source: str = "parser",
        fused: bool = True,
    ) -> None:
        self.groups = groups
        self.shared_groups = shared_groups
        self.lang = lang
        self.np_source = np_source
        self.fused = fused

    # -- parameters: get_params / set_params from notescrub.estimator.Params -----------
    def to_config(self) -> dict[str, Any]:
        """JSON-serialisable parameters, tagged ``"featurizer": "stat-deid"``."""
        cfg = {k: list(v) if isinstance(v, tuple) else v for k, v in self.get_params(deep=False).items()}
        return {"featurizer": "stat-deid", **cfg}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> StatDeidFeaturizer:
        cfg = dict(config)
        if cfg.pop("featurizer", "stat-deid") != "stat-deid":
            raise ConfigError(f"not a Stat De-id featurizer configuration: {config.get('featurizer')!r}")
        unknown = set(cfg) - set(cls._param_names())
        if unknown:
            raise ConfigError(f"unknown Stat De-id featurizer parameters {sorted(unknown)}")
        for k in ("groups", "shared_groups"):
            if k in cfg:
                cfg[k] = tuple(cfg[k])
        return cls(**cfg)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_state"}

    def __repr__(self) -> str:
        return "StatDeidFeaturizer(" + ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items()) + ")"

    @property
    def pos_enabled(self) -> bool:
        """Whether POS features are on (recorded in CRF model metadata)."""
        return "pos" in tuple(self.groups)

    @property
    def uses_parser(self) -> bool:
        g = set(self.groups)
        return bool(g & set(PARSER_GROUPS)) or ("medical_np" in g and self.np_source == "parser")

    def _validated(self) -> dict[str, Any]:
        st = self.__dict__.get("_state")
        if st is not None:
            return st
        bad = [g for g in self.groups if g not in STATDEID_GROUPS]
        if bad:
            raise ConfigError(f"unknown Stat De-id feature groups {bad}; known: {', '.join(STATDEID_GROUPS)}")
        if self.np_source not in NP_SOURCES:
            raise ConfigError(f"np_source must be one of {NP_SOURCES}, got {self.np_source!r}")
        if self.lang not in _MED_LEXICON:
            raise ConfigError(f"unsupported language {self.lang!r} for Stat De-id features")
        if self.uses_parser:
            from notescrub.features import syntax

            syntax._require(self.lang)
            syntax._nlp()  # ConfigError when spaCy or the model is missing
        shared = None
        if self.shared_groups:
            shared = Featurizer(groups=tuple(self.shared_groups), window=(2, 2), bigrams=False,
                                lang=self.lang, fused=self.fused)
            shared._validated()
        st = {"groups": frozenset(self.groups), "shared": shared}
        self.__dict__["_state"] = st
        return st

    def describe(self) -> dict[str, Any]:
        """What is switched on (for model metadata), including the parser's version."""
        self._validated()
        out: dict[str, Any] = self.to_config()
        if self.uses_parser:
            from notescrub.features.syntax import parser_info

            out["parser"] = parser_info(self.lang)
        else:
            out["parser"] = None
        return out

    # -- features ---------------------------------------------------------------------
    def view(self, doc: Document) -> TokenView:
        return token_view(doc, fused=self.fused)

    def parts(self, doc: Document) -> FeatureParts:
        """The shared featurizer's :class:`~notescrub.features.extract.FeatureParts` with
        Stat De-id's groups appended to every token's document-level features."""
        st = self._validated()
        view = self.view(doc)
        n = len(view.tokens)
        if st["shared"] is not None:
            base = st["shared"].parts(doc)
        else:
            base = FeatureParts([t.text for t in view.tokens], [_EMPTY_UNIT] * n, [], [[] for _ in range(n)])
        return base.with_extra(self._own(doc, view, st))

    def attributes(self, doc: Document) -> list[list[str]]:
        """Feature strings of every token of ``doc`` (value 1.0 each)."""
        return self.parts(doc).join()

    def _own(self, doc: Document, view: TokenView, st: dict[str, Any]) -> list[list[str]]:
        n = len(view.tokens)
        out: list[list[str]] = [[] for _ in range(n)]
        groups = st["groups"]
        if n == 0:
            return out
        low = [t.text.lower() for t in view.tokens]
        if "lexical_bigrams" in groups:
            _add(out, lexical_bigrams(low))
        p = None
        if self.uses_parser:
            from notescrub.features.syntax import parse

            p = parse(doc, self.lang, fused=self.fused)
        if "pos" in groups:
            _add(out, pos_window(p))
        if "syntactic_bigrams" in groups:
            _add(out, syntactic_bigrams(p))
        if "medical_np" in groups:
            phrases = parser_phrases(p) if self.np_source == "parser" else heuristic_phrases(view, low, self.lang)
            _add(out, medical_np(low, phrases, self.lang))
        if "section" in groups:
            _add(out, [[f"sec={s}"] + (["heading"] if h else []) if s else (["heading"] if h else [])
                       for s, h in zip(view.section, view.is_heading)])
        return out

    def featurize(self, doc: Document) -> list[dict[str, float]]:
        return [dict.fromkeys(a, 1.0) for a in self.attributes(doc)]

    def transform(self, docs: Iterable[Document]) -> list[list[dict[str, float]]]:
        return [self.featurize(d) for d in docs]


def _add(out: list[list[str]], feats: list[list[str]]) -> None:
    for a, f in zip(out, feats):
        a += f


def lexical_bigrams(low: list[str]) -> list[list[str]]:
    """``lbg=w-2|w-1`` and ``rbg=w+1|w+2`` (``<s>``/``</s>`` past the ends)."""
    pad = ["<s>", "<s>", *low, "</s>", "</s>"]
    return [[f"lbg={pad[i]}|{pad[i + 1]}", f"rbg={pad[i + 3]}|{pad[i + 4]}"] for i in range(len(low))]


def pos_window(p: Any) -> list[list[str]]:
    """POS of the target's parse word and of the parse words ±1, ±2 around it."""
    tags = p.tags
    out = []
    for w in p.word_of:
        f = [f"pos={tags[w]}"]
        for o in (-2, -1, 1, 2):
            v = _neighbour(p, w, o)
            if v is not None:
                f.append(f"{o}:pos={tags[v]}")
        out.append(f)
    return out


def _neighbour(p: Any, w: int, offset: int) -> int | None:
    """The parse word ``offset`` words away from ``w``, skipping whitespace words."""
    step = 1 if offset > 0 else -1
    v = w
    for _ in range(abs(offset)):
        v += step
        while 0 <= v < len(p.words) and p.space[v]:
            v += step
        if not 0 <= v < len(p.words):
            return None
    return v


def _word_feats(p: Any, w: int) -> list[str]:
    words = p.words
    feats: list[str] = []
    for side, links, step in (("L", p.left, -1), ("R", p.right, 1)):
        first = links[w]
        if not first:
            # no link on this side: the two adjacent words with link NONE (lexical fallback)
            a, b = _neighbour(p, w, step), _neighbour(p, w, 2 * step)
            if a is not None:
                feats.append(f"s{side}1=NONE|{words[a].lower()}")
                if b is not None:
                    feats.append(f"s{side}2=NONE|{words[b].lower()}")
            continue
        for u, lab in first:
            feats.append(f"s{side}1={lab}|{words[u].lower()}")
            feats.append(f"s{side}1l={lab}")
            for v, lab2 in links[u]:
                feats.append(f"s{side}2={lab2}|{words[v].lower()}")
                feats.append(f"s{side}2l={lab}|{lab2}")
    return feats


def syntactic_bigrams(p: Any) -> list[list[str]]:
    """Left/right syntactic unigrams and bigrams of each token's parse word."""
    cache: dict[int, list[str]] = {}
    out = []
    for w in p.word_of:
        f = cache.get(w)
        if f is None:
            f = cache[w] = _word_feats(p, w)
        out.append(list(f))
    return out


def parser_phrases(p: Any) -> list[int]:
    """Phrase id per token: its parse word's noun chunk (-1 outside every chunk)."""
    return [p.chunk[w] for w in p.word_of]


def heuristic_phrases(view: TokenView, low: list[str], lang: str) -> list[int]:
    """Phrase id per token without a parser: maximal runs of word tokens on one line that
    contain no punctuation and no very frequent (function) word; -1 outside."""
    common = _function_words(lang)
    out = []
    k = -1
    prev_in = False
    prev_line = -1
    for i, t in enumerate(view.tokens):
        word = t.text
        inside = word.isalnum() and low[i] not in common
        if inside and not (prev_in and view.line[i] == prev_line):
            k += 1
        out.append(k if inside else -1)
        prev_in, prev_line = inside, view.line[i]
    return out


@lru_cache(maxsize=4)
def _function_words(lang: str) -> frozenset[str]:
    from notescrub.lexicons import lexicon, zipf

    words = lexicon(_FUNCTION_LEXICON[lang])
    # function words: the most frequent entries only (Zipf >= 6: "the", "de", "was"...)
    return frozenset(w for w in words if " " not in w and zipf(w, lang) >= 6.0)


@lru_cache(maxsize=4)
def _medical(lang: str) -> frozenset[str]:
    from notescrub.lexicons import lexicon

    return lexicon(_MED_LEXICON[lang])


def medical_np(low: list[str], phrase: list[int], lang: str) -> list[list[str]]:
    """``mnp`` and ``mnp=<term>`` for every token of a phrase holding a medical term
    (the longest term first; terms of up to four words)."""
    med = _medical(lang)
    members: dict[int, list[int]] = {}
    for i, k in enumerate(phrase):
        if k >= 0:
            members.setdefault(k, []).append(i)
    out: list[list[str]] = [[] for _ in low]
    for idx in members.values():
        words = [low[i] for i in idx]
        terms = []
        for size in range(min(_MAX_TERM_WORDS, len(words)), 0, -1):
            for a in range(len(words) - size + 1):
                term = " ".join(words[a : a + size])
                if term in med and term not in terms:
                    terms.append(term)
        if terms:
            feats = ["mnp"] + [f"mnp={t}" for t in terms]
            for i in idx:
                out[i] = feats
    return out
