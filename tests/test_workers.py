"""`errata serve --workers N`: each worker listens on a socket of its own, the kernel spreads
connections over them, and the server keeps answering while a worker is replaced."""

import os
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.server import serving

pytestmark = pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads sockets from /proc")

_LISTEN, _ESTABLISHED = "0A", "01"


def _tcp_sockets() -> list[tuple[int, int, str, int]]:
    """(local port, remote port, state, inode) of every IPv4 TCP socket of this machine."""
    rows = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(address.split(":")[1], 16) for address in fields[1:3])
        rows.append((local, remote, fields[3], int(fields[9])))
    return rows


def _socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:  # closed since listed
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def _group(group: int) -> list[int]:
    """The processes of the server's group other than its supervisor."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != group:
            try:
                if os.getpgid(int(entry.name)) == group:
                    found.append(int(entry.name))
            except ProcessLookupError:
                pass
    return found


def _listening(port: int, group: int) -> dict[int, set[int]]:
    """The listening sockets on the port of each process of the group that has any (the
    workers; multiprocessing's resource tracker has none)."""
    listeners = {inode for local, _, state, inode in _tcp_sockets() if local == port and state == _LISTEN}
    held = {pid: _socket_inodes(pid) & listeners for pid in _group(group)}
    return {pid: inodes for pid, inodes in held.items() if inodes}


def _ready(port: int, group: int, workers: int, timeout: float = 60) -> dict[int, set[int]]:
    """The workers' listening sockets, once as many processes listen as there are workers."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sockets = _listening(port, group)
        if len(sockets) == workers:
            return sockets
        time.sleep(0.2)
    raise AssertionError(f"not every worker listens on {port}: {sockets}")


def test_each_worker_listens_on_its_own_socket_and_gets_connections(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        sockets = _ready(port, group, 2)
        assert len(set().union(*sockets.values())) == 2  # one socket each, not one shared

        # Connections opened all at once and kept open, as a load generator or a proxy
        # keeps them: each is answered, and each worker holds some of them.
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(64)]
        try:
            for client in clients:
                client.sendall(b"GET /healthz HTTP/1.1\r\nHost: errata\r\n\r\n")
            for client in clients:
                assert client.recv(4096).startswith(b"HTTP/1.1 200")
            ours = {client.getsockname()[1] for client in clients}
            served = {inode for local, remote, state, inode in _tcp_sockets()
                      if local == port and remote in ours and state == _ESTABLISHED}  # fmt: skip
            held = {pid: len(_socket_inodes(pid) & served) for pid in sockets}
        finally:
            for client in clients:
                client.close()
        assert sum(held.values()) == 64
        assert all(held.values()), held  # one worker holding all 64 has odds of 2^-63


def test_a_worker_that_dies_is_replaced_and_requests_keep_being_answered(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        before = _ready(port, group, 2)
        gone = min(before)
        os.kill(gone, signal.SIGKILL)
        # Its socket went with it: new connections go to the worker left, none is refused.
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda _: httpx.get(f"{base}/healthz", timeout=10).status_code, range(80)))
        assert codes == [200] * 80
        after = _ready(port, group, 2)
        assert gone not in after and len(after) == 2


def test_workers_that_cannot_listen_stop_the_server(tmp_path):
    """A port taken by a program that does not share it, after `serve` checked it: the
    workers cannot start, and the supervisor stops with uvicorn's startup failure status
    rather than restarting them for ever."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = {**os.environ, "ERRATA_DATABASE_URL": f"sqlite:///{tmp_path / 'errata.db'}"}
        code = f"import sys; from app.web.workers import serve; sys.exit(serve('127.0.0.1', {port}, 2))"
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
        )
    assert done.returncode == 3, done.stderr
    assert "cannot listen on 127.0.0.1" in done.stderr
