"""Mutation fuzzing of the readers: every input ends in documents or a clean error, never a traceback.

For each format, valid seed files are written from a few annotated documents; each
case mutates one seed (byte flips, truncation, duplicated or deleted chunks, hostile
tokens: non-ASCII digits, 5,000-digit numbers, ``--1``, lone surrogates, deep nesting,
DTD entities, unclosed quotes, huge ids ...), then reads it, writes what was read in
the same format and reads that back. A case passes when it ends normally or with a
:class:`~notescrub.errors.NotescrubError`; any other exception is a *crash*, and a case
over the time limit a *hang*. Crashes are grouped by exception type and innermost
frame (never by message, which could quote input).

>>> report = fuzz("jsonl", cases=30, seed=1)
>>> report.cases, report.crashes
(30, 0)
"""

from __future__ import annotations

import random
import shutil
import signal
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from notescrub.errors import NotescrubError
from notescrub.types import Document, Span

__all__ = ["FORMATS", "FuzzReport", "fuzz", "seed_files"]

#: formats fuzzed (every readable format)
FORMATS = ("jsonl", "csv", "parquet", "brat", "i2b2-xml", "i2b2-2006", "inline", "physionet", "txt")

_HOSTILE: list[str | bytes] = [
    b"\xc2\xb2", b"\xd9\xa3", "9" * 5000, b"--1", b"-1", b"\xed\xa0\x80", b"\\ud800", b"\\udfff", b"[" * 3000,
    b'{"a":' * 3000, b"null", b"true", b"false", b'"nan"', b"NaN", b"Infinity", b"1e999", b'"', b"'", b"<", b">",
    b"&", b"&e;", b"&#0;", b"&#xD800;", b'<!DOCTYPE r [<!ENTITY e "PHI">]>', b"<TEXT a=\">\">", b"]]>",
    b"<![CDATA[", b"\x00", b"\r", b"\r\n", b"\t", b"\n" * 50, b"A" * 300, b"P1-" + b"9" * 300, b"../../x",
    b"T1\tDATE 0 5\tx", b"#1\tAnnotatorNotes T1\tnote", b"*\tOverlap T1 T2", b"T9\tPATIENT 3 1\tx",
    b"T2\tDATE 0 2;9 1\tx", b"\xef\xbb\xbf", b"\xff\xfe", b'<PHI TYPE="DATE">', b"</PHI>", b'<PHI TYPE="">',
    b'"spans": [{"start": 0, "end": 1e3, "type": "X"}]', b'"meta": [1, 2]', b'"meta": "x"', b'"id": {"a": 1}',
    b'"id": null', b'"score": "nan"', b"END OF RECORD", b"START_OF_RECORD=1||||1||||", b"||||", b"\x1a",
]


def _docs() -> list[Document]:
    a = Document("P1-1", "Seen by Dr. Ruiz on 03/18/2091 at Lakeshore Hospital.\nMRN 7730-1185.", "P1",
                 {"site": "north"})
    a.add_layer("gold", [Span(12, 16, "DOCTOR"), Span(20, 30, "DATE"), Span(34, 52, "HOSPITAL"),
                         Span(58, 67, "MEDICALRECORD")])
    b = Document("P1-2", "Pt Ana Diaz, 67 yo, called 555-0142 on Tue.", "P1")
    b.add_layer("gold", [Span(3, 11, "PATIENT"), Span(13, 15, "AGE"), Span(27, 35, "PHONE"), Span(39, 42, "DATE")])
    return [a, b]


def seed_files(fmt: str, folder: Path) -> Path:
    """Write valid seed input of ``fmt`` under ``folder``; return the path to read."""
    from notescrub.io import write_corpus

    docs = _docs()
    if fmt == "txt":
        path = folder / "txt"
        path.mkdir()
        for d in docs:
            (path / f"{d.id}.txt").write_text(d.text, encoding="utf-8")
        return path
    if fmt == "physionet":
        path = folder / "id.text"
        path.write_text("".join(f"START_OF_RECORD={d.id.replace('P', '').replace('-', '||||')}||||\n{d.text}\n"
                                "||||END_OF_RECORD\n" for d in docs), encoding="utf-8")
        return path
    suffix = {"jsonl": "x.jsonl", "csv": "x.csv", "parquet": "x.parquet", "i2b2-2006": "x.xml"}.get(fmt)
    path = folder / (suffix or fmt)
    write_corpus(docs, path, fmt)
    return path


def _mutate(data: bytes, rng: random.Random) -> bytes:
    for _ in range(rng.choice((1, 1, 2, 3))):
        op = rng.randrange(7)
        i = rng.randrange(len(data) + 1)
        if op == 0 and data:  # flip a byte
            i = min(i, len(data) - 1)
            data = data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]
        elif op == 1:  # insert a hostile token
            tok = rng.choice(_HOSTILE)
            data = data[:i] + (tok.encode() if isinstance(tok, str) else tok) + data[i:]
        elif op == 2:  # truncate
            data = data[:i]
        elif op == 3 and data:  # delete a chunk
            j = min(len(data), i + rng.randrange(1, 40))
            data = data[:i] + data[j:]
        elif op == 4 and data:  # duplicate a chunk
            j = min(len(data), i + rng.randrange(1, 80))
            data = data[:i] + data[i:j] * rng.randrange(2, 5) + data[i:]
        elif op == 5:  # replace a digit run by something else
            k = data.find(b"0", i)
            if k >= 0:
                digits = rng.choice([b"\xc2\xb2", b"-1", b"9" * 5000, b"1.5", b" ", b""])
                data = data[:k] + digits + data[k + 1:]
        else:  # swap two chunks
            j = rng.randrange(len(data) + 1)
            a, b = sorted((i, j))
            data = data[:a] + data[b:] + data[a:b]
    return data


@dataclass
class FuzzReport:
    """Outcome counts of a fuzz run and the distinct crash signatures."""

    fmt: str
    cases: int = 0
    ok: int = 0
    clean_errors: int = 0
    crashes: int = 0
    hangs: int = 0
    signatures: Counter = field(default_factory=Counter)

    def as_dict(self) -> dict:
        return {"format": self.fmt, "cases": self.cases, "ok": self.ok, "clean_errors": self.clean_errors,
                "crashes": self.crashes, "hangs": self.hangs, "crash_signatures": dict(self.signatures)}


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout


def _signature(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    last = frames[-1] if frames else None
    where = f"{Path(last.filename).name}:{last.lineno}" if last else "?"
    return f"{type(exc).__name__} at {where}"


def _round_trip(fmt: str, path: Path, out: Path) -> None:
    from notescrub.io import read_corpus, write_corpus
    from notescrub.io.base import get_format

    docs = list(read_corpus(path, fmt))
    if get_format(fmt).writable and docs:
        target = out / ("back" + {"jsonl": ".jsonl", "csv": ".csv", "parquet": ".parquet",
                                  "i2b2-2006": ".xml"}.get(fmt, ""))
        write_corpus(docs, target, fmt, overwrite=True)
        list(read_corpus(target, fmt))


def fuzz(fmt: str, cases: int = 1000, seed: int = 0, time_limit: float = 5.0,
         on_crash: Callable[[str, bytes], None] | None = None) -> FuzzReport:
    """Run ``cases`` mutated inputs of format ``fmt`` through read -> write -> read."""
    rng = random.Random(f"{fmt}:{seed}")
    report = FuzzReport(fmt)
    work = Path(tempfile.mkdtemp(prefix="notescrub-fuzz-"))
    old = signal.signal(signal.SIGALRM, _alarm)
    try:
        (work / "seed").mkdir()
        seed_path = seed_files(fmt, work / "seed")
        files = [seed_path] if seed_path.is_file() else sorted(p for p in seed_path.iterdir() if p.is_file())
        originals = {p: p.read_bytes() for p in files}
        for _ in range(cases):
            victim = rng.choice(files)
            data = _mutate(originals[victim], rng)
            for p, raw in originals.items():
                p.write_bytes(data if p == victim else raw)
            out = work / "out"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            report.cases += 1
            signal.setitimer(signal.ITIMER_REAL, time_limit)
            try:
                _round_trip(fmt, seed_path, out)
                report.ok += 1
            except NotescrubError:
                report.clean_errors += 1
            except _Timeout:
                report.hangs += 1
                report.signatures["hang"] += 1
                if on_crash:
                    on_crash("hang", data)
            except Exception as exc:  # noqa: BLE001 - this is what the fuzzer looks for
                report.crashes += 1
                sig = _signature(exc)
                report.signatures[sig] += 1
                if on_crash:
                    on_crash(sig, data)
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    finally:
        signal.signal(signal.SIGALRM, old)
        shutil.rmtree(work, ignore_errors=True)
    return report
