"""Tiny synthetic annotated notes for the CRF tests (fictional names, generated in code)."""

from __future__ import annotations

import random

from notescrub.types import Document, Span

FIRST = ["Ana", "Luis", "Marta", "Pedro", "Elena", "Jorge", "Sara", "Tomas", "Irene", "Pablo", "Nora", "Hugo"]
LAST = ["Quintero", "Valcarce", "Sorribes", "Ortuno", "Barreda", "Llamazares", "Cifuentes", "Arrieta", "Bolanos"]
CITY = ["Northfield", "Riverton", "Lakeview", "Brookside", "Westbury", "Ashford"]
FILLER = ["Patient stable.", "No acute distress.", "Vitals normal.", "Continue current medication.",
          "Follow up in two weeks.", "Labs pending."]


def make_doc(i: int, rng: random.Random) -> Document:
    parts: list[tuple[str, str | None]] = []

    def add(text: str, label: str | None = None) -> None:
        parts.append((text, label))

    pat = f"{rng.choice(FIRST)} {rng.choice(LAST)}"
    doc_name = rng.choice(LAST)
    add("Name: ")
    add(pat, "PATIENT")
    add("\nDate: ")
    add(f"{rng.randint(1, 12)}/{rng.randint(1, 28)}/20{rng.randint(10, 24)}", "DATE")
    add(f"\n{rng.choice(FILLER)} Seen by Dr. ")
    add(doc_name, "DOCTOR")
    add(" in ")
    add(rng.choice(CITY), "CITY")
    add(f". {rng.choice(FILLER)}\nCall ")
    add(f"{rng.randint(200, 999)}-{rng.randint(1000, 9999)}", "PHONE")
    add(f" if worse. {rng.choice(FILLER)} Dr. ")
    add(doc_name, "DOCTOR")
    add(" will review.\n")
    text, spans, pos = "", [], 0
    for piece, label in parts:
        if label:
            spans.append(Span(pos, pos + len(piece), label))
        text += piece
        pos += len(piece)
    return Document(f"syn{i}", text, patient_id=f"P{i % 7}", layers={"gold": spans})


def corpus(n: int = 30, seed: int = 0) -> list[Document]:
    rng = random.Random(seed)
    return [make_doc(i, rng) for i in range(n)]
