"""`errata serve --workers N`: each worker listens on a socket of its own, the kernel spreads
connections over them, and the server keeps answering while a worker is replaced."""

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from app.preflight import ConfigError, check_port
from app.web.workers import _steer
from tests.server import _free_port, serving

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
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except FileNotFoundError:  # the process is gone
        return inodes
    for fd in fds:
        try:
            target = os.readlink(fd)
        except FileNotFoundError:  # closed since listed
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def _group(group: int) -> list[int]:
    """The live processes of the server's group other than its supervisor (an exited one
    left unreaped, as a container's first process may leave it, does not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != group:
            try:
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if os.getpgid(int(entry.name)) == group and state != "Z":
                    found.append(int(entry.name))
            except (ProcessLookupError, FileNotFoundError):
                pass
    return found


def _listening(port: int, group: int) -> dict[int, set[int]]:
    """The listening sockets on the port of each process of the group that has any (the
    workers; multiprocessing's resource tracker has none). Each process's sockets are read
    before and after the table of listening sockets: a worker that starts listening, or stops,
    while the processes are read is seen as it was when the table was, so a replacement that
    began listening meanwhile, its old worker gone by the time it is read, is no dip."""
    first = {pid: _socket_inodes(pid) for pid in _group(group)}
    listeners = {inode for local, _, state, inode in _tcp_sockets() if local == port and state == _LISTEN}
    pids = first.keys() | set(_group(group))
    held = {pid: (first.get(pid, set()) | _socket_inodes(pid)) & listeners for pid in pids}
    return {pid: inodes for pid, inodes in held.items() if inodes}


@contextlib.contextmanager
def _answered(port: int, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections opened at once, each asked for /healthz and answered, kept open."""
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    try:
        for client in clients:
            client.sendall(b"GET /healthz HTTP/1.1\r\nHost: errata\r\n\r\n")
        for client in clients:
            assert client.recv(4096).startswith(b"HTTP/1.1 200")
        yield clients
    finally:
        for client in clients:
            client.close()


def _served(port: int, clients: list[socket.socket]) -> set[int]:
    """The inodes of the server's side of `clients`' connections."""
    ours = {client.getsockname()[1] for client in clients}
    return {inode for local, remote, state, inode in _tcp_sockets()
            if local == port and remote in ours and state == _ESTABLISHED}  # fmt: skip


def _threads(pid: int) -> list[str]:
    """Each thread of a process as "state wait-channel", where the kernel says (a thread
    blocked in a futex or a pipe shows which)."""
    threads = []
    for task in sorted(Path(f"/proc/{pid}/task").glob("*")):
        with contextlib.suppress(OSError):
            state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
            threads.append(f"{state} {(task / 'wchan').read_text() or '-'}")
    return threads


def _ready(port: int, group: int, workers: int, timeout: float = 60) -> dict[int, set[int]]:
    """The workers' listening sockets, once as many processes listen as there are workers;
    otherwise a failure that says what each process of the group was doing."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        sockets = _listening(port, group)
        if len(sockets) == workers:
            return sockets
        time.sleep(0.2)
    on_port = [(state, inode) for local, _, state, inode in _tcp_sockets() if local == port]
    processes = {pid: (_socket_inodes(pid), _threads(pid)) for pid in _group(group)}
    raise AssertionError(
        f"not every worker listens on {port}: {sockets}; sockets on the port (state, inode):"
        f" {on_port}; the group's processes (sockets, threads): {processes}"
    )


def test_each_worker_listens_on_its_own_socket_and_gets_connections(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        sockets = _ready(port, group, 2)
        assert len(set().union(*sockets.values())) == 2  # one socket each, not one shared

        # Connections opened all at once and kept open, as a load generator or a proxy
        # keeps them: each is answered, and each worker holds some of them.
        with _answered(port, 64) as clients:
            served = _served(port, clients)
            held = {pid: len(_socket_inodes(pid) & served) for pid in sockets}
        assert sum(held.values()) == 64
        assert all(held.values()), held  # one worker holding all 64 has odds of 2^-63


def test_a_worker_that_dies_is_replaced_and_requests_keep_being_answered(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        before = _ready(port, group, 2)
        gone = min(before)
        os.kill(gone, signal.SIGKILL)
        # Connections the kernel queued on its socket before the socket closed die with it (the
        # kernel spreads them over the sockets by their addresses); once it is closed, new
        # connections go to the worker left, and none is refused.
        deadline = time.monotonic() + 10
        while gone in _listening(port, group) and time.monotonic() < deadline:
            time.sleep(0.01)
        with ThreadPoolExecutor(8) as pool:
            codes = list(pool.map(lambda _: httpx.get(f"{base}/healthz", timeout=10).status_code, range(80)))
        assert codes == [200] * 80
        after = _ready(port, group, 2)
        assert gone not in after and len(after) == 2


def _listeners(port: int, count: int) -> list[socket.socket]:
    sockets = []
    for _ in range(count):
        sock = socket.socket()
        for option in (socket.SO_REUSEADDR, socket.SO_REUSEPORT):
            sock.setsockopt(socket.SOL_SOCKET, option, 1)
        sock.bind(("127.0.0.1", port))
        sock.listen(128)
        sock.setblocking(False)
        sockets.append(sock)
    return sockets


def _accepted(port: int, listeners: list[socket.socket], connections: int = 60) -> list[int]:
    """How many of `connections` new connections to the port each listening socket took."""
    clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(connections)]
    counts = []
    for listener in listeners:
        taken = 0
        while True:
            try:
                listener.accept()[0].close()
            except BlockingIOError:
                break
            taken += 1
        counts.append(taken)
    for client in clients:
        client.close()
    return counts


def test_a_replacement_listening_beside_the_workers_takes_every_new_connection():
    port = _free_port()
    opened = _listeners(port, 2)
    first, second = opened
    _steer(first, 2)  # as each worker of two does once it listens
    try:
        assert all(_accepted(port, [first, second]))  # two workers: spread as without
        opened += _listeners(port, 1)  # a replacement for the first
        third = opened[2]
        assert _accepted(port, [first, second, third]) == [0, 0, 60]
        first.close()  # the first worker stops: its replacement takes its place
        assert all(_accepted(port, [second, third]))
        third.close()  # one gone, not replaced yet
        assert _accepted(port, [second]) == [60]
    finally:
        for sock in opened:
            sock.close()


def test_while_a_worker_is_replaced_its_replacement_takes_every_new_connection(tmp_path):
    # Between a replacement starting to listen and its old worker stopping (DRAIN_S), three
    # sockets listen: every connection opened then goes to the replacement, so none waits on
    # a socket about to close. Each restart is one such window; the test needs to catch one.
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        previous = set(_ready(port, group, 2))
        before = set(previous)
        os.kill(group, signal.SIGHUP)
        caught = 0
        deadline = time.monotonic() + 120
        while before & set(sockets := _listening(port, group)) and time.monotonic() < deadline:
            if len(sockets) != 3:
                previous = set(sockets) if len(sockets) == 2 else previous
                time.sleep(0.01)
                continue
            (newest,) = set(sockets) - previous
            with _answered(port, 20) as clients:
                served = _served(port, clients)
                holders = {pid for pid in _group(group) if _socket_inodes(pid) & served}
                if len(_listening(port, group)) == 3:  # the window still open: all were in it
                    assert holders == {newest}
                    caught += 1
            while len(_listening(port, group)) == 3 and time.monotonic() < deadline:
                time.sleep(0.01)
        assert caught


def test_sighup_restarts_every_worker_in_turn_without_a_request_failing(tmp_path):
    # New connections from several clients at once all through the restarts: any that the
    # kernel queued on an old worker's socket when it closed would be reset.
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        before = set(_ready(port, group, 2))
        os.kill(group, signal.SIGHUP)
        listening: list[int] = []
        deadline = time.monotonic() + 120

        def ask(_) -> list[int]:
            codes = []
            while before & set(_listening(port, group)) and time.monotonic() < deadline:
                codes.append(httpx.get(f"{base}/healthz", timeout=10).status_code)
            return codes

        with ThreadPoolExecutor(4) as pool:
            asked = pool.map(ask, range(4))
            while before & set(sockets := _listening(port, group)) and time.monotonic() < deadline:
                listening.append(len(sockets))
                time.sleep(0.05)
            codes = [code for each in asked for code in each]
        after = _ready(port, group, 2)
        assert not before & set(after)  # both replaced
        assert codes and set(codes) == {200}
        assert min(listening) >= 2  # each replacement listened before its old worker stopped


def test_a_hangup_of_the_whole_group_restarts_nothing(tmp_path):
    """A terminal closing sends SIGHUP to every process of its group: the workers ignore it,
    and the supervisor restarts them one by one."""
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        before = set(_ready(port, group, 2))
        os.killpg(group, signal.SIGHUP)
        codes = []
        deadline = time.monotonic() + 120
        while before & set(_listening(port, group)) and time.monotonic() < deadline:
            codes.append(httpx.get(f"{base}/healthz", timeout=10).status_code)
        assert not before & set(_ready(port, group, 2))
        assert set(codes) <= {200}
    assert "exited" not in (tmp_path / f"server-{port}.log").read_text()  # none was killed by it


def test_a_worker_that_stops_answering_is_killed_and_replaced(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        stuck = min(_ready(port, group, 2))
        os.kill(stuck, signal.SIGSTOP)
        deadline = time.monotonic() + 60
        while stuck in _group(group) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert stuck not in _group(group)
        assert len(_ready(port, group, 2)) == 2
        assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200


def test_a_worker_that_keeps_dying_soon_after_it_starts_is_restarted_ever_more_slowly(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        port = urlsplit(base).port
        for _ in range(3):  # each worker killed within seconds of starting
            newest = max(_ready(port, group, 2), key=_started)
            os.kill(newest, signal.SIGKILL)
            deadline = time.monotonic() + 60
            while newest in _group(group) and time.monotonic() < deadline:
                time.sleep(0.1)
        _ready(port, group, 2)
        assert httpx.get(f"{base}/healthz", timeout=10).status_code == 200
    log = (tmp_path / f"server-{port}.log").read_text()
    delays = [line.rsplit("another in ", 1)[1] for line in log.splitlines() if "another in" in line]
    assert delays == ["1 s", "2 s", "4 s"]


def test_workers_stop_when_their_supervisor_is_killed(tmp_path):
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        workers = set(_ready(urlsplit(base).port, group, 2))
        os.kill(group, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while workers & set(_group(group)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not workers & set(_group(group))


def test_ctrl_c_stops_every_process_quietly(tmp_path):
    """Ctrl+C in a terminal reaches every process of the group: each worker shuts down
    gracefully, the supervisor waits for them, and no traceback is printed."""
    with serving(tmp_path / "errata.db", workers=2, ERRATA_DATA_DIR="") as (base, group):
        workers = set(_ready(urlsplit(base).port, group, 2))
        os.killpg(group, signal.SIGINT)
        deadline = time.monotonic() + 60
        while (workers & set(_group(group)) or _alive(group)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not workers & set(_group(group)) and not _alive(group)
    log = (tmp_path / f"server-{urlsplit(base).port}.log").read_text()
    assert log.count("Finished server process") == 2
    assert "Traceback" not in log and "KeyboardInterrupt" not in log


def _started(pid: int) -> int:
    """When the process started, in clock ticks since boot."""
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19])


def _alive(pid: int) -> bool:
    try:
        return (Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]) != "Z"
    except FileNotFoundError:
        return False


def test_workers_whose_app_cannot_start_stop_the_server(tmp_path):
    """Rather than being started again for ever: the supervisor stops with uvicorn's status
    for a failed startup, and leaves no worker behind."""
    code = "import sys; from app.web.workers import claim, serve\nsys.exit(serve(claim('127.0.0.1', 0), 2))"
    env = {
        **os.environ,
        "ERRATA_DATABASE_URL": f"sqlite:///{tmp_path / 'errata.db'}",
        "ERRATA_THREADS": "many",
    }
    supervisor = subprocess.Popen(
        [sys.executable, "-c", code], env=env, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        _, log = supervisor.communicate(timeout=120)
    finally:
        if supervisor.poll() is None:
            os.killpg(supervisor.pid, signal.SIGKILL)
    assert supervisor.returncode == 3, log
    assert "could not start; stopping" in log
    assert "the app could not start" in log and "threads" in log  # and why: the setting
    deadline = time.monotonic() + 30  # multiprocessing's resource tracker ends after its parent
    while _group(supervisor.pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _group(supervisor.pid)


def _port_free(port: int) -> bool:
    """Whether `errata serve` would find the port free (its own check, app/preflight.py)."""
    try:
        check_port("127.0.0.1", port)
    except ConfigError:
        return False
    return True


def test_a_second_server_on_the_port_is_refused_while_the_first_loads_and_while_its_workers_are_down(
    tmp_path,
):
    """With SO_REUSEPORT a second server of the same user could bind the port beside the
    first and take half its connections. The first holds the port from before it migrates
    its database and loads the shipped entries, and while none of its workers listens."""
    errata = str(Path(sys.executable).with_name("errata"))
    port = _free_port()
    log = tmp_path / "first.log"

    def second() -> subprocess.CompletedProcess:
        env = {**os.environ, "ERRATA_DATABASE_URL": f"sqlite:///{tmp_path / 'second.db'}"}
        argv = [errata, "serve", "--port", str(port), "--workers", "2"]
        return subprocess.run(argv, env=env, capture_output=True, text=True, timeout=60)

    env = {**os.environ, "ERRATA_DATABASE_URL": f"sqlite:///{tmp_path / 'first.db'}", "PYTHONUNBUFFERED": "1"}
    with log.open("w") as out:
        first = subprocess.Popen(
            [errata, "serve", "--port", str(port), "--workers", "2"],
            env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while _port_free(port):
            assert time.monotonic() < deadline and first.poll() is None, log.read_text()
            time.sleep(0.05)
        assert "shipped data" not in log.read_text()  # held before the data loads
        loading = second()
        workers = _ready(port, first.pid, 2)
        for pid in workers:  # every worker down at once
            os.kill(pid, signal.SIGKILL)
        while _listening(port, first.pid):
            time.sleep(0.05)
        down = second()
        assert len(_ready(port, first.pid, 2)) == 2  # the first's workers are back, and alone
    finally:
        os.killpg(first.pid, signal.SIGTERM)
        first.wait(timeout=60)
    for refused in (loading, down):
        assert refused.returncode == 1
        assert f"port {port} on 127.0.0.1 is in use" in refused.stderr
