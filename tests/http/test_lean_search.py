"""Searches the lean path answers (app.web.fastpath): the route's bytes, and the route's
answer for whatever the lean path declines."""

import pytest
from starlette.datastructures import QueryParams

from app.web.fastpath import plain_search
from tests.http.lean import counted, route_only, same_answer

SEARCHES = [
    "/api/v1/errors?q=memory&limit=3",
    "/api/v1/errors?q=memory&limit=3&offset=3",
    "/api/v1/errors?q=%E6%98%BE%E5%AD%98",
    "/api/v1/errors?limit=200&q=cache&tag=x",
    "/api/v1/errors?q=zzqqxx-nothing",
]


@pytest.mark.parametrize("url", SEARCHES)
def test_a_lean_search_answers_what_the_route_answers(shipped_client, url, monkeypatch):
    answered = counted(monkeypatch, "_search_answer")
    lean = shipped_client.get(url, headers={"Accept-Encoding": "identity"})
    assert len(answered) == 1
    route_only(shipped_client, monkeypatch, "plain_search")
    same_answer(lean, shipped_client.get(url, headers={"Accept-Encoding": "identity"}))


def test_a_lean_search_pages_on_and_is_kept_until_an_entry_changes(shipped_client):
    first = shipped_client.get("/api/v1/errors?q=error&limit=2").json()
    assert first["count"] > 2 and first["next"].endswith("offset=2")
    second = shipped_client.get(first["next"]).json()
    assert {e["id"] for e in first["data"]}.isdisjoint(e["id"] for e in second["data"])
    again = shipped_client.get("/api/v1/errors?q=error&limit=2")
    assert (
        shipped_client.get(
            "/api/v1/errors?q=error&limit=2", headers={"If-None-Match": again.headers["etag"]}
        ).status_code
        == 304
    )
    entry_id = first["data"][0]["id"]
    shipped_client.post(f"/api/v1/errors/{entry_id}/evidence", json={"outcome": "worked"})
    after = shipped_client.get("/api/v1/errors?q=error&limit=2").json()
    hit = next(e for e in after["data"] if e["id"] == entry_id)
    assert hit["evidence_count"] == first["data"][0]["evidence_count"] + 1


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("q=memory&limit=0", "limit"),
        ("q=memory&limit=201", "limit"),
        ("q=memory&offset=-1", "offset"),
        ("q=memory&limit=ten", "limit"),
        ("q=" + "a" * 501, "q"),
    ],
)
def test_what_the_route_refuses_is_still_refused_naming_the_field(shipped_client, query, field):
    response = shipped_client.get(f"/api/v1/errors?{query}")
    assert response.status_code == 422
    assert field in str(response.json())


def test_a_filtered_search_is_left_to_the_route(shipped_client):
    data = shipped_client.get("/api/v1/errors?q=memory&domain=llm&limit=50").json()["data"]
    assert data and all(e["domain"] == "llm" for e in data)


@pytest.mark.parametrize(
    ("query", "taken"),
    [
        (b"q=kv+cache", ("kv cache", 50, 0)),
        (b"limit=20&q=%E6%98%BE%E5%AD%98&offset=40&bench=7", ("显存", 20, 40)),
        (b"q=x&limit=200&offset=1000000000", ("x", 200, 1_000_000_000)),
        (b"q=", None),
        (b"q=+++", None),
        (b"limit=5", None),
        (b"q=x&q=y", None),
        (b"q=x&domain=llm", None),
        (b"q=x&version=", None),
        (b"q=x&limit=0", None),
        (b"q=x&limit=+5", None),
        (b"q=x&offset=1000000001", None),
        (b"q=" + b"a" * 501, None),
    ],
)
def test_the_lean_path_takes_only_plain_valid_searches(query, taken):
    assert plain_search(QueryParams(query)) == taken


@pytest.mark.parametrize(
    "url", ["/api/v1/errors?q=memory", "/api/v1/errors?q=kv+cache&limit=5", "/search?q=memory"]
)
def test_a_search_of_an_empty_base_finds_nothing(client, url):
    response = client.get(url)
    assert response.status_code == 200
    if url.startswith("/api/"):
        assert response.json() == {"data": [], "count": 0, "next": None}


def test_the_search_page_shows_a_report_at_the_next_request(shipped_client):
    """The HTML search lists kept summaries too: a report moves its entry's figures there."""
    api = shipped_client.get("/api/v1/errors?q=memory&limit=50").json()["data"]
    entry = next(e for e in api if e["evidence_count"] == 0)
    before = shipped_client.get("/search?q=memory").text
    assert before.count(entry["url"]) >= 1
    shipped_client.post(f"/api/v1/errors/{entry['id']}/evidence", json={"outcome": "worked"})
    after = shipped_client.get("/search?q=memory").text

    def meta(page: str) -> str:
        at = page.index(f'href="{entry["url"]}"')
        return page[at : page.index("</li>", at)]

    assert "estimate, no reports yet" in meta(before)
    assert "from 1 report" in meta(after)
