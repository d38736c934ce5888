"""The list items of search results, kept between searches while the base does not change.

A page of results (20 to 200 entries) is read by the entries' numbers and made into
summaries, which costs more than finding them; the entries a base's searches find are much
the same from one search to the next. Summaries are kept for one base stamp (its newest
entry and latest change, read before the data), so any write to any entry starts the
keeping afresh (app.kept).
"""

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import orjson
from sqlalchemy import Connection, Dialect, bindparam, select
from sqlmodel import col

from app.kept import KeptReads
from app.models import Entry
from app.schemas.views import EntrySummary
from app.services.entries.read import SUMMARY_COLUMNS, Stamp, summary_fields


@dataclass(frozen=True, slots=True)
class Listed:
    """An entry as lists show it, kept as the JSON of its summary up to the snippet: a list
    item is that JSON with the search's snippet, encoded once for every page that lists it.
    As bytes a summary takes about a fifth of what its model and the model's dict took,
    so that many more are kept (at 10,000 entries, all of them)."""

    head: bytes  # the summary's JSON up to its last field, the snippet (read_summaries)

    def summary(self) -> EntrySummary:
        """The summary as a model, for pages (a few microseconds: JSON lists never need it)."""
        return EntrySummary.model_validate_json(self.head + b"}")

    def item(self, snippet: str | None) -> orjson.Fragment:
        """The list item's JSON, with `snippet` (HTML-escaped, matches marked)."""
        return orjson.Fragment(b"".join((self.head, b',"snippet":', orjson.dumps(snippet), b"}")))


# How a search reads a page of summaries: entry numbers -> list items, on a connection.
SummaryReader = Callable[[Connection, list[int]], dict[int, Listed]]

# Most summaries take 600 to 800 bytes as kept; a budget in bytes, since a signature may be
# thousands of characters long.
MAX_BYTES = 8 * 1024 * 1024
# What a kept summary holds besides its JSON (the Listed, its key, and its place in what
# keeps it: an ordered dict's entry, the value and its cost), measured with tracemalloc.
_HELD = 230


@dataclass(frozen=True)
class _PageStatement:
    sql: str
    names: tuple[str, ...] | None  # the parameters' names, for a driver that takes them by name


@lru_cache(maxsize=256)  # by dialect and page length
def _page_statement(dialect: Dialect, size: int) -> _PageStatement:
    names = tuple(f"seq{n}" for n in range(size))
    keys = [bindparam(name) for name in names]
    compiled = select(Entry.seq, *SUMMARY_COLUMNS).where(col(Entry.seq).in_(keys)).compile(dialect=dialect)
    if compiled.positional:  # the numbers are given in the order the placeholders take them
        assert tuple(compiled.positiontup or ()) == names
        return _PageStatement(str(compiled), None)
    return _PageStatement(str(compiled), names)


@lru_cache(maxsize=16)
def _conversions(dialect: Dialect, driver_types: tuple) -> tuple[tuple[int, Callable], ...]:
    """(column, its conversion) of each of SUMMARY_COLUMNS whose value, as the driver gives it
    in the type it says (`driver_types`, from the cursor's description), needs one."""
    processors = (
        c.type.dialect_impl(dialect).result_processor(dialect, driver_type)
        for c, driver_type in zip(SUMMARY_COLUMNS, driver_types, strict=True)
    )
    return tuple((n, f) for n, f in enumerate(processors) if f is not None)


def summary_rows(conn: Connection, seqs: list[int]) -> dict[int, list]:
    """The values of SUMMARY_COLUMNS, as their types give them, of the entries numbered `seqs`
    that exist. The statement, made by SQLAlchemy for the database once per page length, runs
    on the driver's connection (in the connection's transaction): through SQLAlchemy's
    execution, with the list of numbers expanded into the statement at each run, reading a
    page of twelve took two and a half times as long."""
    if not seqs:
        return {}
    statement = _page_statement(conn.dialect, len(seqs))
    cursor = conn.connection.dbapi_connection.cursor()
    try:
        params = seqs if statement.names is None else dict(zip(statement.names, seqs, strict=True))
        cursor.execute(statement.sql, params)
        rows = cursor.fetchall()
        conversions = _conversions(conn.dialect, tuple(c[1] for c in cursor.description[1:]))
    finally:
        cursor.close()
    found = {}
    for seq, *values in rows:
        for n, convert in conversions:
            values[n] = convert(values[n])
        found[seq] = values
    return found


def listed(values: Sequence) -> Listed:
    """The list item of the values of SUMMARY_COLUMNS: their summary_fields encoded, without
    the closing brace. orjson writes UTC as pydantic does ("Z"), so the bytes are those of
    the summary's model."""
    return Listed(orjson.dumps(summary_fields(values), option=orjson.OPT_UTC_Z)[:-1])


def read_summaries(conn: Connection, seqs: list[int]) -> dict[int, Listed]:
    """List items (without a snippet) of the entries numbered `seqs` that exist."""
    return {seq: listed(values) for seq, values in summary_rows(conn, seqs).items()}


def footprint(kept: Listed) -> int:
    """The bytes `kept` holds, about."""
    return _HELD + sys.getsizeof(kept.head)


def kept_summaries(max_bytes: int = MAX_BYTES) -> KeptReads[int, Listed]:
    """List items by entry number, for a process's searches."""
    return KeptReads(max_bytes, footprint)


def summaries_at(kept: KeptReads[int, Listed], stamp: Stamp) -> SummaryReader:
    """How a search that read the base's `stamp` (on the connection it then searches) reads
    a page's summaries: those `kept` at that stamp, the others from the connection."""
    return lambda conn, seqs: kept.read(seqs, lambda missing: read_summaries(conn, missing), stamp)
