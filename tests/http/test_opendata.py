"""Open data through the real app: the dump, /stats.json, /llms.txt, /about, OpenSearch."""

import errno
import gzip
import json
import re
import tempfile
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.config import Settings
from app.db import make_engine
from app.main import create_app
from app.services.opendata import dump
from app.services.opendata.dump import dump_folder
from app.services.opendata.sources import known_sources
from tests.conftest import CANON_VALID, SEED_ID, load, make_settings

DUMP = "/dumps/errata.ndjson.gz"


def _lines(response) -> list[dict]:
    return [json.loads(line) for line in gzip.decompress(response.content).decode().splitlines()]


def test_dump_holds_every_entry_and_follows_changes(shipped_client, shipped_settings, monkeypatch):
    monkeypatch.setattr(dump, "MIN_AGE_SECONDS", 0)
    first = shipped_client.get(DUMP)
    assert first.status_code == 200
    assert first.headers["content-type"] == "application/gzip"
    assert 'filename="errata.ndjson.gz"' in first.headers["content-disposition"]
    header, *entries = _lines(first)
    stats = shipped_client.get("/stats.json").json()
    assert header["type"] == "errata-dump" and len(entries) == stats["entries"]
    assert header["site"] == "http://testserver"
    assert entries[0] == shipped_client.get(f"/errors/{entries[0]['id']}.json").json()

    etag = first.headers["etag"]
    assert shipped_client.get(DUMP, headers={"If-None-Match": etag}).status_code == 304
    # Served from the cache while nothing changes: the same bytes, no new file.
    again = shipped_client.get(DUMP)
    assert again.content == first.content and again.headers["etag"] == etag

    report = shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked"})
    assert report.status_code == 201
    moved = shipped_client.get(DUMP, headers={"If-None-Match": etag})
    assert moved.status_code == 200 and moved.headers["etag"] != etag
    seed = next(e for e in _lines(moved)[1:] if e["id"] == SEED_ID)
    assert seed["evidence_count"] == report.json()["entry"]["evidence_count"]

    # A newly imported source is credited in the header, with its licence.
    load(shipped_settings, CANON_VALID)
    latest = shipped_client.get(DUMP)
    header, *entries = _lines(latest)
    corpus = next(s for s in header["sources"] if s["name"] == "deadends.dev")
    assert corpus["licence"] == "CC BY 4.0" and "YuJin Hong" in corpus["attribution"]
    assert corpus["url"] == "https://github.com/dbwls99706/deadends.dev"
    assert corpus["entries"] == sum(
        1 for e in entries if (e["provenance"] or {}).get("source") == "deadends.dev"
    )
    # Older versions are removed once a new one is in place, but for the last few (another
    # worker may still be sending one): a fourth version leaves the three newest.
    shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "failed"})
    last = shipped_client.get(DUMP)
    cached = {path.name for path in dump_folder(shipped_settings).glob("errata-*.ndjson.gz")}
    assert dump.KEEP_OLD + 1 == 3
    assert cached == {"errata-" + r.headers["etag"].strip('"') + ".ndjson.gz" for r in (moved, latest, last)}
    assert not list(dump_folder(shipped_settings).glob(".writing-*"))


def test_a_dump_cut_short_leaves_no_file_and_the_next_one_is_whole(shipped_settings, monkeypatch, tmp_path):
    engine = make_engine(shipped_settings)
    sources = known_sources(shipped_settings.content_licence)
    whole = dump.gzip_dump

    def disk_full(session, path, *args):
        whole(session, path, *args)
        raise OSError(errno.ENOSPC, "No space left on device")  # as the last block is flushed

    monkeypatch.setattr(dump, "gzip_dump", disk_full)
    with pytest.raises(OSError):
        dump.cached_dump(engine, tmp_path, sources, None)
    assert list(tmp_path.iterdir()) == []  # no half-written file to be served or to fill the disk
    monkeypatch.undo()
    path, version = dump.cached_dump(engine, tmp_path, sources, None)
    engine.dispose()
    assert list(tmp_path.iterdir()) == [path]
    header, *entries = [json.loads(line) for line in gzip.decompress(path.read_bytes()).splitlines()]
    assert header["data_version"] == version and len(entries) > 200


def test_two_database_servers_never_share_a_dump_folder():
    one, other = (
        dump_folder(Settings(database_url=f"postgresql://errata@db.example/{name}")) for name in ("a", "b")
    )
    assert one.parent == Path(tempfile.gettempdir()) / "errata-dumps" and one != other


def test_the_dump_is_kept_in_the_folder_the_configuration_names(shipped_database, tmp_path):
    chosen = tmp_path / "dumps-here"
    settings = make_settings(shipped_database, dump_dir=chosen)
    assert dump_folder(settings) == chosen
    with TestClient(create_app(settings)) as client:
        served = client.get(DUMP)
    assert served.status_code == 200
    [kept] = chosen.glob("errata-*.ndjson.gz")
    assert kept.read_bytes() == served.content
    assert not list(dump_folder(make_settings(shipped_database)).glob("errata-*"))  # nothing in the default


def test_a_fresh_dump_is_served_while_reports_come_in(shipped_client):
    """Reporting and downloading in turn cannot make the server write a dump each time."""
    first = shipped_client.get(DUMP)
    shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked"})
    second = shipped_client.get(DUMP)
    assert second.content == first.content and second.headers["etag"] == first.headers["etag"]
    assert _lines(second)[0]["data_version"] == first.headers["etag"].strip('"')


def test_stats(shipped_client):
    stats = shipped_client.get("/stats.json").json()
    assert set(stats) == {"entries", "domains", "reports", "last_change", "by_source"}
    domains = {d["domain"] for d in shipped_client.get("/api/v1/errors?limit=200").json()["data"]}
    assert stats["entries"] == shipped_client.get("/api/v1/errors").json()["count"]
    assert stats["domains"] >= len(domains) and stats["reports"] >= 1
    assert re.match(r"^\d{4}-\d\d-\d\dT", stats["last_change"])


def test_llms_txt_links_the_markdown_views_and_stays_bounded(reader):
    response = reader.get("/llms.txt")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    text = response.text
    lines = text.splitlines()
    assert lines[0] == "# errata" and lines[2].startswith("> ")
    sections = [line[3:] for line in lines if line.startswith("## ")]
    assert sections[:2] == ["Tools", "Data"] and "git" in sections and "llm" in sections
    links = re.findall(r"^- \[([^\]]+)\]\((http[^)]+)\)", text, re.M)
    entry_links = [url for _, url in links if url.endswith(".md")]
    assert entry_links and all(re.match(r"^http://testserver/errors/[a-z0-9]", u) for u in entry_links)
    for url in entry_links[:5]:
        assert reader.get(url.removeprefix("http://testserver")).status_code == 200
    assert "http://testserver/dumps/errata.ndjson.gz" in [url for _, url in links]
    # A few entries per domain, then a link to the rest, whatever the size of the base.
    git = text.split("## git\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"\(http://testserver/errors/(git/[^)]+)\.md\)", git)
    assert len(listed) == 10 and "(http://testserver/domains/git)" in git
    # "All N" only where a domain has more entries than it lists, with the domain's own count.
    for section in text.split("\n## ")[3:]:
        domain, body = section.split("\n", 1)
        shown = len(re.findall(r"\.md\): `", body))
        total = reader.get("/api/v1/errors", params={"domain": domain}).json()["count"]
        more = re.findall(rf"^- \[All (\d+) {re.escape(domain)} entries\]", body, re.M)
        assert more == ([str(total)] if total > shown else []), domain


def test_about_page_in_both_languages(shipped_client, shipped_settings):
    load(shipped_settings, CANON_VALID)
    english = BeautifulSoup(shipped_client.get("/about").text, "html.parser")
    chinese = BeautifulSoup(shipped_client.get("/zh/about").text, "html.parser")
    assert english.h1.text == "About errata and its data" and chinese.h1.text == "关于 errata 及其数据"
    for page in (english, chinese):
        rows = {tr.td.text.strip(): tr for tr in page.select("tbody tr")}
        assert set(rows) == {"errata", "deadends.dev"}
        assert "CC BY 4.0" in rows["deadends.dev"].text and "YuJin Hong" in rows["deadends.dev"].text
        hrefs = {a["href"] for a in page.find_all("a")}
        assert "https://github.com/dbwls99706/deadends.dev" in hrefs
        assert "https://creativecommons.org/licenses/by/4.0/" in hrefs
        assert {"/dumps/errata.ndjson.gz", "/stats.json", "/llms.txt"} <= hrefs
    assert "开放数据" in chinese.text and "许可协议" in chinese.text
    home = BeautifulSoup(shipped_client.get("/zh/").text, "html.parser")
    assert home.find("a", href="/zh/about")


def test_opensearch_description_searches_from_the_address_bar(reader):
    page = BeautifulSoup(reader.get("/").text, "html.parser")
    link = page.find("link", rel="search")
    assert link["type"] == "application/opensearchdescription+xml"
    description = reader.get(link["href"])
    assert description.headers["content-type"].startswith("application/opensearchdescription+xml")
    ns = {"os": "http://a9.com/-/spec/opensearch/1.1/"}
    root = ET.fromstring(description.content)
    assert root.find("os:ShortName", ns).text == "errata"
    template = root.find("os:Url[@type='text/html']", ns).get("template")
    # What a browser does with a term typed in the address bar.
    url = template.replace("{searchTerms}", "not%20a%20git%20repository").removeprefix("http://testserver")
    results = BeautifulSoup(reader.get(url).text, "html.parser")
    assert results.select_one("ol.hits a[href='/errors/git/not-a-git-repository']")

    suggest = root.find("os:Url[@type='application/x-suggestions+json']", ns).get("template")
    offered = reader.get(
        suggest.replace("{searchTerms}", "git%20repository").removeprefix("http://testserver")
    )
    assert offered.headers["content-type"] == "application/x-suggestions+json"
    term, titles, signatures, urls = offered.json()
    assert term == "git repository" and len(titles) == len(signatures) == len(urls) >= 1
    assert "http://testserver/errors/git/not-a-git-repository" in urls
    assert reader.get("/search/suggestions?q=").json() == ["", [], [], []]
    assert reader.get("/search/suggestions?q=" + "x" * 300).status_code == 422


def test_llms_txt_lists_the_domains_past_its_bound_by_name_and_count(shipped_client, monkeypatch):
    from app.routers import opendata

    monkeypatch.setattr(opendata, "LLMS_DOMAINS", 3)  # as if the base had more than 100 domains
    text = shipped_client.get("/llms.txt").text
    sections = [line[3:] for line in text.splitlines() if line.startswith("## ")]
    *listed, optional = sections[2:]
    rest = re.findall(
        r"^- \[([^\]]+)\]\(http://testserver/domains/\1\): (\d+)$", text.split("## Optional\n")[1], re.M
    )
    assert optional == "Optional" and len(listed) == 3 and len(rest) >= 3
    # Every domain once, in the order of their names: the first ones with entries, the rest by count.
    names = [*listed, *(d for d, _ in rest)]
    assert names == sorted(set(names)) and len(names) == shipped_client.get("/stats.json").json()["domains"]
    for domain, n in rest:
        assert shipped_client.get("/api/v1/errors", params={"domain": domain}).json()["count"] == int(n)
