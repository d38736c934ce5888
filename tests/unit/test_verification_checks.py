"""The content checks, on small documents: each names the problem a reviewer would."""

from datetime import date

import pytest
from pydantic import ValidationError

from app.schemas.document import EntryDoc
from app.services.verification.checks import output_problems, static_problems
from app.services.verification.reproduce import Run

TODAY = date(2026, 12, 1)


def _doc(**changes) -> EntryDoc:
    data = {
        "id": "tool/widget-jammed",
        "domain": "tool",
        "category": "runtime_error",
        "title": {"en": "Widget jammed", "zh": "部件卡住"},
        "signature": "error: widget 7 is jammed",
        "variants": [{"text": "错误：部件 7 卡住", "locale": "zh_CN"}],
        "patterns": ["widget \\d+ is jammed", "部件 \\d+ 卡住"],
        "verification": [
            {
                "text": "error: widget 7 is jammed",
                "method": "reproduced",
                "tool": "widget",
                "version": "1.0",
                "checked": TODAY,
                "command": "widget run",
            },
            {
                "text": "错误：部件 7 卡住",
                "method": "sourced",
                "tool": "widget",
                "version": "v1.0",
                "checked": TODAY,
                "url": "https://example.org/widget/blob/v1.0/po/zh_CN.po#L9",
            },
        ],
        "prior": {"fix_rate": 0.8, "confidence": 0.7},
        "root_cause": {"en": "It jams.", "zh": "它卡住了。"},
    }
    data.update(changes)
    return EntryDoc.model_validate(data)


def test_a_complete_entry_has_no_problems():
    assert static_problems(_doc(), []) == []
    # Checked among every entry of the base, itself included: its patterns match its own wordings.
    assert static_problems(_doc(), [_doc()]) == []


def test_every_wording_needs_a_pattern_and_a_verification():
    doc = _doc(patterns=["widget \\d+ is jammed"], verification=_doc().verification[:1])
    problems = static_problems(doc, [])
    assert "no pattern matches the variant '错误：部件 7 卡住'" in problems
    assert "the variant '错误：部件 7 卡住' has no verification" in problems


def test_a_pattern_that_recognises_a_neighbour_is_named():
    neighbour = _doc(
        id="tool/widget-stuck", signature="error: widget 7 is jammed again", variants=[], verification=[]
    )
    problems = static_problems(_doc(), [neighbour])
    assert any("also matches tool/widget-stuck" in p for p in problems)


def test_missing_chinese_is_named_by_field():
    doc = _doc(root_cause={"en": "It jams.", "zh": None})
    assert static_problems(doc, []) == ["no Chinese for root_cause"]
    dead_end = {
        "id": "kick",
        "action": {"en": "Kick it"},
        "why_fails": {"en": "It jams harder.", "zh": "卡得更紧。"},
    }
    assert static_problems(_doc(dead_ends=[{**dead_end, "fail_rate": 0.9}]), []) == [
        "no Chinese for dead_ends.kick.action"
    ]


def test_verification_must_vouch_for_a_wording_and_say_how():
    with pytest.raises(ValidationError, match="neither the signature nor a variant"):
        _doc(verification=[{**_doc().verification[0].model_dump(), "text": "something else"}])
    with pytest.raises(ValidationError, match="needs the command"):
        _doc(verification=[{**_doc().verification[0].model_dump(), "command": None}])
    with pytest.raises(ValidationError, match="needs the url"):
        _doc(verification=[{**_doc().verification[1].model_dump(), "url": None}])


def test_wordings_only_reported_by_users_are_not_enough():
    reported = [
        {
            "text": v.text,
            "method": "reported",
            "tool": "widget",
            "version": "1.0",
            "checked": TODAY,
            "note": {"en": "Seen by a user."},
        }
        for v in _doc().verification
    ]
    assert static_problems(_doc(verification=reported), []) == ["no wording is reproduced or sourced"]


def test_words_the_interface_cannot_translate_and_a_lack_of_patterns_are_named():
    doc = _doc(category="mystery", scope="galaxy", patterns=[])
    assert static_problems(doc, []) == [
        "category 'mystery' is not in the vocabulary of app/i18n.py",
        "scope 'galaxy' is not in the vocabulary of app/i18n.py",
        "no patterns",
    ]


def test_a_reproduction_that_ran_past_its_timeout_is_not_reproduced_even_if_its_output_fits():
    late = Run(output="error: widget 12 is jammed\n", seconds=61.4, timed_out=True)
    check = output_problems(_doc(), late, best_match="tool/widget-jammed")
    assert check.problems[0] == "the reproduction ran past its timeout (61 s)"
    assert not check.reproduced and check.patterns_on_output


def test_output_must_hold_the_reproduced_wording_and_be_recognised():
    good = Run(output="$ widget run\nerror: widget 12 is jammed\n", seconds=0.1)
    check = output_problems(_doc(), good, best_match="tool/widget-jammed")
    assert check.problems == [] and check.reproduced and check.patterns_on_output

    other = Run(output="error: widget is fine\n", seconds=0.1)
    check = output_problems(_doc(), other, best_match=None)
    assert not check.reproduced
    assert "the reproduction did not print 'error: widget 7 is jammed'" in check.problems
    assert "no pattern matches the reproduction's output" in check.problems
    assert "looking the output up finds nothing first" in check.problems


def test_a_failed_reproduction_shows_the_last_lines_of_its_output():
    lines = [f"step {n}" for n in range(1, 21)] + ["error: widget is fine"]
    check = output_problems(_doc(), Run(output="\n".join(lines) + "\n", seconds=0.1), best_match=None)
    assert check.problems[-1] == "output ended with:\n" + "\n".join(lines[-8:])


def test_a_tool_that_is_not_installed_is_named():
    check = output_problems(_doc(), Run(output="", seconds=0, missing=("widget",)), best_match=None)
    assert check.problems == ["not run: widget not installed"] and not check.reproduced
