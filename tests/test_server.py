"""The real server: uvicorn with two worker processes, concurrent writers, and a hard kill."""

import asyncio
import os
import signal
import sqlite3

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN, SEED_ID
from tests.server import serving

pytestmark = pytest.mark.slow
API = f"/api/v1/errors/{SEED_ID}/evidence"


def _count(base: str) -> int:
    return httpx.get(f"{base}/errors/{SEED_ID}.json").json()["evidence_count"]


async def _submit_many(base: str, n: int) -> list[int]:
    limits = httpx.Limits(max_connections=100)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:

        async def one(i: int) -> int:
            outcome = ("worked", "failed", "partial")[i % 3]
            body = {
                "item": "enable-swap-space",
                "outcome": outcome,
                "versions": {"vllm": f"0.4.{i % 3}"},
                "note": f"report {i}",  # identical reports from one client would count once
            }
            return (await client.post(API, json=body)).status_code

        return await asyncio.gather(*(one(i) for i in range(n)))


def test_concurrent_submissions_are_all_counted(tmp_path, new_database):
    with serving(new_database(), log_dir=tmp_path) as (base, _):
        before = _count(base)
        codes = asyncio.run(_submit_many(base, 240))
        assert not [c for c in codes if c >= 500]
        created = codes.count(201)
        assert created == 240
        after = httpx.get(f"{base}/errors/{SEED_ID}.json").json()
        assert after["evidence_count"] == before + created
        swap = next(w for w in after["workarounds"] if w["id"] == "enable-swap-space")["reports"]
        assert swap == {"worked": 80, "failed": 80, "partial": 80}


@pytest.mark.sqlite_only  # PostgreSQL: tests/test_postgres.py kills one of two servers
def test_acknowledged_reports_survive_a_hard_kill(tmp_path):
    db = tmp_path / "errata.db"
    acknowledged: list[str] = []
    with serving(db) as (base, process_group):

        async def stream() -> None:
            async with httpx.AsyncClient(base_url=base, timeout=10) as client:

                async def writer(k: int) -> None:
                    for i in range(10_000):
                        try:
                            response = await client.post(API, json={"outcome": "worked", "note": f"{k}-{i}"})
                        except httpx.TransportError:
                            return
                        if response.status_code == 201:
                            acknowledged.append(response.json()["evidence"]["uid"])

                async def killer() -> None:
                    while len(acknowledged) < 150:
                        await asyncio.sleep(0.01)
                    os.killpg(process_group, signal.SIGKILL)

                await asyncio.gather(*(writer(k) for k in range(8)), killer())

        asyncio.run(stream())
    assert len(acknowledged) >= 150
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    with serving(db) as (base, _):
        headers = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
        stored = set()
        offset = 0
        while True:
            page = httpx.get(
                f"{base}/api/v1/moderation/evidence",
                params={"limit": 500, "offset": offset},
                headers=headers,
            ).json()
            stored |= {r["uid"] for r in page}
            if len(page) < 500:
                break
            offset += 500
        assert set(acknowledged) <= stored
        assert _count(base) == len(stored)
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
