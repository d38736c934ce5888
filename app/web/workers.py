"""Several server processes on one port, each listening on a socket of its own.

uvicorn's `--workers` share one listening socket, and the worker that wakes first accepts
every connection then waiting. Kept-alive connections stay where they landed, so one worker
can end up with all of a client's or a proxy's connections while the other idles (counted
under wrk: 1 run in 12 had all 32 connections on one worker). Here each worker has a socket
of its own, bound with SO_REUSEPORT, and the kernel spreads new connections across the
sockets by their addresses (Linux only: elsewhere the option does not spread them). A
worker's socket listens once its app has started, and the supervisor keeps no copy of it,
so a worker that stops takes its socket with it and new connections go to the others.

SO_REUSEPORT lets any process of the same user bind the port too. So as soon as the port is
found free, before the database is migrated and the data loaded, the supervisor binds a
guard socket it keeps while it runs: SO_REUSEPORT without SO_REUSEADDR, never listening. A
second `errata serve` on the port then finds it in use, even while no worker listens. (Where
connections of a server that did not share the port still wait out TIME_WAIT, the guard
needs SO_REUSEADDR too, and guards only once a worker listens.)

As uvicorn's supervisor does, this one pings each worker over a pipe and replaces one that
stops answering, restarts the workers one by one on SIGHUP, and stops on SIGINT or SIGTERM.
A socket that closes takes with it the connections the kernel queued on it and no worker
accepted yet (they are reset). So a restarted worker's replacement takes every new connection
as soon as it listens (_steer), and its old worker is stopped only once it has accepted what
was queued on its socket.
"""

import contextlib
import ctypes
import errno
import logging
import multiprocessing
import signal
import socket
import sys
import threading
import time
from multiprocessing.connection import Connection, wait

import uvicorn

APP = "app.main:create_app"
STARTUP_FAILURE = 3  # as uvicorn exits when the app cannot start
BACKLOG = 2048  # uvicorn's
ANSWER_S = 5  # a worker that does not answer a ping in this long is killed and replaced
PING_EVERY_S = 5
READY_S = 120  # a worker not serving this long after it started is killed and replaced
STOP_GRACE_S = 30  # the workers' open requests get this long to finish before they are killed
DRAIN_S = 1.0  # a worker being replaced accepts what was queued on its socket in this long
SHORT_LIFE_S = 30  # a worker that exits sooner than this after it started is restarted after
MAX_DELAY_S = 30  # a delay that doubles each time, up to this

log = logging.getLogger("uvicorn.error")


def _socket(host: str, port: int, *options: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET  # as uvicorn chooses
    sock = socket.socket(family, socket.SOCK_STREAM)
    for option in options:
        sock.setsockopt(socket.SOL_SOCKET, option, 1)
    sock.bind(socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)[0][4])
    return sock


def claim(host: str, port: int) -> socket.socket:
    """The guard socket, to bind right after the port was found free."""
    try:
        return _socket(host, port, socket.SO_REUSEPORT)
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            raise
        return _socket(host, port, socket.SO_REUSEPORT, socket.SO_REUSEADDR)


class _Instruction(ctypes.Structure):  # struct sock_filter: classic BPF
    _fields_ = [
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    ]


class _Program(ctypes.Structure):  # struct sock_fprog
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Instruction))]


_SO_ATTACH_REUSEPORT_CBPF = 51  # Linux, asm-generic
_BPF_RET_K = 0x06


def _steer(sock: socket.socket, workers: int) -> None:
    """Have the kernel give every new connection on the port to the socket at index `workers`
    of the port's listening sockets, and spread them by address as before where there is none.

    The kernel keeps a port's listening sockets in an array, a new one at the end, the last
    one moved into the place of one that closes; a classic BPF program on any of them picks
    the index, and one past the end means the usual spreading. With `workers` sockets
    listening there is none at that index; while a replacement listens beside them, it is at
    that index and takes every new connection, so its old worker's queue only empties."""
    code = (_Instruction * 1)(_Instruction(_BPF_RET_K, 0, 0, workers))
    program = _Program(1, code)
    try:
        sock.setsockopt(socket.SOL_SOCKET, _SO_ATTACH_REUSEPORT_CBPF, bytes(program))
    except OSError as exc:  # restarts still work; a connection queued on a closing socket is reset
        log.warning("could not steer new connections to restarted workers: %s", exc)


def _answer(pings: Connection, server: uvicorn.Server, sock: socket.socket, workers: int) -> None:
    """Answer the supervisor's pings with whether the server has started (once it has, with
    new connections steered, _steer); stop the server when the supervisor is gone (killed),
    rather than serve on unsupervised."""
    steered = False
    try:
        while True:
            pings.recv()
            if server.started and not steered:  # listening: before the supervisor hears so
                _steer(sock, workers)
                steered = True
            pings.send(server.started)
    except (EOFError, OSError):
        server.should_exit = True


def _worker(config: uvicorn.Config, sock: socket.socket, pings: Connection, workers: int) -> None:
    # Started with SIGINT and SIGHUP ignored (see _Worker): Ctrl+C stops a worker only
    # once uvicorn handles it, and a hangup of the terminal or the group restarts nothing.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    config.configure_logging()  # a spawned interpreter starts with none
    server = uvicorn.Server(config)
    threading.Thread(target=_answer, args=(pings, server, sock, workers), daemon=True).start()
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn raises it again once it has shut down
        pass
    except Exception:  # the app could not be made: say why, as uvicorn does with one worker
        if not server.started:
            log.exception("the app could not start")
        raise
    finally:
        if not server.started:
            sys.exit(STARTUP_FAILURE)


class _Worker:
    def __init__(self, context, config: uvicorn.Config, sock: socket.socket, workers: int) -> None:
        self.pings, theirs = context.Pipe()
        ignored = {number: signal.signal(number, signal.SIG_IGN) for number in (signal.SIGINT, signal.SIGHUP)}
        try:
            with sock:  # the worker has its own copy; this one would outlive the worker
                self.process = context.Process(target=_worker, args=(config, sock, theirs, workers))
                self.process.start()  # a signal ignored stays ignored in the new interpreter
        finally:
            for number, handler in ignored.items():
                signal.signal(number, handler)
        theirs.close()
        self.born = time.monotonic()
        self.serving = False

    def ping(self) -> None:
        while self.pings.poll(0):  # a late answer to an earlier ping
            self.pings.recv()
        self.pings.send(b"ping")


class _Supervisor:
    def __init__(self, guard: socket.socket, workers: int, options: dict) -> None:
        self.guard = guard
        self.host, self.port = guard.getsockname()[:2]
        self.config = uvicorn.Config(
            APP, factory=True, host=self.host, port=self.port, backlog=BACKLOG, **options
        )
        self.context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state copied
        self.signals: list[int] = []
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, lambda number, _: self.signals.append(number))
        self.served = False  # once any worker has: a worker that cannot start is then retried
        self.size = workers
        self.workers: list[_Worker | None] = [self._start() for _ in range(workers)]
        self.due = [0.0] * workers  # when an empty slot gets its worker
        self.delay = [0.0] * workers

    def _start(self) -> _Worker:
        sock = _socket(self.host, self.port, socket.SO_REUSEADDR, socket.SO_REUSEPORT)
        return _Worker(self.context, self.config, sock, self.size)

    def run(self) -> int:
        address = f"[{self.host}]" if ":" in self.host else self.host
        log.info(
            "serving http://%s:%d with %d workers, a listening socket each",
            address,
            self.port,
            len(self.workers),
        )
        pinged = time.monotonic()
        try:
            while True:
                wait([w.process.sentinel for w in self.workers if w], timeout=0.5)
                while self.signals:
                    number = self.signals.pop(0)
                    if number != signal.SIGHUP:
                        log.info("%s: stopping the workers", signal.Signals(number).name)
                        return self._stop(0)
                    self._restart_all()
                status = self._replace_exited()
                if status:
                    return self._stop(status)
                if time.monotonic() - pinged >= PING_EVERY_S:
                    self._ping_all()
                    pinged = time.monotonic()
        finally:
            self.guard.close()

    def _ping_all(self) -> None:
        """Every worker pinged at once; one that does not answer, or has not started serving
        long after it started, is killed (and replaced as one that exited)."""
        live = [w for w in self.workers if w and w.process.exitcode is None]
        for worker in live:
            with contextlib.suppress(OSError):  # exiting: replaced as one that exited
                worker.ping()
        waiting = {worker.pings: worker for worker in live}
        deadline = time.monotonic() + ANSWER_S
        while waiting and time.monotonic() < deadline and not self.signals:
            for pings in wait(list(waiting), timeout=min(0.5, max(0.0, deadline - time.monotonic()))):
                worker = waiting.pop(pings)
                try:
                    worker.serving = bool(pings.recv())
                except (EOFError, OSError):
                    continue
                self.served = self.served or worker.serving
                if not worker.serving and time.monotonic() - worker.born > READY_S:
                    log.error(
                        "worker %d has not started serving in %d s; killing it", worker.process.pid, READY_S
                    )
                    worker.process.kill()
        if self.signals:
            return  # a round cut short decides nothing
        for worker in waiting.values():
            if worker.process.exitcode is None:
                log.error("worker %d does not answer; killing it", worker.process.pid)
                worker.process.kill()

    def _replace_exited(self) -> int:
        now = time.monotonic()
        for n, worker in enumerate(self.workers):
            if worker is not None and worker.process.exitcode is not None:
                worker.process.join()
                code = worker.process.exitcode
                if code == STARTUP_FAILURE and not self.served:
                    log.error("worker %d could not start; stopping", worker.process.pid)
                    return STARTUP_FAILURE
                # A worker that keeps dying soon after it starts is restarted ever more slowly.
                short = now - worker.born < SHORT_LIFE_S
                self.delay[n] = min(max(1.0, 2 * self.delay[n]), MAX_DELAY_S) if short else 0.0
                log.warning(
                    "worker %d exited (%s); another in %.0f s", worker.process.pid, code, self.delay[n]
                )
                self.workers[n], self.due[n] = None, now + self.delay[n]
            if self.workers[n] is None and now >= self.due[n]:
                try:
                    self.workers[n] = self._start()
                except OSError as exc:
                    log.error("cannot bind %s:%d again: %s; stopping", self.host, self.port, exc.strerror)
                    return STARTUP_FAILURE
        return 0

    def _restart_all(self) -> None:
        """Each worker in turn: its replacement serves before it stops, so the port is never
        without a worker that answers."""
        log.info("SIGHUP: restarting the workers one by one")
        for n, old in enumerate(self.workers):
            new = self._start()
            deadline = time.monotonic() + READY_S
            while not new.serving:
                if self.signals or new.process.exitcode is not None or time.monotonic() > deadline:
                    why = "interrupted" if self.signals else "a new worker did not start serving"
                    log.error("restart %s; the workers not yet replaced stay", why)
                    new.process.kill()
                    new.process.join()
                    return
                try:
                    new.ping()
                    if new.pings.poll(1.0):
                        new.serving = bool(new.pings.recv())
                except (EOFError, OSError):
                    pass  # exited: seen above
            self.workers[n] = new
            self.delay[n] = 0.0
            if old is not None:
                time.sleep(DRAIN_S)  # the new worker takes every new connection (_steer)
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


def serve(guard: socket.socket, workers: int, **options) -> int:
    """`workers` workers on the guard's address until SIGINT or SIGTERM, another in place of
    one that exits or stops answering, all restarted in turn on SIGHUP; the exit status is
    STARTUP_FAILURE when the first workers could not start. `options` go to uvicorn's
    Config (the benchmark turns the access log off)."""
    return _Supervisor(guard, workers, options).run()


def supported() -> bool:
    """Whether the kernel spreads connections over sockets sharing a port (Linux)."""
    return sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT")
