"""Merges by rule, when entries are imported: environment variants of one error are grouped,
and a new entry whose error is conclusively an entry already in the base joins it."""

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sqlmodel import Session, col, select

from app.models import Entry, Pattern
from app.services.entries.aliases import group_key, same_error_ids
from app.services.entries.store import IMPORT
from app.services.merging.finder import Candidate, Profile, find_candidates, profile
from app.services.merging.merge import merge

ENVIRONMENT = "environment variants of one error"


@dataclass
class RuleReport:
    merged: list[tuple[str, str, str]] = field(default_factory=list)  # (from, into, rule)
    candidates: list[Candidate] = field(default_factory=list)  # left for a moderator


def load_profiles(session: Session) -> dict[str, Profile]:
    """One profile per error: each canonical entry with its aliases' wordings and patterns."""
    rows = session.exec(
        select(Entry.id, Entry.canonical_id, Entry.title_en, Entry.signature, Entry.variants)
    ).all()
    patterns: dict[str, list[str]] = defaultdict(list)
    for entry_id, regex in session.exec(
        select(Pattern.entry_id, Pattern.regex).order_by(Pattern.entry_id, Pattern.position)
    ):
        patterns[entry_id].append(regex)
    wordings: dict[str, list[str]] = defaultdict(list)
    grouped: dict[str, list[str]] = defaultdict(list)
    titles: dict[str, str] = {}
    for entry_id, canonical, title, signature, variants in rows:
        owner = canonical or entry_id
        grouped[owner].append(entry_id)
        wordings[owner] += [signature, *(v["text"] for v in variants)]
        if not canonical:
            titles[entry_id] = title
    return {
        owner: profile(
            owner, titles[owner], wordings[owner], (p for m in grouped[owner] for p in patterns[m])
        )
        for owner in titles
    }


def _group_canonical(members: list[Entry], key: str, new: set[str]) -> str:
    """Which entry an environment group shows as: the one it already has, else the plain
    `domain/slug` entry, else the first entry that was in the base before, else the first."""
    for entry in members:
        if entry.canonical_id:
            return entry.canonical_id
    ids = [e.id for e in members]
    return key if key in ids else next((i for i in ids if i not in new), ids[0])


def group_environments(
    session: Session, new_ids: Iterable[str], *, now: datetime, report: RuleReport
) -> None:
    new = set(new_ids)
    for key in sorted({group_key(i) for i in new}):
        members = same_error_ids(session, key)
        if len(members) < 2:
            continue
        into = _group_canonical(members, key, new)
        for entry in members:
            if entry.id != into and entry.canonical_id is None and entry.id in new:
                merge(session, entry.id, into, now=now, reason=f"rule: {ENVIRONMENT}", author=IMPORT)
                report.merged.append((entry.id, into, ENVIRONMENT))


def merge_conclusive(session: Session, new_ids: Iterable[str], *, now: datetime, report: RuleReport) -> None:
    """Merge each new entry into an entry the finder calls conclusively the same error; count
    the rest of the candidates that involve a new entry."""
    new = set(new_ids)
    profiles = load_profiles(session)
    focus = new & set(profiles)
    if not focus:
        return
    created_order = dict(
        session.exec(select(Entry.id, Entry.seq).where(col(Entry.id).in_(list(profiles)))).all()
    )
    left: list[Candidate] = []
    for candidate in find_candidates(profiles.values(), focus):
        if not candidate.conclusive:
            left.append(candidate)
            continue
        # The entry that came first stays: the new one (or, both new, the later one) joins it.
        target, source = sorted((candidate.a, candidate.b), key=lambda i: (i in new, created_order[i]))
        source_row, target_row = session.get(Entry, source), session.get(Entry, target)
        into = target_row.canonical_id or target
        if source_row.canonical_id or into == source:
            continue  # merged already by an earlier pair of this import
        merge(session, source, into, now=now, reason=f"rule: {'; '.join(candidate.reasons)}", author=IMPORT)
        report.merged.append((source, into, candidate.reasons[0]))
    # A candidate counts once per pair of errors, as they stand after these merges.
    session.flush()
    seen: set[tuple[str, str]] = set()
    for candidate in left:
        pair = tuple(sorted(session.get(Entry, i).canonical_id or i for i in (candidate.a, candidate.b)))
        if pair[0] != pair[1] and pair not in seen:
            seen.add(pair)
            report.candidates.append(candidate)


def apply_rules(session: Session, new_ids: Iterable[str], *, now: datetime) -> RuleReport:
    report = RuleReport()
    new = list(new_ids)
    if new:
        group_environments(session, new, now=now, report=report)
        session.flush()
        merge_conclusive(session, new, now=now, report=report)
    return report
