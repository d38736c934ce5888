"""The input rules themselves, without HTTP: what is refused, what is cleaned, what passes."""

import pytest

from app.config import Settings
from app.web.inputs import (
    LOOKUP_BODY_BYTES,
    MAX_JSON_DEPTH,
    Refusal,
    body_limit,
    clean_json,
    clean_pairs,
    clean_text,
    is_cross_site,
    parse_json,
)


def refused(call, *args) -> Refusal:
    with pytest.raises(Refusal) as raised:
        call(*args)
    return raised.value


@pytest.mark.parametrize(
    "char", ["\x00", "\x01", "\x08", "\x0b", "\x0c", "\x0e", "\x1b", "\x1f", "\x7f", "\x85", "\x9f"]
)
def test_control_characters_are_refused_in_plain_fields(char):
    refusal = refused(clean_text, "query.domain", f"llm{char}")
    assert (refusal.status, refusal.field) == (422, "query.domain")


@pytest.mark.parametrize("text", ["plain", "tab\there", "lines\nand\r\nreturns", "中文 ½ é", "\xa0nbsp", ""])
def test_ordinary_text_passes_unchanged(text):
    assert clean_text("body.item", text) == text
    assert clean_text("body.note", text) == text


@pytest.mark.parametrize("field", ["query.q", "body.text", "body.note", "body.reason", "note"])
def test_free_text_loses_colour_codes_and_controls(field):
    assert (
        clean_text(field, "\x1b[1;31mError\x1b[0m:\x00 bad\x07\x1b(B\nnext\tline") == "Error: bad\nnext\tline"
    )


def test_pairs_are_decoded_strictly_and_cleaned():
    pairs, changed = clean_pairs("query", b"q=a%00b&domain=llm&empty=&flag&x=1+2")
    assert pairs == [("q", "ab"), ("domain", "llm"), ("empty", ""), ("flag", ""), ("x", "1 2")]
    assert changed
    assert clean_pairs("query", b"domain=llm&&page=2") == ([("domain", "llm"), ("page", "2")], False)
    assert refused(clean_pairs, "query", b"q=%ff").field == "query.q"
    assert refused(clean_pairs, "query", b"q=%ed%a0%80").field == "query.q"  # a lone surrogate
    assert refused(clean_pairs, "body", b"outcome=worked&item=a%01").field == "body.item"
    assert refused(clean_pairs, "query", b"a%00=1").field == "query"
    assert refused(clean_pairs, "query", b"%ff=1").field == "query"


def test_json_values_are_walked_to_every_string_and_number():
    body = {"text": "a\x00b", "limit": 5, "versions": {"vllm": "0.4"}, "ok": True, "f": 1.5, "n": None}
    assert clean_json(body) == {**body, "text": "ab"}
    assert refused(clean_json, {"versions": {"vllm": "0.4\x00"}}).field == "body.versions.vllm"
    assert refused(clean_json, {"versions": {"vllm\x00": "0.4"}}).field == "body.versions"
    assert refused(clean_json, {"items": ["ok", "bad\x01"]}).field == "body.items.1"
    assert clean_json({"limit": 2**63 - 1, "low": -(2**63)}) == {"limit": 2**63 - 1, "low": -(2**63)}
    assert refused(clean_json, {"limit": 2**63}).field == "body.limit"
    assert refused(clean_json, {"limit": -(2**63) - 1}).field == "body.limit"


def test_json_depth_is_bounded():
    deep: object = "x"
    for _ in range(MAX_JSON_DEPTH):
        deep = [deep]
    assert clean_json(deep) == deep
    assert (refused(clean_json, [deep]).status, refused(clean_json, [deep]).field) == (422, "body")
    nested: object = 1
    for _ in range(MAX_JSON_DEPTH):
        nested = {"a": nested}
    assert clean_json(nested) == nested
    assert refused(clean_json, {"a": nested}).field == "body"
    assert refused(parse_json, b"[" * 2000 + b"]" * 2000).reason.startswith("nested deeper")
    assert refused(parse_json, b'{"a": "\\ud800"}').reason.startswith("not valid JSON")
    assert refused(parse_json, b'{"a": "\xff"}').status == 422
    assert parse_json(b'{"a": [1, "\\u00e9"]}') == {"a": [1, "é"]}


def test_body_limits():
    settings = Settings(max_body_bytes=1000)
    assert body_limit("/api/v1/lookup", settings) == LOOKUP_BODY_BYTES
    assert body_limit("/zh/lookup/", settings) == LOOKUP_BODY_BYTES
    assert body_limit("/api/v1/errors/a/b/evidence", settings) == 1000


@pytest.mark.parametrize(
    ("headers", "cross"),
    [
        ({}, False),
        ({b"sec-fetch-site": b"same-origin"}, False),
        ({b"sec-fetch-site": b"none"}, False),
        ({b"sec-fetch-site": b" Same-Origin "}, False),
        ({b"sec-fetch-site": b"same-site"}, True),
        ({b"sec-fetch-site": b"cross-site", b"origin": b"http://errata.test"}, True),
        ({b"origin": b"http://errata.test"}, False),
        ({b"origin": b"https://ERRATA.test"}, False),
        ({b"origin": b"https://errata.example"}, False),  # the public address
        ({b"origin": b"https://evil.example"}, True),
        ({b"origin": b"http://errata.test.evil.example"}, True),
        ({b"origin": b"null"}, True),
    ],
)
def test_cross_site_is_told_by_the_browser(headers, cross):
    settings = Settings(public_url="https://errata.example")
    assert is_cross_site({b"host": b"errata.test", **headers}, settings) is cross
