"""The duplicate finder: which pairs of entries may be one error, how sure, and why."""

from app.services.merging.finder import (
    AUTO_MERGE_SCORE,
    PATTERNS_BOTH,
    SAME_WORDING,
    SIMILAR_TITLE,
    SIMILAR_WORDING,
    compare,
    find_candidates,
    normal_form,
    profile,
)


def entry(entry_id, signature, patterns=(), title="", variants=()):
    return profile(entry_id, title, [signature, *variants], patterns)


def test_normal_form_blanks_what_varies_but_keeps_quoted_names():
    assert normal_form("OSError: [Errno 98] Address already in use: /tmp/x/y.sock") == normal_form(
        "OSError: [Errno 48] Address already in use: /var/run/z.sock"
    )
    assert normal_form("Can't resolve 'fs'") != normal_form("Can't resolve 'react/jsx-runtime'")


def test_the_same_normalised_wording_is_conclusive():
    a = entry("python/address-in-use", "OSError: [Errno 98] Address already in use")
    b = entry("python/oserror-eaddrinuse/py311-linux", "OSError: [Errno 48] Address already in use")
    found = compare(a, b)
    assert found.score == 1.0 and found.conclusive and SAME_WORDING in found.reasons


def test_a_variant_counts_as_a_wording():
    a = entry("git/unrelated", "fatal: refusing to merge unrelated histories (1)", variants=["x y z w"])
    b = entry("git/other/git2-linux", "fatal: refusing to merge unrelated histories (2)")
    assert compare(a, b).conclusive


def test_a_short_wording_alone_proves_nothing():
    a = entry("docker/sock", "Permission denied")
    b = entry("linux/ssh-key", "Permission denied")
    found = compare(a, b)
    assert found is None or not found.conclusive


def test_patterns_both_ways_score_high_one_way_does_not_merge():
    widget = entry(
        "demo/widget", "FrobError: cannot frobnicate widget 42", [r"FrobError: cannot frobnicate widget \d+"]
    )
    loose = entry(
        "demo/any", "FrobError: cannot frobnicate gadget 7", [r"FrobError: cannot frobnicate \w+ \d+"]
    )
    both = entry(
        "demo/widget2", "FrobError: cannot frobnicate widget 9 (after a retry)", [r"FrobError: .*widget"]
    )
    one_way = compare(widget, loose)
    assert one_way is not None and not one_way.conclusive
    assert "demo/any's patterns match demo/widget's wording" in one_way.reasons
    two_way = compare(widget, both)
    assert PATTERNS_BOTH in two_way.reasons and two_way.score > one_way.score


def test_a_pattern_re2_cannot_run_is_passed_over_and_the_others_still_count():
    # Python's re takes a backreference, RE2 does not: a pattern from a base that did not check.
    widget = entry(
        "demo/widget", "FrobError: cannot frobnicate widget 42", [r"(w)\1", r"FrobError: .*widget"]
    )
    other = entry("demo/widget2", "FrobError: cannot frobnicate widget 9 (after a retry)")
    found = compare(widget, other)
    assert found is not None and "demo/widget's patterns match demo/widget2's wording" in found.reasons


def test_a_shared_title_lifts_alike_wordings_to_a_candidate():
    first = "Error: listen EADDRINUSE while starting the development server of the app"
    second = "Error: listen EADDRINUSE while starting the preview server of the app"
    titled = compare(
        entry("node/dev-port", first, title="Port already in use"),
        entry("node/preview-port", second, title="Port already in use"),
    )
    untitled = compare(entry("node/dev-port", first), entry("node/preview-port", second))
    assert titled is not None and not titled.conclusive
    assert untitled is None or untitled.score < titled.score


def test_a_candidate_says_how_much_of_their_wordings_and_titles_two_entries_share():
    found = compare(
        entry(
            "node/dev-port",
            "Error: listen EADDRINUSE while starting the development server of the app",
            title="Port in use",
        ),
        entry(
            "node/preview-port",
            "Error: listen EADDRINUSE while starting the preview server of the app",
            title="Port in use",
        ),
    )
    # 9 of the wordings' 11 words ("development", "preview" differ); the titles with their
    # slugs' words, 3 of 5 ("dev", "preview").
    assert found.reasons == (SIMILAR_WORDING % round(100 * 9 / 11), SIMILAR_TITLE % round(100 * 3 / 5))


def test_alike_wordings_of_two_domains_never_merge_by_themselves():
    a = entry("go/deadline", "context deadline exceeded while dialing", [r"context deadline exceeded"])
    b = entry(
        "docker/deadline",
        "context deadline exceeded while dialing the daemon",
        [r"context deadline exceeded"],
    )
    found = compare(a, b)
    assert PATTERNS_BOTH in found.reasons and found.score < AUTO_MERGE_SCORE


def test_candidates_skip_environment_variants_and_honour_the_focus():
    profiles = [
        entry("node/eaddrinuse", "Error: listen EADDRINUSE: address already in use :::3000"),
        entry("node/eaddrinuse/node20-linux", "Error: listen EADDRINUSE: address already in use :::8080"),
        entry("node/port-taken/node18-linux", "Error: listen EADDRINUSE: address already in use :::5000"),
        entry("git/unrelated", "fatal: not a git repository (or any of the parent directories): .git"),
    ]
    found = find_candidates(profiles)
    pairs = {(c.a, c.b) for c in found}
    assert ("node/eaddrinuse", "node/eaddrinuse/node20-linux") not in pairs  # grouped by their own rule
    assert ("node/eaddrinuse", "node/port-taken/node18-linux") in pairs
    assert all("git/unrelated" not in pair for pair in pairs)
    focused = find_candidates(profiles, focus=["node/eaddrinuse/node20-linux"])
    assert {(c.a, c.b) for c in focused} == {("node/eaddrinuse/node20-linux", "node/port-taken/node18-linux")}
    assert [c.score for c in found] == sorted((c.score for c in found), reverse=True)


def test_a_shared_title_does_not_make_patterns_both_ways_conclusive():
    # A title adds at most 0.1 (README "Duplicates"): patterns that match each other both
    # ways over wordings that say different things are left for a moderator, and a pair with
    # the same wording still ranks first.
    pattern = [r"FrobError: cannot frobnicate"]
    title = "Frobnicate fails"
    startup = entry(
        "demo/frobnicate-fails", "FrobError: cannot frobnicate widget 42 at startup", pattern, title
    )
    disk = entry(
        "demo/frobnicate-fails-again",
        "FrobError: cannot frobnicate: the gadget store on disk is full",
        pattern,
        title,
    )
    again = entry("demo/frob-widget", "FrobError: cannot frobnicate widget 7 at startup", title="Widget")
    found = compare(startup, disk)
    assert PATTERNS_BOTH in found.reasons and "titles share 67% of their words" in found.reasons
    assert 0.75 <= found.score < AUTO_MERGE_SCORE and not found.conclusive
    ranked = find_candidates([startup, disk, again])
    assert all(0 <= c.score <= 1 for c in ranked)
    assert SAME_WORDING in ranked[0].reasons and ranked[0].score > found.score
    assert ranked[1] == found


def test_two_entries_alone_in_sharing_their_words_are_compared():
    # No wording of theirs is the same once normalised, and the words they share no other
    # entry uses: those words alone bring the pair to a moderator.
    a = entry("demo/quux", "QuuxError: the frobnicator overheated while spinning the rotor")
    b = entry("demo/quux-again", "QuuxError: the frobnicator overheated while spinning the rotor again")
    others = [
        entry(f"demo/{word}", f"{word} {verb}")
        for word, verb in [("segment", "misaligned"), ("widget", "unplugged"), ("socket", "closed")]
    ]
    found = find_candidates([a, *others, b])
    assert [(c.a, c.b) for c in found] == [("demo/quux", "demo/quux-again")]


def test_the_same_wording_brings_two_entries_together_among_many_that_share_its_words():
    # Forty others use every word of the pair (too many to compare them all by words); only
    # the normalised wording, the same for the two, brings them together.
    a = entry("demo/frob-a", "FrobError: cannot frobnicate widget 42")
    b = entry("demo/frob-b", "FrobError: cannot frobnicate widget 7")
    names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    others = [
        entry(f"demo/frob-{x}-{y}", f"FrobError: cannot frobnicate widget {x} {y}")
        for x in names
        for y in names[:5]
    ]
    found = [c for c in find_candidates([a, *others, b]) if "demo/frob-a" in (c.a, c.b)]
    assert [(c.a, c.b, c.conclusive) for c in found] == [("demo/frob-a", "demo/frob-b", True)]


def test_without_a_pattern_between_them_two_errors_score_by_their_wordings_then_their_titles():
    title = "curl cannot connect: connection refused"
    a = entry(
        "net/refused-a",
        "curl: (7) Failed to connect to host port 443 after 2 ms: Connection refused",
        title=title,
    )
    b = entry("net/refused-b", "curl: (7) Failed to connect to host port 80: Connection refused", title=title)
    found = compare(a, b)
    # 8 of 10 words of the wordings, 5 of 7 of the titles (the slugs differ): 0.7 x 0.8 + 0.2 x 5/7.
    assert found.reasons == (SIMILAR_WORDING % 80, SIMILAR_TITLE % 71)
    assert found.score == round(0.7 * 0.8 + 0.2 * 5 / 7, 4) and not found.conclusive
