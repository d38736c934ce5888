"""Several server processes on one port, each listening on a socket of its own.

uvicorn's `--workers` share one listening socket, and the worker that wakes first accepts
every connection then waiting. Kept-alive connections stay where they landed, so one worker
can end up with all of a client's or a proxy's connections while the other idles (counted
under wrk: 1 run in 12 had all 32 connections on one worker). Here each worker has a socket
of its own, bound with SO_REUSEPORT, and the kernel spreads new connections across the
sockets by their addresses (Linux only: elsewhere the option does not spread them). The
supervisor keeps no copy of a worker's socket, so a worker that stops takes its socket with
it and new connections go to the others.

SO_REUSEPORT lets any process of the same user bind the port too. So the first sockets
are bound and listening as soon as the port is found free, before the database is
migrated and the data loaded (a client connecting meanwhile waits rather than being
refused): a second `errata serve` on the port then finds it in use, as with one worker. A
replacement's socket listens only once its app has started, the others holding the port.

As uvicorn's supervisor does, this one pings each worker over a pipe and replaces one that
stops answering, restarts the workers one by one on SIGHUP, and stops on SIGINT or SIGTERM.
"""

import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from multiprocessing.connection import Connection, wait

import uvicorn

APP = "app.main:create_app"
STARTUP_FAILURE = 3  # as uvicorn exits when the app cannot start: restarting would not help
BACKLOG = 2048  # uvicorn's
ANSWER_S = 5  # a worker that does not answer a ping in this long is killed and replaced
PING_EVERY_S = 5
READY_S = 120  # what a replacement gets to start serving on SIGHUP before the old one stays
STOP_GRACE_S = 30  # the workers' open requests get this long to finish before they are killed
SHORT_LIFE_S = 10  # a worker that exits sooner than this after it started is restarted after
MAX_DELAY_S = 30  # a delay that doubles each time, up to this

log = logging.getLogger("uvicorn.error")


def _bound(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn chooses
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)[0][4])
    return sock


def listening(host: str, port: int, workers: int) -> list[socket.socket]:
    """A listening socket for each worker, to take right after the port was found free."""
    sockets = [_bound(host, port) for _ in range(workers)]
    for sock in sockets:
        sock.listen(BACKLOG)
    return sockets


def _answer(pings: Connection, server: uvicorn.Server) -> None:
    """Answer the supervisor's pings with whether the server has started; stop the server
    when the supervisor is gone (killed), rather than serve on unsupervised."""
    try:
        while True:
            pings.recv()
            pings.send(server.started)
    except (EOFError, OSError):
        server.should_exit = True


def _worker(config: uvicorn.Config, sock: socket.socket, pings: Connection) -> None:
    config.configure_logging()  # a spawned interpreter starts with none
    server = uvicorn.Server(config)
    threading.Thread(target=_answer, args=(pings, server), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # Ctrl+C reaches the whole group; uvicorn has shut down
        pass
    finally:  # however it ended (uvicorn exits 1 when the app cannot be made), before serving
        if not server.started:
            sys.exit(STARTUP_FAILURE)


class _Worker:
    def __init__(self, context, config: uvicorn.Config, sock: socket.socket) -> None:
        self.pings, theirs = context.Pipe()
        with sock:  # the worker has its own copy; this one would outlive the worker
            self.process = context.Process(target=_worker, args=(config, sock, theirs))
            self.process.start()
        theirs.close()
        self.born = time.monotonic()

    def answer(self, timeout: float) -> bool | None:
        """Whether it has started serving; None when it does not answer in time."""
        try:
            self.pings.send(b"ping")
            return self.pings.recv() if self.pings.poll(timeout) else None
        except (EOFError, OSError):
            return None


class _Supervisor:
    def __init__(self, sockets: list[socket.socket], options: dict) -> None:
        self.host, self.port = sockets[0].getsockname()[:2]
        self.config = uvicorn.Config(
            APP, factory=True, host=self.host, port=self.port, backlog=BACKLOG, **options
        )
        self.context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state copied
        self.signals: list[int] = []
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, lambda number, _: self.signals.append(number))
        self.workers: list[_Worker | None] = [self._start(sock) for sock in sockets]
        self.due = [0.0] * len(sockets)  # when an empty slot gets its worker
        self.delay = [0.0] * len(sockets)

    def _start(self, sock: socket.socket | None = None) -> _Worker:
        return _Worker(self.context, self.config, sock or _bound(self.host, self.port))

    def run(self) -> int:
        address = f"[{self.host}]" if ":" in self.host else self.host
        log.info(
            "serving http://%s:%d with %d workers, a listening socket each",
            address,
            self.port,
            len(self.workers),
        )
        pinged = time.monotonic()
        while True:
            wait([w.process.sentinel for w in self.workers if w], timeout=0.5)
            while self.signals:
                number = self.signals.pop(0)
                if number == signal.SIGHUP:
                    self._restart_all()
                else:
                    log.info("%s: stopping the workers", signal.Signals(number).name)
                    return self._stop(0)
            status = self._replace_exited()
            if status:
                return self._stop(status)
            if time.monotonic() - pinged >= PING_EVERY_S:
                pinged = time.monotonic()
                for worker in filter(None, self.workers):
                    if worker.process.exitcode is None and worker.answer(ANSWER_S) is None:
                        log.error("worker %d does not answer; killing it", worker.process.pid)
                        worker.process.kill()

    def _replace_exited(self) -> int:
        now = time.monotonic()
        for n, worker in enumerate(self.workers):
            if worker is not None and worker.process.exitcode is not None:
                worker.process.join()
                if worker.process.exitcode == STARTUP_FAILURE:
                    log.error("worker %d could not start; stopping", worker.process.pid)
                    return STARTUP_FAILURE
                # A worker that keeps dying soon after it starts is restarted ever more slowly.
                short = now - worker.born < SHORT_LIFE_S
                self.delay[n] = min(max(1.0, 2 * self.delay[n]), MAX_DELAY_S) if short else 0.0
                log.warning(
                    "worker %d exited (%s); another in %.0f s",
                    worker.process.pid,
                    worker.process.exitcode,
                    self.delay[n],
                )
                self.workers[n], self.due[n] = None, now + self.delay[n]
            if self.workers[n] is None and now >= self.due[n]:
                try:
                    self.workers[n] = self._start()
                except OSError as exc:  # the port was given up meanwhile and taken
                    log.error(
                        "cannot listen on %s:%d again: %s; stopping", self.host, self.port, exc.strerror
                    )
                    return STARTUP_FAILURE
        return 0

    def _restart_all(self) -> None:
        """Each worker in turn: its replacement serves before it stops, so the port is never
        without a worker that answers."""
        log.info("SIGHUP: restarting the workers one by one")
        for n, old in enumerate(self.workers):
            new = self._start()
            deadline = time.monotonic() + READY_S
            while new.answer(ANSWER_S) is not True:
                if time.monotonic() > deadline or new.process.exitcode is not None or self.signals:
                    log.error("a new worker did not start serving; keeping the old ones")
                    new.process.kill()
                    new.process.join()
                    return
                time.sleep(0.2)
            self.workers[n] = new
            if old is not None:
                old.process.terminate()
                old.process.join(STOP_GRACE_S)
                if old.process.exitcode is None:
                    old.process.kill()
                    old.process.join()

    def _stop(self, status: int) -> int:
        running = [w.process for w in self.workers if w and w.process.exitcode is None]
        for process in running:
            process.terminate()  # uvicorn's graceful shutdown: open requests finish
        deadline = time.monotonic() + STOP_GRACE_S
        for process in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.exitcode is None:
                process.kill()
                process.join()
        return status


def serve(sockets: list[socket.socket], **options) -> int:
    """A worker on each socket (from `listening`) until SIGINT or SIGTERM, another in place of
    one that exits or stops answering, all restarted in turn on SIGHUP; the exit status is
    STARTUP_FAILURE when a worker could not start. `options` go to uvicorn's Config (the
    benchmark turns the access log off)."""
    return _Supervisor(sockets, options).run()


def supported() -> bool:
    """Whether the kernel spreads connections over sockets sharing a port (Linux)."""
    return sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT") and os.name == "posix"
