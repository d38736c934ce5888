"""Measuring a paste's candidates: all their phrasings at once, over word numbers, against
the plain reading of one phrasing at a time (coverage, the share of the paste explained,
and whether the shared words single the entry out)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services.lookup.index import KINDS, LookupIndex
from app.services.lookup.rank import (
    DISTINCTIVE_SHARE,
    FITS_WITH_PATTERN,
    FULL_PHRASING,
    HELD,
    MIN_SHARED_WORDS,
    _measure,
)

WORDS = ["cuda", "memory", "kv", "cache", "block", "denied", "'vllm", "oom", "allocate"]
phrasing = st.tuples(
    st.sampled_from(KINDS), st.lists(st.sampled_from(WORDS), min_size=1, max_size=6, unique=True)
)
base = st.dictionaries(
    st.sampled_from([f"e/{n}" for n in range(14)]), st.lists(phrasing, min_size=1, max_size=4), min_size=1
)
paste = st.dictionaries(
    st.sampled_from([*WORDS, "unindexed"]), st.sampled_from([0.15, 0.3, 0.45, 0.5, 0.6, 1.0])
)


def _plain(index: LookupIndex, phrasings, query: dict[str, float]) -> tuple[float, float, bool]:
    rare_df = max(2.0, DISTINCTIVE_SHARE * len(index))
    coverage = explained = 0.0
    specific = False
    for weight, words in phrasings:
        mass = sum(index.idf(w) for w in words)
        held = accounted = 0.0
        held_words = []
        for word in words:
            if word in query:
                held += index.idf(word) * (1.0 if query[word] >= HELD else query[word] / HELD)
                accounted += query[word] * index.idf(word)
                if query[word] >= HELD:
                    held_words.append(word)
        specific = (
            specific
            or any(index.idf(w) >= index.idf_at(rare_df) for w in held_words)
            or len(held_words) >= MIN_SHARED_WORDS
            and index.holding_all(frozenset(held_words)) <= rare_df
        )
        if mass:
            coverage = max(coverage, weight * held / mass * min(1.0, mass / FULL_PHRASING))
            explained = max(explained, weight * accounted)
    return coverage, explained, specific


@settings(max_examples=300, deadline=None)
@given(base, paste, st.data())
def test_all_phrasings_at_once_measure_as_one_at_a_time(entries, query, data):
    index = LookupIndex()
    for entry_id, phrasings in entries.items():
        index._put(entry_id, [(kind, tuple(words)) for kind, words in phrasings])
    index.apply()
    # Any candidates, in any order (a gather's are best first, not by id).
    found = data.draw(st.permutations(sorted(entries)))[: data.draw(st.integers(1, len(entries)))]
    measured, most_explained = _measure(index, query, found)
    plain = {entry_id: _plain(index, index.phrasings(index.entries[entry_id]), query) for entry_id in found}
    # Only the candidates that could fit, in the order given: below FITS_WITH_PATTERN an
    # entry is never scored. The share of the paste explained is against every candidate.
    fitting = [entry_id for entry_id in found if plain[entry_id][0] >= FITS_WITH_PATTERN]
    assert [m.entry.id for m in measured] == fitting
    assert most_explained == pytest.approx(max(p[1] for p in plain.values()), rel=1e-12, abs=1e-15)
    for evidence in measured:
        coverage, explained, specific = plain[evidence.entry.id]
        assert evidence.coverage == pytest.approx(coverage, rel=1e-12, abs=1e-15)
        assert evidence.explained == pytest.approx(explained, rel=1e-12, abs=1e-15)
        assert evidence.specific == specific


def test_an_entry_is_stored_as_word_numbers_and_read_back_as_its_phrasings():
    index = LookupIndex()
    phrasings = [(KINDS[0], ("kv", "cache", "block")), (KINDS[2], ("vllm", "kv")), (KINDS[1], ("'vllm",))]
    index._put("llm/kv", phrasings, patterns=("KV cache",))
    index._put("llm/other", [(KINDS[0], ("cache", "miss"))])
    index.apply()
    assert index.phrasings(index.entries["llm/kv"]) == phrasings
    # Putting the entry again replaces its words: the ones it no longer has lose it.
    index._put("llm/kv", [(KINDS[0], ("kv", "block"))])
    index.apply()
    assert index.postings.df("cache") == 1 and index.postings.df("kv") == 1
    assert index.idf("vllm") == 0.0 and index.idf("kv") == index.idf_at(1) > 0


def test_titles_are_kept_only_for_lookups_that_read_the_same_change():
    index = LookupIndex()
    index.watermark = 7
    reads: list[list[str]] = []

    def read(ids: list[str]) -> dict[str, tuple[str, str | None]]:
        reads.append(ids)
        return {i: (f"title of {i}", None) for i in ids if i != "gone"}

    # Read from an older view (a transaction begun before the index's last refresh): not
    # kept for a lookup that read a later change.
    assert index.titles(["a", "gone"], read, seen=6) == {"a": ("title of a", None)}
    assert index.titles(["a"], read, seen=7) == {"a": ("title of a", None)}
    assert index.titles(["a"], read, seen=7) == {"a": ("title of a", None)}
    assert reads == [["a", "gone"], ["a"]]  # kept from the second read on

    def read_while_a_refresh_lands(ids: list[str]) -> dict[str, tuple[str, str | None]]:
        index.watermark = 8  # as a refresh does, before it clears what was kept
        return read(ids)

    index.titles(["b"], read_while_a_refresh_lands, seen=7)
    assert index.titles(["b"], read, seen=8) and reads[-2:] == [["b"], ["b"]]
