"""Several server processes on one port, each listening on a socket of its own.

uvicorn's `--workers` share one listening socket, and the worker that wakes first accepts
every connection then waiting. Kept-alive connections stay where they landed, so one worker
can end up with all of a client's or a proxy's connections while the other idles (counted
under wrk: 1 run in 12 had all 32 connections on one worker). Here each worker binds a
socket of its own with SO_REUSEPORT, and the kernel spreads new connections across the
sockets by their addresses. A worker listens only once its app has started, and a worker
that stops takes its socket with it, so connections go only to workers that can answer.
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

log = logging.getLogger("uvicorn.error")


def listener(host: str, port: int) -> socket.socket:
    """A socket bound to host:port beside the other workers', not yet listening: uvicorn
    listens on it after the app's startup, so no connection waits on a worker still starting."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(address)
    return sock


def _worker(config: uvicorn.Config) -> None:
    config.configure_logging()  # a spawned interpreter starts with none
    try:
        sock = listener(config.host, config.port)
    except OSError as exc:  # the port taken since `serve` checked it, by what shares no port
        log.error("cannot listen on %s:%d: %s", config.host, config.port, exc.strerror)
        sys.exit(STARTUP_FAILURE)
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    sys.exit(0 if server.started else STARTUP_FAILURE)


def serve(host: str, port: int, workers: int, **options) -> int:
    """Run `workers` server processes until SIGINT or SIGTERM, starting another in place of
    one that exits; the exit status is STARTUP_FAILURE when a worker could not start.
    `options` go to uvicorn's Config (the benchmark turns the access log off)."""
    config = uvicorn.Config(APP, factory=True, host=host, port=port, **options)  # logs as uvicorn does
    context = multiprocessing.get_context("spawn")  # a fresh interpreter: no state copied
    stopping: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, _: stopping.append(signum))
    signal.signal(signal.SIGTERM, lambda signum, _: stopping.append(signum))

    def start() -> multiprocessing.process.BaseProcess:
        process = context.Process(target=_worker, args=(config,))
        process.start()
        return process

    processes = [start() for _ in range(workers)]
    log.info("serving http://%s:%d with %d workers, a listening socket each", host, port, workers)
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
            processes[n] = start()
    for process in processes:
        if process.exitcode is None:
            process.terminate()  # uvicorn's graceful shutdown: open requests finish
    for process in processes:
        process.join(STOP_GRACE_S)
        if process.exitcode is None:
            process.kill()
            process.join()
    return status
