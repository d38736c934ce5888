"""The list items of search results, kept between searches while the base does not change.

A page of results (20 to 200 entries) is read by the entries' numbers and made into
summaries, which costs more than finding them; the entries a base's searches find are much
the same from one search to the next. Summaries are kept for one base stamp (its newest
entry and latest change, read before the data), so any write to any entry starts the
keeping afresh (app.kept).
"""

import sys
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, Row, bindparam, select
from sqlmodel import col

from app.kept import KeptReads
from app.models import Entry
from app.schemas.views import EntrySummary
from app.services.entries.read import SUMMARY_COLUMNS, Stamp, summary


@dataclass(frozen=True, slots=True)
class Listed:
    """An entry as lists show it: its summary, and the summary's JSON, made once for every
    page that lists it (dumping twenty summaries again for each page was a tenth of a new
    search). Shared: a page copies `json`, never changes it."""

    summary: EntrySummary
    json: dict


# How a search reads a page of summaries: entry numbers -> list items, on a connection.
SummaryReader = Callable[[Connection, list[int]], dict[int, Listed]]

# A summary of short strings takes about 3.2 KB with its JSON; a budget in bytes, since a
# signature may be thousands of characters long.
MAX_BYTES = 8 * 1024 * 1024
# What a list item holds besides its strings (the model, its dict, its title, its date and
# numbers, and the same as JSON), measured with tracemalloc.
_HELD = 2700

# Built once: composing the statement again for each search costs more than running it.
_NUMBERED = col(Entry.seq).in_(bindparam("seqs", expanding=True))
_PAGE = select(Entry.seq, *SUMMARY_COLUMNS).where(_NUMBERED)


def listed(entry: EntrySummary) -> Listed:
    return Listed(entry, entry.model_dump(mode="json"))


def summary_rows(conn: Connection, seqs: list[int]) -> dict[int, Row]:
    """The SUMMARY_COLUMNS of the entries numbered `seqs` that exist."""
    return {row.seq: row for row in conn.execute(_PAGE, {"seqs": seqs})}


def read_summaries(conn: Connection, seqs: list[int]) -> dict[int, Listed]:
    """List items (without a snippet) of the entries numbered `seqs` that exist."""
    return {seq: listed(summary(row)) for seq, row in summary_rows(conn, seqs).items()}


def footprint(kept: Listed) -> int:
    """The bytes `kept` holds, about (the JSON shares the summary's strings)."""
    e = kept.summary
    strings = (e.id, e.domain, e.category, e.title.en, e.title.zh, e.signature, e.url)
    return _HELD + sum(sys.getsizeof(s) for s in strings if s is not None)


def kept_summaries(max_bytes: int = MAX_BYTES) -> KeptReads[int, Listed]:
    """List items by entry number, for a process's searches."""
    return KeptReads(max_bytes, footprint)


def summaries_at(kept: KeptReads[int, Listed], stamp: Stamp) -> SummaryReader:
    """How a search that read the base's `stamp` (on the connection it then searches) reads
    a page's summaries: those `kept` at that stamp, the others from the connection."""
    return lambda conn, seqs: kept.read(seqs, lambda missing: read_summaries(conn, missing), stamp)
