"""Which reads are answered on the event loop rather than in a worker thread.

Handing a request to a worker thread and back cost the process 0.1 to 0.3 ms of CPU a
request at 100,000 entries (new searches 1.30 -> 1.17 ms, new pastes 1.95 -> 1.65 ms), a
tenth to a sixth of the work itself. The thread buys no parallelism (the interpreter's lock),
only that the loop goes on serving while the work waits on a disk, a lock or a database
server. So work known to be short and held in this process runs on the loop; the rest, and
everything on a database server (app.backends.reads_in_process), in threads:
- a paste of at most PASTE_BYTES against a lookup index that is current: ranking is in
  memory, about a millisecond a KiB of paste. A refresh of the index that lands meanwhile
  has it alone (app.services.lookup.index.Turns): the loop waits RANKING_WAIT_S for it at
  most, then hands the paste to a thread;
- a search asked before, since the base last changed, that took at most QUICK_CPU_S of CPU
  then: what it read is kept (its words' matches, its rows' texts and summaries), and a
  search that turns out slower on the loop goes back to the threads;
- a search not measured at this stamp whose words' matches the search index keeps
  (app.backends.search_kept), answered from those alone: one that needs the index itself
  after all (a word's matches stale or most rows holding its words, no row holding them all)
  stops before any of that work (backends.SearchNotInMemory) and goes to a thread.
"""

import threading
from collections import OrderedDict
from collections.abc import Hashable

from app.services.entries.read import Stamp

PASTE_BYTES = 2048
RANKING_WAIT_S = 0.05
QUICK_CPU_S = 0.002
_SEARCHES = 4096  # searches remembered as quick: a few hundred KB of query strings


class QuickSearches:
    """Searches measured at a base stamp, quick or not: key (query, limit, offset) -> (the
    stamp, whether quick), the least recently measured let go first; shared by the loop and
    the worker threads."""

    def __init__(self, size: int = _SEARCHES) -> None:
        self._size = size
        self._measures: OrderedDict[Hashable, tuple[Stamp, bool]] = OrderedDict()
        self._lock = threading.Lock()

    def expected(self, key: Hashable, stamp: Stamp) -> bool | None:
        """Whether the search `key` was quick at `stamp`, the base's stamp now; None where it
        was not measured at that stamp."""
        with self._lock:
            found = self._measures.get(key)
        return found[1] if found is not None and found[0] == stamp else None

    def measured(self, key: Hashable, stamp: Stamp, cpu_s: float) -> None:
        """The search `key`, made at `stamp`, took `cpu_s` of CPU."""
        with self._lock:
            self._measures[key] = (stamp, cpu_s <= QUICK_CPU_S)
            self._measures.move_to_end(key)
            while len(self._measures) > self._size:
                self._measures.popitem(last=False)
