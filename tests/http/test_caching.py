"""Entry reads through the cache: ETag and 304, Cache-Control, gzip, HEAD, invalidation, queries."""

import gc
import gzip
import sys
import tracemalloc
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from starlette.responses import Response

from app.db import entry_stamp_reader, make_engine, read_session
from app.main import create_app
from app.schemas.api import EvidenceIn
from app.services.entries.read import current_stamp, load_entry
from app.services.evidence.reports import record_evidence
from app.web.entry_cache import Form, FormCache
from tests.conftest import ADMIN_TOKEN, SEED_ID

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
VIEWS = [
    f"/errors/{SEED_ID}",
    f"/zh/errors/{SEED_ID}",
    f"/errors/{SEED_ID}.json",
    f"/errors/{SEED_ID}.md",
    f"/zh/errors/{SEED_ID}.md",
    f"/api/v1/errors/{SEED_ID}",
]


@contextmanager
def counting(client: TestClient):
    """Statements the app runs through its ORM engine, and the stamp checks of the fast path
    (one query each, on its own connection, whichever the backend)."""
    orm: list[str] = []
    stamps: list[tuple[str, ...]] = []

    def on_execute(conn, cursor, statement, parameters, context, executemany):
        orm.append(statement)

    state = client.app.state
    reader = state.read_stamp

    def counted(ids: tuple[str, ...]):
        stamps.append(ids)
        return reader(ids)

    event.listen(state.engine, "before_cursor_execute", on_execute)
    state.read_stamp = counted
    try:
        yield orm, stamps
    finally:
        event.remove(state.engine, "before_cursor_execute", on_execute)
        state.read_stamp = reader


def _rows(statements: list[str]) -> list[str]:
    return [s for s in statements if s.lstrip().upper().startswith("SELECT")]


@pytest.mark.parametrize("path", VIEWS)
def test_entry_views_can_be_kept_by_shared_caches_and_revalidated(shipped_client, path):
    first = shipped_client.get(path)
    assert first.status_code == 200
    assert first.headers["cache-control"] == "public, max-age=0, must-revalidate, s-maxage=60"
    assert first.headers["vary"] == "Accept-Encoding"
    etag = first.headers["etag"]
    again = shipped_client.get(path)  # now from the cache
    assert again.content == first.content and again.headers["etag"] == etag
    for tag in (etag, etag.removeprefix("W/"), f'"other", {etag}', "*"):
        unchanged = shipped_client.get(path, headers={"If-None-Match": tag})
        assert unchanged.status_code == 304 and unchanged.content == b""
        assert unchanged.headers["etag"] == etag and "cache-control" in unchanged.headers
    assert shipped_client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_each_language_and_format_has_its_own_etag(shipped_client):
    tags = {shipped_client.get(path).headers["etag"] for path in VIEWS}
    assert len(tags) == len(VIEWS)


def test_the_etag_comes_from_the_revision_so_a_fresh_process_answers_304(shipped_settings):
    with TestClient(create_app(shipped_settings)) as one:
        etag = one.get(f"/zh/errors/{SEED_ID}").headers["etag"]
    with TestClient(create_app(shipped_settings)) as other:  # nothing cached here yet
        assert other.get(f"/zh/errors/{SEED_ID}", headers={"If-None-Match": etag}).status_code == 304


@pytest.mark.parametrize("path", [f"/errors/{SEED_ID}", f"/zh/errors/{SEED_ID}", f"/errors/{SEED_ID}.json"])
def test_gzip_for_clients_that_ask_and_plain_for_those_that_do_not(shipped_client, path):
    for _ in range(2):  # rendered, then cached
        plain = shipped_client.get(path, headers={"Accept-Encoding": "identity"})
        assert "content-encoding" not in plain.headers
        zipped = shipped_client.get(path, headers={"Accept-Encoding": "br, gzip"}, extensions={})
        assert zipped.headers["content-encoding"] == "gzip"
        assert int(zipped.headers["content-length"]) < len(plain.content) / 2
        assert zipped.content == plain.content  # httpx decoded it
        for refusing in ("gzip;q=0", "gzip; q=0.0, *", "deflate", "x-gzip;q=0, *", "GZIP;\tq=0.000"):
            refused = shipped_client.get(path, headers={"Accept-Encoding": refusing})
            assert "content-encoding" not in refused.headers, refusing
        for taking in ("*", "*;q=0, gzip", "identity;q=0, gzip;q=0.5", "x-gzip", "br;q=1, gzip;q=0.001"):
            taken = shipped_client.get(path, headers={"Accept-Encoding": taking})
            assert taken.headers["content-encoding"] == "gzip" and taken.content == plain.content, taking
        request = shipped_client.build_request("GET", path)
        del request.headers["accept-encoding"]  # a client that names no coding at all
        bare = shipped_client.send(request)
        assert "content-encoding" not in bare.headers and bare.content == plain.content


def test_raw_gzip_body_is_the_page(shipped_client):
    path = f"/errors/{SEED_ID}.json"
    plain = shipped_client.get(path).content
    with shipped_client.stream("GET", path, headers={"Accept-Encoding": "gzip"}) as response:
        raw = b"".join(response.iter_raw())
    assert gzip.decompress(raw) == plain


def test_other_pages_are_compressed_too(shipped_client):
    page = shipped_client.get("/search?q=memory", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip" and "Accept-Encoding" in page.headers["vary"]


@pytest.mark.parametrize("path", VIEWS[:3])
def test_head_has_the_headers_of_get_and_no_body(shipped_client, path):
    for _ in range(2):
        head = shipped_client.head(path)
        get = shipped_client.get(path)
        assert head.status_code == 200 and head.content == b""
        for name in ("etag", "content-type", "content-length", "cache-control"):
            assert head.headers[name] == get.headers[name]


def test_an_evidence_write_and_its_rejection_show_at_the_next_request(shipped_client):
    path = f"/errors/{SEED_ID}.json"
    before = shipped_client.get(path)
    page_before = shipped_client.get(f"/zh/errors/{SEED_ID}")
    shipped_client.get(path)  # cached
    created = shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "failed"})
    after = shipped_client.get(path, headers={"If-None-Match": before.headers["etag"]})
    assert after.status_code == 200
    assert after.json()["evidence_count"] == before.json()["evidence_count"] + 1
    assert after.headers["etag"] != before.headers["etag"]
    assert shipped_client.get(f"/zh/errors/{SEED_ID}").text != page_before.text
    uid = created.json()["evidence"]["uid"]
    shipped_client.post(f"/api/v1/moderation/evidence/{uid}/reject", headers=AUTH)
    rejected = shipped_client.get(path)
    assert rejected.json()["evidence_count"] == before.json()["evidence_count"]
    assert rejected.json()["fix_rate"] == before.json()["fix_rate"]
    shipped_client.post(f"/api/v1/moderation/evidence/{uid}/restore", headers=AUTH)
    assert shipped_client.get(path).json()["evidence_count"] == before.json()["evidence_count"] + 1


def test_a_repeated_report_leaves_every_kept_view_current(shipped_client):
    """A retried report stores nothing and moves no figure, so no view is thrown away for it:
    a client resending one report cannot empty every process's caches."""
    report = {"outcome": "worked", "note": "retried"}
    paths = [f"/errors/{SEED_ID}.json", "/api/v1/errors?q=memory"]
    first = shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json=report)
    current = {path: shipped_client.get(path).headers["etag"] for path in paths}
    again = shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json=report)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()  # the stored report, answered again
    for path, etag in current.items():
        assert shipped_client.get(path, headers={"If-None-Match": etag}).status_code == 304, path
    changed = shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={**report, "outcome": "failed"})
    assert changed.status_code == 201
    for path, etag in current.items():
        assert shipped_client.get(path, headers={"If-None-Match": etag}).status_code == 200, path


def test_a_cached_read_is_one_stamp_query_and_a_first_read_a_fixed_few(shipped_client):
    small, large = "demo/zh-missing", SEED_ID  # few parts; many parts and evidence
    counts = []
    for entry_id in (small, large):
        with counting(shipped_client) as (orm, stamps):
            assert shipped_client.get(f"/errors/{entry_id}.json").status_code == 200
        counts.append(len(_rows(orm)))
        with counting(shipped_client) as (orm, stamps):
            for _ in range(3):
                assert shipped_client.get(f"/errors/{entry_id}.json").status_code == 200
        assert _rows(orm) == [] and len(stamps) == 3
    # The same few set-based queries whatever the entry holds: one per kind of part, and two
    # more when it has related entries and reports (their titles, their versions).
    assert counts[1] <= counts[0] + 2 <= 15
    body = shipped_client.get(f"/errors/{large}.json").json()
    parts = sum(len(body[k]) for k in ("workarounds", "dead_ends", "versions", "patterns", "docs"))
    assert parts + len(body["recent_evidence"]) > 12


def test_the_stamp_an_entry_is_kept_under_is_the_one_each_later_check_reads(shipped_settings):
    """The fast path serves a kept entry while its stamp reads the same: taken while the
    entry loaded, read again for its ids, and moved by a write to any entry it names."""
    engine = make_engine(shipped_settings)
    reader = entry_stamp_reader(engine)
    try:
        with read_session(engine) as session:
            loaded = load_entry(session, SEED_ID)
            assert len(loaded.ids) > 1  # the entry and the entries it links to
            assert current_stamp(session.connection(), loaded.ids) == loaded.stamp == reader(loaded.ids)
        record_evidence(engine, entry_id=loaded.ids[-1], report=EvidenceIn(outcome="worked"))
        with read_session(engine) as session:
            moved = current_stamp(session.connection(), loaded.ids)
        assert moved == reader(loaded.ids) != loaded.stamp
    finally:
        reader.close()
        engine.dispose()


def test_unknown_ids_are_still_404_and_not_kept_by_shared_caches(shipped_client):
    for path in ("/errors/llm/nope.json", "/zh/errors/llm/nope", "/api/v1/errors/llm/nope"):
        for _ in range(2):
            missing = shipped_client.get(path)
            assert missing.status_code == 404
            assert "public" not in missing.headers.get("cache-control", "")


def test_a_differently_written_id_still_redirects_when_the_entry_is_cached(shipped_client):
    shipped_client.get(f"/errors/{SEED_ID}")
    moved = shipped_client.get(f"/errors/{SEED_ID.upper()}", follow_redirects=False)
    assert moved.status_code == 301 and moved.headers["location"] == f"/errors/{SEED_ID}"


def test_a_tiny_cache_evicts_and_still_serves_every_entry(shipped_settings):
    ids = [SEED_ID, "demo/zh-missing"]
    with TestClient(create_app(shipped_settings.model_copy(update={"entry_cache_mb": 0}))) as tiny:
        for _ in range(2):
            for entry_id in ids:
                assert tiny.get(f"/errors/{entry_id}.json").json()["id"] == entry_id
        assert len(tiny.app.state.entry_forms) == 0


def test_a_full_cache_drops_the_entries_read_longest_ago(shipped_settings):
    with TestClient(create_app(shipped_settings.model_copy(update={"entry_cache_mb": 1}))) as small:
        ids = [e["id"] for e in small.get("/api/v1/errors", params={"limit": 60}).json()["data"]]
        for entry_id in ids:  # more than a megabyte of pages (about 40 fit)
            assert small.get(f"/errors/{entry_id}").status_code == 200
        assert 1 < len(small.app.state.entry_forms) < len(ids)
        for entry_id, kept in ((ids[-1], True), (ids[0], False)):
            with counting(small) as (orm, _):
                assert small.get(f"/errors/{entry_id}").status_code == 200
            assert (_rows(orm) == []) == kept, entry_id


def _markdown_forms(client: TestClient, count: int) -> list[tuple[tuple, Form]]:
    forms = []
    for entry in client.get(f"/api/v1/errors?limit={count}").json()["data"]:
        page = client.get(f"/errors/{entry['id']}.md")
        key = ("http", "testserver", "", f"/errors/{entry['id']}.md", b"")
        response = Response(page.content, media_type=page.headers["content-type"])
        forms.append((key, Form.of(response, key, (entry["id"],), (1, 1))))
    return forms


def _held(cache: FormCache, forms) -> int:
    """The bytes the kept forms hold: their pages and gzips."""
    return sum(len(f.body) + len(f.gzipped[0] if f.gzipped else b"") for k, f in forms if k in cache)


def test_the_entry_cache_keeps_within_its_byte_budget_and_evicts_the_least_recently_used(shipped_client):
    forms = _markdown_forms(shipped_client, 12)
    budget = 4 * max(len(form.body) for _, form in forms)
    cache = FormCache(budget)
    queue = iter(forms)

    def fill():  # put pages until one has to make room
        for key, form in queue:
            before = len(cache)
            cache.put(key, form)
            if len(cache) <= before:
                return key

    newest = fill()
    put = [key for key, _ in forms[: [key for key, _ in forms].index(newest) + 1]]
    kept = [key for key in put if key in cache]
    assert 2 <= len(kept) < len(put) and kept == put[-len(kept) :]  # the oldest went first
    assert _held(cache, forms) <= budget
    cache.get(kept[0])  # asked again, the oldest is now the most recently used
    assert fill() is not None
    assert kept[0] in cache and kept[1] not in cache
    for key, form in queue:
        cache.put(key, form)
    assert _held(cache, forms) <= budget


def test_forms_asked_for_again_outlast_a_run_of_forms_asked_once(shipped_client):
    """A crawler reading every entry once, or searches nobody repeats, must not push out
    the pages people keep reading."""
    forms = _markdown_forms(shipped_client, 40)
    budget = 8 * max(len(form.body) for _, form in forms)
    cache = FormCache(budget)
    hot, cold = forms[:3], forms[3:]
    for key, form in hot:
        cache.put(key, form)
        assert cache.get(key) is form  # asked for again
    for key, form in cold:  # many times the budget, each asked for once
        cache.put(key, form)
    assert all(key in cache for key, _ in hot)
    assert cold[0][0] not in cache and cold[-1][0] in cache
    assert _held(cache, forms) <= budget
    # The protected part holds four fifths of the budget at most: asked again in turn, the
    # forms asked longest ago go back on probation, and from there out.
    for key, form in cold:
        cache.put(key, form)
        cache.get(key)
    assert hot[0][0] not in cache and cold[-1][0] in cache
    assert _held(cache, forms) <= budget


def test_a_forms_size_counts_everything_it_holds(shipped_client):
    """Form.size counts header lists from their lengths, field by field: it must come to
    what walking every object of every field gives (a field added later counts too)."""

    def walked(value) -> int:
        held = sys.getsizeof(value)
        return held + sum(map(walked, value)) if isinstance(value, tuple | list) else held

    page = shipped_client.get(f"/errors/{SEED_ID}")
    key = ("http", "testserver", "", f"/errors/{SEED_ID}", b"")
    form = Form.of(Response(page.content, media_type="text/html"), key, (SEED_ID,), (1, 1))
    for _ in range(2):  # without its gzipped copy, then with it
        fields = (value for name, value in vars(form).items() if name != "keeper")
        assert form.size == sys.getsizeof(form) + sys.getsizeof(form.__dict__) + sum(map(walked, fields))
        assert form.gzip() is not None


def test_a_full_entry_cache_holds_no_more_memory_than_its_budget(shipped_client):
    """The budget (ERRATA_ENTRY_CACHE_MB) is what the kept forms really take, measured by
    the allocator: bodies, gzip, headers and the objects around them, not the bodies alone."""
    pages = []
    for entry in shipped_client.get("/api/v1/errors?limit=40").json()["data"]:
        for path in (f"/errors/{entry['id']}", f"/zh/errors/{entry['id']}.md"):
            page = shipped_client.get(path)
            key = ("http", "testserver", "", path, b"")
            pages.append((key, entry["id"], page.content, page.headers["content-type"]))
    budget = 400_000
    gc.collect()
    tracemalloc.start()
    try:
        cache = FormCache(budget)
        for key, entry_id, body, media_type in pages:
            # A body of its own, as a rendered page has.
            rendered = Response(bytes(bytearray(body)), media_type=media_type)
            cache.put(key, Form.of(rendered, key, (entry_id,), (1, 1)))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        assert 10 < len(cache) < len(pages)  # full: it had to let pages go
        assert 0.85 * budget < held <= budget
        # Gzipped copies, made as clients ask for them, count too: older pages make room.
        kept = [key for key, *_ in pages if cache.get(key) is not None]
        for key in kept:
            if (form := cache.get(key)) is not None:  # not yet evicted for another's gzip
                assert form.gzip() is not None
        del form
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert len(cache) < len(kept)
    assert all(cache.get(key).gzipped for key in kept if cache.get(key) is not None)
    assert 0.85 * budget < held <= budget


@pytest.mark.parametrize("path", ["/", "/zh/"])
def test_the_home_page_is_kept_until_any_entry_changes(shipped_client, path):
    first = shipped_client.get(path)
    assert first.status_code == 200 and "s-maxage" in first.headers["cache-control"]
    with counting(shipped_client) as (orm, stamps):
        again = shipped_client.get(path)
    assert again.content == first.content and _rows(orm) == [] and len(stamps) == 1
    for _ in range(3):  # now the most reported entry
        shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked"})
    after = shipped_client.get(path, headers={"If-None-Match": first.headers["etag"]})
    assert after.status_code == 200 and after.content != first.content


def test_search_results_are_kept_until_any_entry_changes(shipped_client):
    url = "/api/v1/errors?q=memory&limit=5"
    first = shipped_client.get(url).json()
    with counting(shipped_client) as (orm, stamps):
        again = shipped_client.get(url)
        page = shipped_client.get("/search?q=memory")
        page = shipped_client.get("/search?q=memory")
    assert again.json() == first and page.status_code == 200
    assert len(_rows(orm)) > 0 and len(stamps) == 2  # the page once rendered, then both kept
    entry_id = first["data"][0]["id"]
    shipped_client.post(f"/api/v1/errors/{entry_id}/evidence", json={"outcome": "worked"})
    after = shipped_client.get(url, headers={"If-None-Match": again.headers["etag"]})
    assert after.status_code == 200
    hit = next(e for e in after.json()["data"] if e["id"] == entry_id)
    assert hit["evidence_count"] == first["data"][0]["evidence_count"] + 1


def test_a_paste_asked_again_is_answered_before_routing_until_any_entry_changes(shipped_client):
    paste = {"text": shipped_client.get(f"/errors/{SEED_ID}.json").json()["signature"], "limit": 1}
    first = shipped_client.post("/api/v1/lookup", json=paste)
    assert first.json()["matches"][0]["id"] == SEED_ID
    # A POST's answer is not for shared caches, and never a 304.
    assert "etag" not in first.headers and "cache-control" not in first.headers
    # With the ranking's own memory gone, the route would rank again (and query the titles):
    # the kept reply answers before routing.
    shipped_client.app.state.lookup_index._results.clear()
    with counting(shipped_client) as (orm, stamps):
        again = shipped_client.post("/api/v1/lookup", json=paste, headers={"If-None-Match": "*"})
    assert again.status_code == 200 and again.json() == first.json()
    assert _rows(orm) == [] and stamps == [()]
    wider = shipped_client.post("/api/v1/lookup", json={**paste, "limit": 50}).json()["matches"]
    assert wider[:1] == first.json()["matches"] and len(wider) > 1  # its own answer, not the first's
    listed = shipped_client.get("/api/v1/errors?limit=8").json()["data"]
    signatures = [shipped_client.get(f"/errors/{e['id']}.json").json()["signature"] for e in listed]
    big = {"text": "\n".join(signatures), "limit": 50}
    for _ in range(2):  # ranked, then kept: gzip for a client that asks, either way
        plain = shipped_client.post("/api/v1/lookup", json=big, headers={"Accept-Encoding": "identity"})
        zipped = shipped_client.post("/api/v1/lookup", json=big, headers={"Accept-Encoding": "gzip"})
        assert len(plain.content) > 1024 and "content-encoding" not in plain.headers
        assert zipped.headers["content-encoding"] == "gzip" and zipped.json() == plain.json()
    # Any write renews the kept answers: the next asking ranks again against the index.
    shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked"})
    with counting(shipped_client) as (orm, stamps):
        after = shipped_client.post("/api/v1/lookup", json=paste)
    assert after.json() == first.json() and _rows(orm) != []
