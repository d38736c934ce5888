"""Run `errata serve` for tests that need a real server."""

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx

from tests.conftest import ADMIN_TOKEN, database_url


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(
    db: Path | str, workers: int = 2, log_dir: Path | None = None, **env_overrides: str
) -> Iterator[tuple[str, int]]:
    """`errata serve` over a SQLite file or a database URL, in a process group of its own;
    yields its URL and the group id. The server's log goes beside the file, or to log_dir."""
    port = _free_port()
    env = {
        **os.environ,
        "ERRATA_DATABASE_URL": database_url(db),
        "ERRATA_RATE_LIMIT": "100000",
        "ERRATA_ADMIN_TOKEN": ADMIN_TOKEN,
        **env_overrides,
    }
    cli = Path(sys.executable).with_name("errata")
    log = ((log_dir or Path(db).parent) / f"server-{port}.log").open("wb")
    process = subprocess.Popen(
        [str(cli), "serve", "--port", str(port), "--workers", str(workers)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        with httpx.Client(timeout=1) as client:  # one client: each new one loads the CA bundle
            while time.monotonic() < deadline:
                try:
                    if client.get(f"{base}/healthz").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.2)
            else:
                raise RuntimeError("the server did not answer; see its log")
        yield base, process.pid
    finally:
        if process.poll() is None:
            with suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        log.close()
