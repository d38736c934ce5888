"""Import and export through the real importer, a real SQLite file and the HTTP views."""

import json
import shutil
from pathlib import Path

import pytest
from sqlmodel import Session, select

from app.db import make_engine
from app.migrate import upgrade
from app.models import Entry, EntryRevision
from app.schemas.api import EvidenceIn
from app.services.evidence.reports import record_evidence
from app.services.interchange.canon import canon_to_document
from app.services.interchange.exporter import export_all
from app.services.interchange.importer import import_paths
from app.services.interchange.transfer import TargetNotEmpty, copy_database, table_counts
from tests.conftest import (
    CANON_MALFORMED,
    CANON_VALID,
    DEMO_ENTRIES,
    SHIPPED,
    all_json,
    load,
    make_settings,
)

CANON_ID = "tooling/widget-crash/widget2-linux"


def test_canon_file_maps_every_field(settings, client):
    report = load(settings, CANON_VALID)
    assert (report.created, report.failed) == (1, 0)
    entry = client.get(f"/errors/{CANON_ID}.json").json()
    source = json.loads((CANON_VALID / f"{CANON_ID}.json").read_text())
    assert (entry["domain"], entry["category"]) == ("tooling", "runtime_error")
    assert entry["signature"] == source["error"]["signature"]
    assert entry["patterns"] == [source["error"]["regex"]]
    assert (entry["fix_rate"], entry["confidence"]) == (0.66, 0.72)
    assert entry["resolvable"] == "partial"
    assert entry["summary"] == {"en": source["verdict"]["summary"], "zh": None}
    assert (entry["first_seen"], entry["last_confirmed"]) == ("2024-02-03", "2026-01-15")
    assert entry["scope"] == "linux"
    versions = {(v["component"], v["version"]) for v in entry["versions"]}
    assert {("widget", ">=2.0,<2.5"), ("python", ">=3.10"), ("vram_gb", "8")} <= versions
    assert ("common_contexts", "ci, docker") in versions
    dead = entry["dead_ends"][0]
    assert dead["fail_rate"] == 0.81 and dead["why_fails"]["en"].startswith("The corrupt cache")
    assert dead["misconception"]["en"] == "Reinstalling resets every file."
    assert dead["sources"] == ["https://example.org/issues/1"]
    command, prose = entry["workarounds"]
    assert command["steps"]["en"].startswith("```sh\nrm -rf ~/.cache/widget/fonts")
    assert command["tradeoff"]["en"] == "The first start is slower."
    assert command["condition"]["en"].startswith("Only when fonts")
    assert prose["condition"] is None
    assert prose["steps"]["en"] == r"Open Settings \> Rendering and pick \*Software\*"
    assert entry["ai_generated"] is True and entry["review_status"] == "unreviewed"
    assert entry["provenance"]["source_evidence_count"] == 4
    assert entry["evidence_count"] == 0
    leads = entry["related"]["leads_to"][0]
    assert leads["id"] == "tooling/widget-hang/widget2-linux" and leads["in_base"] is False
    assert leads["probability"] == 0.2 and "minutes" in leads["note"]["en"]
    page = client.get(f"/zh/errors/{CANON_ID}").text
    assert "尚未收录" in page and "尚未翻译" in page


def test_reimport_changes_nothing_and_a_changed_file_makes_one_revision(settings, tmp_path):
    folder = tmp_path / "entries"
    shutil.copytree(DEMO_ENTRIES, folder)
    assert load(settings, folder).created == 3
    before = all_json(settings)
    again = load(settings, folder)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 3)
    assert all_json(settings) == before

    path = folder / "demo" / "zh-missing.yaml"
    path.write_text(path.read_text().replace("fix_rate: 0.6", "fix_rate: 0.65"))
    changed = load(settings, folder)
    assert (changed.updated, changed.unchanged) == (1, 2)
    after = all_json(settings)
    assert after["demo/zh-missing"]["revision"] == 2
    assert after["demo/zh-missing"]["prior"]["fix_rate"] == 0.65
    assert after["demo/full-bilingual"] == before["demo/full-bilingual"]
    engine = make_engine(settings)
    with Session(engine) as session:
        history = session.exec(select(EntryRevision)).all()
    engine.dispose()
    assert [(h.entry_id, h.revision) for h in history] == [("demo/zh-missing", 1)]
    assert history[0].content["prior"]["fix_rate"] == 0.6


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def own_format_problems(tmp_path) -> Path:
    good = (DEMO_ENTRIES / "demo" / "zh-missing.yaml").read_text()
    folder = tmp_path / "problems"
    folder.mkdir()
    _write(folder, "bad-yaml.yaml", "id: demo/x\ntitle: [unclosed\n")
    _write(
        folder, "no-prior.yaml", good.replace("id: demo/zh-missing", "id: demo/no-prior").split("prior:")[0]
    )
    _write(
        folder,
        "wrong-type.yaml",
        good.replace("id: demo/zh-missing", "id: demo/wrong-type").replace(
            "success_rate: 0.75", "success_rate: high"
        ),
    )
    _write(folder, "bad-id.yaml", good.replace("id: demo/zh-missing", "id: Demo/Bad Id"))
    # Two bad fields: the first one in the file is named.
    _write(
        folder,
        "two-problems.yaml",
        good.replace("id: demo/zh-missing", "id: Demo/Two Problems").replace(
            "success_rate: 0.75", "success_rate: high"
        ),
    )
    _write(folder, "a-list.yaml", "- id: demo/a-list\n- title: x\n")
    _write(
        folder,
        "bad-regex.yaml",
        good.replace("id: demo/zh-missing", "id: demo/bad-regex").replace(
            "'GadgetConfigError: unexpected token'", "'(?P<x>a)(?P=x)'"
        ),
    )
    _write(
        folder,
        "typo.yaml",
        good.replace("id: demo/zh-missing", "id: demo/typo").replace("root_cause:", "root_cuase:"),
    )
    return folder


def test_malformed_files_are_reported_by_path_and_field_and_skipped_whole(settings, own_format_problems):
    report = load(settings, own_format_problems, CANON_MALFORMED, DEMO_ENTRIES)
    assert report.created == 3
    failures = {f.path.name: f.field for f in report.failures}
    assert failures == {
        "bad-yaml.yaml": "(file)",
        "no-prior.yaml": "prior",
        "wrong-type.yaml": "workarounds.0.success_rate",
        "bad-id.yaml": "id",
        "two-problems.yaml": "id",
        "a-list.yaml": "(file)",
        "bad-regex.yaml": "patterns.0",
        "typo.yaml": "root_cuase",
        "bad-json.json": "(file)",
        "missing-signature.json": "error.signature",
        "wrong-type.json": "verdict.fix_success_rate",
        "invalid-id.json": "id",
        "bad-regex.json": "error.regex",
        "rate-out-of-range.json": "workarounds.1.success_rate",
    }
    for failure in report.failures:
        assert failure.path.is_absolute() and failure.path.exists()
    [listed] = [f for f in report.failures if f.path.name == "a-list.yaml"]
    assert listed.message == "the file does not hold a YAML mapping"
    engine = make_engine(settings)
    with Session(engine) as session:
        ids = set(session.exec(select(Entry.id)))
    engine.dispose()
    assert ids == {"demo/full-bilingual", "demo/zh-missing", "demo/cjk-only"}


def test_a_file_that_vanishes_during_the_import_is_reported_and_the_rest_load(settings, tmp_path):
    for path in DEMO_ENTRIES.rglob("*.yaml"):
        shutil.copy(path, tmp_path / path.name)
    gone = (tmp_path / "cjk-only.yaml").resolve()

    def progress(files):  # the progress bar sees each file just before it is read
        for path in files:
            if path == gone:
                path.unlink()
            yield path

    engine = make_engine(settings)
    report = import_paths(engine, [tmp_path], progress=progress)
    engine.dispose()
    [failure] = report.failures
    assert (failure.path, failure.field) == (gone, "(file)") and "No such file" in failure.message
    assert report.created == 2


def test_a_canon_action_may_be_one_character_but_not_empty(settings, tmp_path):
    canon = json.loads((CANON_VALID / "tooling" / "widget-crash" / "widget2-linux.json").read_text())
    for name, dead_end, workaround in (
        ("short", "等", "等"),
        ("empty-dead-end", "", "等"),
        ("empty-workaround", "等", ""),
    ):
        doc = {**canon, "id": f"tooling/widget-crash/{name}"}
        doc["dead_ends"] = [{**canon["dead_ends"][0], "action": dead_end}]
        doc["workarounds"] = [{**canon["workarounds"][0], "action": workaround}]
        (tmp_path / f"{name}.json").write_text(json.dumps(doc, ensure_ascii=False))
    report = load(settings, tmp_path)
    assert report.created == 1
    assert sorted((f.path.name, f.field) for f in report.failures) == [
        ("empty-dead-end.json", "dead_ends.0.action"),
        ("empty-workaround.json", "workarounds.0.action"),
    ]


def test_export_then_import_gives_identical_json(settings, tmp_path, client, new_database):
    load(settings, SHIPPED, DEMO_ENTRIES, CANON_VALID)
    created = client.post(
        "/api/v1/errors/demo/full-bilingual/evidence",
        json={"item": "clear-cache", "outcome": "worked", "versions": {"frob": "2.1"}},
    )
    assert created.status_code == 201
    engine = make_engine(settings)
    exported = tmp_path / "export"
    count = export_all(engine, exported)
    engine.dispose()
    assert count == len(list(exported.rglob("*.yaml")))
    fresh = make_settings(new_database())
    upgrade(fresh)
    report = load(fresh, exported)
    assert (report.created, report.failed) == (count, 0)
    assert all_json(fresh) == all_json(settings)


def test_a_whole_base_moves_into_an_empty_database_and_never_into_a_full_one(settings, new_database):
    """`errata migrate-db` in-process; tests/test_postgres.py runs the command, SQLite to PostgreSQL."""
    load(settings, DEMO_ENTRIES, CANON_VALID)
    target = make_settings(new_database())
    upgrade(target)
    source_engine, target_engine = make_engine(settings), make_engine(target)
    try:
        record_evidence(source_engine, entry_id="demo/full-bilingual", report=EvidenceIn(outcome="failed"))
        seen: list[str] = []
        copied = copy_database(source_engine, target_engine, progress=lambda table, n: seen.append(table))
        assert copied == table_counts(source_engine) == table_counts(target_engine)
        assert copied["entry"] > 0 and copied["evidence"] > 0 and seen == list(copied)
        assert all_json(target) == all_json(settings)
        # The keys go on past the copied rows: the moved base takes new reports.
        record_evidence(target_engine, entry_id="demo/full-bilingual", report=EvidenceIn(outcome="worked"))
        before = table_counts(target_engine)
        with pytest.raises(TargetNotEmpty, match="must be empty"):
            copy_database(source_engine, target_engine)
        assert table_counts(target_engine) == before
    finally:
        source_engine.dispose()
        target_engine.dispose()


def test_exporting_the_shipped_data_reproduces_the_files(shipped_settings, tmp_path):
    engine = make_engine(shipped_settings)
    export_all(engine, tmp_path)
    engine.dispose()
    for path in SHIPPED.rglob("*.yaml"):
        assert (tmp_path / path.relative_to(SHIPPED)).read_text() == path.read_text(), path


@pytest.mark.parametrize(
    ("how", "shown"),
    [
        ("pip install widget==2.4.1", "```sh\npip install widget==2.4.1\n```"),  # a command's name
        ("WIDGET_RENDERER=software widget", "```sh\nWIDGET_RENDERER=software widget\n```"),  # shell syntax
        ("Restart the widget service", "Restart the widget service"),  # prose
    ],
)
def test_a_canon_workaround_that_names_a_command_or_reads_as_shell_is_a_code_block(how, shown):
    canon = json.loads((CANON_VALID / "tooling" / "widget-crash" / "widget2-linux.json").read_text())
    canon["workarounds"] = [{**canon["workarounds"][0], "how": how}]
    assert canon_to_document(canon).workarounds[0].steps.en == shown
