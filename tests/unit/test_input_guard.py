"""The input middleware as ASGI: what reaches the route, and what is answered instead."""

import asyncio

import orjson
import pytest

from app.config import Settings
from app.main import create_app
from app.web.head import HeadAsGetMiddleware
from app.web.inputs import InputGuardMiddleware

LIMIT = 100
APP = create_app(Settings(database_url="sqlite://", warm_lookup_index=False))


class Route:
    """An ASGI app that records what it was given, reading the body as a route would."""

    def __init__(self):
        self.scope = None
        self.body = None
        self.after = None
        self.messages = []

    async def __call__(self, scope, receive, send):
        self.scope = scope
        if scope["type"] == "http" and scope["method"] in ("POST", "PUT"):
            body = b""
            while True:
                message = await receive()
                self.messages.append(message)
                body += message.get("body", b"")
                if not message.get("more_body", False):
                    break
            self.body = body
            self.after = await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"5")]})
        await send({"type": "http.response.body", "body": b"route"})


def call(path, *, method="POST", headers=None, chunks=(b"",), query=b"", kind="http", app=None):
    route = Route()
    guard = app(route) if app else InputGuardMiddleware(route, Settings(max_body_bytes=LIMIT))
    pending = [
        {"type": "http.request", "body": chunk, "more_body": i < len(chunks) - 1}
        for i, chunk in enumerate(chunks)
    ]
    del pending[-1]["more_body"]  # the last message may leave it out (ASGI: it means False)
    sent = []

    async def receive():
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {
        "type": kind,
        "method": method,
        "path": path,
        "raw_path": path.encode(),
        "query_string": query,
        "headers": [(k.encode(), v.encode()) for k, v in (headers or {}).items()],
        "scheme": "http",
        "server": ("errata.test", 80),
        "client": ("192.0.2.1", 1234),
        "root_path": "",
        "app": APP,  # error pages read the app's settings
    }
    asyncio.run(guard(scope, receive, send))
    status = sent[0]["status"] if sent else None
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return status, body, route


JSON = {"content-type": "application/json"}


def detail(body: bytes):
    return orjson.loads(body)["detail"]


def test_a_clean_body_reaches_the_route_byte_for_byte():
    sent = b'{"outcome": "worked"}'
    status, body, route = call(
        "/api/v1/errors/a/b/evidence", headers={**JSON, "content-length": "21"}, chunks=(sent,)
    )
    assert (status, body, route.body) == (200, b"route", sent)
    assert dict(route.scope["headers"])[b"content-length"] == b"21"
    assert route.messages == [{"type": "http.request", "body": sent, "more_body": False}]
    assert route.after == {"type": "http.disconnect"}  # after the body, the client's own messages


def test_a_cleaned_body_reaches_the_route_with_its_new_length():
    sent = b'{"outcome": "worked", "note": "a\\u0000b"}'
    headers = {**JSON, "content-length": str(len(sent))}
    status, _, route = call("/api/v1/errors/a/b/evidence", headers=headers, chunks=(sent[:10], sent[10:]))
    assert status == 200 and orjson.loads(route.body) == {"outcome": "worked", "note": "ab"}
    lengths = [v for k, v in route.scope["headers"] if k == b"content-length"]
    assert lengths == [str(len(route.body)).encode()]
    form = b"outcome=worked&note=x%00y"
    status, _, route = call(
        "/errors/a/b/evidence", headers={"content-type": "application/x-www-form-urlencoded"}, chunks=(form,)
    )
    assert status == 200 and route.body == b"outcome=worked&note=xy"


def test_the_limit_holds_for_chunks_and_declared_lengths():
    path = "/api/v1/errors/a/b/evidence"
    body = b'{"note": "' + b"x" * (LIMIT - 12) + b'"}'
    assert len(body) == LIMIT
    assert call(path, headers=JSON, chunks=(body[:50], body[50:]))[0] == 200
    status, answer, route = call(path, headers=JSON, chunks=(body[:50], body[50:], b" "))
    assert status == 413 and route.scope is None
    assert detail(answer) == f"The request is too large (> {LIMIT} bytes)"
    declared = {**JSON, "content-length": str(LIMIT + 1)}
    assert call(path, headers=declared, chunks=(b"never read",))[0] == 413
    assert call(path, headers={**JSON, "content-length": str(LIMIT)}, chunks=(body,))[0] == 200


@pytest.mark.parametrize(
    ("path", "media", "status"),
    [
        ("/lookup", "multipart/form-data; boundary=x", 415),
        ("/api/v1/lookup", "multipart/form-data; boundary=x", 415),
        ("/api/v1/lookup", "text/plain", 415),
        ("/api/v1/lookup", "application/x-www-form-urlencoded", 415),
        ("/api/v1/lookup", "application/json; charset=utf-8", 200),
        ("/lookup", "application/x-www-form-urlencoded", 200),
        ("/lookup", "text/plain", 200),
        ("/lookup", "application/json", 200),
    ],
)
def test_content_types(path, media, status):
    got, answer, _ = call(path, headers={"content-type": media}, chunks=(b'{"text": "x"}',))
    assert got == status
    if status == 415 and path.startswith("/api/"):
        assert detail(answer) == "That kind of content is not accepted here"
    elif status == 415:  # a page, in the language of the path
        assert "That kind of content is not accepted here" in answer.decode()


def test_refusals_name_the_field_as_the_routes_do():
    status, answer, route = call("/api/v1/lookup", headers=JSON, chunks=(b'{"versions": {"a": "\\u0001"}}',))
    assert status == 422 and route.scope is None
    assert detail(answer) == [
        {
            "loc": ["body", "versions", "a"],
            "field": "versions.a",
            "msg": "control characters are not allowed here",
            "type": "value_error",
        }
    ]
    status, answer, _ = call("/api/v1/errors", method="GET", query=b"q=%ff")
    assert status == 422 and detail(answer)[0]["field"] == "q"
    status, answer, _ = call("/api/v1/errors", method="GET", query=b"x%01=1")
    assert status == 422 and detail(answer)[0]["field"] == "query"
    assert call("/api/v1/errors/a%00", method="GET")[0] == 422


def test_a_cross_site_post_is_refused_before_its_body_is_read():
    headers = {**JSON, "origin": "https://evil.example", "host": "errata.test"}
    status, answer, route = call("/api/v1/lookup", headers=headers, chunks=(b'{"text": "x"}',))
    assert status == 403 and "another site" in detail(answer) and route.scope is None
    assert (
        call("/api/v1/lookup", headers={**headers, "origin": "http://errata.test"}, chunks=(b"{}",))[0] == 200
    )


def test_other_methods_and_scopes_pass_untouched():
    status, _, route = call("/api/v1/errors", method="GET", query=b"q=a%00b&limit=3")
    assert status == 200 and route.scope["query_string"] == b"q=ab&limit=3"
    status, _, route = call("/api/v1/errors", method="GET", query=b"q=plain%20text")
    assert route.scope["query_string"] == b"q=plain%20text"
    for kind in ("websocket", "lifespan"):
        _, _, route = call("/x%00", kind=kind, query=b"q=%ff")
        assert route.scope["type"] == kind


def test_head_is_get_without_the_body():
    status, body, route = call("/errors/a/b", method="HEAD", app=HeadAsGetMiddleware)
    assert (status, body, route.scope["method"]) == (200, b"", "GET")
    status, body, route = call("/errors/a/b", method="GET", app=HeadAsGetMiddleware)
    assert (status, body) == (200, b"route")


def test_a_lookup_may_carry_a_long_paste_and_a_report_may_not():
    paste = orjson.dumps({"text": "x" * 60_000})
    assert call("/api/v1/lookup", headers=JSON, chunks=(paste,))[0] == 200
    assert (
        call("/zh/lookup", headers={"content-type": "application/x-www-form-urlencoded"}, chunks=(paste,))[0]
        == 200
    )
    assert call("/api/v1/errors/a/b/evidence", headers=JSON, chunks=(paste,))[0] == 413


def test_a_body_without_a_type_or_a_length_reaches_a_page_route_as_sent():
    status, _, route = call("/lookup", chunks=(b"text=", b"Error\x00"))
    assert status == 200 and route.body == b"text=Error\x00"
    assert b"content-length" not in dict(route.scope["headers"])


def test_a_rewritten_body_keeps_every_other_header():
    headers = {**JSON, "authorization": "Bearer t", "accept": "application/json", "x-extra": "1"}
    _, _, route = call("/api/v1/errors/a/b/evidence", headers=headers, chunks=(b'{"note": "a\\u0000b"}',))
    kept = dict(route.scope["headers"])
    assert (kept[b"authorization"], kept[b"accept"], kept[b"x-extra"]) == (
        b"Bearer t",
        b"application/json",
        b"1",
    )


def test_an_api_body_without_a_type_and_other_types_on_pages():
    assert call("/api/v1/lookup", chunks=(b'{"text": "x"}',))[0] == 415
    status, _, route = call("/lookup", headers={"content-type": "text/plain"}, chunks=(b"q=%ff&x=\x00",))
    assert status == 200 and route.body == b"q=%ff&x=\x00"  # not a form: the route refuses it


def test_head_leaves_other_methods_alone_and_ends_the_answer():
    _, body, route = call("/lookup", method="POST", app=HeadAsGetMiddleware)
    assert route.scope["method"] == "POST" and body == b"route"
    sent = []
    route = Route()

    async def run():
        async def receive():
            return {"type": "http.disconnect"}

        async def send(message):
            sent.append(message)

        scope = {"type": "http", "method": "HEAD", "path": "/", "headers": [], "query_string": b""}
        await HeadAsGetMiddleware(route)(scope, receive, send)

    asyncio.run(run())
    assert [m["type"] for m in sent] == ["http.response.start", "http.response.body"]
    assert sent[-1] == {"type": "http.response.body", "body": b"", "more_body": False}


def _run(app, scope: dict, incoming: list[dict]) -> list[dict]:
    sent = []

    async def receive():
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    asyncio.run(app({"headers": [], "query_string": b"", "app": APP, **scope}, receive, send))
    return sent


def test_a_body_cut_short_by_a_client_that_went_away_reaches_the_route_as_nothing():
    """Never part of a report: what a route is given is the whole body or none of it."""
    route = Route()
    guard = InputGuardMiddleware(route, Settings(max_body_bytes=LIMIT))
    scope = {"type": "http", "method": "POST", "path": "/api/v1/errors/a/b/evidence", "raw_path": b"/x"}
    scope["headers"] = [(b"content-type", b"application/json")]
    _run(guard, scope, [{"type": "http.request", "body": b'{"outcome": "wor', "more_body": True}])
    assert route.body == b""


def test_head_drops_every_chunk_of_a_streamed_body():
    async def streamed(scope, receive, send):
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"6")]})
        for chunk in (b"ab", b"cd"):
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b"ef"})

    sent = _run(HeadAsGetMiddleware(streamed), {"type": "http", "method": "HEAD", "path": "/dump"}, [])
    assert sent[1:] == [{"type": "http.response.body", "body": b"", "more_body": False}]
    assert sent[0]["headers"] == [(b"content-length", b"6")]
