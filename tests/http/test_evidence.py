"""Evidence submission through the real app: API, form, validation, limits, moderation."""

import sqlite3

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient
from pydantic import SecretStr

from app.main import create_app
from tests.conftest import ADMIN_TOKEN, SEED_ID

ITEM = "lower-utilization-cap-seqs"
API = f"/api/v1/errors/{SEED_ID}/evidence"
AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def entry(client) -> dict:
    return client.get(f"/errors/{SEED_ID}.json").json()


def workaround(body: dict, item: str) -> dict:
    return next(w for w in body["workarounds"] if w["id"] == item)


def test_report_is_stored_and_moves_every_figure_at_once(shipped_client):
    response = shipped_client.post(
        API,
        json={
            "item": ITEM,
            "outcome": "failed",
            "versions": {"vllm": "0.4.2", "cuda": "12.1"},
            "note": "still OOM at 0.80",
            "source_url": "https://example.org/run/1",
        },
    )
    assert response.status_code == 201
    body = response.json()
    assert body["evidence"]["outcome"] == "failed" and body["evidence"]["versions"] == {
        "vllm": "0.4.2",
        "cuda": "12.1",
    }
    assert body["entry"]["evidence_count"] == 2
    # The item's first report: its curated 90 % is worth ten reports, so one failure moves it to 9/11.
    assert body["entry"]["item"] == {"id": ITEM, "kind": "workaround", "rate": pytest.approx(9.0 / 11)}
    after = entry(shipped_client)
    assert after["evidence_count"] == 2
    assert after["fix_rate"] == body["entry"]["fix_rate"] < 0.8
    assert after["confidence"] == body["entry"]["confidence"] > 0.85
    assert workaround(after, ITEM)["reports"] == {"worked": 0, "failed": 1, "partial": 0}
    assert after["recent_evidence"][0]["note"] == "still OOM at 0.80"


def test_page_and_markdown_show_per_version_tallies(shipped_client):
    for i, outcome in enumerate(["worked"] * 4 + ["failed", "partial"]):
        versions = {"vllm": "0.4.2"} if outcome != "partial" else {"vllm": "0.5.0"}
        report = {"item": ITEM, "outcome": outcome, "versions": versions, "note": f"run {i}"}
        assert shipped_client.post(API, json=report).status_code == 201
    page = BeautifulSoup(shipped_client.get(f"/errors/{SEED_ID}").text, "html.parser")
    tallies = [li.text.strip() for li in page.select(".version-reports li")]
    assert "on vLLM 0.4.2: 4 worked, 1 failed" in tallies
    zh = BeautifulSoup(shipped_client.get(f"/zh/errors/{SEED_ID}").text, "html.parser")
    assert "在 vLLM 0.4.2 上：4 次有效，1 次无效" in [
        li.text.strip() for li in zh.select(".version-reports li")
    ]
    # The Markdown views, for agents and terminals: a section of one line per version.
    for path, heading, lines in (
        (
            f"/errors/{SEED_ID}.md",
            "## Reports by version",
            ["- vLLM 0.4.2: 4 worked, 1 failed, 0 partial", "- vLLM 0.5.0: 0 worked, 0 failed, 1 partial"],
        ),
        (
            f"/zh/errors/{SEED_ID}.md",
            "## 按版本统计的报告",
            [
                "- vLLM 0.4.2：4 次有效，1 次无效，0 次部分有效",
                "- vLLM 0.5.0：0 次有效，0 次无效，1 次部分有效",
            ],
        ),
    ):
        section = shipped_client.get(path).text.split(f"\n{heading}\n\n", 1)[1].split("\n\n", 1)[0]
        assert section.splitlines() == lines


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"outcome": "fixed"}, "outcome"),
        ({}, "outcome"),
        ({"outcome": "worked", "item": "Bad Item!"}, "item"),
        ({"outcome": "worked", "versions": {"vllm": "<script>"}}, "versions"),
        ({"outcome": "worked", "versions": ["vllm"]}, "versions"),
        ({"outcome": "worked", "source_url": "javascript:alert(1)"}, "source_url"),
        ({"outcome": "worked", "note": "x" * 2001}, "note"),
        ({"outcome": "worked", "colour": "blue"}, "colour"),
    ],
)
def test_invalid_reports_are_422_naming_the_field_and_store_nothing(shipped_client, body, field):
    response = shipped_client.post(API, json=body)
    assert response.status_code == 422
    assert field in [str(part) for problem in response.json()["detail"] for part in problem["loc"]]
    assert entry(shipped_client)["evidence_count"] == 1


def test_unknown_entry_or_item_is_404(shipped_client):
    assert (
        shipped_client.post("/api/v1/errors/llm/nope/evidence", json={"outcome": "worked"}).status_code == 404
    )
    response = shipped_client.post(API, json={"outcome": "worked", "item": "no-such-item"})
    assert response.status_code == 404 and "no-such-item" in response.json()["detail"]


def test_oversized_body_is_413_and_not_stored(shipped_client):
    response = shipped_client.post(
        API,
        content=b'{"outcome": "worked", "note": "' + b"x" * 70_000 + b'"}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert "detail" in response.json()
    assert entry(shipped_client)["evidence_count"] == 1


def test_rate_limit_answers_429_with_retry_after(shipped_settings):
    settings = shipped_settings.model_copy(update={"rate_limit": 3, "rate_limit_window": 60})
    with TestClient(create_app(settings)) as client:
        codes = [client.post(API, json={"outcome": "worked", "note": f"#{i}"}).status_code for i in range(4)]
        assert codes == [201, 201, 201, 429]
        limited = client.post(API, json={"outcome": "worked", "note": "#5"})
        assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 61
        assert entry(client)["evidence_count"] == 4


@pytest.mark.parametrize("trusted", [True, False])
def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit(shipped_settings, trusted):
    settings = shipped_settings.model_copy(update={"rate_limit": 1, "trust_forwarded_for": trusted})
    with TestClient(create_app(settings)) as client:

        def report(forwarded: str) -> int:
            body = {"outcome": "worked", "note": forwarded}  # no two alike: a repeat is not counted
            return client.post(API, json=body, headers={"X-Forwarded-For": forwarded}).status_code

        # The proxy appends its own hop: the first address is the client's.
        codes = [report("203.0.113.5, 10.0.0.1"), report("203.0.113.5"), report("198.51.100.7, 10.0.0.1")]
        # Untrusted, the header is anyone's to write: every request is the proxy's own.
        assert codes == ([201, 429, 201] if trusted else [201, 429, 429])


@pytest.mark.sqlite_only  # a lock another process holds on the file
def test_a_report_while_another_writer_holds_the_database_is_503_and_stored_on_retry(shipped_settings):
    settings = shipped_settings.model_copy(update={"busy_timeout_ms": 50})
    path = settings.database_url.removeprefix("sqlite:///")
    with TestClient(create_app(settings), follow_redirects=False) as client:
        count = entry(client)["evidence_count"]
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another writer, in the middle of a long import
        busy = client.post(API, json={"outcome": "worked"})
        page = client.post(f"/zh/errors/{SEED_ID}/evidence", data={"outcome": "worked"})
        other.execute("ROLLBACK")
        other.close()
        assert (busy.status_code, busy.headers["retry-after"]) == (503, "1")
        assert busy.json() == {"detail": "The database is busy; try again"}
        assert page.status_code == 503 and "数据库正忙，请稍后重试" in page.text
        assert entry(client)["evidence_count"] == count
        assert client.post(API, json={"outcome": "worked"}).status_code == 201
        assert entry(client)["evidence_count"] == count + 1


def test_form_submission_redirects_back_with_a_confirmation(shipped_client):
    response = shipped_client.post(
        f"/errors/{SEED_ID}/evidence",
        data={
            "item": "enable-swap-space",
            "outcome": "partial",
            "versions": "vllm 0.4.2, cuda=12.1",
            "note": "<script>alert('x')</script> helped a bit",
        },
    )
    assert response.status_code == 303
    assert response.headers["location"].startswith(f"/errors/{SEED_ID}?reported=")
    page = shipped_client.get(response.headers["location"])
    soup = BeautifulSoup(page.text, "html.parser")
    assert soup.select_one("#report-confirmation") is not None
    note = soup.select_one(".recent-reports .note")
    assert note.text == "<script>alert('x')</script> helped a bit"
    assert not soup.select("#evidence script") and "<script>alert" not in page.text
    assert workaround(entry(shipped_client), "enable-swap-space")["reports"]["partial"] == 1


def test_chinese_form_returns_to_the_chinese_page(shipped_client):
    response = shipped_client.post(f"/zh/errors/{SEED_ID}/evidence", data={"outcome": "worked"})
    assert response.status_code == 303 and response.headers["location"].startswith(f"/zh/errors/{SEED_ID}?")
    page = shipped_client.get(response.headers["location"]).text
    assert "谢谢！你的报告已记录" in page


def test_form_errors_are_readable_pages_naming_the_field(shipped_client):
    response = shipped_client.post(f"/errors/{SEED_ID}/evidence", data={"outcome": "maybe"})
    assert response.status_code == 422 and response.headers["content-type"].startswith("text/html")
    assert "outcome" in BeautifulSoup(response.text, "html.parser").select_one(".error-page").text
    bad_versions = shipped_client.post(
        f"/errors/{SEED_ID}/evidence", data={"outcome": "worked", "versions": "just-words"}
    )
    assert bad_versions.status_code == 422 and "versions" in bad_versions.text


def test_moderation_needs_the_token(shipped_settings):
    with TestClient(create_app(shipped_settings.model_copy(update={"admin_token": None}))) as client:
        assert client.get("/api/v1/moderation/evidence", headers=AUTH).status_code == 403
    with TestClient(create_app(shipped_settings)) as client:
        assert client.get("/api/v1/moderation/evidence").status_code == 401
        wrong = client.get("/api/v1/moderation/evidence", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 403


def test_rejecting_recomputes_and_is_audited(shipped_client):
    uid = shipped_client.post(API, json={"item": ITEM, "outcome": "failed"}).json()["evidence"]["uid"]
    listed = shipped_client.get("/api/v1/moderation/evidence", headers=AUTH).json()
    assert listed[0]["uid"] == uid and listed[0]["entry_id"] == SEED_ID and listed[0]["client"]
    rejected = shipped_client.post(
        f"/api/v1/moderation/evidence/{uid}/reject", json={"reason": "spam"}, headers=AUTH
    )
    assert rejected.status_code == 200
    assert rejected.json() == {"fix_rate": 0.8, "confidence": 0.85, "evidence_count": 1, "item": None}
    assert entry(shipped_client)["workarounds"][0]["success_rate"] == 0.9
    restored = shipped_client.post(f"/api/v1/moderation/evidence/{uid}/restore", headers=AUTH)
    assert restored.json()["evidence_count"] == 2
    log = shipped_client.get("/api/v1/moderation/log", headers=AUTH).json()
    assert [(r["evidence_uid"], r["action"], r["reason"]) for r in log] == [
        (uid, "restore", None),
        (uid, "reject", "spam"),
    ]
    assert shipped_client.post("/api/v1/moderation/evidence/nope/reject", headers=AUTH).status_code == 404


MODERATION_CALLS = [
    ("GET", "/api/v1/moderation/evidence"),
    ("GET", "/api/v1/moderation/log"),
    ("POST", "/api/v1/moderation/evidence/{uid}/reject"),
    ("POST", "/api/v1/moderation/evidence/{uid}/restore"),
]
REFUSED = [
    (None, {}, 403),  # token unset: moderation is off, whatever is sent
    (None, {"Authorization": "Bearer "}, 403),
    (None, {"Authorization": "Bearer"}, 403),
    ("", {"Authorization": "Bearer "}, 403),  # set but empty counts as unset
    ("", {"Authorization": "Bearer x"}, 403),
    (ADMIN_TOKEN, {}, 401),
    (ADMIN_TOKEN, {"Authorization": "Bearer"}, 401),
    (ADMIN_TOKEN, {"Authorization": "Bearer "}, 401),
    (ADMIN_TOKEN, {"Authorization": f"Basic {ADMIN_TOKEN}"}, 401),
    (ADMIN_TOKEN, {"Authorization": ADMIN_TOKEN}, 401),
    (ADMIN_TOKEN, {"Authorization": "Bearer nope"}, 403),
    (ADMIN_TOKEN, {"Authorization": f"Bearer {ADMIN_TOKEN[:-1]}"}, 403),
    (ADMIN_TOKEN, {"Authorization": f"Bearer {ADMIN_TOKEN}x"}, 403),
    (ADMIN_TOKEN, {"Authorization": f"Bearer {ADMIN_TOKEN.upper()}"}, 403),
]


@pytest.mark.parametrize(("token", "headers", "status"), REFUSED)
def test_every_moderation_call_is_refused_without_the_right_token(shipped_settings, token, headers, status):
    with TestClient(create_app(shipped_settings)) as client:
        uid = client.post(API, json={"outcome": "worked", "note": "to moderate"}).json()["evidence"]["uid"]
        before = entry(client)
    secret = None if token is None else SecretStr(token)
    with TestClient(create_app(shipped_settings.model_copy(update={"admin_token": secret}))) as client:
        for method, path in MODERATION_CALLS:
            response = client.request(method, path.format(uid=uid), headers=headers, json=None)
            assert response.status_code == status, (method, path)
            assert "to moderate" not in response.text and "client" not in response.text
        assert entry(client) == before
    with TestClient(create_app(shipped_settings)) as client:
        assert client.get("/api/v1/moderation/log", headers=AUTH).json() == []
