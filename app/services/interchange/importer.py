"""`errata import`: files in the project's YAML format or deadends.dev canon JSON, into the database.

Each file is checked completely before anything of it is written, and each is written in
its own savepoint, so a bad file is reported (path and field) and skipped whole while the
rest load.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import orjson
import yaml
from pydantic import ValidationError
from sqlalchemy import Engine

from app.db import write_session
from app.models import Entry
from app.schemas.document import EntryDoc
from app.services.entries.store import save_document
from app.services.errors import DomainError
from app.services.interchange.canon import canon_to_document, is_canon
from app.services.interchange.documents import load_document
from app.services.merging.merge import merge
from app.services.merging.rules import apply_rules
from app.services.search import index as search_index

SUFFIXES = (".yaml", ".yml", ".json")
_BATCH = 250
OPTIMIZE_AFTER = 200  # entries written, past which the search index segments are merged


@dataclass
class ImportFailure:
    path: Path
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.field}: {self.message}"


@dataclass
class ImportReport:
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    failures: list[ImportFailure] = field(default_factory=list)
    merged: list[tuple[str, str, str]] = field(default_factory=list)  # (from, into, why)
    candidates: int = 0  # possible duplicates this import created, left for a moderator

    @property
    def failed(self) -> int:
        return len(self.failures)


class DocumentError(ValueError):
    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def discover(paths: Iterable[Path]) -> list[Path]:
    """Every entry file below the given files and folders, each once, in a stable order."""
    found: dict[Path, None] = {}
    for path in paths:
        if path.is_dir():
            candidates = sorted(p for p in path.rglob("*") if p.suffix in SUFFIXES and p.is_file())
        elif path.exists():
            candidates = [path]
        else:
            raise FileNotFoundError(path)
        for candidate in candidates:
            found.setdefault(candidate.resolve(), None)
    return list(found)


def _field_of(error: ValidationError) -> tuple[str, str]:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(document)"
    return where, first["msg"]


def parse_file(path: Path) -> EntryDoc:
    """Read one file in either format; DocumentError names the offending field."""
    raw = path.read_bytes()
    try:
        data = orjson.loads(raw) if path.suffix == ".json" else load_document(raw.decode("utf-8"))
    except (orjson.JSONDecodeError, yaml.YAMLError, UnicodeDecodeError) as exc:
        raise DocumentError("(file)", f"not valid {path.suffix[1:].upper()}: {exc}") from None
    except ValueError as exc:
        raise DocumentError("(file)", str(exc)) from None
    if not isinstance(data, dict):
        raise DocumentError("(file)", "the file does not hold an object")
    try:
        return canon_to_document(data) if is_canon(data) else EntryDoc.model_validate(data)
    except ValidationError as exc:
        raise DocumentError(*_field_of(exc)) from None


def _merge(
    engine: Engine,
    declared: list[tuple[Path, EntryDoc]],
    by_rule: list[str],
    report: ImportReport,
    now: datetime,
) -> None:
    """Merges once every file is in: those files state (export of a merged base), then those
    the rules find for new entries whose files state nothing of it (deadends.dev canon files,
    entries written by hand without bookkeeping). A merge already made is left as it is."""
    with write_session(engine) as session:
        for path, doc in declared:
            pairs = [(alias, doc.id, "aliases") for alias in doc.aliases]
            pairs += [(doc.id, doc.merged_into, "merged_into")] if doc.merged_into else []
            for source, target, name in pairs:
                current = session.get(Entry, source)
                if current is not None and current.canonical_id:
                    continue
                try:
                    with session.begin_nested():
                        merge(session, source, target, now=now, record=False)
                except DomainError as exc:
                    report.failures.append(ImportFailure(path, name, str(exc)))
                    continue
                report.merged.append((source, target, "stated in the file"))
        rules = apply_rules(session, by_rule, now=now)
    report.merged += rules.merged
    report.candidates = len(rules.candidates)


def import_paths(
    engine: Engine,
    paths: Iterable[Path],
    *,
    progress: Callable[[Iterable[Path]], Iterable[Path]] = lambda files: files,
    now: datetime | None = None,
    merge_by_rule: bool = True,
) -> ImportReport:
    report = ImportReport()
    now = now or datetime.now(UTC)
    files = discover(paths)
    pending: list[tuple[Path, EntryDoc]] = []
    declared: list[tuple[Path, EntryDoc]] = []
    by_rule: list[str] = []

    def flush() -> None:
        with write_session(engine) as session:
            for path, doc in pending:
                try:
                    with session.begin_nested():
                        result = save_document(session, doc, now=now)
                except Exception as exc:  # a database refusal of one file must not stop the rest
                    report.failures.append(ImportFailure(path, "(database)", str(exc).splitlines()[0]))
                    continue
                setattr(report, result, getattr(report, result) + 1)
                if doc.aliases or doc.merged_into:
                    declared.append((path, doc))
                elif result == "created" and doc.revision is None and merge_by_rule:
                    by_rule.append(doc.id)
        pending.clear()

    for path in progress(files):
        try:
            pending.append((path, parse_file(path)))
        except DocumentError as exc:
            report.failures.append(ImportFailure(path, exc.field, exc.message))
        except OSError as exc:
            report.failures.append(ImportFailure(path, "(file)", str(exc)))
        if len(pending) >= _BATCH:
            flush()
    if pending:
        flush()
    if declared or by_rule:
        _merge(engine, declared, by_rule, report, now)
    if report.created + report.updated >= OPTIMIZE_AFTER:
        with write_session(engine) as session:
            search_index.optimize(session)
    return report
