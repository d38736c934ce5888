"""Entry views: the seed entry's every figure, all formats, both languages, 404s."""

import json
from datetime import date

import pytest
import yaml
from bs4 import BeautifulSoup
from markdown_it import MarkdownIt

from tests.conftest import DEMO_ENTRIES, SEED_ID, load

SECOND_VLLM = "llm/vllm-no-available-memory-for-cache-blocks"


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def test_seed_entry_json_has_every_figure_of_the_source_page(reader):
    entry = reader.get(f"/errors/{SEED_ID}.json").json()
    assert entry["schema_version"] == 1
    assert (entry["domain"], entry["category"]) == ("llm", "resource_error")
    assert entry["ai_generated"] is True and entry["review_status"] == "unreviewed"
    # The source page's wording is kept, and said to be one no release prints ...
    assert entry["signature"].startswith("RuntimeError: OutOfMemoryError: Unable to allocate memory for KV")
    methods = {v["text"]: v["method"] for v in entry["verification"]}
    assert methods[entry["signature"]] == "reported"
    # ... beside what vLLM really prints, each read from its source at a tag.
    variants = [v["text"] for v in entry["variants"]]
    assert "ValueError: Out of memory! No free blocks are available." in variants
    assert "ValueError: No free blocks available" in variants
    assert any("PreemptionMode.RECOMPUTE" in v for v in variants)
    assert any(v.startswith("RuntimeError: Aborted due to the lack of CPU swap space") for v in variants)
    assert all(methods[v] == "sourced" for v in variants)
    # The source page's figures, from its one report whose details are unknown.
    assert (entry["fix_rate"], entry["confidence"], entry["evidence_count"]) == (0.8, 0.85, 1)
    [report] = entry["recent_evidence"]
    details = (report["versions"], report["note"], report["submitted_at"], report["item"])
    assert details == ({}, None, None, None)
    assert entry["first_seen"] == "2024-01-10" and entry["scope"] == "generic"
    assert all(d["url"].startswith("https://docs.vllm.ai/") for d in entry["docs"])
    rates = {w["id"]: w["success_rate"] for w in entry["workarounds"]}
    assert (rates["lower-utilization-cap-seqs"], rates["enable-swap-space"]) == (0.9, 0.85)
    assert all(w["condition"] for w in entry["workarounds"])
    first = entry["workarounds"][0]
    for lang in ("en", "zh"):
        steps = first["steps"][lang]
        assert "--gpu-memory-utilization 0.80 --max-num-seqs 64" in steps  # the source page's command
    assert [d["fail_rate"] for d in entry["dead_ends"]] == [0.6, 0.4]
    assert all(d["action"]["zh"] and d["why_fails"]["zh"] for d in entry["dead_ends"])
    assert SECOND_VLLM in [r["id"] for r in entry["related"]["confused_with"]]
    assert SECOND_VLLM not in [r["id"] for r in entry["related"]["preceded_by"]]


def test_json_carries_both_languages_and_bookkeeping(reader):
    entry = reader.get(f"/errors/{SEED_ID}.json").json()
    assert set(entry["title"]) == {"en", "zh"}
    for key in ("created_at", "updated_at", "revision", "patterns", "links", "prior"):
        assert key in entry
    assert entry["links"]["markdown_zh"] == f"/zh/errors/{SEED_ID}.md"
    assert reader.get(f"/api/v1/errors/{SEED_ID}").json() == entry


def test_seed_page_shows_everything_at_a_glance(reader):
    page = soup(reader.get(f"/errors/{SEED_ID}"))
    # The title is inline Markdown: the whole of it, with no paragraph around it.
    assert page.h1.text == reader.get(f"/errors/{SEED_ID}.json").json()["title"]["en"]
    assert page.h1.p is None
    assert page.select_one("#fix-rate").text == "80%"
    assert page.select_one("#confidence").text == "85%"
    assert page.select_one("#evidence-count").text == "1"
    assert page.select_one("#first-seen").text == "2024-01-10"
    assert len(page.select("#versions tbody tr")) == 3  # the rows checked against vLLM source
    assert "AI-generated" in page.select_one(".tags").text
    commands = [c.text for c in page.select("#workarounds pre code")]
    assert any("--max-num-seqs" in c for c in commands)
    rates = [r.text for r in page.select("#workarounds .rate")]
    assert rates == ["90% success", "85% success", "85% success"]
    assert [r.text for r in page.select("#dead-ends .rate")] == ["60% fail", "40% fail: unreliable"]
    assert page.select_one("#docs a")["href"].startswith("https://docs.vllm.ai/")
    assert page.select_one("#related a")["href"] == f"/errors/{SECOND_VLLM}"
    links = {a.text.strip(): a["href"] for a in page.select(".formats a")}
    assert links == {
        "JSON": f"/errors/{SEED_ID}.json",
        "Markdown": f"/errors/{SEED_ID}.md",
        "中文": f"/zh/errors/{SEED_ID}",
    }
    assert page.html["lang"] == "en"


def test_chinese_page_is_chinese_and_links_back(reader):
    response = reader.get(f"/zh/errors/{SEED_ID}")
    page = soup(response)
    assert page.html["lang"] == "zh-Hans"
    assert page.h1.text.strip() == "vLLM 块管理器无法分配 KV 缓存块"
    headings = [h.text for h in page.select("h2")]
    assert "根本原因" in headings and "变通方案" in headings and "无效做法" in headings
    assert "缓存池" in page.select_one("#root-cause").text
    assert "交换空间" in page.select_one("#workarounds").text
    assert page.select_one(".formats a[hreflang=en]")["href"] == f"/errors/{SEED_ID}"
    assert not page.select(".untranslated"), "the seed entry is fully translated"


def test_entry_without_chinese_says_so_and_shows_english(reader):
    page = soup(reader.get("/zh/errors/demo/zh-missing"))
    notes = page.select(".untranslated, .untranslated-mark")
    assert notes and "尚未翻译" in notes[0].text + notes[0].get("title", "")
    assert "strict JSON" in page.select_one("#root-cause").text
    entry = reader.get("/errors/demo/zh-missing.json").json()
    assert entry["title"] == {"en": "Gadget config cannot be parsed", "zh": None}


def test_markdown_views_are_commonmark_documents(reader):
    for path, heading in ((f"/errors/{SEED_ID}.md", "Root cause"), (f"/zh/errors/{SEED_ID}.md", "根本原因")):
        response = reader.get(path)
        assert response.headers["content-type"] == "text/markdown; charset=utf-8"
        tokens = MarkdownIt("commonmark").parse(response.text)
        headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
        assert heading in headings
        fences = [t.content for t in tokens if t.type == "fence"]
        assert any("--swap-space 16" in f for f in fences)
        assert any(f.startswith("RuntimeError: OutOfMemoryError") for f in fences)
        assert "80%" in response.text


def test_markdown_views_end_with_their_other_formats_and_the_other_language_named_in_itself(reader):
    for prefix, other, other_prefix, said in (
        ("", "中文", "/zh", "Also available as: "),
        ("/zh", "English", "", "其他格式："),
    ):
        last = reader.get(f"{prefix}/errors/{SEED_ID}.md").text.rstrip().splitlines()[-1]
        assert last == (
            f"{said}[JSON](http://testserver/errors/{SEED_ID}.json) · "
            f"[HTML](http://testserver{prefix}/errors/{SEED_ID}) · "
            f"[{other}](http://testserver{other_prefix}/errors/{SEED_ID}.md)"
        )


def test_markdown_views_link_related_errors_with_the_note_that_tells_them_apart(reader):
    seed = reader.get(f"/errors/{SEED_ID}.json").json()["related"]["confused_with"]
    assert len(seed) >= 2 and all(r["note"] for r in seed)
    for lang, prefix in (("en", ""), ("zh", "/zh")):
        lines = reader.get(f"{prefix}/errors/{SEED_ID}.md").text.splitlines()
        for r in seed:
            [line] = [line for line in lines if f"{prefix}/errors/{r['id']}.md)" in line]
            assert line.endswith(f".md) — {r['note'][lang]}"), line
        # A relation without a note ends at its link.
        lines = reader.get(f"{prefix}/errors/demo/full-bilingual.md").text.splitlines()
        [line] = [line for line in lines if f"{prefix}/errors/demo/zh-missing.md)" in line]
        assert line.endswith("/errors/demo/zh-missing.md)"), line


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("/errors/llm/no-such-entry", "text/html"),
        ("/zh/errors/llm/no-such-entry", "text/html"),
        ("/errors/llm/no-such-entry.json", "application/json"),
        ("/errors/llm/no-such-entry.md", "text/markdown"),
        ("/api/v1/errors/llm/no-such-entry", "application/json"),
        ("/domains/no-such-domain", "text/html"),
    ],
)
def test_unknown_ids_are_404_in_the_form_of_the_path(reader, path, kind):
    response = reader.get(path)
    assert response.status_code == 404
    assert response.headers["content-type"].startswith(kind)
    if kind == "application/json":
        assert "llm/no-such-entry" in response.json()["detail"]


def test_every_shipped_entry_renders_in_every_format_and_language(reader):
    listed, url = [], "/api/v1/errors?limit=100"
    while url:
        page = reader.get(url).json()
        listed += page["data"]
        url = page["next"]
    shipped = [e for e in listed if not e["id"].startswith("demo/")]
    assert len(shipped) >= 200
    assert len({e["domain"] for e in shipped}) >= 12
    for summary in shipped:
        entry = reader.get(f"/errors/{summary['id']}.json").json()
        for field in ("title", "root_cause", "summary"):
            assert entry[field]["en"] and entry[field]["zh"], (summary["id"], field)
        # Dead ends only where people really try something that fails: some errors have none.
        assert entry["workarounds"] and entry["docs"] and entry["versions"], summary["id"]
        for w in entry["workarounds"]:
            assert w["title"]["zh"] and w["steps"]["zh"], (summary["id"], w["id"])
        for d in entry["dead_ends"]:
            assert d["action"]["zh"] and d["why_fails"]["zh"], (summary["id"], d["id"])
        for path in (f"/errors/{entry['id']}", f"/zh/errors/{entry['id']}", f"/zh/errors/{entry['id']}.md"):
            response = reader.get(path)
            assert response.status_code == 200, path
        assert not soup(reader.get(f"/zh/errors/{entry['id']}")).select(".untranslated")


def test_home_lists_domains_and_recent_entries(reader):
    page = soup(reader.get("/"))
    assert page.select_one("form.lookup textarea[name=text]") is not None
    domains = {a.text for a in page.select("ul.domains a")}
    assert {"llm", "pytorch", "git", "docker"} <= domains
    assert page.select(".entry-list a")
    zh = soup(reader.get("/zh/"))
    assert zh.html["lang"] == "zh-Hans" and zh.select_one("a.lang-switch")["href"] == "/"


def test_domain_page_lists_its_entries(reader):
    page = soup(reader.get("/domains/llm"))
    hrefs = {a["href"] for a in page.select(".entry-list a")}
    assert f"/errors/{SEED_ID}" in hrefs and f"/errors/{SECOND_VLLM}" in hrefs
    zh = soup(reader.get("/zh/domains/llm"))
    assert f"/zh/errors/{SEED_ID}" in {a["href"] for a in zh.select(".entry-list a")}


def test_domain_pages_split_a_domain_without_gaps_or_repeats(shipped_client, monkeypatch):
    from app.routers import pages

    monkeypatch.setattr(pages, "PAGE_SIZE", 10)  # as if the domain were past 50 entries
    total = shipped_client.get("/api/v1/errors", params={"domain": "node"}).json()["count"]
    # A reader who follows "Next" from the first page sees every entry once.
    seen: list[str] = []
    url, number, count = "/domains/node", 0, -(-total // 10)
    while url:
        page = soup(shipped_client.get(url))
        number += 1
        assert f"Page {number} of {count}" in page.get_text(" ", strip=True)
        seen += [a["href"] for a in page.select(".entry-list a")]
        following = page.select_one("a[rel=next]")
        url = following and "/domains/node" + following["href"]
    assert total > 20 and number == count and len(seen) == len(set(seen)) == total


def test_healthz_and_openapi(reader):
    assert reader.get("/healthz").json() == {"status": "ok"}
    schema = reader.get("/openapi.json").json()
    assert "EntryView" in schema["components"]["schemas"]
    view = schema["components"]["schemas"]["EntryView"]["properties"]
    assert {"fix_rate", "workarounds", "dead_ends", "versions", "related"} <= set(view)
    assert "/api/v1/errors/{entry_id}" in schema["paths"]
    # Beside the API, the data addresses a client reads; no page for people or crawlers
    # (/, /search, /robots.txt, /opensearch.xml, /zh/...), which a client could not use.
    assert {path for path in schema["paths"] if not path.startswith("/api/v1/")} == {
        "/errors/{entry_path}",
        "/errors/{entry_id}/history.json",
        "/dumps/errata.ndjson.gz",
        "/stats.json",
        "/feed.atom",
        "/sitemap.xml",
        "/sitemaps/{part}.xml.gz",
        "/healthz",
    }


def test_the_api_description_names_every_format_of_an_entry_page(reader):
    """A client generated from /openapi.json must know what /errors/{id} answers in each format."""
    documented = reader.get("/openapi.json").json()["paths"]["/errors/{entry_path}"]["get"]["responses"]
    for suffix, kind in (("", "text/html"), (".json", "application/json"), (".md", "text/markdown")):
        for entry_id in (SEED_ID, "llm/no-such-entry"):
            answer = reader.get(f"/errors/{entry_id}{suffix}")
            assert answer.headers["content-type"].split(";")[0] == kind
            assert str(answer.status_code) in documented, (entry_id, suffix)
        assert kind in documented["200"]["content"]
    entry_schema = documented["200"]["content"]["application/json"]["schema"]["$ref"]
    assert entry_schema == "#/components/schemas/EntryView"


def test_dates_in_json_are_iso(reader):
    entry = reader.get(f"/errors/{SEED_ID}.json").json()
    assert date.fromisoformat(entry["first_seen"]) == date(2024, 1, 10)


def test_feed_and_sitemap(reader):
    from xml.etree import ElementTree as ET

    feed = reader.get("/feed.atom")
    assert feed.headers["content-type"].startswith("application/atom+xml")
    entries = ET.fromstring(feed.content).findall("{http://www.w3.org/2005/Atom}entry")
    assert 1 <= len(entries) <= 50
    sitemap = ET.fromstring(reader.get("/sitemap.xml").content)
    locs = {u.findtext("{http://www.sitemaps.org/schemas/sitemap/0.9}loc") for u in sitemap}
    assert f"http://testserver/errors/{SEED_ID}" in locs and f"http://testserver/zh/errors/{SEED_ID}" in locs
    total = reader.get("/api/v1/errors").json()["count"]
    assert len(locs) == 2 * total
    # Each page names both languages' pages as its alternates, and the day it last changed.
    seed = next(u for u in sitemap if u.findtext("{*}loc") == f"http://testserver/zh/errors/{SEED_ID}")
    alternates = {
        a.get("hreflang"): a.get("href") for a in seed.findall("{http://www.w3.org/1999/xhtml}link")
    }
    assert alternates == {
        "en": f"http://testserver/errors/{SEED_ID}",
        "zh-Hans": f"http://testserver/zh/errors/{SEED_ID}",
    }
    changed = reader.get(f"/errors/{SEED_ID}.json").json()["updated_at"]
    assert seed.findtext("{*}lastmod") == changed[:10]
    # The origin comes from the request when none is configured: escaped, still XML.
    odd = ET.fromstring(reader.get("/sitemap.xml", headers={"host": "a&b.example"}).content)
    assert f"http://a&b.example/errors/{SEED_ID}" in {u.findtext("{*}loc") for u in odd}


def test_ids_differing_by_case_or_slash_redirect_to_the_canonical_url(reader):
    response = reader.get("/errors/LLM/vllm-block-manager-out-of-memory/", follow_redirects=False)
    assert response.status_code == 301 and response.headers["location"] == f"/errors/{SEED_ID}"
    zh = reader.get("/zh/errors/Llm/Vllm-Block-Manager-Out-Of-Memory.md", follow_redirects=False)
    assert zh.status_code == 301 and zh.headers["location"] == f"/zh/errors/{SEED_ID}.md"


def test_pages_forbid_scripts(reader):
    headers = reader.get(f"/errors/{SEED_ID}").headers
    # Only errata's own script file runs: no inline script, no other origin.
    assert "script-src 'self';" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    missing = reader.get("/zh/domains/nope")
    assert missing.status_code == 404 and "领域 nope 中没有条目" in missing.text


def test_entry_responses_revalidate_with_etags(shipped_client):
    first = shipped_client.get(f"/errors/{SEED_ID}.json")
    etag = first.headers["etag"]
    assert shipped_client.get(f"/errors/{SEED_ID}.json", headers={"If-None-Match": etag}).status_code == 304
    assert shipped_client.get(f"/errors/{SEED_ID}.md").headers["etag"] != etag
    shipped_client.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked"})
    changed = shipped_client.get(f"/errors/{SEED_ID}.json", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.json()["evidence_count"] == 2


def test_untranslated_entries_say_it_once_and_partial_ones_per_field(reader):
    none = soup(reader.get("/zh/errors/demo/zh-missing"))
    assert none.select_one("#not-translated") is not None and not none.select(".untranslated-mark")
    partial = soup(reader.get("/zh/errors/demo/cjk-only"))
    assert partial.select_one("#not-translated") is None
    marks = partial.select("#dead-ends .untranslated-mark")
    assert marks and partial.select_one("#dead-ends .untranslated").text.startswith("尚未翻译")
    assert not soup(reader.get("/errors/demo/zh-missing")).select(".untranslated, #not-translated")
    markdown = reader.get("/zh/errors/demo/zh-missing.md").text
    assert markdown.count("尚未翻译") == 1


def test_every_wording_says_how_it_was_verified_in_every_format(reader):
    body = reader.get("/errors/demo/full-bilingual.json").json()
    assert [v["text"] for v in body["variants"]] == ["FrobError：无法处理小部件 42"]
    assert [(v["method"], v["tool"], v["version"]) for v in body["verification"]] == [
        ("reproduced", "frob", "2.4.1"),
        ("sourced", "frob", "v2.4.1"),
    ]
    page = soup(reader.get("/errors/demo/full-bilingual"))
    checks = [li.text for li in page.select(".verification li")]
    assert checks[0] == "Message reproduced with frob 2.4.1 on 2026-12-01: frob --widget 42"
    assert checks[1].startswith("Message text from po/zh_CN.po at frob v2.4.1, read on 2026-12-01")
    assert page.select_one("#variants pre[lang=zh-CN]").text == "FrobError：无法处理小部件 42"
    zh = soup(reader.get("/zh/errors/demo/full-bilingual"))
    assert zh.select(".verification li")[0].text.startswith("已于 2026-12-01 用 frob 2.4.1 复现此消息")
    markdown = reader.get("/errors/demo/full-bilingual.md").text
    assert "- ✓ Message reproduced with frob 2.4.1 on 2026-12-01: `frob --widget 42`" in markdown
    assert "<https://example.org/frob/blob/v2.4.1/po/zh_CN.po#L120>" in markdown
    # A wording only reported (no one reproduced or sourced it) is flagged, not ticked.
    checks = [line for line in reader.get(f"/errors/{SEED_ID}.md").text.splitlines() if "checked 20" in line]
    assert checks and all(line.startswith("- ⚠ Reported wording") for line in checks)


def test_figures_without_reports_are_labelled_as_estimates(shipped_client):
    path = "/errors/demo/full-bilingual"
    body = shipped_client.get(f"{path}.json").json()
    assert body["fix_rate_basis"] == "estimate" and body["workarounds"][0]["basis"] == "estimate"
    page = soup(shipped_client.get(path))
    assert page.select_one("#fix-rate-basis").text == "estimate, no reports yet"
    assert soup(shipped_client.get(f"/zh{path}")).select_one("#fix-rate-basis").text == "估计值，尚无用户报告"
    assert "(estimate, no reports yet)" in shipped_client.get(f"{path}.md").text

    first = body["workarounds"][0]["id"]
    posted = shipped_client.post(
        f"/api/v1/errors/{body['id']}/evidence", json={"item": first, "outcome": "worked"}
    )
    assert posted.status_code == 201
    body = shipped_client.get(f"{path}.json").json()
    assert body["fix_rate_basis"] == "reports" and body["workarounds"][0]["basis"] == "reports"
    page = soup(shipped_client.get(path))
    assert page.select_one("#fix-rate-basis").text == "from 1 report"
    assert page.select_one(f"#w-{first} .basis").text == "from 1 report"
    # A dead end's figure is from reports once someone says it failed them (no one said it worked).
    assert body["dead_ends"][0]["basis"] == "estimate"
    dead_end = body["dead_ends"][0]["id"]
    posted = shipped_client.post(
        f"/api/v1/errors/{body['id']}/evidence", json={"item": dead_end, "outcome": "failed"}
    )
    assert posted.status_code == 201
    failed = shipped_client.get(f"{path}.json").json()["dead_ends"][0]
    assert (failed["reports"], failed["basis"]) == ({"worked": 0, "failed": 1, "partial": 0}, "reports")


def test_an_approach_that_fails_less_than_half_the_time_is_not_called_a_dead_end(reader):
    body = reader.get(f"/errors/{SEED_ID}.json").json()
    verdicts = {d["id"]: (d["fail_rate"], d["verdict"]) for d in body["dead_ends"]}
    assert all((rate >= 0.5) == (verdict == "dead_end") for rate, verdict in verdicts.values())
    assert "unreliable" in {v for _, v in verdicts.values()}
    page = soup(reader.get(f"/errors/{SEED_ID}"))
    assert page.select_one("#dead-ends .rate.mixed").text.endswith("fail: unreliable")


def test_a_base_past_the_sitemap_limit_gets_an_index_of_gzipped_parts(reader, monkeypatch):
    import gzip
    from xml.etree import ElementTree as ET

    from app.routers import feeds

    ns = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
    total = reader.get("/api/v1/errors").json()["count"]
    monkeypatch.setattr(feeds, "SITEMAP_URLS", 10)  # as if the base were past 50,000 URLs
    # Parts of 7 leave a short last part; parts of `total` entries fill one exactly and must
    # not be followed by an empty one.
    for size in (7, total):
        monkeypatch.setattr(feeds, "PART_ENTRIES", size)
        index = ET.fromstring(reader.get("/sitemap.xml").content)
        parts = [s.findtext(f"{ns}loc") for s in index.findall(f"{ns}sitemap")]
        assert index.tag == f"{ns}sitemapindex" and len(parts) == -(-total // size)
        locs = set()
        for url in parts:
            part = reader.get(url.removeprefix("http://testserver"))
            assert part.headers["content-type"] == "application/gzip"
            locs |= {u.findtext(f"{ns}loc") for u in ET.fromstring(gzip.decompress(part.content))}
        assert len(locs) == 2 * total
        assert reader.get(f"/sitemaps/{len(parts) + 1}.xml.gz").status_code == 404


def test_static_files_have_hashed_names_and_long_caching(reader):
    page = soup(reader.get("/"))
    css = page.select_one("link[rel=stylesheet]")["href"]
    assert css.startswith("/static/errata.") and css.endswith(".css") and css != "/static/errata.css"
    hashed = reader.get(css)
    assert hashed.status_code == 200
    assert hashed.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert hashed.headers["content-type"].startswith("text/css")
    assert reader.get("/static/errata.css").headers["cache-control"] == "public, max-age=300"
    assert reader.get("/static/errata.0000000000.css").status_code == 404
    assert page.select_one("script[src]")["src"].startswith("/static/errata.")
    assert reader.get("/favicon.ico").content[:4] == b"\x00\x00\x01\x00"


def test_crawlers_and_browsers_find_their_files(reader):
    robots = reader.get("/robots.txt").text
    assert "Sitemap: http://testserver/sitemap.xml" in robots and "Disallow: /lookup" in robots
    assert "search?q={searchTerms}" in reader.get("/opensearch.xml").text
    docs = reader.get("/docs").text
    assert "/docs-assets/swagger-ui-bundle.js" in docs and "cdn" not in docs.lower()
    assert reader.get("/docs-assets/swagger-ui-bundle.js").status_code == 200
    page = soup(reader.get(f"/zh/errors/{SEED_ID}"))
    assert page.select_one("link[rel=canonical]")["href"] == f"http://testserver/zh/errors/{SEED_ID}"
    hreflangs = {link["hreflang"]: link["href"] for link in page.select("link[rel=alternate][hreflang]")}
    assert hreflangs == {
        "en": f"http://testserver/errors/{SEED_ID}",
        "zh-Hans": f"http://testserver/zh/errors/{SEED_ID}",
        "x-default": f"http://testserver/errors/{SEED_ID}",
    }
    ld = json.loads(page.select_one("script[type='application/ld+json']").text)
    assert ld["@type"] == "TechArticle" and ld["about"]["name"].startswith("RuntimeError: OutOfMemoryError")
    assert ld["mainEntity"]["step"][0]["position"] == 1


def test_search_engines_are_told_each_pages_language(shipped_client):
    # A client of its own: the pages are rendered here, not taken from a cache other tests filled.
    for path, lang in ((f"/zh/errors/{SEED_ID}", "zh-Hans"), (f"/errors/{SEED_ID}", "en")):
        data = soup(shipped_client.get(path)).select_one("script[type='application/ld+json']")
        assert json.loads(data.text)["inLanguage"] == lang


def test_pages_name_their_other_language_and_error_pages_do_not(reader):
    page = soup(reader.get("/zh/search?q=cache"))
    assert page.select_one("link[rel=canonical]")["href"] == "http://testserver/zh/search?q=cache"
    hreflangs = {link["hreflang"]: link["href"] for link in page.select("link[rel=alternate][hreflang]")}
    assert hreflangs["en"] == "http://testserver/search?q=cache"
    missing = reader.get("/errors/no/such-entry")
    assert missing.status_code == 404
    assert not soup(missing).select("link[rel=canonical], link[rel=alternate][hreflang]")


def test_the_markdown_gives_a_dead_ends_verdict_and_its_condition_only_where_it_has_one(
    settings, client, tmp_path
):
    doc = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    doc["dead_ends"].append(
        {
            "id": "reinstall",
            "action": {"en": "Reinstall frob", "zh": "重装 frob"},
            "why_fails": {"en": "The handle outlives the package.", "zh": "句柄比软件包活得久。"},
            "condition": {"en": "After a crash.", "zh": "崩溃之后。"},
            "fail_rate": 0.4,  # fails less often than not: unreliable, not a dead end
        }
    )
    (tmp_path / "full-bilingual.yaml").write_text(yaml.safe_dump(doc, allow_unicode=True))
    assert load(settings, tmp_path / "full-bilingual.yaml").created == 1
    labels = {
        "en": ("When", "90% fail, ", "40% fail: unreliable, "),
        "zh": ("适用情形", "90% 失败，", "40% 失败：不可靠，"),
    }
    for lang, path in (("en", ""), ("zh", "/zh")):
        when, dead_end, unreliable = labels[lang]
        markdown = client.get(f"{path}/errors/demo/full-bilingual.md").text
        reboot = doc["dead_ends"][0]["action"][lang]
        [dead_ends] = [part for part in markdown.split("\n## ") if f"### 1. {reboot} (" in part]
        reboot, reinstall = dead_ends.split("### 2. ")
        assert f"### 1. {doc['dead_ends'][0]['action'][lang]} ({dead_end}" in reboot, lang
        assert reinstall.startswith(f"{doc['dead_ends'][1]['action'][lang]} ({unreliable}"), lang
        assert when not in reboot, lang
        # Bold closes after the full-width colon only when a space follows: it goes outside.
        labelled = f"**{when}:** " if lang == "en" else f"**{when}**："
        assert labelled + doc["dead_ends"][1]["condition"][lang] in reinstall, lang
