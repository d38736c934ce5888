"""The list items of search results, kept between searches while the base does not change.

A page of results is twenty entries read by their numbers and made into summaries, which
costs more than finding them; the entries a base's searches find are much the same from one
search to the next. Summaries are kept for one base stamp (its newest entry and latest
change, read before the data), so any write to any entry starts the keeping afresh.
"""

import threading
from collections import OrderedDict

from sqlalchemy import Connection, bindparam, select
from sqlmodel import col

from app.models import Entry
from app.schemas.views import EntrySummary
from app.services.entries.read import SUMMARY_COLUMNS, Stamp, summary

# About 2.5 KB each (the strings included): 2,048 of them are 5 MB, ten pages of each of a
# hundred searches.
MAX_KEPT = 2048

# Built once: composing the statement again for each search costs more than running it.
_PAGE = select(Entry.seq, *SUMMARY_COLUMNS).where(col(Entry.seq).in_(bindparam("seqs", expanding=True)))


def read_summaries(conn: Connection, seqs: list[int]) -> dict[int, EntrySummary]:
    """Summaries (without a snippet) of the entries numbered `seqs` that exist."""
    return {row.seq: summary(row) for row in conn.execute(_PAGE, {"seqs": seqs})}


class KeptSummaries:
    """Summaries by entry number as read at one stamp, the least recently used left out
    beyond `max_kept`; shared by the threads of a process."""

    def __init__(self, max_kept: int = MAX_KEPT) -> None:
        self.max_kept = max_kept
        self._stamp: Stamp | None = None
        self._kept: OrderedDict[int, EntrySummary] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, seq: int) -> bool:
        return seq in self._kept

    def read(self, conn: Connection, seqs: list[int], stamp: Stamp) -> dict[int, EntrySummary]:
        """Summaries of `seqs`, from those kept or read on `conn`. `stamp` is the base's as
        read on `conn` before the search: what was kept at another stamp is dropped, and
        what is read is kept only while the stamp is still the one kept for, so nothing read
        at one stamp stays for a later one."""
        with self._lock:
            if stamp != self._stamp:
                self._stamp = stamp
                self._kept.clear()
            found = {}
            for seq in seqs:
                kept = self._kept.get(seq)
                if kept is not None:
                    self._kept.move_to_end(seq)
                    found[seq] = kept
        missing = [seq for seq in seqs if seq not in found]
        if not missing:
            return found
        read = read_summaries(conn, missing)  # outside the lock: other searches go on
        with self._lock:
            if stamp == self._stamp:
                self._kept.update(read)
                while len(self._kept) > self.max_kept:
                    self._kept.popitem(last=False)
        return found | read
