"""The lookup index's postings: staged changes, candidate sums and conjunctions, against the
plain dict of dicts they replaced (word -> entry id -> field weight)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services.lookup.postings import Postings

WORDS = ["cuda", "memory", "kv", "cache", "block", "denied"]
IDS = [f"e/{n}" for n in range(12)]
WEIGHTS = [1.0, 0.9, 0.6]


def _plain_best(plain: dict[str, dict[str, float]], gains: dict[str, float], limit: int):
    sums: dict[str, float] = {}
    for word, gain in gains.items():
        for entry_id, weight in plain.get(word, {}).items():
            # Postings keep weights as float32 (8 bytes a posting): the same sums, bit for bit.
            sums[entry_id] = sums.get(entry_id, 0.0) + gain * float(np.float32(weight))
    return sorted(sums, key=lambda e: (-sums[e], e))[:limit], len(sums)


# A run of puts and removals of whole entries, with an apply now and then.
changes = st.lists(
    st.one_of(
        st.tuples(
            st.just("put"),
            st.sampled_from(IDS),
            st.dictionaries(st.sampled_from(WORDS), st.sampled_from(WEIGHTS), min_size=1),
        ),
        st.tuples(st.just("drop"), st.sampled_from(IDS), st.none()),
        st.tuples(st.just("apply"), st.none(), st.none()),
    ),
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    changes,
    st.dictionaries(st.sampled_from(WORDS), st.floats(0.1, 5.0), min_size=1),
    st.integers(1, 6),
)
def test_postings_answer_as_the_plain_dicts_do(runs, gains, limit):
    postings, plain, indexed = Postings(), {}, {}
    for action, entry_id, weights in runs:
        if action == "apply":
            postings.apply()
            continue
        if entry_id in indexed:  # as the index does: the entry's previous words go first
            postings.remove(entry_id, indexed.pop(entry_id))
            for word in plain:
                plain[word].pop(entry_id, None)
        if action == "put":
            postings.put(entry_id, weights)
            indexed[entry_id] = weights
            for word, weight in weights.items():
                plain.setdefault(word, {})[entry_id] = weight
    postings.apply()
    for word in WORDS:
        assert postings.df(word) == len(plain.get(word, {}))
    found, holders = postings.best(gains, limit)
    expected, expected_holders = _plain_best(plain, gains, limit)
    assert holders == expected_holders
    assert found == expected
    for words in ({"cuda", "memory"}, {"kv", "cache", "block"}, {"denied"}):
        both = set.intersection(*(set(plain.get(w, {})) for w in words))
        assert postings.holding_all(words) == len(both)


def test_ties_at_the_limit_go_to_the_smaller_ids_in_every_process():
    """Two processes that indexed the same entries in another order pick the same candidates."""
    first, second = Postings(), Postings()
    for entry_id in IDS:
        first.put(entry_id, {"cache": 1.0})
    for entry_id in reversed(IDS):
        second.put(entry_id, {"cache": 1.0})
    second.put("e/strong", {"cache": 1.0, "kv": 1.0})
    first.put("e/strong", {"cache": 1.0, "kv": 1.0})
    first.apply()
    second.apply()
    gains = {"cache": 1.0, "kv": 2.0}
    assert first.best(gains, 3) == second.best(gains, 3) == (["e/strong", "e/0", "e/1"], 13)


def test_nothing_staged_is_read_before_apply():
    """A refresh applies once after its load; rankings never see a half-loaded word."""
    postings = Postings()
    postings.put("e/1", {"cache": 1.0})
    assert postings.df("cache") == 0 and postings.best({"cache": 1.0}, 5) == ([], 0)
    postings.apply()
    assert postings.best({"cache": 1.0}, 5) == (["e/1"], 1)
    postings.remove("e/1", ["cache"])
    assert postings.df("cache") == 1
    postings.apply()
    assert postings.df("cache") == 0 and postings.best({"cache": 1.0}, 5) == ([], 0)


def test_an_entry_removed_in_the_batch_it_was_put_in_loses_those_postings():
    postings = Postings()
    postings.put("e/1", {"cache": 1.0, "kv": 0.6})
    postings.remove("e/1", ["cache", "kv"])
    postings.put("e/1", {"block": 0.9})
    postings.apply()
    assert (postings.df("cache"), postings.df("kv"), postings.df("block")) == (0, 0, 1)
    assert postings.holding_all({"block"}) == 1 and postings.holding_all({"block", "kv"}) == 0
