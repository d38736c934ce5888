"""A throwaway PostgreSQL cluster from Debian's packages, for the tests: initdb and pg_ctl in a
temporary folder, on a free port, reachable only through a Unix socket in that folder.

The server refuses to run as root, so as root it runs as `nobody` (as data/_lib/postgres.sh
does for the reproductions).
"""

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import psycopg


def binaries() -> Path | None:
    """The bin folder of the newest PostgreSQL installed, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    def __init__(self) -> None:
        bin_dir = binaries()
        if bin_dir is None:
            raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
        self.bin = bin_dir
        self.folder = Path(tempfile.mkdtemp(prefix="errata-pg-"))
        self.folder.chmod(0o755)
        self.port = _free_port()
        self.as_user = ["runuser", "-u", "nobody", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.folder, "nobody")

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / program), *args], check=True, capture_output=True)

    def start(self) -> "Cluster":
        data = self.folder / "data"
        # Byte-order collation, as SQLite compares text; UTF-8 character classes for pg_trgm.
        self._run(
            "initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "--encoding=UTF8",
            "--lc-collate=C", "--lc-ctype=C.UTF-8",
        )  # fmt: skip
        options = (
            f"-c listen_addresses='' -k {self.folder} -p {self.port} -c max_connections=300 "
            # A test cluster: durability against power loss is not what the tests prove.
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self._run("pg_ctl", "-D", str(data), "-o", options, "-l", str(self.folder / "log"), "-w", "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@/{database}?host={self.folder}&port={self.port}"

    def _admin(self, sql: str) -> None:
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(sql)

    def create(self, template: str | None = None, name: str | None = None) -> str:
        """A new database (a copy of `template` if given); returns its URL."""
        name = name or f"t_{uuid.uuid4().hex[:16]}"
        self._admin(f'CREATE DATABASE "{name}"' + (f' TEMPLATE "{template}"' if template else ""))
        return self.url(name)

    def drop(self, url: str) -> None:
        name = url.split("/")[3].split("?")[0]
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
