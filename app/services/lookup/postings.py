"""Which entries hold each word, and the weight of the field it is in, for ranking pastes.

Each word's postings are two arrays sorted by entry slot (a small integer given to an entry
when first indexed, kept for its id): a paste's candidates are summed over them in numpy. A
paste reads thousands of postings; summed one at a time in Python that was half of its
ranking at 100,000 entries. The arrays take about the memory the dicts did (8 bytes a
posting, and a header per word).

Every word ever indexed also has a number (`number`, `word`), kept for the life of the
postings, and the count of entries holding it is kept in one array by number (`counts`):
the index stores an entry's wordings as these numbers, and a lookup measures all its
candidates' wordings at once against that array.

Changes are staged and applied once per refresh (`apply`): re-indexing many entries rebuilds
each word's arrays once, not once per entry.
"""

from array import array
from collections import defaultdict
from collections.abc import Iterable

import numpy as np

_NONE = (np.empty(0, np.int32), np.empty(0, np.float32))


class Postings:
    def __init__(self) -> None:
        self._ids: list[str] = []  # slot -> entry id
        self._slots: dict[str, int] = {}
        self._words: dict[str, tuple[np.ndarray, np.ndarray]] = {}  # word -> (slots, weights)
        self._numbers: dict[str, int] = {}  # word -> its number
        self._names: list[str] = []  # number -> word
        self._counts = np.zeros(0, np.int32)  # number -> entries holding the word
        # Staged: postings added, and slots whose postings of a word go, since `apply`.
        self._added: dict[str, tuple[array, array]] = defaultdict(lambda: (array("i"), array("f")))
        self._removed: dict[str, set[int]] = defaultdict(set)
        self._staged_slots: set[int] = set()

    def df(self, word: str) -> int:
        """How many entries hold the word (as of the last `apply`)."""
        return len(self._words.get(word, _NONE)[0])

    def held(self, words: Iterable[str]) -> set[str]:
        """Those of `words` some entry holds (as of the last `apply`)."""
        return self._words.keys() & words

    def number(self, word: str) -> int:
        """The word's number, given now if it has none."""
        found = self._numbers.get(word)
        if found is None:
            found = self._numbers[word] = len(self._names)
            self._names.append(word)
        return found

    def known(self, word: str) -> int | None:
        """The word's number, or None for a word never indexed."""
        return self._numbers.get(word)

    def word(self, number: int) -> str:
        return self._names[number]

    def counts(self) -> np.ndarray:
        """How many entries hold each word, by number, as of the last `apply` (every number
        given by then has its place)."""
        return self._counts

    def put(self, entry_id: str, weights: dict[str, float]) -> None:
        slot = self._slots.get(entry_id)
        if slot is None:
            slot = self._slots[entry_id] = len(self._ids)
            self._ids.append(entry_id)
        for word, weight in weights.items():
            self.number(word)
            slots, values = self._added[word]
            slots.append(slot)
            values.append(weight)
        self._staged_slots.add(slot)

    def remove(self, entry_id: str, words: Iterable[str]) -> None:
        """Stage the removal of the entry's postings of these words (those it was indexed with)."""
        slot = self._slots[entry_id]
        if slot in self._staged_slots:  # put since the last apply: its postings must land first
            self.apply()
        for word in words:
            self._removed[word].add(slot)

    def apply(self) -> None:
        if len(self._counts) < len(self._names):
            self._counts = np.concatenate(
                [self._counts, np.zeros(len(self._names) - len(self._counts), np.int32)]
            )
        for word in self._removed.keys() | self._added.keys():
            slots, weights = self._words.get(word, _NONE)
            gone = self._removed.get(word)
            if gone:
                kept = ~np.isin(slots, np.fromiter(gone, np.int32, len(gone)))
                slots, weights = slots[kept], weights[kept]
            added = self._added.get(word)
            if added:
                slots = np.concatenate([slots, np.frombuffer(added[0], np.int32)])
                weights = np.concatenate([weights, np.frombuffer(added[1], np.float32)])
                order = np.argsort(slots, kind="stable")
                slots, weights = slots[order], weights[order]
            if len(slots):
                self._words[word] = (slots, weights)
            else:
                self._words.pop(word, None)
            number = self._numbers.get(word)
            if number is not None:
                self._counts[number] = len(slots)
        self._added.clear()
        self._removed.clear()
        self._staged_slots.clear()

    def best(self, gains: dict[str, float], limit: int) -> tuple[list[str], int]:
        """The `limit` entries with the largest sum of gain times field weight over the words
        they hold, best first (ties: the smaller id first, so every process picks the same),
        and how many entries hold any of the words."""
        held = [(self._words[word], gain) for word, gain in gains.items() if word in self._words]
        if not held:
            return [], 0
        slots = np.concatenate([s for (s, _), _ in held])
        gain_of_each = np.repeat([gain for _, gain in held], [len(s) for (s, _), _ in held])
        weights = np.concatenate([w for (_, w), _ in held], dtype=np.float64) * gain_of_each
        # Every gain (an idf times a line's weight) and every field weight is positive, so the
        # entries with a positive sum are those holding a word: one count over the base, not
        # two; and compared first, as nonzero() finds set items of a boolean array far faster.
        sums = np.bincount(slots, weights=weights, minlength=len(self._ids))
        holders = np.flatnonzero(sums > 0)
        sums = sums[holders]
        total = len(holders)
        if total > limit:  # the sums from the limit-th largest up, ties at it included
            keep = sums >= np.partition(sums, total - limit)[total - limit]
            holders, sums = holders[keep], sums[keep]
        ranked = sorted(zip((-sums).tolist(), [self._ids[s] for s in holders.tolist()], strict=True))
        return [entry_id for _, entry_id in ranked[:limit]], total

    def holding_all(self, words: Iterable[str]) -> int:
        """How many entries hold every one of the words."""
        lists = sorted((self._words.get(word, _NONE)[0] for word in words), key=len)
        common = lists[0]
        for other in lists[1:]:  # smallest first: each step looks up the fewest slots
            if not len(common) or not len(other):
                return 0
            common = common[other.take(np.searchsorted(other, common), mode="clip") == common]
        return len(common)
