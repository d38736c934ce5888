"""Two server processes on one SQLite file: a write through one shows through the other's cache."""

import httpx
import pytest

from tests.conftest import ADMIN_TOKEN, SEED_ID
from tests.server import serving

pytestmark = pytest.mark.slow
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
JSON, PAGE_ZH = f"/errors/{SEED_ID}.json", f"/zh/errors/{SEED_ID}"


def _warm(base: str) -> httpx.Response:
    """Read the entry until it comes from that process's cache (the second read does)."""
    for _ in range(2):
        response = httpx.get(base + JSON)
        httpx.get(base + PAGE_ZH)
    return response


def test_evidence_writes_and_rejections_invalidate_every_process_at_the_next_request(tmp_path):
    db = tmp_path / "errata.db"
    with serving(db, workers=1) as (one, _), serving(db, workers=1) as (other, _):
        before = _warm(one).json()
        etag = _warm(other).headers["etag"]
        zh_before = httpx.get(other + PAGE_ZH).text

        created = httpx.post(f"{one}/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "failed"})
        assert created.status_code == 201
        seen = httpx.get(other + JSON, headers={"If-None-Match": etag})
        assert seen.status_code == 200 and seen.json()["evidence_count"] == before["evidence_count"] + 1
        assert seen.json()["fix_rate"] < before["fix_rate"]
        assert httpx.get(other + PAGE_ZH).text != zh_before
        _warm(one)

        uid = created.json()["evidence"]["uid"]
        rejected = httpx.post(f"{other}/api/v1/moderation/evidence/{uid}/reject", headers=AUTH)
        assert rejected.status_code == 200
        back = httpx.get(one + JSON).json()
        assert back["evidence_count"] == before["evidence_count"]
        assert back["fix_rate"] == before["fix_rate"]
        assert httpx.get(other + PAGE_ZH).text == zh_before


def test_a_merge_through_one_process_changes_the_lookups_the_other_remembers(tmp_path):
    db = tmp_path / "errata.db"
    with serving(db, workers=1) as (one, _), serving(db, workers=1) as (other, _):
        paste = {"text": httpx.get(one + JSON).json()["signature"]}
        asked = [httpx.post(other + "/api/v1/lookup", json=paste, timeout=60) for _ in range(2)]
        # The second answer is the remembered one, from the event loop.
        assert asked[0].json() == asked[1].json() and asked[1].json()["matches"][0]["id"] == SEED_ID
        into = next(
            e["id"] for e in httpx.get(one + "/api/v1/errors?limit=5").json()["data"] if e["id"] != SEED_ID
        )

        merged = httpx.post(
            f"{one}/api/v1/moderation/merge", json={"from": SEED_ID, "into": into}, headers=AUTH
        )
        assert merged.status_code == 200
        found = [
            m["id"] for m in httpx.post(other + "/api/v1/lookup", json=paste, timeout=60).json()["matches"]
        ]
        assert found[0] == into and SEED_ID not in found
