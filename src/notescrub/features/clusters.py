"""Word clusters learnt from a corpus's own text: the ``clusters`` feature group.

A CRF sees each word as its own feature; a word never seen in training carries only its
shape, affixes and lexicon flags. Word clusters (Brown-cluster features in Turian et al.
2010 and in many i2b2/MEDDOCAN systems) give it the class of words that occur in the same
contexts: an unseen surname lands with the surnames, an unseen town with the towns.

:func:`learn_clusters` needs nothing but text (no download, no labels): it counts each
word's left and right neighbours (positions -2, -1, +1, +2, restricted to the most frequent
``contexts`` words per position), weighs the counts by positive pointwise mutual
information, reduces them to ``dims`` dimensions by a truncated SVD, and groups the
unit-length word vectors by k-means at several granularities (``sizes``; like the prefixes
of a Brown-cluster path, a coarse and a fine class). Words are normalised the way the
features look them up (:func:`normalise`: lower case, every digit ``0``); words seen fewer
than ``min_count`` times get no cluster.

Learning is deterministic for a given ``seed``. A table is plain text, one word per line
(``word<TAB>id<TAB>id...``, one id per size), saved with :meth:`WordClusters.save` and read by
:func:`load_clusters`; the featurizer names a table by its file path or the name of a packaged
table (``notescrub/resources/clusters/NAME.tsv.gz``). A CRF model saved with a table given by
path carries a copy of it (``clusters.tsv.gz`` in the model directory, checksummed), so the
model directory stays self-contained.

>>> texts = ["Ana Ruiz vive en Madrid.", "Luis Gil vive en Sevilla.", "Ana Gil vive en Madrid."] * 3
>>> wc = learn_clusters(texts, sizes=(2,), dims=2, min_count=2, contexts=10)
>>> wc.sizes, len(wc) > 0
((2,), True)
>>> wc.features("MADRID") == wc.features("madrid")
True
>>> WordClusters.from_lines(wc.to_lines()).table == wc.table
True
"""

from __future__ import annotations

import gzip
import io
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from notescrub.errors import ConfigError

__all__ = ["WordClusters", "learn_clusters", "load_clusters", "normalise", "table_file"]

_DIGITS = str.maketrans("0123456789", "0000000000")
_FORMAT = "# notescrub word clusters v1"


def normalise(word: str) -> str:
    """The form clusters are learnt and looked up under.

    >>> normalise("H12-B")
    'h00-b'
    """
    return word.lower().translate(_DIGITS)


class WordClusters:
    """A word -> cluster-ids table (one id per granularity in ``sizes``)."""

    def __init__(self, sizes: Sequence[int], table: dict[str, tuple[int, ...]]) -> None:
        self.sizes = tuple(int(s) for s in sizes)
        self.table = table
        self._names = [f"wc{s}=" for s in self.sizes]

    def __len__(self) -> int:
        return len(self.table)

    def features(self, word: str) -> list[str]:
        """``["wc64=12", "wc512=301"]`` for a known word, ``["wc=none"]`` for an unknown one."""
        ids = self.table.get(normalise(word))
        if ids is None:
            return ["wc=none"]
        return [f"{name}{i}" for name, i in zip(self._names, ids)]

    # -- text form ------------------------------------------------------------------------
    def to_lines(self) -> list[str]:
        head = f"{_FORMAT}\tsizes=" + ",".join(str(s) for s in self.sizes)
        return [head] + [w + "\t" + "\t".join(str(i) for i in ids) for w, ids in sorted(self.table.items())]

    @classmethod
    def from_lines(cls, lines: Iterable[str], source: str = "<lines>") -> WordClusters:
        it = iter(lines)
        head = next(it, "").rstrip("\n")
        if not head.startswith(_FORMAT + "\tsizes="):
            raise ConfigError(f"{source}: not a word-cluster table (first line must start with {_FORMAT!r})")
        try:
            sizes = tuple(int(x) for x in head.split("sizes=", 1)[1].split(","))
        except ValueError:
            raise ConfigError(f"{source}: line 1: sizes must be integers") from None
        table: dict[str, tuple[int, ...]] = {}
        for n, line in enumerate(it, start=2):
            parts = line.rstrip("\n").split("\t")
            if len(parts) != len(sizes) + 1:
                raise ConfigError(f"{source}: line {n}: expected a word and {len(sizes)} cluster ids")
            try:
                ids = tuple(int(x) for x in parts[1:])
            except ValueError:
                raise ConfigError(f"{source}: line {n}: cluster ids must be integers") from None
            if any(not 0 <= i < s for i, s in zip(ids, sizes)):
                raise ConfigError(f"{source}: line {n}: a cluster id is out of range for its size")
            table[parts[0]] = ids
        return cls(sizes, table)

    def save(self, path: str | Path) -> Path:
        """Write the table (gzip-compressed when ``path`` ends in ``.gz``) atomically."""
        path = Path(path)
        data = ("\n".join(self.to_lines()) + "\n").encode("utf-8")
        if path.suffix == ".gz":
            data = gzip.compress(data, mtime=0)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
        return path


def table_file(ref: str) -> Path | None:
    """The file ``ref`` names, or None when it names a packaged table.

    >>> table_file("es-meddocan") is None, table_file("/models/m/clusters.tsv.gz").name
    (True, 'clusters.tsv.gz')
    """
    path = Path(ref)
    return path if path.suffix in (".tsv", ".gz") or path.is_file() else None


@lru_cache(maxsize=8)
def load_clusters(ref: str) -> WordClusters:
    """The table ``ref``: a packaged table's name, or a path to a ``.tsv``/``.tsv.gz`` file."""
    path = table_file(ref)
    if path is not None:
        if not path.is_file():
            raise ConfigError(f"{ref}: word-cluster table not found")
        raw = path.read_bytes()
    else:
        pkg = resources.files("notescrub.resources") / "clusters" / f"{ref}.tsv.gz"
        if not pkg.is_file():
            raise ConfigError(f"no packaged word-cluster table named {ref!r}")
        raw = pkg.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return WordClusters.from_lines(io.StringIO(raw.decode("utf-8")), source=ref)


def _kmeans(x: np.ndarray, k: int, rng: np.random.RandomState, iterations: int = 30) -> np.ndarray:
    """Lloyd's k-means with k-means++ seeding on the rows of ``x`` (unit vectors); the labels."""
    n = x.shape[0]
    k = min(k, n)
    centres = np.empty((k, x.shape[1]))
    centres[0] = x[rng.randint(n)]
    d2 = ((x - centres[0]) ** 2).sum(1)
    for j in range(1, k):
        total = d2.sum()
        pick = rng.randint(n) if total <= 0 else int(np.searchsorted(np.cumsum(d2), rng.rand() * total))
        centres[j] = x[min(pick, n - 1)]
        d2 = np.minimum(d2, ((x - centres[j]) ** 2).sum(1))
    sq = (x ** 2).sum(1)[:, None]
    labels = np.full(n, -1)
    for _ in range(iterations):
        dist = sq - 2 * x @ centres.T + (centres ** 2).sum(1)[None, :]
        new = dist.argmin(1)
        if np.array_equal(new, labels):
            break
        labels = new
        for j in range(k):
            members = x[labels == j]
            if len(members):
                centres[j] = members.mean(0)
    return labels


def learn_clusters(texts: Iterable[str], sizes: Sequence[int] = (64, 256, 1024), *, dims: int = 100,
                   min_count: int = 2, contexts: int = 2000, seed: int = 0) -> WordClusters:
    """Word clusters of the words in ``texts`` (see the module docstring)."""
    from scipy import sparse
    from scipy.sparse.linalg import svds

    from notescrub.text.tokenize import tokenize

    docs = [[normalise(t.text) for t in tokenize(text)] for text in texts]
    counts = Counter(w for d in docs for w in d)
    vocab = sorted((w for w, c in counts.items() if c >= min_count), key=lambda w: (-counts[w], w))
    if not vocab:
        raise ConfigError("learn_clusters: no word occurs often enough (min_count)")
    row = {w: i for i, w in enumerate(vocab)}
    ctx_words = vocab[:contexts]
    col = {w: i for i, w in enumerate(ctx_words)}
    offsets = (-2, -1, 1, 2)
    width = len(ctx_words)
    rows: list[int] = []
    cols: list[int] = []
    for d in docs:
        n = len(d)
        for i, w in enumerate(d):
            r = row.get(w)
            if r is None:
                continue
            for k, o in enumerate(offsets):
                j = i + o
                if 0 <= j < n:
                    c = col.get(d[j])
                    if c is not None:
                        rows.append(r)
                        cols.append(k * width + c)
    m = sparse.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(len(vocab), len(offsets) * width))
    m.sum_duplicates()
    total = m.sum()
    row_sum = np.asarray(m.sum(1)).ravel()
    col_sum = np.asarray(m.sum(0)).ravel() ** 0.75  # context-distribution smoothing
    col_p = col_sum / col_sum.sum()
    coo = m.tocoo()
    pmi = np.log((coo.data / total) / ((row_sum[coo.row] / total) * col_p[coo.col]))
    keep = pmi > 0
    ppmi = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=m.shape)
    k = max(1, min(dims, min(ppmi.shape) - 1))
    rng = np.random.RandomState(seed)
    u, s, _ = svds(ppmi, k=k, v0=rng.rand(min(ppmi.shape)))
    vec = u * np.sqrt(s)
    norm = np.linalg.norm(vec, axis=1, keepdims=True)
    vec = vec / np.where(norm > 0, norm, 1.0)
    labels = [_kmeans(vec, size, np.random.RandomState(seed + size)) for size in sizes]
    table = {w: tuple(int(lab[i]) for lab in labels) for i, w in enumerate(vocab)}
    return WordClusters(sizes, table)
