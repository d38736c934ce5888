"""Reading pastes: error lines, normalisation, regex phrasings, localised messages."""

import re
import sys
import time
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services.lookup.locale_messages import english_equivalents
from app.services.lookup.text import (
    _ERROR_WORDS,
    _REPLACEMENTS,
    _TIMESTAMP,
    alternatives,
    error_lines,
    normalize,
    regex_words,
    tokens,
)


def test_exception_lines_weigh_most_and_the_last_frame_is_kept():
    paste = """2024-05-01 12:00:01 INFO starting worker
Traceback (most recent call last):
  File "/srv/app/main.py", line 10, in <module>
    run()
  File "/srv/app/jobs.py", line 99, in run
    import requests
ModuleNotFoundError: No module named 'requests'"""
    lines = {line.text.strip(): line.weight for line in error_lines(paste)}
    assert lines["ModuleNotFoundError: No module named 'requests'"] == 1.0
    assert lines['File "/srv/app/jobs.py", line 99, in run'] == 0.3
    assert 'File "/srv/app/main.py", line 10, in <module>' not in lines
    assert max(w for t, w in lines.items() if "starting worker" in t) < 0.5


def test_lines_after_an_error_line_count_as_its_continuation():
    text = "error: the build stopped\n  while compiling the sensor module\nok\nok\nok\nready"
    assert [line.weight for line in error_lines(text)] == [1.0, 0.45, 0.45, 0.45, 0.15, 0.15]


@pytest.mark.parametrize(
    ("raw", "gone"),
    [
        ("at /home/alice/proj/app.py line 3", "alice"),
        ("address 0x7ffd5e8a9c10 freed", "7ffd"),
        ("pulled 3f2a9c1b7d in 42 ms", "3f2a9c1b7d"),
        ("vllm 0.4.2 with CUDA 12.1", "0.4.2"),
        ("2024-06-18T09:12:00Z worker ready", "2024"),
        ("see https://example.org/x?y=1 for more", "example"),
        ("C:\\Users\\bob\\app\\main.py failed", "bob"),
        ("request 9f1c2b3a-1d2e-4f50-8a9b-0c1d2e3f4a5b done", "9f1c2b3a"),
    ],
)
def test_normalize_blanks_what_varies(raw, gone):
    assert gone not in normalize(raw)


def test_tokens_split_identifiers_and_mark_quoted_names():
    words = tokens("torch.OutOfMemoryError: CUDA out of memory, module 'numpy' missing")
    assert {"torch", "outofmemoryerror", "out", "of", "memory", "cuda", "'numpy"} <= set(words)
    assert "numpy" not in words
    assert tokens("显存不足") == ["显存", "存不", "不足"]
    assert tokens("显存") == ["显存"] and tokens("错") == ["错"]
    # The whole range counts as Chinese, from its first character (U+3400) to its last.
    assert tokens("\u3400丁七") == ["\u3400丁", "丁七"] and tokens("七丁\u9fff") == ["七丁", "丁\u9fff"]


def test_regex_words_and_alternatives():
    assert regex_words(r"ERROR:\s+deadlock detected").split() == ["ERROR:", "deadlock", "detected"]
    # An escaped character is the character itself; a class escape (\d, \s) is no word.
    assert regex_words(r"torch\.cuda\.OutOfMemoryError: CUDA out of memory\. Tried \d+").split() == [
        "torch.cuda.OutOfMemoryError:",
        "CUDA",
        "out",
        "of",
        "memory.",
        "Tried",
    ]
    assert alternatives("(dns.*resolver.*failed|name resolution.*failed)") == [
        "dns.*resolver.*failed",
        "name resolution.*failed",
    ]
    assert alternatives(r"error: (foo|bar) baz") == ["error: foo baz", "error: bar baz"]
    # A non-capturing group, as shipped patterns write it ("on (?:tokens|requests)").
    assert alternatives(r"Rate limit reached on (?:tokens|requests) per min") == [
        "Rate limit reached on tokens per min",
        "Rate limit reached on requests per min",
    ]
    assert alternatives(r"a\|b") == [r"a\|b"]
    # Top-level alternatives, the group inside one kept whole.
    assert alternatives(r"no route to host|connect(ion)? refused|timed out") == [
        "no route to host",
        "connect(ion)? refused",
        "timed out",
    ]


def test_localised_messages_gain_their_english_originals():
    found = english_equivalents("致命错误：不是 git 仓库（或者任何父目录）：.git")
    assert found == ["fatal: not a git repository (or any of the parent directories): .git"]
    assert english_equivalents('psql: 致命错误:  用户 "app" Password 认证失败') == [
        'FATAL: password authentication failed for user "app"'
    ]
    assert english_equivalents("plain English only") == []


def test_reading_a_huge_hostile_paste_stays_fast():
    paste = ("a" * 5000 + "(" * 2000 + "\n") * 12 + "x" * 60_000
    start = time.perf_counter()
    error_lines(paste)
    tokens(paste)
    assert time.perf_counter() - start < 2.0


def test_tool_line_prefixes_do_not_hide_the_error():
    build = "#9 0.612 error: externally-managed-environment\n#9 0.612 \n" + "#9 0.613 note: more\n" * 6
    assert error_lines(build)[0] == error_lines("error: externally-managed-environment")[0]
    compose = "web-1  | Traceback (most recent call last):\n" + "web-1  | ok\n" * 6
    assert error_lines(compose)[0].text.startswith("Traceback")
    gdb = "#0  0x00007f3a2b1c4e10 in raise () from /lib/libc.so.6\n" + "x\n" * 6
    assert all("raise" not in line.text or line.weight == 0.3 for line in error_lines(gdb))


def test_quoted_phrases_stay_words_and_short_pastes_count_whole():
    words = tokens('level=error err="exec: \\"pg_dump\\": executable file not found in $PATH"')
    assert {"executable", "file", "not", "found"} <= set(words)
    assert {line.weight for line in error_lines("Mixed Content: the page was loaded over HTTPS")} == {0.6}


# What error_lines looked for before it used RE2, with Python's own word edges: the reference.
_PYTHON_EDGES = re.compile(r"\bnot\b|\bno\b|n't\b", re.I)


def test_the_words_of_failure_end_where_pythons_words_end():
    """The edges of "no", "not" and "n't" are spelled out for RE2 as the letters, digits and
    underscore Python's \\w holds, for every character Python's Unicode data knows."""
    mismatches = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.category(char) in ("Cn", "Cs"):  # unassigned (in Python's data), surrogates
            continue
        for line in (f"{char}no", f"no{char}", f"x{char}not{char}", f"don't{char}", f"can{char}t"):
            if bool(_ERROR_WORDS.search(line)) != bool(_PYTHON_EDGES.search(line)):
                mismatches.append(line)
    assert mismatches == []
    assert [bool(_ERROR_WORDS.search(s)) for s in ("NO module", "nothing", "Ünot", "don't", "CUDA OOM")] == [
        True,
        False,
        False,
        True,
        True,
    ]


def _every_replacement(text: str) -> str:
    """normalize as it was, every pattern run on every paste."""
    text = _TIMESTAMP.sub(" ", text)
    for pattern, _ in _REPLACEMENTS:
        text = pattern.sub(" ", text)
    return text


@settings(max_examples=2000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                " ",
                "\n",
                "/",
                "\\",
                ":",
                "://",
                "@",
                "-",
                ".",
                "0x",
                "0X",
                "deadbeef",
                "12",
                "7",
                "a",
                "é",
                "C:",
                "http",
                "git",
                "_",
                "2024-05-01",
                "10:11:12",
                "Mon",
                "Tue, Jun 4",
                "中",
            ]
        )
    ).map("".join)
)
def test_normalize_skips_only_the_patterns_a_paste_cannot_match(text):
    assert normalize(text) == _every_replacement(text)
