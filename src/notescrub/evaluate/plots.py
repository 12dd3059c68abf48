"""Report plots as PNG bytes (matplotlib, Agg canvas, bundled DejaVu fonts only).

No pyplot global state is touched, so plotting is safe next to other code that
uses matplotlib. Each function returns PNG bytes; the HTML report embeds them
as base64 ``data:`` URIs.

>>> png = prf_bars({"DATE": {"precision": 1.0, "recall": 0.5, "f1": 0.667}})
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Mapping, Sequence
from statistics import mean, pstdev
from typing import Any

try:
    from matplotlib.colors import PowerNorm
    from matplotlib.figure import Figure
except ImportError:  # a base install: say which extra brings the plots
    from notescrub.extras import require

    require("reports", "plotting a report")
    raise

__all__ = ["confusion_heatmap", "learning_curve", "pr_curve", "prf_bars"]

_COLORS = {"precision": "#4c72b0", "recall": "#dd8452", "f1": "#55a868"}


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def prf_bars(by_type: Mapping[str, Mapping[str, float]], title: str = "Per-type precision, recall, F1") -> bytes:
    """Grouped horizontal bars of P, R and F1 per type."""
    types = sorted(by_type)
    fig = Figure(figsize=(8, max(2.0, 0.38 * len(types) + 1.2)))
    ax = fig.add_subplot()
    h = 0.26
    for k, m in enumerate(("precision", "recall", "f1")):
        ys = [i + (k - 1) * h for i in range(len(types))]
        ax.barh(ys, [by_type[t][m] for t in types], height=h, label=m, color=_COLORS[m])
    ax.set_yticks(range(len(types)), types, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlim(0, 1.0)
    ax.set_xlabel("score")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    ax.grid(axis="x", alpha=0.3)
    return _png(fig)


def confusion_heatmap(confusion: Mapping[str, Any], title: str = "Confusion: gold (rows) x predicted (columns)") -> bytes:
    """Heat map of the error-analysis confusion matrix (square-root colour scale)."""
    rows: Sequence[str] = confusion["rows"]
    cols: Sequence[str] = confusion["columns"]
    data = [[confusion["matrix"][r][c] for c in cols] for r in rows]
    n = max(len(rows), len(cols))
    size = max(4.0, min(16.0, 0.42 * n + 2))
    fig = Figure(figsize=(size + 1, size))
    ax = fig.add_subplot()
    peak = max((v for row in data for v in row), default=0)
    im = ax.imshow(data, cmap="Blues", norm=PowerNorm(0.5, vmin=0, vmax=max(1, peak)), aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=60, ha="right", fontsize=7)
    ax.set_yticks(range(len(rows)), rows, fontsize=7)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    if n <= 30:
        for i, row in enumerate(data):
            for j, v in enumerate(row):
                if v:
                    ax.text(j, i, str(v), ha="center", va="center", fontsize=6,
                            color="white" if v > peak * 0.4 else "black")
    fig.colorbar(im, ax=ax, shrink=0.7)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def pr_curve(points: Sequence[Mapping[str, Any]], title: str = "Precision / recall at several operating points") -> bytes:
    """Precision against recall; points with the same ``series`` are joined (by recall)."""
    series: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for p in points:
        series[str(p.get("series", ""))].append(p)
    fig = Figure(figsize=(6, 5))
    ax = fig.add_subplot()
    for name, pts in sorted(series.items()):
        pts = sorted(pts, key=lambda p: p["recall"])
        ax.plot([p["recall"] for p in pts], [p["precision"] for p in pts], marker="o", label=name or None)
        for p in pts:
            if p.get("label"):
                ax.annotate(str(p["label"]), (p["recall"], p["precision"]), fontsize=7,
                            textcoords="offset points", xytext=(4, 4))
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    ax.grid(alpha=0.3)
    if any(series):
        ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    return _png(fig)


def learning_curve(points: Sequence[Mapping[str, Any]], title: str = "Learning curve") -> bytes:
    """Mean F1 (± population SD over repeats) against training size, per ``series``."""
    series: dict[str, dict[float, list[float]]] = defaultdict(lambda: defaultdict(list))
    for p in points:
        series[str(p.get("series", ""))][float(p["size"])].append(float(p["f1"]))
    fig = Figure(figsize=(6, 4.5))
    ax = fig.add_subplot()
    for name, by_size in sorted(series.items()):
        xs = sorted(by_size)
        ys = [mean(by_size[x]) for x in xs]
        sd = [pstdev(by_size[x]) for x in xs]
        ax.errorbar(xs, ys, yerr=sd, marker="o", capsize=3, label=name or None)
        for x in xs:
            ax.scatter([x] * len(by_size[x]), by_size[x], s=8, alpha=0.35, color="grey")
    ax.set_xlabel("training size")
    ax.set_ylabel("F1")
    ax.grid(alpha=0.3)
    if any(series):
        ax.legend(fontsize=8)
    ax.set_title(title, fontsize=10)
    return _png(fig)
