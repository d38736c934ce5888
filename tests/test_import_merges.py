"""Merges on import, through the real importer and exporter, SQLite files and the `errata` command."""

from datetime import UTC, datetime

from fastapi.testclient import TestClient
from sqlmodel import Session, select

from app.db import make_engine, write_session
from app.main import create_app
from app.migrate import upgrade
from app.models import Entry
from app.services.interchange.exporter import export_all
from app.services.merging.merge import unmerge
from tests.conftest import CANON_VALID, DEMO_ENTRIES, FIXTURES, load, make_settings
from tests.test_cli import run
from tests.test_import_export import all_json

MERGING = FIXTURES / "merging"
FULL, WIDGET = "demo/full-bilingual", "tooling/widget-crash/widget2-linux"
MACOS = "tooling/widget-crash/widget2-macos"
FROB, GADGET = "demo/frob-widget-fails/frob2-linux", "demo/frob-gadget-fails/frob2-linux"


def pointers(settings) -> dict[str, str | None]:
    engine = make_engine(settings)
    with Session(engine) as session:
        found = dict(session.exec(select(Entry.id, Entry.canonical_id)).all())
    engine.dispose()
    return found


def test_conclusive_evidence_merges_on_import_and_anything_less_is_a_candidate(settings):
    load(settings, DEMO_ENTRIES, CANON_VALID)
    report = load(settings, MERGING)
    assert report.created == 3
    assert sorted(report.merged) == [
        (FROB, FULL, "same normalised wording"),
        (MACOS, WIDGET, "environment variants of one error"),
    ]
    # The gadget error's pattern matches the demo wording, not the reverse: a moderator decides.
    assert report.candidates == 1
    assert pointers(settings)[GADGET] is None
    again = load(settings, DEMO_ENTRIES, CANON_VALID, MERGING)
    assert (again.created, again.updated, again.merged, again.candidates) == (0, 0, [], 0)


def test_an_unmerged_entry_stays_apart_when_its_file_is_imported_again(settings):
    load(settings, DEMO_ENTRIES, CANON_VALID, MERGING)
    engine = make_engine(settings)
    with write_session(engine) as session:
        unmerge(session, FROB, now=datetime.now(UTC))
    engine.dispose()
    load(settings, MERGING)
    assert pointers(settings)[FROB] is None


def test_export_then_import_of_a_merged_base_reproduces_the_merges(settings, tmp_path):
    load(settings, DEMO_ENTRIES, CANON_VALID, MERGING)
    engine = make_engine(settings)
    export_all(engine, tmp_path / "export")
    engine.dispose()
    alias_file = (tmp_path / "export" / "tooling" / "widget-crash" / "widget2-macos.yaml").read_text()
    canonical_file = (tmp_path / "export" / "tooling" / "widget-crash" / "widget2-linux.yaml").read_text()
    assert f"merged_into: {WIDGET}" in alias_file
    assert f"aliases:\n  - {MACOS}" in canonical_file
    fresh = make_settings(tmp_path / "fresh.db")
    upgrade(fresh)
    report = load(fresh, tmp_path / "export")
    assert (report.created, report.failed, report.candidates) == (7, 0, 0)
    assert pointers(fresh) == pointers(settings)
    assert all_json(fresh) == all_json(settings)
    with TestClient(create_app(fresh), follow_redirects=False) as client:
        assert client.get(f"/errors/{MACOS}.json").headers["location"] == f"/errors/{WIDGET}.json"


def test_a_file_naming_an_alias_that_is_not_there_fails_on_that_field(settings, tmp_path):
    source = (DEMO_ENTRIES / "demo" / "cjk-only.yaml").read_text()
    (tmp_path / "cjk-only.yaml").write_text(source + "aliases:\n  - demo/not-in-the-base\n")
    report = load(settings, tmp_path)
    assert report.created == 1
    [failure] = report.failures
    assert failure.field == "aliases" and "demo/not-in-the-base" in failure.message


def test_duplicates_merge_and_unmerge_commands(tmp_path):
    db = tmp_path / "errata.db"
    imported = run("import", str(DEMO_ENTRIES), str(CANON_VALID), str(MERGING), db=db)
    assert imported.returncode == 0, imported.stderr
    assert "2 merged, 1 new candidate duplicates" in imported.stdout
    listed = run("duplicates", db=db)
    assert listed.returncode == 0
    [line] = [row for row in listed.stdout.splitlines() if GADGET in row]
    assert FULL in line and "[review]" in line and "patterns match" in line
    merged = run("merge", GADGET, FULL, db=db)
    assert merged.returncode == 0 and f"merge: {GADGET} -> {FULL}" in merged.stdout
    assert GADGET not in run("duplicates", db=db).stdout
    refused = run("merge", FULL, GADGET, db=db)
    assert refused.returncode == 1 and "already that entry or one of its aliases" in refused.stderr
    undone = run("unmerge", GADGET, db=db)
    assert undone.returncode == 0 and f"unmerge: {GADGET} -> {FULL}" in undone.stdout
    assert GADGET in run("duplicates", db=db).stdout
