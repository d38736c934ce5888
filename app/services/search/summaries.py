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

import orjson
from sqlalchemy import Connection, Row, bindparam, select
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

# Built once: composing the statement again for each search costs more than running it.
_NUMBERED = col(Entry.seq).in_(bindparam("seqs", expanding=True))
_PAGE = select(Entry.seq, *SUMMARY_COLUMNS).where(_NUMBERED)


def summary_rows(conn: Connection, seqs: list[int]) -> dict[int, Row]:
    """The SUMMARY_COLUMNS of the entries numbered `seqs` that exist."""
    return {row.seq: row for row in conn.execute(_PAGE, {"seqs": seqs})}


def listed(values: Sequence) -> Listed:
    """The list item of the values of SUMMARY_COLUMNS: their summary_fields encoded, without
    the closing brace. orjson writes UTC as pydantic does ("Z"), so the bytes are those of
    the summary's model."""
    return Listed(orjson.dumps(summary_fields(values), option=orjson.OPT_UTC_Z)[:-1])


def read_summaries(conn: Connection, seqs: list[int]) -> dict[int, Listed]:
    """List items (without a snippet) of the entries numbered `seqs` that exist."""
    return {seq: listed(row[1:]) for seq, row in summary_rows(conn, seqs).items()}


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
