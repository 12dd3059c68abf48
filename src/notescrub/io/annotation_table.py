"""``annotate`` output as a table (CSV/TSV or Parquet) instead of JSON lines.

One row per note: the id under the input table's own id column name (and, from Parquet,
its integer or string type), ``logprob``, ``spans`` and, when the run scores review
risk, ``risk`` and ``suspects``. Never the text. CSV holds the lists as JSON text;
Parquet as lists of structs (``spans``: ``start, end, type, phi, score, source`` and,
with ``--explain``, ``explain`` as JSON text).

>>> import tempfile, pathlib
>>> f = pathlib.Path(tempfile.mkdtemp()) / "spans.csv"
>>> rec = {"id": "n1", "logprob": -1.5, "spans": [{"start": 8, "end": 12, "type": "DOCTOR", "phi": "DOCTOR",
...        "score": 0.9, "source": "rules"}]}
>>> AnnotationTable("note_id").write([rec], f)
1
>>> f.read_text(encoding="utf-8").splitlines()[0]
'note_id,logprob,spans'
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["TABLE_SUFFIXES", "AnnotationTable"]

#: output names written as a table (anything else: JSON lines)
TABLE_SUFFIXES = {".csv": "csv", ".tsv": "csv", ".parquet": "parquet"}
_SPAN = (("start", "int"), ("end", "int"), ("type", "str"), ("phi", "str"), ("score", "float"), ("source", "str"))
_SUSPECT = (("start", "int"), ("end", "int"), ("score", "float"), ("type", "str"))
_BATCH = 256


class AnnotationTable:
    """The columns of ``annotate``'s table output (see the module docstring).

    ``id_type``: the Arrow type of the input's id column (an integer type is kept; else text);
    ``output``: the output's name, whose suffix says the format (``.parquet``; ``.tsv``: tabs).
    """

    def __init__(self, id_column: str = "id", id_type: Any = None, *, risk: bool = False,
                 explain: bool = False, output: str | Path = "spans.csv") -> None:
        self.id_column, self.id_type, self.risk, self.explain = id_column, id_type, risk, explain
        suffix = Path(output).suffix.lower()
        self.format = TABLE_SUFFIXES.get(suffix, "csv")
        self.delimiter = "\t" if suffix == ".tsv" else ","

    @property
    def names(self) -> list[str]:
        return [self.id_column, "logprob", "spans"] + (["risk", "suspects"] if self.risk else [])

    def write(self, records: Iterable[dict[str, Any]], file: Path) -> int:
        """Write the records (the ``annotate`` JSON objects) to ``file`` (a temporary name is fine)."""
        if self.format == "parquet":
            return self._parquet(records, file)
        return self._csv(records, file)

    def _csv(self, records: Iterable[dict[str, Any]], file: Path) -> int:
        n = 0
        with open(file, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, delimiter=self.delimiter)
            w.writerow(self.names)
            for rec in records:
                row = [rec["id"], rec.get("logprob"), json.dumps(rec["spans"], ensure_ascii=False)]
                if self.risk:
                    row += [rec.get("risk"), json.dumps(rec.get("suspects", []), ensure_ascii=False)]
                w.writerow(["" if v is None else v for v in row])
                n += 1
        return n

    def _int_ids(self) -> bool:
        import pyarrow as pa

        return self.id_type is not None and bool(pa.types.is_integer(self.id_type))

    def arrow_schema(self) -> Any:
        import pyarrow as pa

        types = {"int": pa.int64(), "str": pa.string(), "float": pa.float64()}
        span = [(k, types[t]) for k, t in _SPAN] + ([("explain", pa.string())] if self.explain else [])
        fields = [(self.id_column, self.id_type if self._int_ids() else pa.string()), ("logprob", pa.float64()),
                  ("spans", pa.list_(pa.struct(span)))]
        if self.risk:
            fields += [("risk", pa.float64()), ("suspects", pa.list_(pa.struct([(k, types[t]) for k, t in _SUSPECT])))]
        return pa.schema(fields)

    def _row(self, rec: dict[str, Any], ints: bool) -> dict[str, Any]:
        ident: Any = rec["id"]
        if ints:  # an id read from an integer column; the reader's FILE-ROW for a null one
            try:
                ident = int(ident)
            except ValueError:
                ident = None
        spans = []
        for s in rec["spans"]:
            item = {k: s.get(k) for k, _ in _SPAN}
            if self.explain:
                item["explain"] = json.dumps(s.get("explain", []), ensure_ascii=False)
            spans.append(item)
        row = {self.id_column: ident, "logprob": rec.get("logprob"), "spans": spans}
        if self.risk:
            row.update(risk=rec.get("risk"), suspects=[{k: s.get(k) for k, _ in _SUSPECT}
                                                        for s in rec.get("suspects", [])])
        return row

    def _parquet(self, records: Iterable[dict[str, Any]], file: Path) -> int:
        from notescrub.io.parquet_table import write_row_groups

        ints = self._int_ids()
        return write_row_groups((self._row(rec, ints) for rec in records), file, self.arrow_schema(), _BATCH)
