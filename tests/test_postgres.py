"""PostgreSQL's own guarantees, on the suite's own cluster: the schema from the same revisions,
identical content to SQLite, several app servers on one database, a SQLite base moved over,
backups with pg_dump. (Everything else runs against PostgreSQL with ERRATA_TEST_BACKEND.)"""

import asyncio
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import text

from app.db import make_engine, read_session
from app.main import create_app
from app.migrate import alembic_config, upgrade
from app.schemas.api import EvidenceIn
from app.services.errors import RateLimited
from app.services.evidence.reports import RateLimit, record_evidence
from app.services.interchange.exporter import export_all
from app.services.interchange.importer import import_paths
from app.services.interchange.transfer import table_counts
from app.services.lookup.index import LookupIndex
from tests.conftest import ADMIN_TOKEN, DEMO_ENTRIES, SEED_ID, SHIPPED, all_json, load, make_settings
from tests.pg import binaries
from tests.server import serving
from tests.test_migrations import schema_differences

pytestmark = pytest.mark.postgres

ERRATA = str(Path(sys.executable).with_name("errata"))
API = f"/api/v1/errors/{SEED_ID}/evidence"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def errata(*args: str, url: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "ERRATA_DATABASE_URL": url}
    return subprocess.run([ERRATA, *args], env=env, capture_output=True, text=True, timeout=300)


def test_the_same_revisions_build_the_models_schema(pg_cluster):
    settings = make_settings(pg_cluster.create())
    upgrade(settings)
    engine = make_engine(settings)
    with engine.connect() as conn:
        assert schema_differences(conn) == []
        assert conn.execute(text("SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'")).scalar() == 1
    engine.dispose()
    command.downgrade(alembic_config(settings), "base")
    upgrade(settings)
    assert load(settings, DEMO_ENTRIES).created == 3


def test_the_same_files_give_the_same_json_and_export_on_both_backends(tmp_path, pg_cluster):
    # The shipped files carry their dates (the demo and canon fixtures take the time of the import).
    on_sqlite, on_postgres = make_settings(tmp_path / "errata.db"), make_settings(pg_cluster.create())
    for settings in (on_sqlite, on_postgres):
        upgrade(settings)
        assert load(settings, SHIPPED).failed == 0
        engine = make_engine(settings)
        export_all(engine, tmp_path / settings.database_url.split(":")[0])
        engine.dispose()
    assert all_json(on_postgres) == all_json(on_sqlite)
    exported = {
        p.relative_to(tmp_path / "sqlite"): p.read_text() for p in (tmp_path / "sqlite").rglob("*.yaml")
    }
    assert exported == {
        p.relative_to(tmp_path / "postgresql"): p.read_text()
        for p in (tmp_path / "postgresql").rglob("*.yaml")
    }


def test_the_rate_limit_holds_across_app_instances(pg_databases):
    url = pg_databases.shipped()
    engines = [make_engine(make_settings(url)) for _ in range(2)]
    limit = RateLimit(submissions=5, window_seconds=60)
    # Reports on different entries: the entry's row lock alone would not order them.
    entries = [SEED_ID, "pytorch/cuda-out-of-memory", "node/heap-out-of-memory", "docker/daemon-not-running"]

    def report(i: int) -> bool:
        try:
            record_evidence(
                engines[i % 2],
                entry_id=entries[i % 4],
                report=EvidenceIn(outcome="worked", note=f"run {i}"),  # not a repeat of another
                client="c1",
                limit=limit,
            )
        except RateLimited:
            return False
        return True

    with ThreadPoolExecutor(16) as pool:
        accepted = sum(pool.map(report, range(32)))
    with read_session(engines[0]) as session:
        stored = session.execute(text("SELECT count(*) FROM evidence WHERE client = 'c1'")).scalar()
    for engine in engines:
        engine.dispose()
    assert accepted == stored == 5


def _generated(folder: Path, prefix: str, n: int) -> Path:
    """n entry files, copies of a demo entry under ids and wordings of their own (a word of
    letters, since numbers do not tell wordings apart: the same wording would merge)."""
    template = (DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text()
    (folder / "demo").mkdir(parents=True)
    for i in range(n):
        slug = f"{prefix}-{i}"
        word = "".join(chr(ord("a") + int(d)) for d in slug if d.isdigit())
        text = template.replace("demo/full-bilingual", f"demo/{slug}")
        for number in ("42", "\\d+"):
            text = text.replace(f"widget {number}", f"widget {prefix}{word}")
            text = text.replace(f"小部件 {number}", f"小部件 {prefix}{word}")
        (folder / "demo" / f"{slug}.yaml").write_text(text)
    return folder / "demo"


def test_two_imports_of_the_same_files_at_once_agree(tmp_path, pg_databases):
    """As when two servers start together on a new database: one creates, the other finds them."""
    settings = make_settings(pg_databases.empty())
    folder = _generated(tmp_path, "same", 40)
    engines = [make_engine(settings) for _ in range(2)]
    with ThreadPoolExecutor(2) as pool:
        reports = list(pool.map(lambda e: import_paths(e, [folder]), engines))
    for engine in engines:
        engine.dispose()
    assert [r.failures for r in reports] == [[], []]
    assert sorted((r.created, r.unchanged) for r in reports) == [(0, 40), (40, 0)]


def test_concurrent_writers_keep_the_change_counter_in_commit_order(tmp_path, pg_databases):
    """A lookup index refreshing while entries are written side by side misses none of them."""
    settings = make_settings(pg_databases.empty())
    folders = [_generated(tmp_path / f"w{writer}", f"gen-{writer}", 12) for writer in range(4)]
    engines = [make_engine(settings) for _ in range(5)]
    index, done = LookupIndex(), threading.Event()

    def write(n: int) -> int:
        return sum(import_paths(engines[n], [f]).created for f in sorted(folders[n].iterdir()))

    def refresh() -> None:
        while not done.is_set():
            with read_session(engines[4]) as session:
                index.refresh(session)

    refresher = threading.Thread(target=refresh)
    refresher.start()
    with ThreadPoolExecutor(4) as pool:
        created = sum(pool.map(write, range(4)))
    done.set()
    refresher.join()
    with read_session(engines[4]) as session:
        index.refresh(session)
        counters = session.execute(
            text("SELECT count(DISTINCT changed), count(DISTINCT seq) FROM entry")
        ).one()
    for engine in engines:
        engine.dispose()
    assert created == 48 and len(index) == 48 and tuple(counters) == (48, 48)


def _count(base: str) -> int:
    return httpx.get(f"{base}/errors/{SEED_ID}.json").json()["evidence_count"]


def _as(i: int) -> dict[str, str]:
    """A client of its own per i (the servers trust X-Forwarded-For): only chosen reports meet the limit."""
    return {"X-Forwarded-For": f"10.{i // 62500 % 250}.{i // 250 % 250}.{i % 250}"}


async def _submit(bases: list[str], n: int, *, same_client: bool = False) -> list[int]:
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=100)) as client:

        async def one(i: int) -> int:
            # Each its own report (a note of its own): a repeated one is counted once by design.
            body = {
                "item": "enable-swap-space",
                "outcome": ("worked", "failed", "partial")[i % 3],
                "note": f"run {i}",
            }
            headers = {"X-Forwarded-For": "192.0.2.1"} if same_client else _as(i)
            response = await client.post(f"{bases[i % len(bases)]}{API}", json=body, headers=headers)
            return response.status_code

        return await asyncio.gather(*(one(i) for i in range(n)))


def _lookup(base: str, paste: str) -> list[str]:
    return [m["id"] for m in httpx.post(f"{base}/api/v1/lookup", json={"text": paste}).json()["matches"]]


@pytest.mark.slow
def test_app_servers_sharing_one_database_count_every_report_once_and_stay_in_step(tmp_path, pg_cluster):
    url = pg_cluster.create()
    env = {"ERRATA_RATE_LIMIT": "10", "ERRATA_TRUST_FORWARDED_FOR": "true"}
    with (
        serving(url, log_dir=tmp_path, **env) as (first, first_group),
        serving(url, log_dir=tmp_path, **env) as (second, _),
    ):
        bases = [first, second]
        before = _count(first)
        codes = asyncio.run(_submit(bases, 240))
        assert codes.count(201) == 240
        for base in bases:
            entry = httpx.get(f"{base}/errors/{SEED_ID}.json").json()
            assert entry["evidence_count"] == before + 240
            swap = next(w for w in entry["workarounds"] if w["id"] == "enable-swap-space")["reports"]
            assert swap == {"worked": 80, "failed": 80, "partial": 80}

        # One client, through both servers at once: the limit of 10 holds across them.
        limited = asyncio.run(_submit(bases, 30, same_client=True))
        assert (limited.count(201), limited.count(429)) == (10, 20)

        # A write through one is visible through the other in the very next request.
        for i, (writer, other) in enumerate(((first, second), (second, first))):
            count = _count(other)
            response = httpx.post(f"{writer}{API}", json={"outcome": "worked"}, headers=_as(1000 + i))
            assert response.status_code == 201
            assert _count(other) == count + 1 == response.json()["entry"]["evidence_count"]

        # Lookup indexes follow an import made by a third process.
        paste = "QuuxError: the quux reactor melted at 451 degrees"
        assert _lookup(first, paste) == _lookup(second, paste) == []
        entry = tmp_path / "new" / "demo" / "quux.yaml"
        entry.parent.mkdir(parents=True)
        entry.write_text(
            "id: demo/quux\ndomain: demo\ncategory: runtime_error\ntitle: {en: Quux reactor melted}\n"
            "signature: 'QuuxError: the quux reactor melted at 300 degrees'\n"
            "prior: {fix_rate: 0.5, confidence: 0.5}\n"
        )
        assert errata("import", str(entry), url=url).returncode == 0
        assert _lookup(first, paste)[:1] == _lookup(second, paste)[:1] == ["demo/quux"]

        # A server killed while it acknowledges reports loses none of them.
        acknowledged: list[str] = []

        async def stream() -> None:
            async with httpx.AsyncClient(timeout=10) as client:

                async def writer(k: int) -> None:
                    for i in range(10_000):
                        try:
                            response = await client.post(
                                f"{first}{API}",
                                json={"outcome": "worked", "note": f"{k}-{i}"},
                                headers=_as(10_000 * (k + 1) + i),
                            )
                        except httpx.TransportError:
                            return
                        if response.status_code == 201:
                            acknowledged.append(response.json()["evidence"]["uid"])

                async def killer() -> None:
                    while len(acknowledged) < 100:
                        await asyncio.sleep(0.01)
                    os.killpg(first_group, signal.SIGKILL)

                await asyncio.gather(*(writer(k) for k in range(8)), killer())

        asyncio.run(stream())
        stored: set[str] = set()
        while page := httpx.get(
            f"{second}/api/v1/moderation/evidence",
            params={"limit": 500, "offset": len(stored)},
            headers=AUTH,
        ).json():
            stored |= {r["uid"] for r in page}
        assert len(acknowledged) >= 100 and set(acknowledged) <= stored
        assert _count(second) == len(stored)


def _counts(settings) -> dict[str, int]:
    engine = make_engine(settings)
    try:
        return table_counts(engine)
    finally:
        engine.dispose()


def _found(client: TestClient, query: str) -> set[str]:
    return {e["id"] for e in client.get("/api/v1/errors", params={"q": query, "limit": 100}).json()["data"]}


def test_migrate_db_moves_a_whole_base_and_loses_nothing(tmp_path, pg_cluster):
    source = make_settings(tmp_path / "errata.db")
    upgrade(source)
    assert load(source, SHIPPED, DEMO_ENTRIES).failed == 0
    changed = tmp_path / "changed" / "demo" / "full-bilingual.yaml"
    changed.parent.mkdir(parents=True)
    original = (DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text()
    changed.write_text(original.replace("Widget frobnication fails", "Widget frobnication fails again", 1))
    assert load(source, changed).updated == 1
    with TestClient(create_app(source), follow_redirects=False) as client:
        uids = [
            client.post(API, json={"outcome": o, "versions": {"vllm": "0.4.2"}}).json()["evidence"]["uid"]
            for o in ("worked", "failed", "partial")
        ]
        assert client.post(f"/api/v1/moderation/evidence/{uids[1]}/reject", headers=AUTH).status_code == 200
        assert client.post("/lookup", data={"text": "x" * 4000}).status_code == 303
    target = pg_cluster.create()

    moved = errata("migrate-db", source.database_url, target, url="sqlite:///unused.db")
    assert moved.returncode == 0, moved.stderr
    counts = _counts(source)
    assert all(
        counts[t] for t in ("evidence", "evidence_version", "entry_revision", "moderation_action", "paste")
    )
    assert _counts(make_settings(target)) == counts
    on_postgres = make_settings(target)
    assert all_json(on_postgres) == all_json(source)
    with (
        TestClient(create_app(source)) as before,
        TestClient(create_app(on_postgres), follow_redirects=False) as after,
    ):
        for path in ("/api/v1/moderation/evidence?limit=500", "/api/v1/moderation/log"):
            assert after.get(path, headers=AUTH).json() == before.get(path, headers=AUTH).json()
        for query in ("KV cache", "显存不足", "memory_util"):
            assert _found(after, query) == _found(before, query) != set()
        # The keys continue past the copied rows.
        assert after.post(API, json={"outcome": "worked"}).status_code == 201
        assert after.post("/lookup", data={"text": "y" * 4000}).status_code == 303

    again = errata("migrate-db", source.database_url, target, url="sqlite:///unused.db")
    assert again.returncode == 1 and "must be empty" in again.stderr


def test_backup_writes_a_pg_dump_that_restores(tmp_path, pg_cluster, pg_databases):
    url = pg_databases.shipped()
    backup = errata("backup", str(tmp_path / "errata.dump"), url=url)
    assert backup.returncode == 0, backup.stderr
    assert "pg_restore" in backup.stdout
    restored = pg_cluster.create()
    subprocess.run(
        [str(binaries() / "pg_restore"), "--no-owner", f"--dbname={restored}", str(tmp_path / "errata.dump")],
        check=True,
    )
    assert _counts(make_settings(restored)) == _counts(make_settings(url))
    healthy = errata("db", "upgrade", url=restored)
    assert healthy.returncode == 0, healthy.stderr
