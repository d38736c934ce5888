"""One error, one entry, through a real `errata serve`: aliases answer 301 in every format and
language, each error is found once, and a moderator merges and unmerges over HTTP."""

import gzip
import json
import xml.etree.ElementTree as ET

import httpx
import pytest
from bs4 import BeautifulSoup

from tests.conftest import ADMIN_TOKEN, CANON_VALID, DEMO_ENTRIES, FIXTURES, _path_or_url, load, make_settings
from tests.server import serving

MERGING = FIXTURES / "merging"
FULL = "demo/full-bilingual"
WIDGET = "tooling/widget-crash/widget2-linux"
# Merged on import: another environment of the widget crash, and the demo error under another id.
MACOS = "tooling/widget-crash/widget2-macos"
FROB = "demo/frob-widget-fails/frob2-linux"
# Looks like the demo error but is not: left for a moderator.
GADGET = "demo/frob-gadget-fails/frob2-linux"
MODERATOR = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


@pytest.fixture(scope="module")
def server(tmp_path_factory, databases):
    db = _path_or_url(databases.empty())
    settings = make_settings(db)
    load(settings, DEMO_ENTRIES, CANON_VALID)
    report = load(settings, MERGING)
    assert sorted(m[:2] for m in report.merged) == [(FROB, FULL), (MACOS, WIDGET)]
    assert report.candidates >= 1
    with (
        serving(db, workers=1, log_dir=tmp_path_factory.mktemp("merged"), ERRATA_DATA_DIR="") as (base, _),
        httpx.Client(base_url=base, timeout=30) as client,
    ):
        yield client


def _section(entry_id: str) -> str:
    return "merged-" + entry_id.replace("/", "--")


@pytest.mark.parametrize(
    ("alias", "canonical"), [(MACOS, WIDGET), (FROB, FULL)], ids=["environment", "duplicate"]
)
def test_an_alias_answers_301_to_its_canonical_entry_in_every_format_and_language(server, alias, canonical):
    expected = {
        f"/errors/{alias}": f"/errors/{canonical}?from={alias}#{_section(alias)}",
        f"/zh/errors/{alias}": f"/zh/errors/{canonical}?from={alias}#{_section(alias)}",
        f"/errors/{alias}.json": f"/errors/{canonical}.json",
        f"/errors/{alias}.md": f"/errors/{canonical}.md",
        f"/zh/errors/{alias}.md": f"/zh/errors/{canonical}.md",
        f"/api/v1/errors/{alias}": f"/api/v1/errors/{canonical}",
    }
    for path, target in expected.items():
        response = server.get(path)
        assert (response.status_code, response.headers["location"]) == (301, target), path
    # A client generated from the API description knows this answer: it is documented.
    paths = server.get("/openapi.json").json()["paths"]
    for template in ("/api/v1/errors/{entry_id}", "/errors/{entry_path}"):
        assert paths[template]["get"]["responses"]["301"]["description"].startswith("Merged"), template
    page = server.get(f"/zh/errors/{alias}", follow_redirects=True)
    html = BeautifulSoup(page.text, "html.parser")
    assert page.status_code == 200 and str(page.url).split("?")[0].endswith(f"/zh/errors/{canonical}")
    selected = html.find(id=_section(alias))
    assert "selected" in selected["class"] and alias in selected.get_text()
    assert "现已并入本条目" in html.find(id="came-from").get_text()
    markdown = server.get(f"/zh/errors/{alias}.md", follow_redirects=True).text
    assert "## 运行环境与已合并的条目" in markdown and f"`{alias}`" in markdown


def test_the_canonical_entry_carries_its_aliases_wordings_and_environments(server):
    entry = server.get(f"/errors/{WIDGET}.json").json()
    assert entry["aliases"] == [MACOS]
    [part] = entry["merged"]
    assert (part["id"], part["environment"]) == (MACOS, "widget2-macos")
    assert "WidgetCrash: renderer exited with code 11" in [v["text"] for v in entry["variants"]]
    page = BeautifulSoup(server.get(f"/errors/{WIDGET}").text, "html.parser")
    assert "Environment widget2-macos" in page.find(id=_section(MACOS)).get_text()
    assert page.find("a", href="#environments")


def test_lookup_and_every_list_show_each_error_once(server):
    for text, expected in (
        ("WidgetCrash: renderer exited with code 11", WIDGET),  # the alias's own wording
        ("FrobError: cannot frobnicate widget 7", FULL),
    ):
        matches = server.post("/api/v1/lookup", json={"text": text}).json()["matches"]
        ids = [m["id"] for m in matches]
        assert ids[0] == expected and MACOS not in ids and FROB not in ids
        assert len(ids) == len(set(ids))
    found = server.get("/api/v1/errors", params={"q": "WidgetCrash"}).json()
    assert [e["id"] for e in found["data"]] == [WIDGET]
    search = BeautifulSoup(server.get("/search", params={"q": "frobnicate widget"}).text, "html.parser")
    links = [a["href"] for a in search.select("a[href^='/errors/']")]
    assert f"/errors/{FULL}" in links and not any(FROB in href for href in links)
    tooling = server.get("/api/v1/errors", params={"domain": "tooling"}).json()
    assert [e["id"] for e in tooling["data"]] == [WIDGET]
    assert MACOS not in server.get("/domains/tooling").text
    sitemap = ET.fromstring(server.get("/sitemap.xml").content)
    locs = [loc.text for loc in sitemap.iter("{http://www.sitemaps.org/schemas/sitemap/0.9}loc")]
    assert any(WIDGET in loc for loc in locs) and not any(MACOS in loc or FROB in loc for loc in locs)
    feed = server.get("/feed.atom").text
    assert WIDGET in feed and MACOS not in feed and FROB not in feed
    # The figures and the dump count and hold canonical entries only, as the lists do.
    page = server.get("/api/v1/errors", params={"limit": 200}).json()
    listed = page["count"]
    assert listed == len(page["data"])  # all of them on one page
    stats = server.get("/stats.json").json()
    assert stats["entries"] == listed == sum(stats["by_source"].values())
    assert stats["domains"] == len({e["domain"] for e in page["data"]})
    lines = gzip.decompress(server.get("/dumps/errata.ndjson.gz").content).decode().splitlines()
    dumped = [json.loads(line)["id"] for line in lines[1:]]
    assert len(dumped) == len(set(dumped)) == listed and WIDGET in dumped
    assert MACOS not in dumped and FROB not in dumped


def test_moderation_refuses_bad_merges_naming_the_field(server):
    assert server.post("/api/v1/moderation/merge", json={"from": GADGET, "into": FULL}).status_code == 401
    cases = [
        ({"from": "demo/nothing-here", "into": FULL}, 404, None),
        ({"from": GADGET}, 422, "into"),
        ({"from": "Not An Id", "into": FULL}, 422, "from"),
        ({"from": FULL, "into": FROB}, 422, "into"),  # FROB is an alias of FULL: a loop
        ({"from": FROB, "into": WIDGET}, 422, "from"),  # merged already: unmerge first
    ]
    for body, status, field in cases:
        response = server.post("/api/v1/moderation/merge", json=body, headers=MODERATOR)
        assert response.status_code == status, (body, response.text)
        if field:
            assert [d["field"] for d in response.json()["detail"]] == [field]
    response = server.post("/api/v1/moderation/unmerge", json={"from": WIDGET}, headers=MODERATOR)
    assert response.status_code == 422 and response.json()["detail"][0]["field"] == "from"


def test_a_moderator_merges_and_unmerges_with_evidence_and_history_kept(server):
    def entry(entry_id):
        return server.get(f"/api/v1/errors/{entry_id}").json()

    reported = server.post(f"/api/v1/errors/{GADGET}/evidence", json={"outcome": "worked"})
    assert reported.status_code == 201
    gadget, full = entry(GADGET), entry(FULL)
    merged = server.post(
        "/api/v1/moderation/merge", json={"from": GADGET, "into": FROB, "reason": "same"}, headers=MODERATOR
    )
    assert merged.status_code == 200, merged.text
    assert merged.json()["into"] == FULL  # into an alias: its canonical entry, never a chain
    assert server.get(f"/errors/{GADGET}.json").status_code == 301
    after = entry(FULL)
    assert sorted(after["aliases"]) == sorted([FROB, GADGET])
    assert after["evidence_count"] == full["evidence_count"] + gadget["evidence_count"]
    assert after["fix_rate"] != full["fix_rate"] and after["revision"] == full["revision"] + 1
    assert gadget["recent_evidence"][0]["uid"] in [e["uid"] for e in after["recent_evidence"]]
    # A report to the old id still counts, for the entry that now holds it.
    assert server.post(f"/api/v1/errors/{GADGET}/evidence", json={"outcome": "failed"}).status_code == 201
    assert entry(FULL)["evidence_count"] == after["evidence_count"] + 1
    matches = server.post("/api/v1/lookup", json={"text": "FrobError: cannot frobnicate gadget 7"}).json()
    assert [m["id"] for m in matches["matches"]][:1] == [FULL]
    log = server.get("/api/v1/moderation/log", headers=MODERATOR).json()
    assert {"action": "merge", "entry_id": GADGET, "target_id": FULL} in [
        {k: row[k] for k in ("action", "entry_id", "target_id")} for row in log
    ]

    undone = server.post("/api/v1/moderation/unmerge", json={"from": GADGET}, headers=MODERATOR)
    assert undone.status_code == 200, undone.text
    back = server.get(f"/errors/{GADGET}.json")
    assert back.status_code == 200
    assert back.json()["evidence_count"] == gadget["evidence_count"] + 1
    assert back.json()["revision"] == gadget["revision"] + 2
    assert entry(FULL)["aliases"] == [FROB] and entry(FULL)["evidence_count"] == full["evidence_count"]
