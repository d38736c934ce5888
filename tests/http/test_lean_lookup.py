"""Pastes the lean path answers (app.web.fastpath): the route's bytes, and the route's answer
for whatever the lean path declines."""

import json

import pytest

from app.schemas.api import MAX_PASTE_BYTES
from app.web.fastpath import plain_paste
from tests.http.lean import counted, route_only, same_answer

PASTES = [
    {"text": "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB"},
    {"text": "FrobError: cannot frobnicate widget 42", "limit": 1},
    {"text": "torch.OutOfMemoryError: CUDA 显存不足", "limit": 50},
    {"text": "zzqx quux: nothing like this at all"},
]


@pytest.mark.parametrize("paste", PASTES)
def test_a_lean_lookup_answers_what_the_route_answers(shipped_client, paste, monkeypatch):
    answered = counted(monkeypatch, "answer_paste")
    lean = shipped_client.post("/api/v1/lookup", json=paste, headers={"Accept-Encoding": "identity"})
    assert len(answered) == 1
    route_only(shipped_client, monkeypatch, "plain_paste")  # ranked afresh, by the route
    routed = shipped_client.post("/api/v1/lookup", json=paste, headers={"Accept-Encoding": "identity"})
    assert len(answered) == 1
    same_answer(lean, routed)


def test_a_lean_lookup_finds_the_entry_and_its_answer_is_kept_until_an_entry_changes(
    shipped_client, monkeypatch
):
    answered = counted(monkeypatch, "answer_paste")
    paste = {"text": "FrobError: cannot frobnicate widget 42"}
    found = shipped_client.post("/api/v1/lookup", json=paste).json()["matches"]
    assert found[0]["id"] == "demo/full-bilingual" and found[0]["title"]["en"]
    assert shipped_client.post("/api/v1/lookup", json=paste).json()["matches"] == found
    assert len(answered) == 1  # the second from the kept answer
    shipped_client.post("/api/v1/errors/demo/full-bilingual/evidence", json={"outcome": "worked"})
    assert shipped_client.post("/api/v1/lookup", json=paste).json()["matches"][0]["id"] == found[0]["id"]
    assert len(answered) == 2


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"text": "x", "limit": 0}, "limit", 422),
        ({"text": "x", "limit": 51}, "limit", 422),
        ({"text": "x", "limit": "many"}, "limit", 422),
        ({"text": 5}, "text", 422),
        ({"limit": 3}, "text", 422),
        ({"text": "x", "colour": "red"}, "colour", 422),
        ({"text": "x", "versions": {"torch": "x" * 200}}, "versions", 422),
        ({"text": "x" * (MAX_PASTE_BYTES + 1)}, str(MAX_PASTE_BYTES), 413),
    ],
)
def test_what_the_route_refuses_is_still_refused(shipped_client, body, field, status):
    response = shipped_client.post("/api/v1/lookup", json=body)
    assert response.status_code == status
    assert field in str(response.json())


def test_a_paste_with_versions_is_ranked_by_the_route(shipped_client):
    body = {"text": "FrobError: cannot frobnicate widget 42", "versions": {"frob": "2.3"}}
    assert (
        shipped_client.post("/api/v1/lookup", json=body).json()["matches"][0]["id"] == "demo/full-bilingual"
    )


@pytest.mark.parametrize(
    ("body", "taken"),
    [
        ({"text": "x"}, ("x", 10)),
        ({"limit": 3, "text": "显存"}, ("显存", 3)),
        ({"text": "x", "limit": 50}, ("x", 50)),
        ({"text": "x" * MAX_PASTE_BYTES}, ("x" * MAX_PASTE_BYTES, 10)),
        ({"text": "é" * (MAX_PASTE_BYTES // 2 + 1)}, None),  # over the limit in UTF-8 bytes
        ({"text": "x", "versions": None}, None),
        ({"text": "x", "versions": {"torch": "2.1"}}, None),
        ({"text": "x", "limit": "5"}, None),
        ({"text": "x", "limit": 5.0}, None),
        ({"text": "x", "limit": True}, None),
        ({"text": "x", "limit": 0}, None),
        ({"text": "x", "limit": 51}, None),
        ({"text": "x", "colour": "red"}, None),
        ({"text": ["x"]}, None),
        ({}, None),
        (["x"], None),
        ("x", None),
    ],
)
def test_the_lean_path_takes_only_plain_valid_pastes(body, taken):
    assert plain_paste(json.dumps(body).encode()) == taken


def test_a_body_that_is_not_json_is_left_to_the_route():
    assert plain_paste(b"{not json") is None
