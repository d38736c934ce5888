"""KeptReads (app.kept): values kept for one version of the base."""

from app.kept import KeptReads


def _reader(log: list[list[str]], tag: str = ""):
    def read(keys: list[str]) -> dict[str, str]:
        log.append(keys)
        return {k: k + tag for k in keys if k != "gone"}

    return read


def test_values_are_read_once_per_version_and_a_newer_version_reads_again():
    reads: list[list[str]] = []
    kept: KeptReads[str, str] = KeptReads(10)
    assert kept.read(["a", "b", "gone"], _reader(reads), (1, 1)) == {"a": "a", "b": "b"}
    assert kept.read(["a", "b"], _reader(reads), (1, 1)) == {"a": "a", "b": "b"}
    assert kept.read(["a"], _reader(reads, "'"), (2, 1)) == {"a": "a'"}  # a new entry
    assert kept.read(["a"], _reader(reads, "'"), (2, 2)) == {"a": "a'"}  # a change
    assert reads == [["a", "b", "gone"], ["a"], ["a"]]
    assert "b" not in kept


def test_a_request_at_an_older_version_reads_afresh_and_keeps_nothing():
    reads: list[list[str]] = []
    kept: KeptReads[str, str] = KeptReads(10)
    kept.read(["a"], _reader(reads), (3, 7))
    assert kept.read(["a", "b"], _reader(reads, "-old"), (3, 6)) == {"a": "a-old", "b": "b-old"}
    assert "b" not in kept
    assert kept.read(["a"], _reader(reads), (3, 7)) == {"a": "a"}
    assert reads == [["a"], ["a", "b"]]


def test_the_budget_counts_what_cost_says_and_lets_the_least_recently_used_go():
    kept: KeptReads[str, str] = KeptReads(6, cost=len)
    read = _reader([])
    kept.read(["aa", "bb", "cc"], read, (1,))
    kept.read(["aa"], read, (1,))
    kept.read(["dd"], read, (1,))
    assert [k in kept for k in ("aa", "bb", "cc", "dd")] == [True, False, True, True]
    assert kept.used == 6 and len(kept) == 3
