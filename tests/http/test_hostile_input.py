"""Hostile input through the real app: every class is refused or cleaned where it enters,
never a 5xx, never internal detail in the answer."""

import gzip

import pytest
from bs4 import BeautifulSoup

from tests.conftest import ADMIN_TOKEN, SEED_ID

API = f"/api/v1/errors/{SEED_ID}/evidence"
FORM = f"/errors/{SEED_ID}/evidence"
INTERNALS = ("Traceback", "sqlite", "OperationalError", "OverflowError", 'File "', "orjson")


def safe(response, status: int):
    assert response.status_code == status, response.text[:500]
    for word in INTERNALS:
        assert word not in response.text
    return response


def field_of(response) -> list[str]:
    return [p["field"] for p in response.json()["detail"]]


@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/api/v1/errors?domain=llm%00", "domain"),
        ("/api/v1/errors?category=a%1bb", "category"),
        ("/api/v1/errors?component=vllm%7f&version=1", "component"),
        ("/api/v1/errors?q=%ff", "q"),
        ("/api/v1/errors?q=%ed%a0%80", "q"),  # an encoded lone surrogate
        ("/api/v1/errors?offset=99999999999999999999999", "offset"),
        ("/api/v1/errors?offset=9223372036854775808", "offset"),
        ("/api/v1/errors?offset=1000000001", "offset"),
        ("/api/v1/errors?limit=100000000000000000000", "limit"),
        ("/api/v1/errors?limit=-9223372036854775809", "limit"),
        ("/api/v1/errors/llm%00x", "path"),
        ("/errors/%ff.json", "path"),
    ],
)
def test_bad_query_or_path_is_422_naming_the_field(reader, url, field):
    assert field_of(safe(reader.get(url), 422)) == [field]


@pytest.mark.parametrize("path", ["/search", "/zh/search", "/api/v1/errors", "/lookup", "/zh/lookup"])
def test_control_characters_in_a_free_text_query_are_removed(reader, path):
    plain = safe(reader.get(path, params={"q": "KV cache"}), 200)
    dirty = safe(reader.get(path, params={"q": "KV\x00 cache\x1b[31m\x07"}), 200)
    assert dirty.text.replace("KV cache", "") == plain.text.replace("KV cache", "")


def test_bad_text_in_a_page_query_is_a_readable_page_in_its_language(reader):
    en = safe(reader.get("/search?q=%ff"), 422)
    zh = safe(reader.get("/zh/domains/llm?x=%00"), 422)
    assert en.headers["content-type"].startswith("text/html")
    assert "q" in BeautifulSoup(en.text, "html.parser").select_one(".error-page").text
    assert "输入无效" in zh.text or "首页" in zh.text


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'{"text": "\\ud800 oops"}', "body"),
        (b'{"text": "\xff\xfe"}', "body"),
        (b'{"text": "x", "limit": 9223372036854775808}', "limit"),
        (b'{"text": "x", "versions": {"vllm\\u0000": "1"}}', "versions"),
        (b'{"text": "x", "versions": {"vllm": "1\\u0001"}}', "versions.vllm"),
        (b"[" * 20 + b"]" * 20, "body"),
        (b"[" * 5000 + b"]" * 5000, "body"),
        (b'{"text": ' + b'{"a": ' * 30 + b"1" + b"}" * 31, "body"),
    ],
)
def test_bad_json_is_422_naming_the_field(reader, body, field):
    response = safe(
        reader.post("/api/v1/lookup", content=body, headers={"content-type": "application/json"}), 422
    )
    assert field_of(response) == [field]


def test_a_huge_single_line_is_looked_up(reader):
    line = "RuntimeError: " + "x" * (60 * 1024)
    assert safe(reader.post("/api/v1/lookup", json={"text": line}), 200).json()["matches"] == []
    safe(reader.get("/lookup", params={"q": "y" * 8000}), 200)


def test_nul_and_controls_in_a_note_are_removed_and_refused_elsewhere(shipped_client):
    stored = safe(shipped_client.post(API, json={"outcome": "worked", "note": "a\x00b\x1b[1mc\x08"}), 201)
    assert stored.json()["evidence"]["note"] == "abc"
    page = shipped_client.get(f"/errors/{SEED_ID}.json").json()
    assert page["recent_evidence"][0]["note"] == "abc"
    assert field_of(safe(shipped_client.post(API, json={"outcome": "worked", "item": "a\x00"}), 422)) == [
        "item"
    ]
    url = {"outcome": "worked", "source_url": "https://x.example/\x00"}
    assert field_of(safe(shipped_client.post(API, json=url), 422)) == ["source_url"]
    form = safe(shipped_client.post(FORM, data={"outcome": "worked", "note": "x\x00y"}), 303)
    assert form.headers["location"].startswith(f"/errors/{SEED_ID}?reported=")
    assert shipped_client.get(f"/errors/{SEED_ID}.json").json()["recent_evidence"][0]["note"] == "xy"
    safe(shipped_client.post(FORM, data={"outcome": "worked", "versions": "vllm 0.4\x00"}), 422)
    assert shipped_client.get(f"/errors/{SEED_ID}.json").json()["evidence_count"] == 3


def test_bodies_no_route_takes_are_415(reader):
    files = {"text": ("paste.txt", b"Error", "text/plain")}
    safe(reader.post("/lookup", files=files), 415)
    safe(reader.post("/api/v1/lookup", content=b'{"text": "x"}', headers={"content-type": "text/plain"}), 415)
    # A form post to the JSON API: what a cross-site page could send without a preflight.
    safe(reader.post(API, data={"outcome": "worked"}), 415)
    # JSON to the form route is not a crash either.
    safe(reader.post(FORM, json={"outcome": "worked"}), 422)


def test_a_body_over_the_limit_is_413_whatever_its_length_says(reader):
    big = b'{"text": "' + b"x" * (600 * 1024) + b'"}'
    safe(reader.post("/api/v1/lookup", content=big, headers={"content-type": "application/json"}), 413)

    def chunks():  # no Content-Length: the body arrives in pieces
        for _ in range(100):
            yield b"x" * 10_000

    safe(reader.post(API, content=chunks(), headers={"content-type": "application/json"}), 413)


HEAD_PATHS = [
    "/",
    "/zh/",
    f"/errors/{SEED_ID}",
    f"/zh/errors/{SEED_ID}",
    f"/errors/{SEED_ID}.json",
    f"/zh/errors/{SEED_ID}.md",
    "/domains/llm",
    "/search?q=cache",
    "/lookup?q=CUDA+out+of+memory",
    f"/api/v1/errors/{SEED_ID}",
    "/api/v1/errors?limit=3",
    "/feed.atom",
    "/sitemap.xml",
    "/robots.txt",
    "/opensearch.xml",
    "/favicon.ico",
    "/healthz",
    "/openapi.json",
    "/docs",
    "/errors/no/such-entry",
    "/api/v1/lookup",
]


@pytest.mark.parametrize("path", HEAD_PATHS)
def test_head_answers_like_get_without_a_body(reader, path):
    got = reader.get(path)
    head = reader.head(path)
    assert head.status_code == got.status_code
    assert head.content == b""
    without_date = lambda r: {k: v for k, v in r.headers.items() if k != "date"}  # noqa: E731
    assert without_date(head) == without_date(got)


def test_head_on_a_static_file(reader):
    css = next(
        a["href"] for a in BeautifulSoup(reader.get("/").text, "html.parser").select("link[href$='.css']")
    )
    head = reader.head(css)
    assert head.status_code == 200 and head.content == b"" and int(head.headers["content-length"]) > 100


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/", "GET, HEAD"),
        ("DELETE", f"/errors/{SEED_ID}", "GET, HEAD"),
        ("OPTIONS", f"/zh/errors/{SEED_ID}.json", "GET, HEAD"),
        ("PATCH", f"/api/v1/errors/{SEED_ID}", "GET, HEAD"),
        ("PUT", "/api/v1/errors", "GET, HEAD"),
        ("GET", "/api/v1/lookup", "POST"),
        ("PUT", "/lookup", "GET, HEAD, POST"),  # the results page, and the paste box posting to it
        ("DELETE", "/zh/lookup", "GET, HEAD, POST"),
    ],
)
def test_a_refused_method_is_told_every_method_the_address_takes(reader, method, path, allow):
    refused = safe(reader.request(method, path), 405)
    assert refused.headers["allow"] == allow
    for named in allow.split(", "):
        assert reader.request(named, path).status_code != 405, named


def test_a_compressed_body_is_refused_as_it_was_sent(reader):
    """A gzip body would pass the size limit and every check as bytes no route reads."""
    paste = b'{"text": "torch.OutOfMemoryError: CUDA out of memory."}'
    json_headers = {"content-type": "application/json"}
    refused = reader.post(
        "/api/v1/lookup", content=gzip.compress(paste), headers={**json_headers, "content-encoding": "gzip"}
    )
    assert safe(refused, 415).json()["detail"] == "That kind of content is not accepted here"
    form = {"content-type": "application/x-www-form-urlencoded", "content-encoding": "br"}
    page = safe(reader.post("/zh/lookup", content=b"text=x", headers=form), 415)
    assert page.headers["content-type"].startswith("text/html") and "不接受" in page.text
    plain = reader.post(
        "/api/v1/lookup", content=paste, headers={**json_headers, "content-encoding": "identity"}
    )
    assert safe(plain, 200).json()["matches"]


def test_a_malformed_mcp_message_is_answered_in_json(reader):
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    malformed = safe(reader.post("/mcp", content=b'{"jsonrpc": "2.0", "id": 1,', headers=headers), 422)
    assert malformed.headers["content-type"].startswith("application/json")
    assert field_of(malformed) == ["body"]


CROSS_SITE = [
    {"origin": "https://evil.example"},
    {"origin": "null"},
    {"sec-fetch-site": "cross-site", "origin": "https://evil.example"},
    {"sec-fetch-site": "same-site"},
    {"sec-fetch-site": "cross-site"},
]


@pytest.mark.parametrize("headers", CROSS_SITE)
@pytest.mark.parametrize(("prefix", "words"), [("", "another site"), ("/zh", "来自其他网站")])
def test_cross_site_form_posts_are_refused_with_a_page(shipped_client, headers, prefix, words):
    before = shipped_client.get(f"/errors/{SEED_ID}.json").json()["evidence_count"]
    report = safe(shipped_client.post(prefix + FORM, data={"outcome": "worked"}, headers=headers), 403)
    assert report.headers["content-type"].startswith("text/html") and words in report.text
    safe(shipped_client.post(prefix + "/lookup", data={"text": "Error"}, headers=headers), 403)
    safe(shipped_client.post(API, json={"outcome": "worked"}, headers=headers), 403)
    assert shipped_client.get(f"/errors/{SEED_ID}.json").json()["evidence_count"] == before


@pytest.mark.parametrize(
    "headers",
    [
        {},  # an old browser, or curl: nothing to forge with
        {"sec-fetch-site": "same-origin", "origin": "http://testserver"},
        {"sec-fetch-site": "none"},  # typed or bookmarked by the user
        {"origin": "http://testserver"},
        {"origin": "http://testserver", "cookie": "session=anything"},
    ],
)
def test_the_pages_own_forms_keep_working(shipped_client, headers):
    note = f"own form {sorted(headers)}"
    posted = shipped_client.post(FORM, data={"outcome": "worked", "note": note}, headers=headers)
    assert safe(posted, 303).headers["location"].startswith(f"/errors/{SEED_ID}?reported=")
    assert safe(shipped_client.post("/lookup", data={"text": "Error"}, headers=headers), 303)


def test_pages_are_the_same_for_every_visitor_so_a_shared_cache_may_keep_them(reader):
    first = reader.get(f"/errors/{SEED_ID}")
    second = reader.get(f"/errors/{SEED_ID}", headers={"cookie": "a=b", "user-agent": "other"})
    assert "set-cookie" not in first.headers and "private" not in first.headers.get("cache-control", "")
    assert first.text == second.text


def test_an_error_page_says_the_servers_own_refusals_in_the_readers_language(reader):
    """A refusal the framework words in English (a method an address does not take) is said
    in the page's language; a refusal errata words itself keeps its own words."""
    english = safe(reader.put("/about"), 405).text
    chinese = safe(reader.put("/zh/about"), 405).text
    assert "This address does not accept that kind of request" in english
    assert "此地址不接受这种请求方法" in chinese and "Method Not Allowed" not in chinese
    too_long = safe(reader.post("/api/v1/lookup", json={"text": "x" * (64 * 1024 + 1)}), 413)
    assert too_long.json()["detail"] == "Pasted text is larger than 65536 bytes"


MODERATOR = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
# Every bound a query parameter has, as the API description states it and as the server
# enforces it: (path, parameter, lowest, highest) for numbers, (path, parameter, length)
# for text. A bound is part of the contract: clients are written against these figures.
NUMBER_BOUNDS = [
    ("/api/v1/errors", "limit", 1, 200),
    ("/api/v1/errors", "offset", 0, 1_000_000_000),
    ("/api/v1/moderation/evidence", "limit", 1, 500),
    ("/api/v1/moderation/evidence", "offset", 0, 1_000_000_000),
    ("/api/v1/moderation/log", "limit", 1, 500),
    ("/api/v1/moderation/log", "offset", 0, 1_000_000_000),
    ("/api/v1/moderation/proposals", "limit", 1, 500),
    (f"/errors/{SEED_ID}/history.json", "from", 1, 1_000_000),
    (f"/errors/{SEED_ID}/history.json", "to", 1, 1_000_000),
    ("/search", "page", 1, 1000),
    ("/domains/llm", "page", 1, 10_000),
]
TEXT_BOUNDS = [
    ("/api/v1/errors", "domain", 100),
    ("/api/v1/errors", "category", 100),
    ("/api/v1/errors", "q", 500),
    ("/api/v1/errors", "component", 100),
    ("/api/v1/errors", "version", 100),
    ("/api/v1/moderation/evidence", "entry_id", 300),
    ("/api/v1/moderation/proposals", "entry_id", 300),
    ("/api/v1/moderation/proposals", "kind", 20),
    ("/search", "q", 500),
    ("/search/suggestions", "q", 200),
]


def _refused_for(response) -> str | None:
    """The field a 422 names (JSON or page); None for any other answer."""
    if response.status_code != 422:
        return None
    if response.headers["content-type"].startswith("application/json"):
        return field_of(response)[0]
    return BeautifulSoup(response.text, "html.parser").select_one(".error-page").get_text(" ", strip=True)


def _documented(reader, path: str, name: str) -> dict:
    template = path.replace(SEED_ID, "{entry_id}")
    operation = reader.get("/openapi.json").json()["paths"].get(template, {}).get("get")
    if operation is None:  # a page: not in the API description
        return {}
    return next(p["schema"] for p in operation["parameters"] if p["name"] == name)


@pytest.mark.parametrize(("path", "name", "lowest", "highest"), NUMBER_BOUNDS)
def test_every_number_a_query_takes_is_bounded_as_documented(reader, path, name, lowest, highest):
    schema = _documented(reader, path, name)
    if schema:
        bounds = next((s for s in schema.get("anyOf", [schema]) if s.get("type") == "integer"), schema)
        assert (bounds["minimum"], bounds["maximum"]) == (lowest, highest)
    for value in (lowest, highest):
        response = reader.get(path, params={name: value}, headers=MODERATOR)
        assert response.status_code < 500 and _refused_for(response) is None, (name, value)
    for value in (lowest - 1, highest + 1):
        refused = _refused_for(safe(reader.get(path, params={name: value}, headers=MODERATOR), 422))
        assert refused == name or name in refused, (name, value)


@pytest.mark.parametrize(("path", "name", "length"), TEXT_BOUNDS)
def test_every_text_a_query_takes_is_bounded_as_documented(reader, path, name, length):
    schema = _documented(reader, path, name)
    if schema:
        bounds = next(s for s in schema.get("anyOf", [schema]) if s.get("type") == "string")
        assert bounds["maxLength"] == length
    at_most = reader.get(path, params={name: "a" * length}, headers=MODERATOR)
    assert at_most.status_code < 500 and _refused_for(at_most) is None, at_most.text[:300]
    refused = _refused_for(safe(reader.get(path, params={name: "a" * (length + 1)}, headers=MODERATOR), 422))
    assert refused == name or name in refused


@pytest.mark.parametrize(
    ("template", "name", "lowest", "highest"),
    [
        ("/sitemaps/{}.xml.gz", "part", 1, 10_000),
        ("/api/v1/proposals/{}", "proposal_id", 1, 2**31 - 1),
        ("/proposals/{}", "proposal_id", 1, 2**31 - 1),
    ],
)
def test_every_number_in_a_path_is_bounded(reader, template, name, lowest, highest):
    for value in (lowest, highest):  # taken (the first sitemap part exists; the others do not)
        assert reader.get(template.format(value)).status_code in (200, 404), value
    for value in (lowest - 1, highest + 1):
        assert name in (_refused_for(safe(reader.get(template.format(value)), 422)) or ""), value
