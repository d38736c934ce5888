"""Proposals, the moderator's pages and history through the real app and a real database."""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from bs4 import BeautifulSoup
from fastapi.testclient import TestClient

from app.main import create_app
from app.web import moderator_session
from tests.conftest import ADMIN_TOKEN, SEED_ID, make_settings

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
API = f"/api/v1/errors/{SEED_ID}/proposals"


@contextmanager
def _site(settings) -> Iterator[TestClient]:
    # https: the moderator's cookie is Secure, so a client sends it back only over https.
    with TestClient(create_app(settings), base_url="https://testserver", follow_redirects=False) as client:
        yield client


@pytest.fixture
def site(shipped_settings) -> Iterator[TestClient]:
    with _site(shipped_settings) as client:
        yield client


def soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.text, "html.parser")


def sign_in(client) -> str:
    response = client.post("/moderation/login", data={"token": ADMIN_TOKEN})
    assert response.status_code == 303
    page = client.get("/moderation")
    assert page.status_code == 200
    return soup(page).select_one("input[name=csrf]")["value"]


def test_api_proposal_is_202_pending_and_the_entry_is_unchanged(site):
    before = site.get(f"/errors/{SEED_ID}.json")
    response = site.post(
        API, json={"change": {"kind": "pattern", "pattern": "KV cache block"}, "display_name": "Ada"}
    )
    assert response.status_code == 202
    body = response.json()
    assert (
        body["status"] == "pending"
        and body["entry_id"] == SEED_ID
        and body["url"] == f"/proposals/{body['id']}"
    )
    assert "client" not in body
    assert site.get(f"/api/v1/proposals/{body['id']}").json()["status"] == "pending"
    after = site.get(f"/errors/{SEED_ID}.json")
    assert after.headers["etag"] == before.headers["etag"] and after.json() == before.json()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"change": {"kind": "pattern", "pattern": "never printed"}}, "change.pattern"),
        ({"change": {"kind": "pattern", "pattern": "(a"}}, "change.pattern.pattern"),
        ({"change": {"kind": "text", "field": "title", "lang": "fr", "text": "x"}}, "change.text.lang"),
        (
            {"change": {"kind": "signature", "signature": "x"}, "display_name": "me@example.com"},
            "display_name",
        ),
        ({"change": {"kind": "signature", "signature": "x"}, "extra": 1}, "extra"),
    ],
)
def test_api_refuses_a_bad_field_by_name(site, body, field):
    response = site.post(API, json=body)
    assert response.status_code == 422
    assert response.json()["detail"][0]["field"] == field


def test_api_unknown_entry_too_large_and_too_many(shipped_settings, tmp_path):
    with TestClient(create_app(shipped_settings)) as client:
        assert (
            client.post(
                "/api/v1/errors/no/such/proposals", json={"change": {"kind": "signature", "signature": "x"}}
            ).status_code
            == 404
        )
        huge = {"change": {"kind": "signature", "signature": "x" * 70_000}}
        assert client.post(API, json=huge).status_code == 413
    limited = make_settings(shipped_settings.database_url.removeprefix("sqlite:///"), rate_limit=2)
    with TestClient(create_app(limited)) as client:
        body = {"change": {"kind": "pattern", "pattern": "KV cache"}}
        assert [client.post(API, json=body).status_code for _ in range(3)] == [202, 202, 429]
        assert int(client.post(API, json=body).headers["retry-after"]) >= 1


def test_api_new_entry_and_edit_through_the_general_address(site):
    new = {
        "change": {
            "kind": "new_entry",
            "domain": "demo",
            "title": {"en": "Gadget fails"},
            "signature": "GadgetError: token=abcdef123456 rejected",
            "patterns": ["GadgetError: .* rejected"],
        }
    }
    response = site.post("/api/v1/proposals", json=new)
    assert response.status_code == 202
    assert response.json()["change"]["signature"] == "GadgetError: token=<token> rejected"
    assert site.get("/errors/demo/gadget-fails").status_code == 404
    assert "/errors/demo/gadget-fails" not in site.get("/sitemap.xml").text
    accepted = site.post(f"/api/v1/moderation/proposals/{response.json()['id']}/accept", headers=AUTH)
    assert accepted.json()["entry_id"] == "demo/gadget-fails"
    created = site.get("/errors/demo/gadget-fails.json").json()
    assert created["history"]["source"] == "proposal" and created["history"]["last_change"]["revision"] == 1
    assert "/zh/errors/demo/gadget-fails" in site.get("/sitemap.xml").text
    assert site.post("/api/v1/lookup", json={"text": "GadgetError: token=zzz rejected"}).json()["matches"][0][
        "id"
    ] == ("demo/gadget-fails")
    edit = {"entry_id": SEED_ID, "change": {"kind": "doc", "title": "Docs", "url": "https://docs.vllm.ai/"}}
    assert site.post("/api/v1/proposals", json=edit).status_code == 202
    no_target = site.post("/api/v1/proposals", json={"change": {"kind": "signature", "signature": "x"}})
    assert no_target.status_code == 422 and no_target.json()["detail"][0]["field"] == "entry_id"


@pytest.mark.parametrize("prefix", ["", "/zh"])
def test_propose_from_the_entry_page_form(site, prefix):
    entry = soup(site.get(f"{prefix}/errors/{SEED_ID}"))
    propose_url = entry.select_one("#improve-link")["href"]
    assert propose_url == f"{prefix}/errors/{SEED_ID}/propose"
    page = soup(site.get(propose_url))
    kinds = {f.select_one("input[name=kind]")["value"] for f in page.select("form.propose")}
    assert kinds == {"text", "signature", "variant", "pattern", "workaround", "dead_end", "version", "doc"}
    action = page.select_one("#p-text form")["action"]
    response = site.post(
        action,
        data={"kind": "text", "field": "root_cause", "lang": "zh", "text": "<script>alert(1)</script>根因"},
    )
    assert response.status_code == 303
    assert re.fullmatch(rf"{prefix}/proposals/\d+\?sent=1", response.headers["location"])
    shown = site.get(response.headers["location"])
    assert "<script>alert(1)" not in shown.text and "&lt;script&gt;alert(1)&lt;/script&gt;根因" in shown.text
    html = soup(shown)
    assert html.select_one("#proposal-confirmation") and html.select_one("table.diff ins")
    bad = site.post(action, data={"kind": "pattern", "pattern": "nothing like it"})
    assert bad.status_code == 422 and "change.pattern" in bad.text


@pytest.mark.parametrize("prefix", ["", "/zh"])
def test_an_incomplete_form_gets_a_page_naming_each_field_as_the_api_does(site, prefix):
    cases = [
        ({"kind": "text", "field": "root_cause", "lang": "zh"}, "change.text.text"),
        ({"kind": "pattern", "pattern": "KV cache", "display_name": "x" * 61}, "display_name"),
    ]
    for form, field in cases:
        change = {k: v for k, v in form.items() if k != "display_name"}
        api = site.post(API, json={"change": change, "display_name": form.get("display_name")})
        assert api.status_code == 422 and [e["field"] for e in api.json()["detail"]] == [field]
        page = site.post(f"{prefix}/errors/{SEED_ID}/proposals", data=form)
        assert page.status_code == 422 and page.headers["content-type"].startswith("text/html")
        assert [li.code.text for li in soup(page).select(".error-page li")] == [field]
    assert site.get("/api/v1/moderation/proposals", headers=AUTH).json() == []


def test_paste_with_no_match_leads_to_a_scrubbed_new_entry_form(site):
    paste = "zed@box:~$ quuxctl up\nQuuxError: failed to frobnicate /home/zed/quux.conf at 10.9.8.7"
    lookup = soup(site.get("/lookup", params={"q": paste}))
    link = lookup.select_one("#propose-new")["href"]
    form = soup(site.get(link))
    signature = form.select_one("textarea[name=signature]").text
    kept = form.select_one("textarea[name=paste]").text
    assert signature == "QuuxError: failed to frobnicate /home/<user>/quux.conf at <ip>"
    assert "zed" not in kept and "10.9.8.7" not in kept
    response = site.post(
        "/proposals",
        data={
            "kind": "new_entry",
            "domain": "demo",
            "title_en": "Quux cannot frobnicate",
            "signature": signature,
            "patterns": "QuuxError: failed to frobnicate",
            "paste": paste,
        },
    )
    assert response.status_code == 303
    proposal = site.get(f"/api/v1{response.headers['location'].split('?')[0]}").json()
    assert proposal["kind"] == "new_entry" and "zed" not in proposal["change"]["paste"]


def test_a_new_entry_proposed_from_the_form_brings_its_first_workaround(site):
    form = {
        "kind": "new_entry",
        "domain": "demo",
        "title_en": "Sprocket will not spin",
        "signature": "SprocketError: spindle 3 is seized",
        "patterns": "SprocketError: spindle \\d+ is seized",
        "workaround_title_en": "Oil the spindle",
        "workaround_title_zh": "给主轴上油",
        "workaround_steps_en": "Run `sprocket oil --spindle 3`.",
    }
    response = site.post("/zh/proposals", data=form)
    assert response.status_code == 303
    proposal = site.get(f"/api/v1{response.headers['location'].split('?')[0].removeprefix('/zh')}").json()
    assert proposal["change"]["workaround"] == {
        "kind": "workaround",
        "title": {"en": "Oil the spindle", "zh": "给主轴上油"},
        "steps": {"en": "Run `sprocket oil --spindle 3`.", "zh": None},
        "condition": None,
    }
    accepted = site.post(f"/api/v1/moderation/proposals/{proposal['id']}/accept", headers=AUTH)
    created = site.get(f"/errors/{accepted.json()['entry_id']}.json").json()
    [workaround] = created["workarounds"]
    assert workaround["title"] == {"en": "Oil the spindle", "zh": "给主轴上油"}
    assert workaround["steps"]["en"] == "Run `sprocket oil --spindle 3`."
    # Without a title the steps alone are no workaround: the form leaves it out.
    untitled = {**form, "title_en": "Sprocket is stuck", "workaround_title_en": "", "workaround_title_zh": ""}
    again = site.post("/proposals", data={**untitled, "signature": "SprocketError: spindle 4 is seized"})
    assert again.status_code == 303
    assert (
        site.get(f"/api/v1{again.headers['location'].split('?')[0]}").json()["change"]["workaround"] is None
    )


def test_moderator_signs_in_once_with_a_safe_cookie(site):
    assert "token" in site.get("/moderation").text
    assert site.post("/moderation/login", data={"token": "wrong"}).status_code == 403
    response = site.post("/moderation/login", data={"token": ADMIN_TOKEN})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{moderator_session.COOKIE}=")
    for flag in ("HttpOnly", "Secure", "SameSite=strict", "Max-Age=28800", "Path=/"):
        assert flag in cookie
    assert ADMIN_TOKEN not in cookie
    page = site.get("/moderation")
    assert page.headers["cache-control"] == "no-store"
    assert soup(page).select_one("#proposals")


@pytest.mark.parametrize("prefix", ["", "/zh"])
def test_a_moderator_who_signs_out_is_asked_for_the_token_again(site, prefix):
    pid = site.post(API, json={"change": {"kind": "pattern", "pattern": "KV cache"}}).json()["id"]
    review = f"{prefix}/moderation/proposals/{pid}"
    signed_out = (303, f"{prefix}/moderation")
    answer = site.get(review)
    assert (answer.status_code, answer.headers["location"]) == signed_out
    sign_in(site)
    assert site.get(review).status_code == 200
    form = soup(site.get(f"{prefix}/moderation")).select_one("form[action$='/logout']")
    out = site.post(form["action"], data={i["name"]: i["value"] for i in form.select("input")})
    assert (out.status_code, out.headers["location"]) == signed_out
    assert (
        out.headers["set-cookie"].startswith(f'{moderator_session.COOKIE}=""')
        and "Max-Age=0" in out.headers["set-cookie"]
    )
    answer = site.get(review)
    assert (answer.status_code, answer.headers["location"]) == signed_out
    assert soup(site.get(f"{prefix}/moderation")).select_one("input[name=token]")


def test_moderator_forms_need_the_sessions_csrf_token(site, shipped_settings):
    pid = site.post(API, json={"change": {"kind": "pattern", "pattern": "KV cache"}}).json()["id"]
    assert site.post(f"/moderation/proposals/{pid}/accept", data={"csrf": "x"}).status_code == 403
    csrf = sign_in(site)
    assert site.post(f"/moderation/proposals/{pid}/accept", data={"csrf": "forged"}).status_code == 403
    with _site(shipped_settings) as other:  # another moderator's session, another token
        other_csrf = sign_in(other)
    assert site.post(f"/moderation/proposals/{pid}/accept", data={"csrf": other_csrf}).status_code == 403
    assert site.get(f"/api/v1/proposals/{pid}").json()["status"] == "pending"
    assert site.post(f"/moderation/proposals/{pid}/accept", data={"csrf": csrf}).status_code == 303
    assert site.get(f"/api/v1/proposals/{pid}").json()["status"] == "accepted"


def test_review_accept_see_history_and_undo(site):
    before = site.get(f"/errors/{SEED_ID}.json")
    pid = site.post(
        API,
        json={
            "change": {
                "kind": "text",
                "field": "title",
                "lang": "zh",
                "text": "<script>alert(1)</script>更好的标题",
            },
            "display_name": "Ada",
        },
    ).json()["id"]
    csrf = sign_in(site)
    queue = soup(site.get("/moderation"))
    assert f"/moderation/proposals/{pid}" in [a["href"] for a in queue.select("#proposals a")]
    review = site.get(f"/moderation/proposals/{pid}")
    assert "<script>alert(1)" not in review.text
    page = soup(review)
    assert page.select_one("table.diff th code").text == "title.zh"
    assert page.select_one("#edit textarea[name=document]").text.startswith(f"id: {SEED_ID}")
    assert site.post(f"/moderation/proposals/{pid}/accept", data={"csrf": csrf}).status_code == 303

    after = site.get(f"/errors/{SEED_ID}.json")
    assert (
        after.json()["title"]["zh"] == "<script>alert(1)</script>更好的标题"
        and after.json()["revision"] == before.json()["revision"] + 1
    )
    assert after.headers["etag"] != before.headers["etag"]
    assert after.json()["history"]["credits"] == ["Ada"]
    feed = site.get("/feed.atom").text
    assert feed.index(SEED_ID) < feed.index("<entry>", feed.index("<entry>") + 1)
    zh = soup(site.get(f"/zh/errors/{SEED_ID}"))
    # Entry text is sanitised Markdown: the script is gone, the words stay.
    assert "更好的标题" in zh.select_one("h1").text and not zh.select("main script")
    assert f"/zh/proposals/{pid}" in [a["href"] for a in zh.select("#last-change a")]
    assert zh.select_one("#credits .credit-name").text == "Ada"
    assert zh.select_one("#history-link")["href"] == f"/zh/errors/{SEED_ID}/history"

    history = site.get(f"/errors/{SEED_ID}/history.json").json()
    assert [r["author"] for r in history["revisions"]][:2] == [f"proposal #{pid}", "import"]
    assert [r["current"] for r in history["revisions"]] == [True] + [False] * (len(history["revisions"]) - 1)
    assert history["revisions"][0]["changed"] == ["title"]
    assert [c["path"] for c in history["diff"]["changes"]] == ["title.zh"]
    page = site.get(f"/zh/errors/{SEED_ID}/history")
    assert (
        page.status_code == 200
        and "<script>alert(1)" not in page.text
        and soup(page).select_one("table.diff ins")
    )
    # The page marks the revision the entry is at now, and only it.
    marked = [row["id"] for row in soup(page).select("#revisions tbody tr") if row.select_one(".tag")]
    assert marked == [f"rev-{history['revision']}"]

    undo = soup(site.get(f"/moderation/proposals/{pid}")).select_one("#undo")
    data = {i["name"]: i["value"] for i in undo.select("input")}
    assert site.post(undo["action"], data=data).status_code == 303
    restored = site.get(f"/errors/{SEED_ID}.json").json()
    assert (
        restored["title"] == before.json()["title"] and restored["revision"] == before.json()["revision"] + 2
    )
    old, new = before.json()["revision"], restored["revision"]
    same = site.get(f"/errors/{SEED_ID}/history.json", params={"from": old, "to": new}).json()
    assert same["diff"]["changes"] == []
    assert site.get(f"/errors/{SEED_ID}/history.json", params={"from": 99}).status_code == 404
    log = site.get("/api/v1/moderation/log", headers=AUTH).json()
    assert [(a["action"], a["proposal_id"]) for a in log[:2]] == [("revert", None), ("accept", pid)]


def test_reject_with_a_reason_and_moderate_evidence_from_the_page(site):
    pid = site.post(API, json={"change": {"kind": "signature", "signature": "spam"}}).json()["id"]
    csrf = sign_in(site)
    assert (
        site.post(f"/moderation/proposals/{pid}/reject", data={"csrf": csrf, "reason": "not it"}).status_code
        == 303
    )
    proposal = site.get(f"/api/v1/proposals/{pid}").json()
    assert proposal["status"] == "rejected" and proposal["reason"] == "not it"
    uid = site.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "failed"}).json()["evidence"][
        "uid"
    ]
    count = site.get(f"/errors/{SEED_ID}.json").json()["evidence_count"]
    reports = soup(site.get("/moderation", params={"entry": SEED_ID}))
    form = next(f for f in reports.select("#reports form") if uid in f["action"])
    assert site.post(form["action"], data={"csrf": csrf, "reason": "test"}).status_code == 303
    assert site.get(f"/errors/{SEED_ID}.json").json()["evidence_count"] == count - 1
    assert site.post(f"/moderation/evidence/{uid}/restore", data={"csrf": csrf}).status_code == 303
    assert site.get(f"/errors/{SEED_ID}.json").json()["evidence_count"] == count


def test_moderation_api_lists_accepts_and_rejects(site):
    assert site.get("/api/v1/moderation/proposals").status_code == 401
    ids = [
        site.post(API, json={"change": {"kind": "pattern", "pattern": p}}).json()["id"]
        for p in ("KV cache", "cache block")
    ]
    listed = site.get("/api/v1/moderation/proposals", headers=AUTH).json()
    assert [p["id"] for p in listed] == ids
    accepted = site.post(f"/api/v1/moderation/proposals/{ids[0]}/accept", headers=AUTH)
    assert accepted.status_code == 200 and accepted.json()["accepted_revision"] == 2
    assert site.post(f"/api/v1/moderation/proposals/{ids[0]}/accept", headers=AUTH).status_code == 409
    rejected = site.post(
        f"/api/v1/moderation/proposals/{ids[1]}/reject", headers=AUTH, json={"reason": "dup"}
    )
    assert rejected.json()["status"] == "rejected"
    assert (
        site.get("/api/v1/moderation/proposals", headers=AUTH, params={"status": "accepted"}).json()[0]["id"]
        == ids[0]
    )
    third = site.post(API, json={"change": {"kind": "pattern", "pattern": "block"}}).json()["id"]
    bad_doc = site.post(
        f"/api/v1/moderation/proposals/{third}/accept", headers=AUTH, json={"document": "id: x\n"}
    )
    assert bad_doc.status_code == 422 and bad_doc.json()["detail"][0]["field"].startswith("document")
    revert = site.post(f"/api/v1/moderation/errors/{SEED_ID}/revert", headers=AUTH, json={"revision": 1})
    assert revert.json() == {"id": SEED_ID, "revision": 3}
    assert "KV cache" not in site.get(f"/errors/{SEED_ID}.json").json()["patterns"]
    # A revision the entry never had: 404 saying so, and nothing changes.
    missing = site.post(f"/api/v1/moderation/errors/{SEED_ID}/revert", headers=AUTH, json={"revision": 9})
    assert missing.status_code == 404 and missing.json()["detail"] == f"Entry {SEED_ID} has no revision 9"
    assert site.get(f"/errors/{SEED_ID}.json").json()["revision"] == 3


def test_a_proposal_overtaken_by_another_says_it_no_longer_applies(site):
    change = {"change": {"kind": "pattern", "pattern": "KV cache"}}
    first, second = (site.post(API, json=change).json()["id"] for _ in range(2))
    assert site.post(f"/api/v1/moderation/proposals/{first}/accept", headers=AUTH).status_code == 200
    why = "change.pattern: the entry has this pattern already"
    public = soup(site.get(f"/zh/proposals/{second}")).select_one(".problem")
    assert "此提议已无法应用到条目的当前内容" in public.text and public.code.text == why
    sign_in(site)
    review = soup(site.get(f"/moderation/proposals/{second}"))
    assert review.select_one(".problem code").text == why
    assert review.select_one("#accept button").has_attr("disabled") and not review.select("#edit")
    assert site.post(f"/api/v1/moderation/proposals/{second}/accept", headers=AUTH).status_code == 422


def test_the_api_description_names_each_refusal_of_proposals_and_moderation(site):
    """A client generated from /openapi.json must know the refusals it will meet."""
    paths = site.get("/openapi.json").json()["paths"]
    change = {"change": {"kind": "pattern", "pattern": "KV cache"}}
    decided = site.post(API, json=change).json()["id"]
    assert site.post(f"/api/v1/moderation/proposals/{decided}/reject", headers=AUTH).status_code == 200
    decision = "/api/v1/moderation/proposals/{proposal_id}/"
    wrong = {"Authorization": "Bearer not-the-token"}
    refusals = [
        ("/api/v1/errors/{entry_id}/proposals", "/api/v1/errors/no/such/proposals", change, AUTH, 404),
        (decision + "accept", f"/api/v1/moderation/proposals/{decided}/accept", None, AUTH, 409),
        (decision + "reject", f"/api/v1/moderation/proposals/{decided}/reject", None, AUTH, 409),
        (decision + "accept", "/api/v1/moderation/proposals/987654/accept", None, AUTH, 404),
        (decision + "reject", "/api/v1/moderation/proposals/987654/reject", None, AUTH, 404),
        (decision + "reject", f"/api/v1/moderation/proposals/{decided}/reject", None, {}, 401),
        (decision + "reject", f"/api/v1/moderation/proposals/{decided}/reject", None, wrong, 403),
    ]
    for documented, url, body, headers, status in refusals:
        answer = site.post(url, json=body, headers=headers)
        assert answer.status_code == status and str(status) in paths[documented]["post"]["responses"]


def test_an_entrys_history_lists_only_its_own_pending_proposals(site):
    change = {"change": {"kind": "pattern", "pattern": "KV cache"}}
    own = site.post(API, json=change).json()["id"]
    # An entry whose id sorts before the seed's.
    other = {"change": {"kind": "pattern", "pattern": "cannot frobnicate widget"}}
    assert site.post("/api/v1/errors/demo/full-bilingual/proposals", json=other).status_code == 202
    assert site.get(f"/errors/{SEED_ID}/history.json").json()["pending_proposals"] == [own]


def test_the_moderators_evidence_list_comes_in_pages_of_50(site):
    for n in range(51):
        site.post(f"/api/v1/errors/{SEED_ID}/evidence", json={"outcome": "worked", "note": f"run {n}"})
    assert len(site.get("/api/v1/moderation/evidence", headers=AUTH).json()) == 50
    more = site.get("/api/v1/moderation/evidence", params={"offset": 50}, headers=AUTH).json()
    assert len(more) >= 1


def test_the_proposal_queue_comes_in_pages_of_50_oldest_first(site):
    ids = [
        site.post(
            API, json={"change": {"kind": "text", "field": "summary", "lang": "zh", "text": f"摘要 {n}"}}
        ).json()["id"]
        for n in range(51)
    ]
    first = site.get("/api/v1/moderation/proposals", headers=AUTH).json()
    assert [p["id"] for p in first] == ids[:50]
    more = site.get("/api/v1/moderation/proposals", params={"offset": 50}, headers=AUTH).json()
    assert [p["id"] for p in more] == ids[50:]


@pytest.mark.parametrize("revision", ["0", "-1", "x", "9223372036854775808"])
def test_the_revert_form_refuses_a_revision_no_entry_can_have_naming_it(site, revision):
    csrf = sign_in(site)
    before = site.get(f"/errors/{SEED_ID}.json").json()
    refused = site.post("/moderation/revert", data={"csrf": csrf, "entry_id": SEED_ID, "revision": revision})
    assert refused.status_code == 422
    assert [c.get_text() for c in soup(refused).select(".error-page li code")] == ["revision"]
    assert site.get(f"/errors/{SEED_ID}.json").json() == before


def test_the_revert_form_says_in_the_moderators_language_that_the_entry_never_had_that_revision(site):
    csrf = sign_in(site)
    before = site.get(f"/errors/{SEED_ID}.json").json()
    form = {"csrf": csrf, "entry_id": SEED_ID, "revision": "7"}
    refused = site.post("/zh/moderation/revert", data=form)
    assert (
        refused.status_code == 404
        and f"条目 {SEED_ID} 没有第 7 版" in soup(refused).select_one(".error-page").text
    )
    assert site.get(f"/errors/{SEED_ID}.json").json() == before


def test_the_moderators_evidence_filter_takes_ids_up_to_their_limit(site):
    listed = site.get("/api/v1/moderation/evidence", params={"entry_id": "a" * 300}, headers=AUTH)
    assert listed.status_code == 200 and listed.json() == []
    refused = site.get("/api/v1/moderation/evidence", params={"entry_id": "a" * 301}, headers=AUTH)
    assert refused.status_code == 422 and refused.json()["detail"][0]["field"] == "entry_id"


def test_moderation_page_is_off_without_a_token(shipped_settings):
    settings = shipped_settings.model_copy(update={"admin_token": None})
    with TestClient(create_app(settings), base_url="https://testserver") as client:
        assert client.get("/moderation").status_code == 403
        assert client.post("/moderation/login", data={"token": "anything"}).status_code == 403


def test_a_moderator_merges_and_unmerges_from_the_page(site):
    duplicate = "demo/full-bilingual"
    pair = {"from": duplicate, "into": SEED_ID}
    assert site.post("/moderation/merge", data={**pair, "csrf": "x"}).status_code == 403
    csrf = sign_in(site)
    merged = site.post("/moderation/merge", data={**pair, "csrf": csrf})
    assert merged.status_code == 303
    moved = site.get(f"/zh/errors/{duplicate}.md")
    assert moved.status_code == 301 and moved.headers["location"] == f"/zh/errors/{SEED_ID}.md"
    assert duplicate in site.get(f"/errors/{SEED_ID}.json").json()["aliases"]
    # Into an entry that does not exist: refused, naming it; nothing changes.
    refused = site.post("/moderation/merge", data={"from": SEED_ID, "into": "demo/nope", "csrf": csrf})
    assert refused.status_code == 404
    log = soup(site.get("/zh/moderation")).select_one("#log").get_text()
    assert "已合并" in log and duplicate in log and "merge" not in log
    assert site.post("/moderation/unmerge", data={"from": duplicate, "csrf": csrf}).status_code == 303
    assert site.get(f"/errors/{duplicate}.json").status_code == 200
    assert site.get(f"/errors/{SEED_ID}.json").json()["aliases"] == []


def test_a_moderator_merges_and_unmerges_through_the_api(site):
    duplicate = "demo/full-bilingual"
    api = "/api/v1/moderation"
    missing = site.post(f"{api}/merge", json={"from": duplicate}, headers=AUTH)
    assert missing.status_code == 422 and [d["field"] for d in missing.json()["detail"]] == ["into"]
    merged = site.post(
        f"{api}/merge", json={"from": duplicate, "into": SEED_ID, "reason": "same"}, headers=AUTH
    )
    assert merged.status_code == 200
    assert {k: merged.json()[k] for k in ("action", "from", "into")} == {
        "action": "merge",
        "from": duplicate,
        "into": SEED_ID,
    }
    moved = site.get(f"/api/v1/errors/{duplicate}")
    assert (moved.status_code, moved.headers["location"]) == (301, f"/api/v1/errors/{SEED_ID}")
    undone = site.post(f"{api}/unmerge", json={"from": duplicate}, headers=AUTH)
    assert undone.status_code == 200
    assert {k: undone.json()[k] for k in ("action", "from", "into")} == {
        "action": "unmerge",
        "from": duplicate,
        "into": SEED_ID,
    }
    assert site.get(f"/api/v1/errors/{duplicate}").json()["id"] == duplicate


def test_the_merge_form_takes_ids_up_to_their_limit(site):
    csrf = sign_in(site)
    # 300 characters is an id the form takes (here one no entry has); 301 is refused by name.
    for field in ("from", "into"):
        pair = {"from": SEED_ID, "into": SEED_ID, field: "a" * 300, "csrf": csrf}
        assert site.post("/moderation/merge", data=pair).status_code == 404
        refused = site.post("/moderation/merge", data={**pair, field: "a" * 301})
        said = soup(refused).select_one("main").get_text(" ", strip=True)
        assert refused.status_code == 422 and f"{field} : String should have at most 300" in said


def test_the_moderators_proposal_filter_takes_kinds_up_to_their_limit(site):
    sign_in(site)
    assert site.get("/moderation", params={"kind": "a" * 20}).status_code == 200
    refused = site.get("/moderation", params={"kind": "a" * 21})
    assert refused.status_code == 422 and "kind" in soup(refused).select_one("main").get_text()


def test_the_moderation_page_lists_the_100_oldest_pending_proposals(site):
    change = {"kind": "text", "field": "summary", "lang": "zh"}
    ids = [site.post(API, json={"change": {**change, "text": f"摘要 {n}"}}).json()["id"] for n in range(101)]
    sign_in(site)
    page = soup(site.get("/moderation"))
    rows = page.select("#proposals tbody tr")
    assert [row.select_one("a").get_text() for row in rows] == [f"#{n}" for n in ids[:100]]
    assert page.select_one("#proposals h2").get_text() == "Proposals (100 of 101)"
    chinese = soup(site.get("/zh/moderation")).select_one("#proposals h2")
    assert chinese.get_text() == "提议 (显示 100 条，共 101 条)"
    filtered = soup(site.get("/moderation?status=accepted")).select_one("#proposals h2")
    assert filtered.get_text() == "Proposals (0)"  # the count follows the filters
