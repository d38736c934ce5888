"""Search and lookup through the real app over the shipped data and the demo fixtures."""

import pytest
from bs4 import BeautifulSoup

from tests.conftest import FIXTURES, SEED_ID, load

SECOND_VLLM = "llm/vllm-no-available-memory-for-cache-blocks"


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("KV cache block", SEED_ID),
        ("lack of CPU swap space", SEED_ID),
        ("块管理器", SEED_ID),
        ("显存", None),
        ("分卷", "demo/cjk-only"),
        ("frobnicate widget", "demo/full-bilingual"),
        ("stale handle", "demo/full-bilingual"),  # root cause text
        ("Reboot the machine", "demo/full-bilingual"),  # dead end text
        ("Clear the widget cache", "demo/full-bilingual"),  # workaround text
        ("清除小部件缓存", "demo/full-bilingual"),  # Chinese workaround text
    ],
)
def test_search_finds_text_of_every_part_in_both_languages(reader, query, expected):
    body = reader.get("/api/v1/errors", params={"q": query}).json()
    assert body["count"] >= 1
    ids = [e["id"] for e in body["data"]]
    if expected:
        assert expected in ids[:3], ids
    assert all("<mark>" in e["snippet"] or query.lower() not in e["snippet"].lower() for e in body["data"])


@pytest.mark.parametrize(
    "query",
    ['"', '"unbalanced', "*", "-", "NEAR(", "NEAR(a b", "(((", "a OR", "AND NOT", "^x", "col:x", "'", "\\"],
)
def test_any_user_text_is_safe(reader, query):
    for path in ("/search", "/zh/search", "/api/v1/errors"):
        response = reader.get(path, params={"q": query})
        assert response.status_code == 200, (path, query)


def test_search_pages_highlight_and_escape(reader):
    page = BeautifulSoup(reader.get("/search", params={"q": "KV cache"}).text, "html.parser")
    first = page.select_one("ol.hits li")
    assert first.select_one("a")["href"].startswith("/errors/llm/")
    assert {m.text.lower() for m in first.select(".snippet mark")} == {"kv", "cache"}
    zh = BeautifulSoup(reader.get("/zh/search", params={"q": "缓存块"}).text, "html.parser")
    assert zh.select_one("ol.hits li a")["href"].startswith("/zh/errors/llm/")
    assert zh.select_one(".snippet mark").text == "缓存块"
    hostile = reader.get("/search", params={"q": "<script>alert(1)</script>"}).text
    assert "<script>alert(1)</script>" not in hostile


def test_search_filters_combine_with_domain(reader):
    body = reader.get("/api/v1/errors", params={"q": "memory", "domain": "pytorch"}).json()
    assert body["data"] and {e["domain"] for e in body["data"]} == {"pytorch"}
    # Each hit of a filtered search is marked as the search without a filter marks it: whole
    # words, and a fragment of an identifier (found as a substring).
    for q, domain in (("memory", "pytorch"), ("memory utilization", "llm"), ("utilizat", "llm")):
        filtered = reader.get("/api/v1/errors", params={"q": q, "domain": domain}).json()["data"]
        everywhere = reader.get("/api/v1/errors", params={"q": q, "limit": 200}).json()["data"]
        marked = {e["id"]: e["snippet"] for e in everywhere}
        assert filtered and all("<mark>" in e["snippet"] for e in filtered), q
        assert [e["snippet"] for e in filtered] == [marked[e["id"]] for e in filtered], q


def _all_pages(reader, params: dict) -> tuple[list[dict], set[int]]:
    items, counts, offset = [], set(), 0
    while True:
        page = reader.get("/api/v1/errors", params={**params, "limit": 50, "offset": offset}).json()
        items += page["data"]
        counts.add(page["count"])
        if not page["next"]:
            return items, counts
        offset += 50


@pytest.mark.parametrize(
    "params",
    [
        {"q": "error", "domain": "git"},
        {"q": "memory", "domain": "pytorch"},
        {"q": "permission denied", "domain": "docker"},
        {"q": "显存", "domain": "cuda"},
        {"q": "version", "category": "compatibility_error"},
        {"q": "memory", "component": "vllm"},
    ],
)
def test_a_filtered_search_lists_and_counts_every_match_of_the_filter(reader, params):
    """The same entries as the search without the filter holds of that domain, category or
    component, each once, and their number as the count."""
    q, (name, value) = params["q"], next((k, v) for k, v in params.items() if k != "q")
    everywhere, _ = _all_pages(reader, {"q": q})
    listed, _ = _all_pages(reader, {name: value})
    among = {e["id"] for e in listed}
    expected = [e["id"] for e in everywhere if e["id"] in among]
    filtered, counts = _all_pages(reader, params)
    assert expected, params  # the case finds something to filter
    assert sorted(e["id"] for e in filtered) == sorted(expected) and counts == {len(expected)}


def test_list_filters_by_affected_version(reader):
    affected = reader.get("/api/v1/errors", params={"component": "vllm", "version": "0.4.2"}).json()
    assert SEED_ID in [e["id"] for e in affected["data"]]
    # An entry whose rows call that version unaffected is not in its list.
    unlisted = reader.get("/api/v1/errors", params={"component": "vLLM", "version": "0.4.2"}).json()
    assert "llm/vllm-free-memory-less-than-utilization" not in [e["id"] for e in unlisted["data"]]
    frob = reader.get("/api/v1/errors", params={"component": "frob", "version": "2.4"}).json()
    assert [e["id"] for e in frob["data"]] == ["demo/full-bilingual"]
    fixed = reader.get("/api/v1/errors", params={"component": "frob", "version": "3.1"}).json()
    assert fixed["data"] == []


def test_list_paginates_with_next_links(reader):
    first = reader.get("/api/v1/errors", params={"limit": 10}).json()
    assert len(first["data"]) == 10 and first["count"] >= 46
    second = reader.get(first["next"]).json()
    assert not {e["id"] for e in first["data"]} & {e["id"] for e in second["data"]}
    last = reader.get("/api/v1/errors", params={"limit": 10, "offset": first["count"] - 1}).json()
    assert len(last["data"]) == 1 and last["next"] is None
    assert reader.get("/api/v1/errors", params={"limit": 0}).status_code == 422


PASTES = {
    path.stem.replace("__", "/"): path.read_text(encoding="utf-8")
    for path in sorted((FIXTURES / "pastes").glob("*.txt"))
}


@pytest.mark.parametrize("expected", list(PASTES))
def test_lookup_puts_the_right_entry_first(reader, expected):
    response = reader.post("/api/v1/lookup", json={"text": PASTES[expected]})
    assert response.status_code == 200
    matches = response.json()["matches"]
    assert matches[0]["id"] == expected
    assert set(matches[0]) == {"id", "title", "score", "url"}
    assert 0 < matches[0]["score"] <= 1 and matches[0]["url"] == f"/errors/{expected}"
    assert [m["score"] for m in matches] == sorted((m["score"] for m in matches), reverse=True)


@pytest.mark.parametrize(
    "text",
    ["hello world", "Build succeeded. 42 tests passed.", "", "   ", "我今天很开心", "INFO: all good"],
)
def test_lookup_returns_nothing_rather_than_padding(reader, text):
    assert reader.post("/api/v1/lookup", json={"text": text}).json() == {"matches": []}


def test_lookup_versions_rank_affected_entries_higher(reader):
    text = (
        "RuntimeError: Unable to allocate memory for KV cache block\n"
        "ValueError: No available memory for the cache blocks"
    )
    plain = reader.post("/api/v1/lookup", json={"text": text}).json()["matches"]
    scores = {m["id"]: m["score"] for m in plain}
    boosted = reader.post("/api/v1/lookup", json={"text": text, "versions": {"vllm": "0.4.2"}}).json()[
        "matches"
    ]
    boosted_scores = {m["id"]: m["score"] for m in boosted}
    assert boosted_scores[SEED_ID] > scores[SEED_ID]
    assert boosted[0]["id"] == SEED_ID


def test_lookup_limits_and_validation(reader):
    assert (
        len(reader.post("/api/v1/lookup", json={"text": PASTES[SEED_ID], "limit": 1}).json()["matches"]) == 1
    )
    assert reader.post("/api/v1/lookup", json={"text": "x" * (64 * 1024 + 1)}).status_code == 413
    assert reader.post("/api/v1/lookup", json={"text": "é" * 40_000}).status_code == 413
    assert reader.post("/api/v1/lookup", content=b"x" * (600 * 1024)).status_code == 413
    bad = reader.post("/api/v1/lookup", json={"limit": 5})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"][-1] == "text"
    assert reader.post("/api/v1/lookup", json={"text": "x", "limit": 500}).status_code == 422


def test_paste_box_leads_to_a_shareable_results_page(reader):
    posted = reader.post("/lookup", data={"text": PASTES[SEED_ID]}, follow_redirects=False)
    assert posted.status_code == 303 and posted.headers["location"].startswith("/lookup?q=")
    results = reader.get(posted.headers["location"])
    page = BeautifulSoup(results.text, "html.parser")
    first = page.select_one("#matches ol.hits li")
    assert first.select_one("a")["href"] == f"/errors/{SEED_ID}"
    assert "Unable to allocate memory" in page.select_one("form.lookup textarea").text
    # Each result answers: the signature, the fix rate with its reports, the best workaround.
    assert "Unable to allocate memory for KV cache block" in first.select_one(".sig").text
    assert "fix rate 80% (from 1 report)" in first.select_one(".meta").text
    assert "--max-num-seqs" in first.select_one("pre.command").text
    # The language switch keeps the paste.
    switch = page.select_one("a.lang-switch")["href"]
    assert switch.startswith("/zh/lookup?q=")
    zh = BeautifulSoup(reader.get(switch).text, "html.parser")
    assert zh.select_one("#matches ol.hits li a")["href"] == f"/zh/errors/{SEED_ID}"


def test_a_paste_too_long_for_a_url_gets_a_permalink(reader):
    warm_up = [f"INFO step {i} of the warm-up went fine" for i in range(200)]
    long_paste = "\n".join([*warm_up, PASTES[SEED_ID]])
    posted = reader.post("/zh/lookup", data={"text": long_paste}, follow_redirects=False)
    location = posted.headers["location"]
    assert posted.status_code == 303 and location.startswith("/zh/lookup?p=") and len(location) < 40
    page = BeautifulSoup(reader.get(location).text, "html.parser")
    assert page.select_one("#matches ol.hits li a")["href"] == f"/zh/errors/{SEED_ID}"
    again = reader.post("/zh/lookup", data={"text": long_paste}, follow_redirects=False)
    assert again.headers["location"] == location  # one permalink per text
    assert reader.get("/lookup?p=nosuchpaste").status_code == 404


def test_results_page_says_so_when_nothing_fits(reader):
    for text in ("hello", "widget spline reticulation failed"):
        page = BeautifulSoup(reader.get("/lookup", params={"q": text}).text, "html.parser")
        assert not page.select("#matches ol.hits li"), text
        no_match = page.select_one("#no-match")
        assert "No entry fits" in no_match.text
        assert no_match.select_one("a[href^='/search?q=']") is not None


def test_search_and_lookup_follow_imports_and_edits(shipped_settings, shipped_client, tmp_path):
    from tests.conftest import load

    paste = "Traceback (most recent call last):\nQuuxError: the quux reactor melted at 451 degrees"
    assert shipped_client.post("/api/v1/lookup", json={"text": paste}).json()["matches"] == []
    (tmp_path / "demo").mkdir()
    source = tmp_path / "demo" / "quux.yaml"
    source.write_text(
        "id: demo/quux\ndomain: demo\ncategory: runtime_error\ntitle: {en: Quux reactor melted}\n"
        "signature: 'QuuxError: the quux reactor melted at 300 degrees'\n"
        "patterns: ['QuuxError: the quux reactor melted']\nprior: {fix_rate: 0.5, confidence: 0.5}\n"
        "root_cause: {en: The coolant valve sticks.}\n"
    )
    load(shipped_settings, source)  # another process, as `errata import` would be
    assert (
        shipped_client.post("/api/v1/lookup", json={"text": paste}).json()["matches"][0]["id"] == "demo/quux"
    )
    assert [
        e["id"] for e in shipped_client.get("/api/v1/errors", params={"q": "coolant"}).json()["data"]
    ] == ["demo/quux"]
    source.write_text(source.read_text().replace("coolant valve sticks", "pump seizes"))
    assert load(shipped_settings, source).updated == 1
    assert shipped_client.get("/api/v1/errors", params={"q": "coolant"}).json()["count"] == 0
    assert (
        shipped_client.get("/api/v1/errors", params={"q": "pump seizes"}).json()["data"][0]["id"]
        == "demo/quux"
    )
    shipped_client.post("/api/v1/errors/demo/quux/evidence", json={"outcome": "worked"})
    hit = shipped_client.get("/api/v1/errors", params={"q": "pump seizes"}).json()["data"][0]
    assert hit["evidence_count"] == 1 and hit["fix_rate"] > 0.5


def test_search_results_of_the_list_api_come_in_pages_that_do_not_overlap(reader):
    # With a filter, the ranked matches are narrowed to the domain, then paged.
    search = {"q": "npm", "domain": "node", "limit": 3}
    first = reader.get("/api/v1/errors", params=search).json()
    second = reader.get("/api/v1/errors", params={**search, "offset": 3}).json()
    ids = [e["id"] for e in first["data"] + second["data"]]
    assert first["count"] > 6 and len(ids) == len(set(ids)) == 6


def test_search_pages_say_how_many_there_are_and_link_to_the_next(reader):
    count = reader.get("/api/v1/errors", params={"q": "error", "limit": 1}).json()["count"]
    pages = -(-count // 50)
    assert pages >= 2
    first = BeautifulSoup(reader.get("/search", params={"q": "error", "page": 1}).text, "html.parser")
    assert f"Page 1 of {pages}" in first.get_text(" ", strip=True)
    assert first.select_one("a[rel=next]")["href"].endswith("page=2")
    last = reader.get("/zh/search", params={"q": "error", "page": pages})
    assert last.status_code == 200 and not BeautifulSoup(last.text, "html.parser").select("a[rel=next]")


def test_a_search_whose_last_page_holds_one_result_still_links_to_it(shipped_client, monkeypatch):
    from app.routers import pages

    count = shipped_client.get("/api/v1/errors", params={"q": "error", "limit": 1}).json()["count"]
    monkeypatch.setattr(pages, "PAGE_SIZE", count - 1)  # as if 51 entries matched pages of 50
    first = BeautifulSoup(shipped_client.get("/search", params={"q": "error"}).text, "html.parser")
    assert "Page 1 of 2" in first.get_text(" ", strip=True)
    last = BeautifulSoup(
        shipped_client.get("/zh/search" + first.select_one("a[rel=next]")["href"]).text, "html.parser"
    )
    assert "第 2 页，共 2 页" in last.get_text(" ", strip=True)
    hrefs = [a["href"] for a in first.select("ol.hits > li > a")]
    [alone] = [a["href"].removeprefix("/zh") for a in last.select("ol.hits > li > a")]
    assert len(set([*hrefs, alone])) == count


def test_search_pages_together_list_every_result_once(reader):
    count = reader.get("/api/v1/errors", params={"q": "error", "limit": 1}).json()["count"]
    seen: list[str] = []
    for number in range(1, -(-count // 50) + 1):
        page = BeautifulSoup(reader.get("/search", params={"q": "error", "page": number}).text, "html.parser")
        seen += [a["href"] for a in page.select(".hits > li > a")]
    assert count > 100 and len(seen) == len(set(seen)) == count


def test_every_entry_is_listed_by_its_own_domain_and_a_longer_domain_is_refused(settings, client, tmp_path):
    # The longest domain the database keeps (100 characters) is listed like any other; a
    # longer one is refused at import by name, on every backend, before anything is written.
    def entry(domain: str):
        source = tmp_path / f"{len(domain)}.yaml"
        source.write_text(
            f"id: {domain}/x\ndomain: {domain}\ncategory: runtime_error\ntitle: {{en: A long domain}}\n"
            "signature: 'LongError: a domain of many letters'\nprior: {fix_rate: 0.5, confidence: 0.5}\n"
        )
        return load(settings, source)

    longest = "d" * 100
    assert entry(longest).created == 1
    listed = client.get("/api/v1/errors", params={"domain": longest})
    assert listed.status_code == 200 and [e["id"] for e in listed.json()["data"]] == [f"{longest}/x"]
    assert client.get(f"/domains/{longest}").status_code == 200
    refused = entry(longest + "d")
    assert refused.created == 0 and [f.field for f in refused.failures] == ["domain"]
