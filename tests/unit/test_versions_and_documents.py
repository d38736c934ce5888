"""Version coverage, search terms and the entry document format."""

import pytest
from pydantic import ValidationError

from app.schemas.document import EntryDoc
from app.services.entries.versions import covers
from app.services.interchange.documents import dump_document, load_document
from app.services.search.query import terms


@pytest.mark.parametrize(
    ("row", "version", "expected"),
    [
        ("0.4.2", "0.4.2", True),
        ("12.1", "12.1.5", True),
        ("12.1", "12.2", False),
        (">=0.6,<0.8", "0.7.1", True),
        (">=0.6,<0.8", "0.8.0", False),
        ("12.x", "12.4", True),
        ("", "1.0", True),
        ("latest", "LATEST", True),
        # A row that is no version (a name, a label) covers only its own spelling.
        ("1.0 lts", "2.0", False),
        ("~=2.1", "2.9", True),
        (">=not-a-version", "1.0", False),
    ],
)
def test_covers(row, version, expected):
    assert covers(row, version) is expected


def test_search_terms_drop_operators_and_repeats():
    assert terms('NEAR( "KV cache" -foo* KV') == ["near", "kv", "cache", "foo"]
    assert terms("") == [] and terms("   ") == []


def test_a_search_counts_its_first_16_distinct_words_and_no_more():
    # Bounded work per request (SECURITY.md): a pasted wall of words costs what 16 do.
    words = [f"w{n}" for n in range(40)]
    assert terms(" ".join(words)) == words[:16]
    assert terms(" ".join(["kv"] * 30 + words)) == ["kv", *words[:15]]


MINIMAL = {
    "id": "demo/minimal",
    "domain": "demo",
    "category": "runtime_error",
    "title": {"en": "Minimal"},
    "signature": "MinimalError",
    "prior": {"fix_rate": 0.5, "confidence": 0.5},
}


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"id": "Demo/Bad"}, "id"),
        ({"domain": "other"}, ""),
        ({"patterns": ["(a"]}, "patterns.0"),
        ({"prior": {"fix_rate": 2, "confidence": 0.5}}, "prior.fix_rate"),
        ({"workarounds": [{"id": "x", "title": {"en": "a"}, "success_rate": 0.5}] * 2}, ""),
        (
            {
                "evidence": [
                    {"uid": "u", "item": "nope", "outcome": "worked", "submitted_at": "2024-01-01T00:00:00Z"}
                ]
            },
            "",
        ),
        ({"docs": [{"title": "x", "url": "javascript:alert(1)"}]}, "docs.0.url"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_document_validation_names_the_field(change, field):
    with pytest.raises(ValidationError) as raised:
        EntryDoc.model_validate({**MINIMAL, **change})
    location = ".".join(str(p) for p in raised.value.errors()[0]["loc"])
    assert location == field


def test_yaml_round_trip_keeps_the_document():
    doc = EntryDoc.model_validate(
        {
            **MINIMAL,
            "root_cause": {"en": "Line one\n\nLine two\n", "zh": "第一行\n"},
            "patterns": ["a|b: '\\d+'"],
        }
    )
    text = dump_document(doc)
    assert "root_cause:\n  en: |" in text and "'a|b: ''\\d+'''" in text
    assert EntryDoc.model_validate(load_document(text)) == doc
