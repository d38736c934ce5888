"""errata in the terminal: `errata lookup` (a paste -> the answer) and `errata run` (run a
command, pass its output through, and answer its error when it fails)."""

import os
import signal
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import BinaryIO

from app.config import Settings
from app.schemas.api import MAX_PASTE_BYTES
from app.services.answers.build import Answer

CHUNK = 8192


def terminal_lang(environ: Mapping[str, str]) -> str:
    """The terminal's language as gettext reads it: LC_ALL, then LC_MESSAGES, then LANG."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def find_answer(
    text: str,
    *,
    lang: str,
    limit: int,
    versions: dict[str, str] | None,
    url: str | None,
    settings: Settings,
) -> Answer:
    """From the remote errata at `url` through its public API, else from the local database."""
    if url:
        from app.services.answers.remote import remote_answer

        return remote_answer(url, text, lang=lang, limit=limit, versions=versions)
    from app import migrate
    from app.db import make_engine, read_session
    from app.services.answers.build import local_answer
    from app.services.lookup.index import LookupIndex

    migrate.upgrade(settings)
    engine = make_engine(settings)
    try:
        with read_session(engine) as session:
            base = (settings.public_url or "").rstrip("/")
            return local_answer(
                session, LookupIndex(), text, lang=lang, limit=limit, versions=versions, base_url=base
            )
    finally:
        engine.dispose()


@dataclass
class Tail:
    """The last `limit` bytes written through it: enough for the error, never the whole log."""

    limit: int = MAX_PASTE_BYTES
    chunks: deque = field(default_factory=deque)
    size: int = 0

    def add(self, chunk: bytes) -> None:
        self.chunks.append(chunk)
        self.size += len(chunk)
        while self.size - len(self.chunks[0]) >= self.limit:
            self.size -= len(self.chunks.popleft())

    def text(self) -> str:
        data = b"".join(self.chunks)[-self.limit :]
        return data.decode("utf-8", errors="replace")


def _pump(source: BinaryIO, sink: BinaryIO, tail: Tail) -> None:
    """Copy as the bytes come (no waiting for lines), keeping the tail."""
    fd = source.fileno()
    while chunk := os.read(fd, CHUNK):
        sink.write(chunk)
        sink.flush()
        tail.add(chunk)


@dataclass
class Finished:
    status: int  # as a shell reports it: the exit code, or 128 + the signal
    stdout: str
    stderr: str


def run_command(argv: list[str]) -> Finished:
    """Run `argv` with its output passed through unchanged, keeping a tail of each stream."""
    process: subprocess.Popen | None = None

    # Ctrl-C reaches the command from the terminal itself; errata waits to tell its status.
    # A signal sent to errata alone (kill, a closed terminal) is passed on to the command.
    def forward(signum, frame):
        if process is not None:
            process.send_signal(signum)

    # Installed before the command starts (a caught signal is reset to the default by exec).
    previous = {
        signal.SIGINT: signal.signal(signal.SIGINT, lambda signum, frame: None),
        signal.SIGTERM: signal.signal(signal.SIGTERM, forward),
        signal.SIGHUP: signal.signal(signal.SIGHUP, forward),
    }
    try:
        process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
        tails = (Tail(), Tail())
        pumps = [
            threading.Thread(target=_pump, args=(stream, sink, tail), daemon=True)
            for stream, sink, tail in zip(
                (process.stdout, process.stderr), (sys.stdout.buffer, sys.stderr.buffer), tails, strict=True
            )
        ]
        for pump in pumps:
            pump.start()
        code = process.wait()
        for pump in pumps:
            pump.join()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    status = 128 - code if code < 0 else code
    return Finished(status=status, stdout=tails[0].text(), stderr=tails[1].text())
