"""Entry content is third-party text (imported corpora, pull requests): hostile HTML and
links in any field, in either language, never become live markup; a bad file among good
ones is skipped alone; a catastrophic pattern is run and stays linear."""

import threading
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import DEMO_ENTRIES, load

HOSTILE_ID = "demo/hostile-content"
SOURCE = DEMO_ENTRIES / "demo" / "full-bilingual.yaml"


def payload(marker: str) -> str:
    return (
        f"{marker} <script>alert('{marker}')</script><img src=x onerror=alert(1)>"
        f' [click](javascript:alert(1)) <a href="JaVaScRiPt:alert(2)">a</a>'
        f" <iframe src=//evil.example></iframe><svg onload=alert(3)></svg>"
        f' <a href="data:text/html,<script>alert(4)</script>">d</a> `{marker}-code`'
    )


def hostile_document() -> tuple[dict, list[str]]:
    """The full demo entry with every bilingual text, in both languages, made hostile."""
    doc = yaml.safe_load(SOURCE.read_text())
    doc["id"] = HOSTILE_ID
    markers: list[str] = []

    def poison(node, where: str):
        if isinstance(node, dict):
            if set(node) <= {"en", "zh"} and "en" in node:
                for lang in ("en", "zh"):
                    marker = f"M{len(markers)}{lang}"
                    markers.append(marker)
                    node[lang] = payload(marker)
                return
            for key, value in node.items():
                poison(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                poison(value, f"{where}.{i}")

    poison(doc, "")
    doc["signature"] = "HostileError: " + payload("MSIG")
    doc["variants"][0]["text"] = "HostileError: " + payload("MVAR")
    doc["verification"] = []
    doc["patterns"] = []
    doc["related"] = {}
    return doc, [*markers, "MSIG", "MVAR"]


@pytest.fixture
def hostile_client(tmp_path, settings):
    doc, markers = hostile_document()
    path = tmp_path / "hostile.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))
    report = load(settings, path)
    assert report.failed == 0, report.failures
    with TestClient(create_app(settings)) as client:
        yield client, markers


def assert_inert(html: str) -> None:
    page = BeautifulSoup(html, "html.parser")
    for script in page.find_all("script"):
        if script.get("type") == "application/ld+json":  # data, its text JSON-escaped
            assert "<" not in script.string, script
            continue
        assert script.get("src", "").startswith("/static/") and not script.string, script
    for tag in page.find_all(True):
        assert tag.name not in ("iframe", "svg", "object", "embed"), tag
        for name, value in tag.attrs.items():
            assert not name.lower().startswith("on"), tag
            if name in ("href", "src", "action", "formaction"):
                target = str(value).strip().lower()
                assert not target.startswith(("javascript:", "data:", "vbscript:")), tag


@pytest.mark.parametrize("prefix", ["", "/zh"])
def test_hostile_markup_in_every_field_stays_text(hostile_client, prefix):
    client, markers = hostile_client
    html = client.get(f"{prefix}/errors/{HOSTILE_ID}").text
    assert_inert(html)
    lang = "zh" if prefix else "en"
    # Every field of the page's language was rendered (so each one was really checked).
    shown = [m for m in markers if m.endswith(lang) or m in ("MSIG", "MVAR")]
    assert not [m for m in shown if m not in html]
    for listing in (f"{prefix}/search?q=HostileError", f"{prefix}/lookup?q=HostileError%3A+M", f"{prefix}/"):
        body = client.get(listing).text
        assert "HostileError" in body or listing.endswith("/")
        assert_inert(body)


def test_hostile_markup_in_search_snippets_is_escaped(hostile_client):
    client, _ = hostile_client
    hit = client.get("/api/v1/errors", params={"q": "onerror"}).json()["data"][0]
    assert hit["id"] == HOSTILE_ID and "<" not in (hit["snippet"] or "").replace("<mark>", "").replace(
        "</mark>", ""
    )
    assert_inert(client.get("/search", params={"q": "onerror"}).text)


def test_markdown_and_json_views_are_never_html(hostile_client):
    client, _ = hostile_client
    md = client.get(f"/zh/errors/{HOSTILE_ID}.md")
    assert md.headers["content-type"].startswith("text/markdown")
    assert client.get(f"/errors/{HOSTILE_ID}.json").headers["content-type"].startswith("application/json")


def write(path: Path, doc: dict) -> Path:
    path.write_text(yaml.safe_dump(doc, allow_unicode=True))
    return path


def good(entry_id: str) -> dict:
    # Copies of one entry: with a revision, as exported files carry, so that the import's
    # duplicate rule (which merges only files without bookkeeping) leaves them apart.
    doc = yaml.safe_load(SOURCE.read_text())
    doc.update(id=entry_id, related={}, revision=1)
    return doc


def test_one_bad_file_among_good_ones_is_skipped_alone(tmp_path, settings):
    files = tmp_path / "mixed"
    files.mkdir()
    write(files / "a.yaml", good("demo/good-a"))
    # Valid as a document, refused by the database (two reports with one uid) after its
    # entry row was written: only the savepoint of its own file is rolled back.
    twice = good("demo/bad-twice")
    twice["evidence"] = [{"uid": "same-uid", "outcome": "worked"}, {"uid": "same-uid", "outcome": "failed"}]
    write(files / "b.yaml", twice)
    nested = good("demo/bad-nested")
    nested["workarounds"][0]["steps"]["fr"] = "Étapes"
    write(files / "c.yaml", nested)
    unknown = good("demo/bad-unknown")
    unknown["dead_ends"][0]["severity"] = "high"
    write(files / "d.yaml", unknown)
    write(files / "e.yaml", good("demo/good-e"))
    report = load(settings, files)
    assert report.created == 2
    assert {(f.path.name, f.field) for f in report.failures} == {
        ("b.yaml", "(database)"),
        ("c.yaml", "workarounds.0.steps.fr"),
        ("d.yaml", "dead_ends.0.severity"),
    }
    with TestClient(create_app(settings)) as client:
        assert client.get("/errors/demo/good-a.json").status_code == 200
        assert client.get("/errors/demo/good-e.json").status_code == 200
        assert client.get("/errors/demo/bad-twice.json").status_code == 404
        assert client.get("/api/v1/errors").json()["count"] == 2


def test_a_catastrophic_pattern_is_run_in_linear_time(tmp_path, settings):
    doc = good("demo/catastrophic")
    doc["signature"] = "Catastrophe: widget xxy refused frobnication by the scheduler"
    doc["patterns"] = [r"Catastrophe: widget (x+x+)+y refused"]
    doc["verification"] = []
    doc["variants"] = []
    # Beside other entries, as in a real base (word rarity is relative to the others).
    assert load(settings, write(tmp_path / "c.yaml", doc), DEMO_ENTRIES).failed == 0
    answers: dict[str, list] = {}
    # FastAPI builds an app's routes at its first request under a process-wide warnings filter,
    # which two threads doing so at once undo for each other: each app is asked once, in turn,
    # before the two lookups run at the same time.
    in_turn, together = threading.Lock(), threading.Barrier(2, timeout=60)

    def ask(name: str, text: str) -> None:
        with TestClient(create_app(settings)) as client:
            with in_turn:
                assert client.post("/api/v1/lookup", json={"text": "Catastrophe"}).status_code == 200
            together.wait()
            answers[name] = client.post("/api/v1/lookup", json={"text": text}).json()["matches"]

    # A backtracking engine takes longer than the age of the universe on the first text.
    runs = [
        threading.Thread(
            target=ask, args=("hostile", "Catastrophe: widget " + "x" * 40_000 + " refused"), daemon=True
        ),
        threading.Thread(target=ask, args=("matching", "Catastrophe: widget xxxxxxxy refused"), daemon=True),
    ]
    for run in runs:
        run.start()
    for run in runs:
        run.join(timeout=60)
    assert set(answers) == {"hostile", "matching"}, "a lookup did not finish"
    # The pattern really ran: it is what finds the entry for a wording it alone covers.
    assert [m["id"] for m in answers["matching"]][:1] == ["demo/catastrophic"]
