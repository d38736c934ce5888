"""Several server processes on one port, each listening on a socket of its own.

uvicorn's `--workers` share one listening socket, and the worker that wakes first accepts
every connection then waiting. Kept-alive connections stay where they landed, so one worker
can end up with all of a client's or a proxy's connections while the other idles (counted
under wrk: 1 run in 12 had all 32 connections on one worker). Here each worker has a socket
of its own, bound with SO_REUSEPORT, and the kernel spreads new connections across the
sockets by their addresses. A worker's socket is its alone (the supervisor keeps no copy),
so a worker that stops takes its socket with it and connections go to the others meanwhile.

SO_REUSEPORT lets any process of the same user bind the port too. So the first sockets
are bound and listening as soon as the port is found free, before the database is
migrated and the data loaded (a client connecting meanwhile waits rather than being
refused): a second `errata serve` on the port then finds it in use, as with one worker. A
replacement's socket listens only once its app has started, the others holding the port.
"""

import logging
import multiprocessing
import signal
import socket
import sys
from multiprocessing.connection import wait

import uvicorn

APP = "app.main:create_app"
STARTUP_FAILURE = 3  # as uvicorn exits when the app cannot start: restarting would not help
STOP_GRACE_S = 30  # a worker's open requests get this long to finish before it is killed
BACKLOG = 2048  # uvicorn's

log = logging.getLogger("uvicorn.error")


def _bound(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    return sock


def listening(host: str, port: int, workers: int) -> list[socket.socket]:
    """A listening socket for each worker, to take right after the port was found free."""
    sockets = [_bound(host, port) for _ in range(workers)]
    for sock in sockets:
        sock.listen(BACKLOG)
    return sockets


def _worker(config: uvicorn.Config, sock: socket.socket) -> None:
    config.configure_logging()  # a spawned interpreter starts with none
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    finally:  # however it ended (uvicorn exits 1 when the app cannot be made), before serving
        if not server.started:
            sys.exit(STARTUP_FAILURE)


def serve(sockets: list[socket.socket], **options) -> int:
    """A worker on each socket (from `listening`) until SIGINT or SIGTERM, another in place of
    one that exits; the exit status is STARTUP_FAILURE when a worker could not start.
    `options` go to uvicorn's Config (the benchmark turns the access log off)."""
    host, port = sockets[0].getsockname()[:2]
    config = uvicorn.Config(APP, factory=True, host=host, port=port, backlog=BACKLOG, **options)
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state copied
    stopping: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _: stopping.append(signum))
    signal.signal(signal.SIGTERM, lambda signum, _: stopping.append(signum))

    def start(sock: socket.socket) -> multiprocessing.process.BaseProcess:
        with sock:  # the worker has its own copy now; this one would outlive the worker
            process = context.Process(target=_worker, args=(config, sock))
            process.start()
        return process

    processes = [start(sock) for sock in sockets]
    log.info("serving http://%s:%d with %d workers, a listening socket each", host, port, len(processes))
    status = 0
    while not stopping:
        wait([p.sentinel for p in processes], timeout=0.5)
        for n, process in enumerate(processes):
            if process.exitcode is None or stopping:
                continue
            if process.exitcode == STARTUP_FAILURE:
                log.error("worker %d could not start; stopping", process.pid)
                stopping.append(signal.SIGTERM)
                status = STARTUP_FAILURE
                break
            log.warning("worker %d exited (%s); starting another", process.pid, process.exitcode)
            try:
                processes[n] = start(_bound(host, port))
            except OSError as exc:  # the port was given up meanwhile and taken
                log.error("cannot listen on %s:%d again: %s; stopping", host, port, exc.strerror)
                stopping.append(signal.SIGTERM)
                status = STARTUP_FAILURE
    for process in processes:
        if process.exitcode is None:
            process.terminate()  # uvicorn's graceful shutdown: open requests finish
    for process in processes:
        process.join(STOP_GRACE_S)
        if process.exitcode is None:
            process.kill()
            process.join()
    return status
