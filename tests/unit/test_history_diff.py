"""Diffs read field by field, word by word (character by character in Chinese)."""

from app.services.history.diff import changed_fields, diff, flatten, word_diff


def test_content_flattens_to_labelled_texts_with_items_named_by_their_id():
    flat = flatten(
        {
            "title": {"en": "Out of memory", "zh": None},
            "patterns": ["a", "b"],
            "workarounds": [
                {"id": "swap", "steps": {"en": "Add swap", "zh": "加交换空间"}, "success_rate": 0.5}
            ],
            "ai_generated": True,
            "verification": [{"text": "x"}],
        }
    )
    assert flat == {
        "title.en": "Out of memory",
        "patterns[1]": "a",
        "patterns[2]": "b",
        "workarounds[swap].id": "swap",
        "workarounds[swap].steps.en": "Add swap",
        "workarounds[swap].steps.zh": "加交换空间",
        "workarounds[swap].success_rate": "0.5",
        "ai_generated": "true",
    }


def test_word_diff_marks_only_what_changed():
    segments = [(s.op, s.text) for s in word_diff("Out of memory", "Out of GPU memory")]
    assert segments == [("same", "Out of "), ("ins", "GPU "), ("same", "memory")]
    segments = [(s.op, s.text) for s in word_diff("内存不足", "显存不足")]
    assert segments == [("del", "内"), ("ins", "显"), ("same", "存不足")]


def test_a_rewrite_shows_the_old_text_then_the_new():
    segments = [
        (s.op, s.text) for s in word_diff("The signature above is reported", "Blocks run out under load")
    ]
    assert segments == [("del", "The signature above is reported"), ("ins", "Blocks run out under load")]


def test_diff_names_each_changed_field_and_its_language():
    old = {"title": {"en": "A", "zh": "甲"}, "patterns": ["x"], "docs": [{"title": "T", "url": "https://a"}]}
    new = {"title": {"en": "A", "zh": "乙"}, "patterns": ["x", "y"], "docs": []}
    changes = {c.path: c for c in diff(old, new)}
    assert set(changes) == {"title.zh", "patterns[2]", "docs[1].title", "docs[1].url"}
    assert changes["title.zh"].lang == "zh" and changes["title.zh"].old == "甲"
    assert [s.op for s in changes["patterns[2]"].segments] == ["ins"]
    assert [s.op for s in changes["docs[1].url"].segments] == ["del"]
    assert changed_fields(old, new) == ["title", "patterns", "docs"]
    assert diff(old, old) == []


def test_markup_stays_text():
    (change,) = diff({"note": "a"}, {"note": "<script>alert(1)</script>"})
    assert "".join(s.text for s in change.segments if s.op == "ins") == "<script>alert(1)</script>"
