"""The list items of search results, kept between searches while the base does not change.

A page of results (20 to 200 entries) is read by the entries' numbers and made into
summaries, which costs more than finding them; the entries a base's searches find are much
the same from one search to the next. Summaries are kept for one base stamp (its newest
entry and latest change, read before the data), so any write to any entry starts the
keeping afresh.
"""

import sys
import threading
from collections import OrderedDict

from sqlalchemy import Connection, bindparam, select
from sqlmodel import col

from app.models import Entry
from app.schemas.views import EntrySummary
from app.services.entries.read import SUMMARY_COLUMNS, Stamp, summary

# A summary of short strings takes about 2.5 KB; a budget in bytes, since a signature may be
# thousands of characters long.
MAX_BYTES = 6 * 1024 * 1024
# What a summary holds besides its strings (the model, its dict, its title, its date and
# numbers), measured with tracemalloc.
_HELD = 1900

# Built once: composing the statement again for each search costs more than running it.
_PAGE = select(Entry.seq, *SUMMARY_COLUMNS).where(col(Entry.seq).in_(bindparam("seqs", expanding=True)))
_IDS = select(Entry.seq, Entry.id).where(col(Entry.seq).in_(bindparam("seqs", expanding=True)))


def read_summaries(conn: Connection, seqs: list[int]) -> dict[int, EntrySummary]:
    """Summaries (without a snippet) of the entries numbered `seqs` that exist."""
    return {row.seq: summary(row) for row in conn.execute(_PAGE, {"seqs": seqs})}


def read_ids(conn: Connection, seqs: list[int]) -> dict[int, str]:
    """The ids of the entries numbered `seqs` that exist: all a caller wanting only the
    order of the results needs."""
    return dict(conn.execute(_IDS, {"seqs": seqs}).all())


def footprint(kept: EntrySummary) -> int:
    """The bytes `kept` holds, about."""
    strings = (kept.id, kept.domain, kept.category, kept.title.en, kept.title.zh, kept.signature, kept.url)
    return _HELD + sum(sys.getsizeof(s) for s in strings if s is not None)


def _older(stamp: Stamp, than: Stamp) -> bool:
    """Whether `stamp` was read before `than`: neither part of a stamp ever goes down (entries
    are never deleted; a new entry and a change each take the next number)."""
    return stamp != than and stamp[0] <= than[0] and stamp[1] <= than[1]


class KeptSummaries:
    """Summaries by entry number as read at one stamp, the least recently used let go beyond
    `max_bytes`; shared by the threads of a process."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._stamp: Stamp | None = None
        self._kept: OrderedDict[int, tuple[EntrySummary, int]] = OrderedDict()  # and its bytes
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, seq: int) -> bool:
        return seq in self._kept

    @property
    def bytes(self) -> int:
        return self._bytes

    def read(self, conn: Connection, seqs: list[int], stamp: Stamp) -> dict[int, EntrySummary]:
        """Summaries of `seqs`, from those kept or read on `conn`. `stamp` is the base's as
        read on `conn` before the search. A newer stamp than the one kept for drops what is
        kept; a search that read an older one (it began before a write) reads afresh and
        keeps nothing; and what is read is kept only while the stamp is still the one kept
        for, so nothing read at one stamp stays for a later one."""
        found = {}
        with self._lock:
            if self._stamp is None or not _older(stamp, self._stamp):
                if stamp != self._stamp:
                    self._stamp = stamp
                    self._kept.clear()
                    self._bytes = 0
                for seq in seqs:
                    kept = self._kept.get(seq)
                    if kept is not None:
                        self._kept.move_to_end(seq)
                        found[seq] = kept[0]
        missing = [seq for seq in seqs if seq not in found]
        if not missing:
            return found
        read = read_summaries(conn, missing)  # outside the lock: other searches go on
        with self._lock:
            if stamp == self._stamp:
                for seq, item in read.items():
                    if seq not in self._kept:
                        size = footprint(item)
                        self._kept[seq] = (item, size)
                        self._bytes += size
                while self._bytes > self.max_bytes:
                    _, (_, size) = self._kept.popitem(last=False)
                    self._bytes -= size
        return found | read
