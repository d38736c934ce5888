"""What requests read about entries, kept for the requests after while the base is unchanged.

A version is what a request read of the base before its data: the search's stamp (newest
entry, latest change), the lookup's latest change. Neither part ever goes down (entries are
never deleted; a new entry and a change each take the next number), so of two versions the
one no part of which is greater was read first. What is kept for something versioned
otherwise (a search index's structure record) is kept in one KeptReads per version, under
the empty version.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
Version = tuple[int, ...]


def _older(version: Version, than: Version) -> bool:
    return version != than and all(a <= b for a, b in zip(version, than, strict=True))


class KeptReads(Generic[K, V]):
    """Values by key as read at one version, the least recently used let go beyond `budget`
    (in what `cost` counts of each: bytes, or one a value); shared by the threads of a process."""

    def __init__(self, budget: int, cost: Callable[[V], int] = lambda _: 1) -> None:
        self.budget = budget
        self._cost = cost
        self._version: Version | None = None
        self._kept: OrderedDict[K, tuple[V, int]] = OrderedDict()  # and its cost
        self.used = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._kept)

    def __contains__(self, key: K) -> bool:
        return key in self._kept

    def read(self, keys: list[K], read: Callable[[list[K]], dict[K, V]], version: Version) -> dict[K, V]:
        """The values of `keys` that exist: kept ones, and `read` for the others, by a request
        that read `version` before reading them. A newer version than the one kept for drops
        what is kept; a request that read an older one (it began before a write) reads all
        afresh and keeps nothing; and what is read is kept only while the version is still
        the one kept for, so nothing read at one version stays for a later one."""
        found = {}
        with self._lock:
            if self._version is None or not _older(version, self._version):
                if version != self._version:
                    self._version = version
                    self._kept.clear()
                    self.used = 0
                for key in keys:
                    kept = self._kept.get(key)
                    if kept is not None:
                        self._kept.move_to_end(key)
                        found[key] = kept[0]
        missing = [key for key in keys if key not in found]
        if not missing:
            return found
        fresh = read(missing)  # outside the lock: other requests go on
        with self._lock:
            if version == self._version:
                for key, value in fresh.items():
                    if key not in self._kept:
                        cost = self._cost(value)
                        self._kept[key] = (value, cost)
                        self.used += cost
                while self.used > self.budget:
                    _, (_, cost) = self._kept.popitem(last=False)
                    self.used -= cost
        return found | fresh
