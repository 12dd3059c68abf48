"""The featurizer shared by every trainable tagger: documents -> per-token features.

Features come in named groups that can be switched on and off to rerun the seeds'
ablations (He et al. 2015, Fig. 2-3; Aramaki et al. 2006, Table 4):

========== ==================================================================================
group      features (current token unless noted)
========== ==================================================================================
lexical    word, lower-cased word, prefixes/suffixes 1..``affixes``; lower-cased words of the
           ``window`` neighbours (and their affixes with ``window_affixes``); word bigrams
           (w-1 w0, w0 w1, w-2 w-1, w1 w2, w-1 w1; Carafe Table 2); start/end of record
orthographic shape, short shape, length, WI-deId flags, Carafe regex classes (also for the
           neighbours), whitespace-chunk shape/classes/position, multi-token task patterns
dictionary lexicon membership and Zipf word frequency (also for the neighbours)
sentence   Aramaki: line position (top 10 / bottom 5 / other), previous/current/next sentence
           length, last words of the previous sentence, section heading
position   line index, line-initial token, first word of the line, no space after the token
document   the first words of the other lines where the token's word recurs in the document
           (:mod:`notescrub.features.document`; off by default)
pos        spaCy POS tag of the token and its neighbours (optional extra, see ``pos``)
clusters   the word's clusters in the table named by ``clusters``
           (:mod:`notescrub.features.clusters`; also for the neighbours with ``window_groups``)
========== ==================================================================================

Features are strings (``"lw=smith"``, ``"-1:shape=Xx"``) with value 1.0: exactly what
CRFsuite receives. Per-word features are cached per distinct word, so a document
costs a few list concatenations per token.

>>> from notescrub.types import Document
>>> f = Featurizer(groups=("lexical", "orthographic"), window=(1, 1), affixes=2)
>>> feats = f.featurize(Document("d", "Dr. Ana Ruiz"))
>>> [k for k in feats[2] if k.startswith(("w=", "-1:lw", "1:lw", "sshape"))]
['w=Ana', 'sshape=Xx', '-1:lw=.', '1:lw=ruiz']
>>> Featurizer.from_config(f.to_config()).get_params() == f.get_params()
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from notescrub.errors import ConfigError
from notescrub.estimator import Params
from notescrub.features.context import bag_lists, bag_windows, position_table, sentence_table
from notescrub.features.document import document_table
from notescrub.features.patterns import chunk_table, pattern_table
from notescrub.features.token import lexical_features, orthographic_features
from notescrub.text.tokenize import TokenizerMode, check_mode
from notescrub.text.views import TokenView, token_view
from notescrub.types import Document

__all__ = ["DEFAULT_GROUPS", "GROUPS", "BagGroup", "FeatureParts", "Featurizer", "ListGroup", "PairGroup", "TableGroup"]

GROUPS = ("lexical", "orthographic", "dictionary", "sentence", "position", "pos", "document", "clusters")
DEFAULT_GROUPS = ("lexical", "orthographic", "dictionary", "sentence", "position")
_WINDOW_GROUPS = ("lexical", "orthographic", "dictionary", "clusters")  # groups that may describe neighbours
_DEFAULT_WINDOW_GROUPS = ("lexical", "orthographic", "dictionary")
#: distinct token texts whose feature units are memoised (the table is emptied when full). Every new
#: surrogate name or number is a new token, so the table fills with the corpus: 300,000 entries held
#: several hundred MB after 20,000 notes. With 10,000 (and the CRF scorer's caches of the same
#: order) en-default's peak memory is flat from 1,000 notes on at the same speed as with 50,000
#: (docs/scale.md, "Memory").
_CACHE_MAX = 10_000
_BOS_EOS: list[list[str]] = [[], ["BOS"], ["EOS"], ["BOS", "EOS"]]


Unit = tuple[Sequence[str], dict[int, Sequence[str]]]


class TableGroup:
    """Per-token features given as ids into a table of distinct feature lists.

    Token ``i`` gets ``table[ids[i]]``. Document-level features (sentence, line,
    section, chunk, feeder features) are shared by many tokens: a scorer can score each
    table row once and gather the rows (see
    :meth:`notescrub.detect.crf.decode.CRFWeights.scores_from_parts`).

    >>> TableGroup([[], ["sec=hpi"]], [0, 1, 1]).lists()
    [[], ['sec=hpi'], ['sec=hpi']]
    """

    kind = "table"
    __slots__ = ("ids", "table")

    def __init__(self, table: list[list[str]], ids: list[int]) -> None:
        self.table = table
        self.ids = ids

    def __len__(self) -> int:
        return len(self.ids)

    def lists(self) -> list[list[str]]:
        """One (fresh) feature list per token."""
        table = self.table
        return [list(table[k]) for k in self.ids]


class PairGroup:
    """Word-pair (bigram) features ``bg[a,b]=w[i+a]|w[i+b]`` of every token ``i``.

    The strings are only built by :meth:`lists` (or for the pairs a scorer cannot rule
    out from the words alone), in the order of ``pairs``, for the tokens where both
    neighbours exist.

    >>> PairGroup(["seen", "by", "dr"], [(-1, 0), (0, 1)]).lists()
    [['bg[0,1]=seen|by'], ['bg[-1,0]=seen|by', 'bg[0,1]=by|dr'], ['bg[-1,0]=by|dr']]
    """

    kind = "pairs"
    __slots__ = ("pairs", "words")

    def __init__(self, words: list[str], pairs: list[tuple[int, int]]) -> None:
        self.words = words
        self.pairs = pairs

    def __len__(self) -> int:
        return len(self.words)

    def prefix(self, a: int, b: int) -> str:
        return f"bg[{a},{b}]="

    def ranges(self) -> Iterable[tuple[int, int, int, int, str]]:
        """``(a, b, lo, hi, prefix)``: pair ``(a, b)`` exists for the tokens ``lo <= i < hi``."""
        n = len(self.words)
        for a, b in self.pairs:
            lo, hi = max(0, -a), n - max(0, b)  # tokens i with 0 <= i + a and i + b < n
            if hi > lo:
                yield a, b, lo, hi, self.prefix(a, b)

    def lists(self) -> list[list[str]]:
        low = self.words
        out: list[list[str]] = [[] for _ in low]
        # one list comprehension per pair over shifted word lists (same strings, same order
        # per token as a per-token loop over the pairs, much less interpreter work)
        for a, b, lo, hi, prefix in self.ranges():
            feats = [f"{prefix}{x}|{y}" for x, y in zip(low[lo + a : hi + a], low[lo + b : hi + b])]
            for lst, f in zip(out[lo:hi], feats):
                lst.append(f)
        return out


class ListGroup:
    """Per-token feature lists given as they are (``lists[i]``: token ``i``'s features)."""

    kind = "lists"
    __slots__ = ("items",)

    def __init__(self, items: list[list[str]]) -> None:
        self.items = items

    def __len__(self) -> int:
        return len(self.items)

    def lists(self) -> list[list[str]]:
        return self.items


class BagGroup:
    """Context-word bag features (``bagL=w`` / ``bagR=w``) as word indices per token.

    ``left[i, j]`` / ``right[i, j]`` index ``words`` (``-1``: no word), as built by
    :func:`notescrub.features.context.bag_windows`. A scorer adds up one score vector per
    distinct word and side instead of looking up every token's list (see
    :meth:`notescrub.detect.crf.scorer.Scorer.group_scores`); :meth:`lists` gives the strings.

    >>> import numpy as np
    >>> BagGroup(["seen", "dr"], np.array([[-1], [0]]), np.array([[1], [-1]])).lists()
    [['bagR=dr'], ['bagL=seen']]
    """

    kind = "bag"
    prefixes = ("bagL=", "bagR=")
    __slots__ = ("left", "right", "words")

    def __init__(self, words: list[str], left: Any, right: Any) -> None:
        self.words = words
        self.left = left
        self.right = right

    def __len__(self) -> int:
        return len(self.left)

    def lists(self) -> list[list[str]]:
        return bag_lists(self.words, self.left, self.right, self.prefixes)


Group = TableGroup | PairGroup | ListGroup | BagGroup


class FeatureParts:
    """A document's features in parts: cached per-word units plus per-token extras.

    ``units[i]`` is ``(own features, {offset: features given to the token at i - offset})``
    of token ``i``'s word (shared between equal words, so scores can be cached per word);
    the document-dependent features of the tokens come in ``groups`` (see
    :class:`TableGroup`, :class:`PairGroup`, :class:`ListGroup`, :class:`BagGroup`), concatenated per
    token in group order. ``extra`` (the flat per-token lists) may be given instead of
    ``groups``, and is built from them on first access.

    >>> parts = FeatureParts(["Dr", "Ruiz"], [(["w=Dr"], {}), (["w=Ruiz"], {})], [],
    ...                      groups=[TableGroup([["line=0"]], [0, 0])])
    >>> parts.with_extra([["stk=O"], []]).join()
    [['w=Dr', 'line=0', 'stk=O'], ['w=Ruiz', 'line=0']]
    """

    __slots__ = ("_extra", "groups", "offsets", "units", "words")

    def __init__(self, words: list[str], units: list[Unit], offsets: list[int],
                 extra: list[list[str]] | None = None, groups: Sequence[Group] | None = None) -> None:
        self.words = words
        self.units = units
        self.offsets = offsets
        if groups is None:
            first = ListGroup(extra if extra is not None else [[] for _ in words])
            groups = [first]
            self._extra: list[list[str]] | None = first.items
        else:
            if extra is not None:
                groups = [*groups, ListGroup(extra)]
            self._extra = None
        self.groups: list[Group] = list(groups)

    def __len__(self) -> int:
        return len(self.words)

    @property
    def extra(self) -> list[list[str]]:
        """``extra[i]``: the document-dependent features of token ``i`` (all groups joined)."""
        if self._extra is None:
            n = len(self.words)
            per_group = [g.lists() for g in self.groups]
            if len(per_group) == 1:
                self._extra = [list(x) for x in per_group[0]]
            else:
                out: list[list[str]] = [[] for _ in range(n)]
                for lists in per_group:
                    for acc, feats in zip(out, lists):
                        acc += feats
                self._extra = out
        return self._extra

    def join(self) -> list[list[str]]:
        """One flat feature list per token."""
        n = len(self.words)
        units, offsets = self.units, self.offsets
        extra = self.extra
        out: list[list[str]] = []
        for i in range(n):
            attrs = list(units[i][0])
            for o in offsets:
                j = i + o
                if 0 <= j < n:
                    attrs += units[j][1][o]
            attrs += extra[i]
            out.append(attrs)
        return out

    def with_extra(self, more: list[list[str]] | Group) -> FeatureParts:
        """A copy with ``more[i]`` (lists, or a group) appended to token ``i``'s extra features."""
        group = more if hasattr(more, "kind") else ListGroup(more)
        # hasattr() does not narrow `more` to a Group for the type checker
        return FeatureParts(self.words, self.units, self.offsets, groups=[*self.groups, group])  # type: ignore[list-item]


class Featurizer(Params):
    """Turn documents into per-token feature lists (scikit-learn style parameters).

    Parameters
    ----------
    groups:
        Feature groups to compute (subset of :data:`GROUPS`).
    window:
        ``(left, right)`` neighbours whose features are copied with an offset prefix
        (He/Aramaki: ``(2, 2)``; Carafe: ``(3, 2)``).
    affixes:
        Longest prefix/suffix length of the current word (WI-deId 4; Carafe-I 2).
    window_affixes:
        Also give the neighbours' affixes (Carafe's extended context).
    bigrams:
        Word bigram features around the token.
    window_groups:
        Which word-level groups the neighbours contribute (lexical = their lower-cased word).
    lang:
        ``"en"`` or ``"es"``: selects lexicons, frequency list and pattern triggers.
    fused:
        Tokenizer setting (see :mod:`notescrub.text.tokenize`): ``True`` (the generic
        fused-token splits), ``False`` (whitespace and punctuation only) or ``"he2015"``
        (He et al.'s Table 1 rules, :mod:`notescrub.text.he2015`; the WI-deId recipe).
    clusters:
        The word-cluster table of the ``clusters`` group: a packaged table's name or a
        file path (:func:`notescrub.features.clusters.load_clusters`); None without it.
    context_bag:
        With ``k > 0``, every token also gets the lower-cased words (letters only, two or
        more) among the ``k`` nearest words on each side in its sentence, as unordered
        ``bagL=``/``bagR=`` features (:func:`notescrub.features.context.context_bag`): cue
        words a few places away (``father alive , 79``; ``works as a welder``) whatever
        their exact distance. 0 (the default) leaves them out.
    """

    def __init__(
        self,
        groups: Sequence[str] = DEFAULT_GROUPS,
        window: tuple[int, int] = (2, 2),
        affixes: int = 4,
        window_affixes: bool = False,
        bigrams: bool = True,
        window_groups: Sequence[str] = _DEFAULT_WINDOW_GROUPS,
        lang: str = "en",
        fused: TokenizerMode = True,
        clusters: str | None = None,
        context_bag: int = 0,
    ) -> None:
        self.groups = groups
        self.window = window
        self.affixes = affixes
        self.window_affixes = window_affixes
        self.bigrams = bigrams
        self.window_groups = window_groups
        self.lang = lang
        self.fused = fused
        self.clusters = clusters
        self.context_bag = context_bag

    # -- scikit-learn style parameters (notescrub.estimator.Params) ---------------------
    def set_params(self, **params: Any) -> Featurizer:
        super().set_params(**params)
        self.__dict__.pop("_state", None)  # built again from the new parameters on first use
        return self

    def to_config(self) -> dict[str, Any]:
        """JSON-serialisable parameters (tuples become lists)."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.get_params(deep=False).items()}

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> Featurizer:
        unknown = set(config) - set(cls._param_names())
        if unknown:
            raise ConfigError(f"unknown featurizer parameters {sorted(unknown)}")
        cfg = dict(config)
        for k in ("groups", "window_groups", "window"):
            if k in cfg:
                cfg[k] = tuple(cfg[k])
        return cls(**cfg)

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params(deep=False).items())
        return f"Featurizer({args})"

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_state"}

    # -- validation and lazily built state ---------------------------------------------
    def _validated(self) -> dict[str, Any]:
        state = self.__dict__.get("_state")
        if state is not None:
            return state
        groups = tuple(self.groups)
        bad = [g for g in groups if g not in GROUPS]
        if bad:
            raise ConfigError(f"unknown feature groups {bad}; known: {', '.join(GROUPS)}")
        wg = tuple(g for g in self.window_groups if g in groups)
        bad = [g for g in self.window_groups if g not in _WINDOW_GROUPS]
        if bad:
            raise ConfigError(f"window_groups may only name {', '.join(_WINDOW_GROUPS)}; got {bad}")
        left, right = (int(x) for x in self.window)
        if left < 0 or right < 0 or left > 6 or right > 6:
            raise ConfigError(f"window must be two integers in 0..6, got {self.window!r}")
        check_mode(self.fused)
        if not 0 <= int(self.affixes) <= 8:
            raise ConfigError(f"affixes must be in 0..8, got {self.affixes!r}")
        if not 0 <= int(self.context_bag) <= 10:
            raise ConfigError(f"context_bag must be in 0..10, got {self.context_bag!r}")
        dictionary = None
        if "dictionary" in groups:
            from notescrub.features.dictionary import for_lang

            dictionary = for_lang(self.lang)
        if "pos" in groups:
            from notescrub.features import pos

            pos._nlp()  # raises ConfigError when spaCy or the model is missing
        word_clusters = None
        if "clusters" in groups:
            if not self.clusters:
                raise ConfigError("the 'clusters' feature group needs a word-cluster table (clusters=NAME or PATH)")
            from notescrub.features.clusters import load_clusters

            word_clusters = load_clusters(str(self.clusters))
        offsets = [o for o in range(-left, right + 1) if o != 0]
        state = {"groups": frozenset(groups), "wgroups": frozenset(wg), "offsets": offsets,
                 "dictionary": dictionary, "clusters": word_clusters, "cache": {}}
        self.__dict__["_state"] = state
        return state

    @property
    def pos_enabled(self) -> bool:
        """Whether POS features are part of this configuration."""
        return "pos" in tuple(self.groups)

    # -- per-word unit -------------------------------------------------------------------
    def _unit(self, word: str, st: dict[str, Any]) -> Unit:
        groups, wg = st["groups"], st["wgroups"]
        cur: list[str] = []
        ctx: list[str] = []
        if "lexical" in groups:
            lex = lexical_features(word, self.affixes)
            cur += lex
            if "lexical" in wg:
                ctx += lex[1:] if self.window_affixes else lex[1:2]
        if "orthographic" in groups:
            ortho = orthographic_features(word)
            cur += ortho
            if "orthographic" in wg:
                ctx += ortho[1:]  # all but the full shape
        if st["dictionary"] is not None:
            d = st["dictionary"](word)
            cur += d
            if "dictionary" in wg:
                ctx += d
        if st["clusters"] is not None:
            c = st["clusters"].features(word)
            cur += c
            if "clusters" in wg:
                ctx += c
        # tuples of strings: cached units are not traversed by every garbage collection
        per_offset: dict[int, Sequence[str]] = {o: tuple(f"{o}:{c}" for c in ctx) for o in st["offsets"]}
        return tuple(cur), per_offset

    # -- documents -----------------------------------------------------------------------
    def view(self, doc: Document) -> TokenView:
        return token_view(doc, fused=self.fused)

    def parts(self, doc: Document) -> FeatureParts:
        """The features of ``doc`` before they are joined per token (see :class:`FeatureParts`)."""
        st = self._validated()
        view = self.view(doc)
        toks = view.tokens
        n = len(toks)
        if n == 0:
            return FeatureParts([], [], st["offsets"], [])
        cache = st["cache"]
        if len(cache) > _CACHE_MAX:
            cache.clear()
        units = []
        for t in toks:
            u = cache.get(t.text)
            if u is None:
                u = cache[t.text] = self._unit(t.text, st)
            units.append(u)
        groups = self._document_features(doc, view, st)
        if "lexical" in st["groups"]:
            # BOS on the first token, EOS on the last (both when there is one token)
            ids = [0] * n
            ids[0] = 1
            ids[-1] = 3 if n == 1 else 2
            groups.append(TableGroup(_BOS_EOS, ids))
        return FeatureParts([t.text for t in toks], units, st["offsets"], groups=groups)

    def attributes(self, doc: Document) -> list[list[str]]:
        """Feature strings of every token of ``doc`` (value 1.0 each)."""
        return self.parts(doc).join()

    def _document_features(self, doc: Document, view: TokenView, st: dict[str, Any]) -> list[Group]:
        groups = st["groups"]
        extra: list[Group] = []
        if "lexical" in groups and self.bigrams:
            extra.append(self._bigrams(view))
        if "orthographic" in groups:
            extra.append(TableGroup(*chunk_table(view)))
            extra.append(TableGroup(*pattern_table(doc, view, self.lang)))
        if "sentence" in groups:
            extra.append(TableGroup(*sentence_table(view)))
        if "position" in groups:
            extra.append(TableGroup(*position_table(view)))
        if "document" in groups:
            extra.append(TableGroup(*document_table(view)))
        if self.context_bag:
            extra.append(BagGroup(*bag_windows(view, int(self.context_bag))))
        if "pos" in groups:
            from notescrub.features.pos import pos_tags

            extra.append(ListGroup(self._window_tags(pos_tags(doc, view), "pos", st["offsets"])))
        return extra

    def _bigrams(self, view: TokenView) -> PairGroup:
        pairs = [(-1, 0), (0, 1)]
        left, right = self.window
        if left >= 2:
            pairs.append((-2, -1))
        if right >= 2:
            pairs.append((1, 2))
        if left >= 1 and right >= 1:
            pairs.append((-1, 1))
        return PairGroup([t.text.lower() for t in view.tokens], pairs)

    @staticmethod
    def _window_tags(tags: list[str], name: str, offsets: list[int]) -> list[list[str]]:
        n = len(tags)
        return [
            [f"{name}={tags[i]}"] + [f"{o}:{name}={tags[i + o]}" for o in offsets if 0 <= i + o < n]
            for i in range(n)
        ]

    def featurize(self, doc: Document) -> list[dict[str, float]]:
        """Per-token feature dicts ``{feature: 1.0}`` (the CRFsuite item format)."""
        return [dict.fromkeys(a, 1.0) for a in self.attributes(doc)]

    def transform(self, docs: Iterable[Document]) -> list[list[dict[str, float]]]:
        """:meth:`featurize` over several documents."""
        return [self.featurize(d) for d in docs]
