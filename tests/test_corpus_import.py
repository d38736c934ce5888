"""The whole deadends.dev corpus through the importer, the API and the exporter: a module of
its own, as test processes take a module each and this is the longest import test by far."""

import json

from app.db import make_engine
from app.migrate import upgrade
from app.services.interchange.exporter import export_all
from tests.conftest import CORPUS, all_json, load, make_settings, needs_corpus


@needs_corpus
def test_whole_corpus_imports_idempotently_and_round_trips(settings, tmp_path, new_database):
    files = sorted(CORPUS.rglob("*.json"))
    report = load(settings, CORPUS)
    assert (report.created, report.failed) == (len(files), 0) == (1922, 0)
    before = all_json(settings)
    assert len({e["domain"] for e in before.values()}) == 41
    again = load(settings, CORPUS)
    assert (again.created, again.updated, again.unchanged) == (0, 0, 1922)
    for path in files[::97]:
        source = json.loads(path.read_text())
        entry = before.get(source["id"])
        if entry is None:  # merged by rule into another entry, which lists it
            assert any(source["id"] in e["aliases"] for e in before.values())
            continue
        assert entry["signature"] == source["error"]["signature"]
        assert entry["fix_rate"] == source["verdict"]["fix_success_rate"]
        assert [d["fail_rate"] for d in entry["dead_ends"]] == [d["fail_rate"] for d in source["dead_ends"]]
        assert [w["success_rate"] for w in entry["workarounds"]] == [
            w["success_rate"] for w in source["workarounds"]
        ]
        assert entry["revision"] >= 2 if entry["aliases"] else entry["revision"] == 1  # a merge is a revision
    engine = make_engine(settings)
    export_all(engine, tmp_path / "export")
    engine.dispose()
    fresh = make_settings(new_database())
    upgrade(fresh)
    assert load(fresh, tmp_path / "export").created == 1922
    assert all_json(fresh) == before
