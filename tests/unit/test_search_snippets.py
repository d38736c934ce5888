"""The snippet under a search hit: where the terms are, marked as the index matched them."""

from app.backends.text import HIGHLIGHT_END, HIGHLIGHT_START, marked_snippet


def shown(snippet: str) -> str:
    return snippet.replace(HIGHLIGHT_START, "[").replace(HIGHLIGHT_END, "]")


def test_whole_words_are_marked_and_parts_of_words_are_not():
    text = "a data race: a thread wrote data while another read it"
    assert shown(marked_snippet((text,), ["a"], whole_words=True)) == (
        "[a] data race: [a] thread wrote data while another read it"
    )


def test_substring_search_marks_a_term_inside_a_word():
    assert shown(marked_snippet(("CUDA_VISIBLE_DEVICES is empty",), ["visible"], whole_words=False)) == (
        "CUDA_[VISIBLE]_DEVICES is empty"
    )


def test_an_identifier_matches_whatever_joins_its_parts():
    text = "pass --gpu-memory-utilization 0.8 to vllm serve"
    assert shown(marked_snippet((text,), ["gpu_memory_utilization"], whole_words=True)) == (
        "pass --[gpu-memory-utilization] 0.8 to vllm serve"
    )


def test_case_is_ignored_and_kept():
    assert shown(marked_snippet(("CUDA out of memory",), ["cuda", "MEMORY"], whole_words=True)) == (
        "[CUDA] out of [memory]"
    )


def test_the_window_with_most_distinct_terms_wins_over_the_first_match():
    filler = "nothing to see here " * 10
    text = f"the cache is cold. {filler}KV cache block could not be allocated. {filler}"
    snippet = shown(marked_snippet((text,), ["kv", "cache"], whole_words=True, width=30))
    assert "[KV] [cache] block" in snippet
    assert snippet.startswith("…") and snippet.endswith("…")
    assert "cold" not in snippet


def test_the_first_text_holding_every_term_is_shown():
    texts = ("permission denied", "Permission denied (publickey)", "a long body about permission and denied")
    assert shown(marked_snippet(texts, ["permission", "denied"], whole_words=True)) == (
        "[permission] [denied]"
    )


def test_a_later_text_is_shown_when_it_holds_more_terms():
    texts = ("database is locked", "", "SQLITE_BUSY: the database is locked by another writer")
    snippet = shown(marked_snippet(texts, ["sqlite_busy", "locked"], whole_words=True))
    assert snippet == "[SQLITE_BUSY]: the database is [locked] by another writer"


def test_words_are_not_cut_at_the_window_edges():
    words = " ".join(f"word{n}" for n in range(60))
    snippet = marked_snippet((words,), ["word30"], whole_words=True, width=20)
    plain = snippet.strip("…").replace(HIGHLIGHT_START, "").replace(HIGHLIGHT_END, "")
    assert all(part in words.split() for part in plain.split())
    assert HIGHLIGHT_START + "word30" + HIGHLIGHT_END in snippet


def test_chinese_terms_match_anywhere():
    text = "无法为 KV 缓存块分配内存"
    assert (
        shown(marked_snippet((text,), ["缓存块", "kv"], whole_words=True)) == "无法为 [KV] [缓存块]分配内存"
    )


def test_a_letter_whose_lower_case_is_longer_keeps_the_marks_in_place():
    text = "İstanbul: connection refused"
    assert shown(marked_snippet((text,), ["refused"], whole_words=True)) == "İstanbul: connection [refused]"


def test_no_match_shows_the_start_of_the_first_text():
    assert marked_snippet(("short signature", "title"), ["absent"], whole_words=True) == "short signature"
    assert marked_snippet(("x" * 300,), ["absent"], whole_words=True, width=10) == "x" * 20 + "…"


def test_operator_characters_are_plain_text():
    assert shown(marked_snippet(("NEAR(a b) failed",), ["near("], whole_words=False)) == "[NEAR(]a b) failed"
    assert marked_snippet(("(",), ["(*"], whole_words=True) == "("


def test_a_text_that_fits_in_the_window_is_shown_whole_wherever_its_match_is():
    text = "RuntimeError: a long preamble of words the reader needs before the error: CUDA out of memory"
    assert len(text) <= 120
    assert shown(marked_snippet((text,), ["memory"], whole_words=True)) == text.replace("memory", "[memory]")


def test_a_snippet_keeps_to_one_line_of_its_text():
    title = "\n".join(
        (
            "vLLM start-up check: no available memory for the KV cache blocks",
            "vLLM 启动检查失败：没有可用于 KV 缓存块的显存",
            "llm/vllm-no-cache-blocks",
            "resource_error",
        )
    )
    assert shown(marked_snippet(("ValueError: no blocks", title), ["kv", "cache"], whole_words=True)) == (
        "vLLM start-up check: no available memory for the [KV] [cache] blocks"
    )
    assert (
        shown(marked_snippet((title,), ["显存"], whole_words=True))
        == "vLLM 启动检查失败：没有可用于 KV 缓存块的[显存]"
    )


def test_a_long_line_is_cut_within_itself():
    body = "first section\n" + "word " * 40 + "target\nlast section follows here"
    snippet = shown(marked_snippet((body,), ["target"], whole_words=True, width=20))
    assert snippet.startswith("…word") and snippet.endswith("[target]")


def test_no_line_break_reaches_a_snippet():
    assert shown(marked_snippet(("first line here\r\nsecond KV line\r\n",), ["kv"], whole_words=True)) == (
        "second [KV] line"
    )
    assert marked_snippet(("\nsecond line",), ["absent"], whole_words=True) == "second line"
    # An identifier's parts are joined across any separator but a line break, as a window is.
    assert shown(marked_snippet(("GPU\nmemory full",), ["gpu_memory", "full"], whole_words=True)) == (
        "memory [full]"
    )


def test_overlapping_matches_are_marked_once():
    assert shown(marked_snippet(("abcdefg",), ["abcdef", "bc", "ef"], whole_words=False)) == "[abcdef]g"


def test_a_late_line_holding_every_term_wins_over_a_common_word_in_every_line():
    body = "\n".join(["the error was logged by the worker"] * 20 + ["NCCL error: unhandled system error"])
    assert shown(marked_snippet(("sig", "title", body), ["error", "nccl"], whole_words=True)) == (
        "[NCCL] [error]: unhandled system [error]"
    )


def test_a_body_holding_the_terms_only_on_different_lines_leaves_the_best_line_before_it():
    body = "\n".join(["a git remote was added"] * 30 + ["then push failed", "the server rejected it"] * 5)
    snippet = shown(
        marked_snippet(("git push failed", "title", body), ["git", "push", "rejected"], whole_words=True)
    )
    assert snippet == "[git] [push] failed"
    # Where the body holds them all on one line, however late, that line is shown.
    late = body + "\nerror: failed to push: git rejected the update"
    snippet = shown(
        marked_snippet(("git push failed", "title", late), ["git", "push", "rejected"], whole_words=True)
    )
    assert snippet == "error: failed to [push]: [git] [rejected] the update"
