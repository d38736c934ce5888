"""The text a pattern needs is read so that a pattern it rules out never matches."""

import pytest
import re2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.schemas.common import compile_pattern
from app.services.lookup.literals import Haystack, needles


@pytest.mark.parametrize(
    ("pattern", "options", "whole"),
    [
        (r"database\ is\ locked", (("database is locked",),), True),
        ("CUDA out of memory", (("CUDA out of memory",),), True),
        (r"Killed process \d+ \(python\)", (("Killed process ", " (python)"),), False),
        ("colou?r mismatch", (("colo", "r mismatch"),), False),  # u may be left out
        ("ab+c", (("ab", "c"),), False),
        ("x{0,2}yz", (("yz",),), False),
        ("a(bc|d)?e", (("a", "e"),), False),  # the group's insides are optional
        ("(ENOSPC|no space left)", (("ENOSPC",), ("no space left",)), False),
        ("(?:foo.*bar|baz)", (("foo", "bar"), ("baz",)), False),
        ("(?i)Permission Denied", (("permission denied",),), False),
        ("(?i:Foo|Bar)", (("foo",), ("bar",)), False),
        (r"[[:alpha:]x]yz", (("yz",),), False),
        (r"\x41bc \p{Greek}de", (("bc ", "de"),), False),
    ],
)
def test_the_text_every_match_holds(pattern, options, whole):
    found = needles(pattern)
    assert found.options == options
    assert found.whole is whole


@pytest.mark.parametrize(
    "pattern",
    ["(?i)", "()", "a|", "(a)|(b)", r"\Qa.b\E", ".*", "[a-z]+", "(?i)ключ"],
)
def test_nothing_is_assumed_where_nothing_is_known(pattern):
    assert needles(pattern).options == ()
    assert Haystack("").holds(needles(pattern))


def test_a_paste_without_the_text_is_ruled_out_and_case_is_folded_only_where_the_pattern_ignores_it():
    assert not Haystack("error: Database is locked").holds(needles(r"database\ is\ locked"))
    assert Haystack("error: database is locked").holds(needles(r"database\ is\ locked"))
    assert Haystack("PERMISSION DENIED").holds(needles("(?i)permission denied"))
    # RE2 takes the Kelvin sign for k when case is ignored; the case-folded text does too.
    assert Haystack("\u212aeyError").holds(needles("(?i)keyerror"))
    assert re2.search("(?i)keyerror", "\u212aeyError")


_PIECES = st.sampled_from(
    [
        "a", "b", "A", "k", "s", " ", r"\.", ".", r"\d", r"\x61", r"\p{L}", "[ab]", "[^a]",
        "[[:alpha:]]", "^", "$", r"\b",
    ]
)  # fmt: skip
_QUANTIFIERS = st.sampled_from(["", "", "", "?", "*", "+", "{0,2}", "{2}", "??", "+?"])


def _pattern(children):
    sequence = st.lists(st.tuples(children, _QUANTIFIERS).map("".join), min_size=1, max_size=5).map("".join)
    return st.one_of(
        sequence,
        st.lists(sequence, min_size=2, max_size=3).map("|".join),
        st.tuples(st.sampled_from(["(", "(?:", "(?i:", "(?P<g>"]), sequence).map(lambda p: p[0] + p[1] + ")"),
        sequence.map(lambda p: "(?i)" + p),
    )


_PATTERNS = st.recursive(_PIECES, _pattern, max_leaves=12)
_TEXTS = st.text(alphabet="abAB ks.1\u212a\u017fS", max_size=24)


@settings(max_examples=3000, suppress_health_check=[HealthCheck.too_slow], deadline=None)
@given(pattern=_PATTERNS, texts=st.lists(_TEXTS, min_size=1, max_size=8))
def test_no_pattern_that_matches_is_ruled_out(pattern, texts):
    try:
        regex = compile_pattern(pattern)
    except ValueError:
        return
    found = needles(pattern)
    for text in texts:
        matched = regex.search(text) is not None
        if matched:
            assert Haystack(text).holds(found), (pattern, text)
        if found.whole:
            assert Haystack(text).holds(found) == matched, (pattern, text)
