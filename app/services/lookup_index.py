"""An in-memory index of what each entry's error looks like, for ranking pasted text.

Each entry contributes the words of its normalised signature, the literal words of its
patterns, its title and its slug, each with a field weight. Every process keeps its own
index and brings it up to date from the database before a lookup: entries whose
`changed` counter is past the index's watermark are (re)indexed, so imports and edits
made by any process show up at the next lookup.
"""

import math
import threading
from collections import defaultdict
from dataclasses import dataclass, field

import re2
from sqlalchemy import func
from sqlmodel import Session, col, select

from app.models import Entry, Pattern, VersionRow
from app.schemas.common import Text
from app.services.lookup_text import alternatives, regex_words, tokens

SIGNATURE, PATTERN, TITLE = 1.0, 0.9, 0.6


@dataclass
class IndexedEntry:
    id: str
    title: Text
    # token -> field weight, over everything below: what gathers candidates.
    weights: dict[str, float]
    # Each way the error is known to be worded (the signature, each alternative of each
    # pattern, the title): a paste that holds one of them whole is that error.
    phrasings: list[tuple[float, frozenset[str]]]
    patterns: list
    versions: list[tuple[str, str, str]] = field(default_factory=list)


def _phrasings(entry: Entry, patterns: list[str]) -> list[tuple[float, frozenset[str]]]:
    found = [(SIGNATURE, entry.signature)]
    found += [(PATTERN, regex_words(alt)) for pattern in patterns for alt in alternatives(pattern)]
    found.append((TITLE, f"{entry.title_en} {entry.id.split('/')[1].replace('-', ' ')}"))
    return [(weight, frozenset(tokens(text))) for weight, text in found if tokens(text)]


def _weights(phrasings: list[tuple[float, frozenset[str]]]) -> dict[str, float]:
    weights: dict[str, float] = {}
    for weight, words in phrasings:
        for token in words:
            weights[token] = max(weights.get(token, 0.0), weight)
    return weights


def _compile(patterns: list[str]) -> list:
    compiled = []
    for pattern in patterns:
        try:
            compiled.append(re2.compile(pattern))
        except re2.error:
            continue  # validated on import; a pattern the engine still refuses is skipped
    return compiled


class LookupIndex:
    def __init__(self) -> None:
        self.entries: dict[str, IndexedEntry] = {}
        self.postings: dict[str, dict[str, float]] = defaultdict(dict)
        self.watermark = -1
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self.entries)

    def idf(self, token: str) -> float:
        df = len(self.postings.get(token, ()))
        return math.log(1 + len(self.entries) / (df + 0.5)) if df else 0.0

    def refresh(self, session: Session) -> None:
        """Index every entry created or changed since the last refresh (one query when none)."""
        latest = session.exec(select(func.max(Entry.changed))).one() or 0
        if latest <= self.watermark:
            return
        with self._lock:
            if latest <= self.watermark:
                return
            self._load(session, self.watermark)
            self.watermark = latest

    def _load(self, session: Session, after: int) -> None:
        changed = session.exec(select(Entry).where(Entry.changed > after)).all()
        ids = [e.id for e in changed]
        patterns: dict[str, list[str]] = defaultdict(list)
        versions: dict[str, list[tuple[str, str, str]]] = defaultdict(list)
        for chunk in range(0, len(ids), 500):
            part = ids[chunk : chunk + 500]
            for p in session.exec(
                select(Pattern).where(col(Pattern.entry_id).in_(part)).order_by(Pattern.position)
            ):
                patterns[p.entry_id].append(p.regex)
            for v in session.exec(select(VersionRow).where(col(VersionRow.entry_id).in_(part))):
                versions[v.entry_id].append((v.component.lower(), v.version, v.status))
        for entry in changed:
            phrasings = _phrasings(entry, patterns[entry.id])
            self._put(
                IndexedEntry(
                    id=entry.id,
                    title=Text(en=entry.title_en, zh=entry.title_zh),
                    weights=_weights(phrasings),
                    phrasings=phrasings,
                    patterns=_compile(patterns[entry.id]),
                    versions=versions[entry.id],
                )
            )

    def _put(self, indexed: IndexedEntry) -> None:
        previous = self.entries.get(indexed.id)
        if previous is not None:
            for token in previous.weights:
                self.postings[token].pop(indexed.id, None)
        self.entries[indexed.id] = indexed
        for token, weight in indexed.weights.items():
            self.postings[token][indexed.id] = weight
