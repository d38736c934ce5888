"""Whether a kept entry read costs more at a large base than at a small one: the app's own CPU
per request, through its whole ASGI stack (middleware, fast path, stamp check), no socket.

    .venv/bin/python bench/entry_growth.py --db /tmp/errata-bench/10000.db /tmp/errata-bench/100000.db

bench/compare.sh measures these reads through HTTP, where the server's CPU per request (from
/proc, in ticks of 10 ms over ten seconds) moves by a few percent from one run to the next,
as much as the growth it looks for; what HTTP adds (uvicorn's parsing, the socket) is the
same at any size. Here both bases are served by one process, an app each, on the same 1,000
entries, chosen from the small base, which the large one holds too (bench/build_data.py
grows one from the other). Once both lookup indexes are built (threads at start-up, which
would otherwise share the CPU) and each path read twice (rendered, then kept), each pass
times three reads of every entry at one base, then at the other (the order turned each
pass, so that neither is always first), with process_time. It prints the median µs per
request at each size, and the median and quartiles of the passes' ratios.
"""

import argparse
import asyncio
import contextlib
import gc
import os
import random
import sqlite3
import statistics
import threading
import time
from pathlib import Path

from compare import errata_env

PATHS = {  # what is read, and its path ({id}: each of the entries in turn)
    "entry JSON": "/errors/{id}.json",
    "entry HTML": "/errors/{id}",
    "entry HTML, Chinese": "/zh/errors/{id}",
    "entry, API JSON": "/api/v1/errors/{id}",
}
ENTRIES = 1000
PASSES = 31  # each over every entry three times: a pass of tens of milliseconds


def _entries(db: Path) -> list[str]:
    """Canonical entries only: an alias answers with a redirect."""
    conn = sqlite3.connect(db)
    ids = [r[0] for r in conn.execute("SELECT id FROM entry WHERE canonical_id IS NULL ORDER BY seq")]
    conn.close()
    return random.Random(len(ids)).sample(ids, min(ENTRIES, len(ids)))


async def _call(app, path: str) -> int:
    """One GET through the app, as uvicorn would make it; its status."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"errata.bench")],
        "client": ("127.0.0.1", 40000),
        "server": ("127.0.0.1", 8000),
    }
    status = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(scope, receive, send)
    return status[0]


async def _measure(dbs: list[Path], ids: list[str], passes: int) -> dict[str, list[list[float]]]:
    """µs per request of each path, each pass, at each base (in the order of `dbs`)."""
    from app.config import Settings  # after the bench folder, so that compare is found first
    from app.main import create_app

    apps = []
    for db in dbs:
        os.environ.update(errata_env(db))
        apps.append(create_app(Settings()))
    async with contextlib.AsyncExitStack() as stack:
        for app in apps:
            await stack.enter_async_context(app.router.lifespan_context(app))
        for thread in threading.enumerate():
            if thread.name == "warm-lookup-index":
                thread.join()
        figures = {}
        for name, template in PATHS.items():
            paths = [template.format(id=entry_id) for entry_id in ids]
            for app in apps:
                for path in paths * 2:  # rendered, then kept
                    if (status := await _call(app, path)) != 200:
                        raise SystemExit(f"{path}: {status}")
            gc.collect()  # what start-up and rendering left, not collected in a timed pass
            timed = [[] for _ in apps]
            for n in range(passes):
                # Each pass times every base, in turn, the first one first every other pass.
                for i in range(len(apps)) if n % 2 == 0 else reversed(range(len(apps))):
                    started = time.process_time()
                    for path in paths * 3:
                        await _call(apps[i], path)
                    timed[i].append((time.process_time() - started) / len(paths) / 3 * 1e6)
            figures[name] = timed
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", nargs=2, type=Path, metavar=("SMALL", "LARGE"), required=True)
    parser.add_argument("--passes", type=int, default=PASSES)
    args = parser.parse_args()
    counted = {db: sqlite3.connect(db).execute("SELECT count(*) FROM entry").fetchone()[0] for db in args.db}
    small, large = sorted(args.db, key=counted.get)  # the entries are the small base's
    sizes = [counted[small], counted[large]]
    ids = _entries(small)
    figures = asyncio.run(_measure([small, large], ids, args.passes))
    print(f"CPU per kept read, the app alone ({len(ids)} entries, {args.passes} passes, medians)")
    print(f"{'':22} {sizes[0]:>10,} {sizes[1]:>10,}   ratio   pass ratios: quartiles")
    for name, (a, b) in figures.items():
        ratios = statistics.quantiles([y / x for x, y in zip(a, b, strict=True)], n=4)
        print(
            f"{name:22} {statistics.median(a):7.1f} µs {statistics.median(b):7.1f} µs "
            f"  {ratios[1]:.2f}x   {ratios[0]:.2f} to {ratios[2]:.2f}"
        )


if __name__ == "__main__":
    main()
