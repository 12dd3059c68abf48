"""Columns of plain-text tables (rosters, logs, flowsheets), found in one pass over the text.

A table is a run of at least three consecutive lines with two or more cells each; a cell is
text whose words are separated by single spaces, set off from its neighbours by two or more
spaces, a tab or a ``|``. Cells of different rows of a table form a column when they start
at the same character position of their lines, or end at the same one (right-aligned
numbers), or, in a table whose rows have the same number of cells (tab- or pipe-separated
rows), hold the same place in their rows. Offsets are the text's own: a column is a list
of ``(start, end)`` cells, and each column is listed once.

>>> t = "Name          Age  Tag\\nVIRGIL YATES   74  RED\\nJUNE COLEMAN   57  GREEN\\nKOBE LAKJOHN    2  RED\\n"
>>> [[t[a:b] for a, b in col] for col in columns(t)][:2]  # aligned at their start
[['Name', 'VIRGIL YATES', 'JUNE COLEMAN', 'KOBE LAKJOHN'], ['Tag', 'RED', 'GREEN', 'RED']]
>>> [[t[a:b] for a, b in col] for col in columns(t) if t[col[0][0]:col[0][1]] == "Age"]  # right-aligned
[['Age', '74', '57', '2']]
"""

from __future__ import annotations

import re
from collections import defaultdict

__all__ = ["MIN_ROWS", "columns"]

#: rows a table needs, and cells a column needs
MIN_ROWS = 3
# a cell: words joined by single spaces (a tab, a pipe or two spaces end it)
_CELL = re.compile(r"[^\s|]+(?: [^\s|]+)*")
_LINE = re.compile(r"^.*$", re.MULTILINE)


def _rows(text: str) -> list[list[tuple[int, int, int]]]:
    """Per line: its cells as ``(start, end, line start)``; ``[]`` for a line of fewer than two."""
    out = []
    for m in _LINE.finditer(text):
        cells = [(c.start(), c.end(), m.start()) for c in _CELL.finditer(text, m.start(), m.end())]
        out.append(cells if len(cells) >= 2 else [])
    return out


def columns(text: str, min_rows: int = MIN_ROWS) -> list[list[tuple[int, int]]]:
    """The columns of every table of ``text``: cells aligned at their start, then those
    aligned at their end, each column with at least ``min_rows`` cells (see the module doc)."""
    found: list[list[tuple[int, int]]] = []
    block: list[list[tuple[int, int, int]]] = []
    for row in _rows(text) + [[]]:
        if row:
            block.append(row)
            continue
        if len(block) >= min_rows:
            for side in (0, 1):  # 0: by start position, 1: by end position
                by_pos: dict[int, list[tuple[int, int]]] = defaultdict(list)
                for cells in block:
                    for a, b, line in cells:
                        by_pos[(a if side == 0 else b) - line].append((a, b))
                found.extend(col for _, col in sorted(by_pos.items()) if len(col) >= min_rows)
            if len({len(cells) for cells in block}) == 1:  # same number of cells: also by position in the row
                found.extend([(a, b) for a, b, _ in col] for col in zip(*block))
        block = []
    return [list(col) for col in dict.fromkeys(map(tuple, found))]  # each column once
