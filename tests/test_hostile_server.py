"""Hostile requests against the real server: bodies sent in ways the test client cannot send
(real chunks, `Expect: 100-continue`), and identical reports sent at the same moment."""

import asyncio
import socket
from urllib.parse import urlsplit

import httpx
import pytest

from tests.conftest import SEED_ID
from tests.server import serving

pytestmark = pytest.mark.slow
API = f"/api/v1/errors/{SEED_ID}/evidence"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("hostile") / "errata.db", workers=2) as (base, _):
        yield base


def raw_request(base: str, head: bytes, body_parts=(), wait_for_continue: bool = False) -> bytes:
    """Sends a request by hand and returns what the server answered before it closed."""
    address = urlsplit(base)
    with socket.create_connection((address.hostname, address.port), timeout=30) as conn:
        conn.sendall(head)
        answer = b""
        if wait_for_continue:
            answer = conn.recv(65536)
            if not answer.startswith(b"HTTP/1.1 100"):
                return answer
        try:
            for part in body_parts:
                conn.sendall(part)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the whole body was sent
        try:
            while chunk := conn.recv(65536):
                answer += chunk
                if _complete(answer):
                    break
        except ConnectionResetError:
            pass
        return answer


def _complete(answer: bytes) -> bool:
    """The final answer's headers and as much body as its Content-Length says have arrived."""
    final = answer.split(b"HTTP/1.1 100 Continue\r\n\r\n")[-1]
    head, found, body = final.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(body) >= int(value)
    return True


def status_of(answer: bytes) -> int:
    final = answer.split(b"HTTP/1.1 100 Continue\r\n\r\n")[-1]
    return int(final.split(b" ", 2)[1])


def headers(path: str, *lines: str) -> bytes:
    return "\r\n".join([f"POST {path} HTTP/1.1", "Host: localhost", *lines, "", ""]).encode()


def ten_mb_of_chunks():
    chunk = b"a" * 65536
    for _ in range(160):
        yield f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    yield b"0\r\n\r\n"


@pytest.mark.parametrize("path", ["/api/v1/lookup", API, f"/errors/{SEED_ID}/evidence"])
def test_a_ten_megabyte_chunked_body_is_413(server, path):
    head = headers(path, "Content-Type: application/json", "Transfer-Encoding: chunked")
    assert status_of(raw_request(server, head, ten_mb_of_chunks())) == 413


def test_expect_100_continue_over_the_limit_is_413_before_the_body_is_sent(server):
    head = headers(API, "Content-Type: application/json", "Content-Length: 10000000", "Expect: 100-continue")
    answer = raw_request(server, head, [b"a" * 10_000_000], wait_for_continue=True)
    assert not answer.startswith(b"HTTP/1.1 100") and status_of(answer) == 413


def test_expect_100_continue_within_the_limit_is_served(server):
    body = b'{"outcome": "partial", "note": "sent after 100 Continue"}'
    head = headers(
        API, "Content-Type: application/json", f"Content-Length: {len(body)}", "Expect: 100-continue"
    )
    assert status_of(raw_request(server, head, [body], wait_for_continue=True)) == 201


def test_chunked_body_within_the_limit_is_served(server):
    body = b'{"text": "fatal: not a git repository (or any of the parent directories): .git"}'
    head = headers("/api/v1/lookup", "Content-Type: application/json", "Transfer-Encoding: chunked")
    parts = [f"{len(body[:20]):x}\r\n".encode() + body[:20] + b"\r\n"]
    parts += [f"{len(body[20:]):x}\r\n".encode() + body[20:] + b"\r\n", b"0\r\n\r\n"]
    answer = raw_request(server, head, parts)
    assert status_of(answer) == 200 and b"git/" in answer


def test_identical_reports_sent_at_once_are_stored_once(server):
    report = {
        "item": "enable-swap-space",
        "outcome": "worked",
        "note": "double click",
        "versions": {"vllm": "0.5"},
    }
    before = httpx.get(f"{server}/errors/{SEED_ID}.json").json()["evidence_count"]

    async def send_all() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=server, timeout=60) as client:
            return await asyncio.gather(*(client.post(API, json=report) for _ in range(12)))

    answers = asyncio.run(send_all())
    assert sorted(a.status_code for a in answers) == [200] * 11 + [201]
    assert len({a.json()["evidence"]["uid"] for a in answers}) == 1
    after = httpx.get(f"{server}/errors/{SEED_ID}.json").json()
    assert after["evidence_count"] == before + 1
