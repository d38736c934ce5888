"""errata beside Datasette and nginx on the same rows, driven by wrk; run through bench/compare.sh.

For each size it serves one database with errata (one worker), Datasette (the entry rows
and an FTS5 table, immutable mode: its fastest) and nginx (errata's own JSON and HTML of
the same entries, pre-rendered to files; and errata behind deploy/nginx/errata.conf).
Each server is pinned to CPU 0 and wrk to CPU 1. Paths rotate through 1,000 entries (and
the 20 searches of lookup_speed.py, 149 pastes); searches whose words are new as well are
50,000 of one or two words of an entry's title and signature, and pastes whose words are
new as well get two such words each. Pairs are measured A B A B and the ratio
is taken over the sums, so drift of the shared machine cancels out. Before each run the
files the server serves from are read through, so that each run finds them in the OS's cache
(keep_cached). CPU per request is the server's user+system time over the requests it answered.
"""

import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import httpx
from lookup_speed import SEARCHES

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
ROTATE = BENCH / "wrk" / "rotate.lua"
TICK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server in a process group of its own, pinned to CPU 0; stopped with its group.
    `files`: what it serves from (files, or folders of them), read through before each of
    drive()'s runs."""

    def __init__(
        self, name: str, argv: list[str], url: str, log: Path, env: dict | None = None, files: tuple = ()
    ) -> None:
        self.name, self.url, self.files = name, url, files
        self.log = log.open("wb")
        self.process = subprocess.Popen(
            ["taskset", "-c", "0", *argv],
            env={**os.environ, **(env or {})},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait(self, path: str = "/", timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"{self.name} exited; see {self.log.name}")
            try:
                httpx.get(self.url + path, timeout=2)
                return
            except httpx.TransportError:
                time.sleep(0.3)
        raise SystemExit(f"{self.name} did not answer in {timeout} s")

    def started(self, processes: int, timeout: float = 300) -> None:
        """Until `processes` of uvicorn's servers have said their app is up: a worker
        starting late would leave the first runs to the others."""
        deadline = time.monotonic() + timeout
        log = Path(self.log.name)
        while log.read_text(errors="replace").count("Application startup complete") < processes:
            if time.monotonic() > deadline:
                raise SystemExit(f"{self.name}: fewer than {processes} servers started; see {self.log.name}")
            time.sleep(0.3)

    def pids(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    if os.getpgid(int(entry.name)) == self.process.pid:
                        found.append(int(entry.name))
                except ProcessLookupError:
                    pass
        return found

    def cpu_seconds(self) -> float:
        total = 0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except FileNotFoundError:
                continue
            total += int(fields[11]) + int(fields[12])
        return total / TICK

    def settle(self, timeout: float = 30) -> float:
        """Its CPU seconds once it has stopped working: wrk's closed connections leave
        requests queued (32 searches are 0.1-0.2 s of work), which would otherwise count
        in the next run's CPU and latencies rather than in this one's."""
        last, deadline = self.cpu_seconds(), time.monotonic() + timeout
        while time.monotonic() < deadline:
            time.sleep(0.2)
            now = self.cpu_seconds()
            if now == last:
                return now
            last = now
        return last

    def peak_rss_mb(self) -> float:
        peak = 0
        for pid in self.pids():
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except FileNotFoundError:
                continue
            match = re.search(r"VmHWM:\s+(\d+) kB", status)
            if match:
                peak = max(peak, int(match.group(1)))
        return peak / 1024

    def stop(self) -> None:
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            except ProcessLookupError:
                pass
        self.log.close()


@dataclass
class Run:
    rps: float
    p50: float
    p99: float
    cpu_ms: float
    errors: int
    wrk_ms: float = 0.0  # wrk's own CPU per request


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}
# Runs that got errors (a refused request, a status other than 2xx or 3xx): their rates are
# not of the work measured, so the run as a whole fails once every figure is printed.
_FAILED: list[str] = []


def _ms(text: str) -> float:
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if match is None:
        raise SystemExit(f"wrk printed a latency this script cannot read: {text!r}")
    return float(match.group(1)) * _UNITS[match.group(2)]


def keep_cached(paths: tuple) -> None:
    """Read each file through (and a SQLite base's write-ahead log), so that the OS holds it in
    its cache as it holds a busy server's base. This machine's OS lets go of pages nobody read
    lately within minutes: a minute idle left 458 MiB of errata's base of 100,000 entries (921
    MiB) in the cache, and searches of new words then took 4.2 ms of CPU each, against 2.3 ms
    with the base read through just before. Every server's files are read alike: Datasette's
    base (53 MiB) and nginx's files too."""
    buffer = bytearray(1 << 20)
    for path in paths:
        found = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        found += [Path(f"{path}-wal")] if path.suffix == ".db" else []
        for file in found:
            try:
                with file.open("rb", buffering=0) as f:
                    while f.readinto(buffer):
                        pass
            except FileNotFoundError:  # a log or a cache folder not made yet
                pass


def drive(
    server: Server,
    paths: Path,
    seconds: int,
    connections: int = 32,
    bodies: Path | None = None,
    unique: bool = False,
    words: Path | None = None,
) -> Run:
    env = {**os.environ, "PATHS": str(paths)}
    if unique:
        env["UNIQUE"] = "1"
    if bodies:
        env["BODIES"] = str(bodies)
    if words:
        env["WORDS"] = str(words)
    keep_cached(server.files)
    before = server.settle()
    wrk_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        ["taskset", "-c", "1", "wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", ROTATE]
        + [server.url],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    cpu = server.settle() - before
    wrk_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wrk_cpu = wrk_after.ru_utime + wrk_after.ru_stime - wrk_before.ru_utime - wrk_before.ru_stime
    if "50%" not in out:
        raise SystemExit(f"wrk gave no latencies for {server.name} {paths.name}:\n{out}")
    total = int(re.search(r"(\d+) requests in", out).group(1))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors = int(bad.group(1)) if bad else 0
    errors += sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    if errors:
        _FAILED.append(f"{server.name}, {paths.name}: {errors} errors in {total} requests")
    return Run(
        rps=float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        p50=_ms(re.search(r"^\s+50%\s+(\S+)", out, re.M).group(1)),
        p99=_ms(re.search(r"^\s+99%\s+(\S+)", out, re.M).group(1)),
        cpu_ms=cpu * 1000 / max(total, 1),
        errors=errors,
        wrk_ms=wrk_cpu * 1000 / max(total, 1),
    )


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n")
    return path


def datasette_db(source: Path, target: Path) -> None:
    """The entry rows and an FTS5 table over their titles, signature and summary. Datasette
    addresses a row of a table without a primary key by its rowid (mapped from seq below)."""
    target.unlink(missing_ok=True)
    db = sqlite3.connect(target)
    db.execute("ATTACH DATABASE ? AS src", (str(source),))
    db.executescript(
        """
        CREATE TABLE entries AS SELECT seq, id, domain, category, title_en, title_zh, signature,
            summary_en, summary_zh, root_cause_en, root_cause_zh, variants, verification,
            fix_rate, confidence, evidence_count, updated_at FROM src.entry;
        CREATE UNIQUE INDEX entries_seq ON entries(seq);
        CREATE VIRTUAL TABLE entries_fts USING fts5(
            title_en, title_zh, signature, summary_en, content='entries', content_rowid='seq');
        INSERT INTO entries_fts(rowid, title_en, title_zh, signature, summary_en)
            SELECT seq, title_en, title_zh, signature, summary_en FROM entries;
        """
    )
    db.commit()
    db.execute("DETACH DATABASE src")
    db.execute("VACUUM")
    db.close()


def pairs(
    a: Server, a_paths: Path, b: Server, b_paths: Path, seconds: int, *, unique: bool = False
) -> tuple[list[Run], list[Run]]:
    """A B A B; `unique`: each of A's requests new (B, Datasette, keeps nothing)."""
    runs_a, runs_b = [], []
    for _ in range(2):
        runs_a.append(drive(a, a_paths, seconds, unique=unique))
        runs_b.append(drive(b, b_paths, seconds))
    return runs_a, runs_b


NOVEL_SEARCHES = 50_000


def novel_searches(db: Path, rng: random.Random) -> list[str]:
    """Searches of one or two words of an entry's title and signature, each asked once: more
    than a run can ask, so none is asked twice in a run, and no search is known
    (app.web.on_loop) or kept."""
    conn = sqlite3.connect(db)
    sql = "SELECT title_en || ' ' || signature FROM entry WHERE canonical_id IS NULL"
    texts = [t for (t,) in conn.execute(sql)]
    conn.close()
    found: dict[str, None] = {}
    for _ in range(NOVEL_SEARCHES * 20):
        words = re.findall(r"[A-Za-z]{3,}", rng.choice(texts))
        if words:
            found[" ".join(rng.sample(words, min(len(words), rng.choice((1, 2)))))] = None
        if len(found) == NOVEL_SEARCHES:
            break
    queries = list(found)
    rng.shuffle(queries)
    return queries


def paste_words(db: Path) -> list[str]:
    """The words of the entries' titles and signatures, in a fixed order: two are added to
    each paste of "lookup, words new too" (bench/wrk/rotate.lua)."""
    conn = sqlite3.connect(db)
    sql = "SELECT title_en || ' ' || signature FROM entry WHERE canonical_id IS NULL"
    found = {word.lower() for (text,) in conn.execute(sql) for word in re.findall(r"[A-Za-z]{3,}", text)}
    conn.close()
    return sorted(found)


def _row(name: str, runs: list[Run]) -> str:
    rps = sum(r.rps for r in runs) / len(runs)
    p50 = sum(r.p50 for r in runs) / len(runs)
    p99 = max(r.p99 for r in runs)
    cpu = sum(r.cpu_ms for r in runs) / len(runs)
    spread = " / ".join(f"{r.rps:.0f}" for r in runs)
    errors = sum(r.errors for r in runs)
    return (
        f"  {name:<34} {rps:>9.0f}/s  p50 {p50:>7.2f} ms  p99 {p99:>7.2f} ms  "
        f"CPU {cpu:>6.2f} ms/req  runs {spread}" + (f"  ERRORS {errors}" if errors else "")
    )


def _ratio(a: list[Run], b: list[Run]) -> float:
    return sum(r.rps for r in a) / sum(r.rps for r in b)


def render_static(errata: Server, ids: list[str], root: Path) -> tuple[list[str], float]:
    """errata's own JSON and HTML of each entry, saved for nginx; returns the file paths and
    the mean time errata took to render an entry the first time (a cache miss)."""
    paths, started = [], time.perf_counter()
    with httpx.Client(base_url=errata.url, timeout=30) as client:
        for n, entry_id in enumerate(ids):
            for url, name in (
                (f"/errors/{entry_id}.json", f"{n}.json"),
                (f"/errors/{entry_id}", f"{n}.html"),
                (f"/zh/errors/{entry_id}", f"zh-{n}.html"),
            ):
                response = client.get(url)
                response.raise_for_status()
                (root / name).write_bytes(response.content)
            paths.append(f"/{n}.json")
    return paths, (time.perf_counter() - started) * 1000 / (3 * len(ids))


def nginx_conf(folder: Path, static_root: Path, static_port: int, proxy_port: int, upstream: str) -> Path:
    reference = (ROOT / "deploy" / "nginx" / "errata.conf").read_text()
    reference = reference.replace("server 127.0.0.1:8000;", f"server {upstream};")
    reference = reference.replace("listen 8080;", f"listen 127.0.0.1:{proxy_port};")
    reference = reference.replace("/var/cache/nginx/errata", str(folder / "cache"))
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""
worker_processes 1;
daemon off;
user root;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    types {{ application/json json; text/html html; }}
    {reference}
    server {{
        listen 127.0.0.1:{static_port};
        root {static_root};
        open_file_cache max=4000;
    }}
}}
"""
    )
    return conf


def visibility(proxy: str, errata: str, entry_id: str) -> float:
    """Seconds from an acknowledged report until nginx's cache serves the new count."""
    url = f"/errors/{entry_id}.json"
    before = httpx.get(proxy + url).json()["evidence_count"]
    created = httpx.post(f"{errata}/api/v1/errors/{entry_id}/evidence", json={"outcome": "worked"})
    created.raise_for_status()
    start = time.monotonic()
    while time.monotonic() - start < 400:
        if httpx.get(proxy + url).json()["evidence_count"] != before:
            return time.monotonic() - start
        time.sleep(0.5)
    return float("inf")


def errata_env(db: Path) -> dict:
    return {
        "ERRATA_DATABASE_URL": f"sqlite:///{db}",
        "ERRATA_DATA_DIR": "",
        "ERRATA_RATE_LIMIT": "1000000",
        "ERRATA_PUBLIC_URL": "http://errata.bench",
    }


def base_of(env: dict) -> Path:
    """The SQLite file errata serves with `env` (errata_env)."""
    return Path(env["ERRATA_DATABASE_URL"].removeprefix("sqlite:///"))


def start_errata(name: str, env: dict, log: Path) -> Server:
    port = free_port()
    uvicorn = [sys.executable, "-m", "uvicorn", "app.main:create_app", "--factory", "--no-access-log"]
    return Server(
        name, [*uvicorn, "--port", str(port)], f"http://127.0.0.1:{port}", log, env, (base_of(env),)
    )


def compare_sizes(small: Path, large: Path, seconds: int) -> None:
    """CPU per request at the largest base against the smallest, both served at once and
    driven in turn (A B A B), on the paths and pastes each size's run used."""
    servers = [
        start_errata(f"errata {work.name}", errata_env(work / "errata.db"), work / "sizes.log")
        for work in (small, large)
    ]
    loads = [  # (what, paths, every request new, bodies, words added to each body)
        ("entry JSON", "json.txt", False, None, None),
        ("entry HTML en", "html_en.txt", False, None, None),
        ("entry HTML zh", "html_zh.txt", False, None, None),
        ("search, every URL new", "search.txt", True, None, None),
        ("search, words new too", "novel.txt", True, None, None),
        ("lookup, every paste new", "lookup.txt", True, "pastes.txt", None),
        ("lookup, words new too", "lookup.txt", False, "pastes.txt", "words.txt"),
    ]
    try:
        for server in servers:
            server.wait("/healthz")
            httpx.post(server.url + "/api/v1/lookup", json={"text": "warm up"}, timeout=300)
        for server, work in zip(servers, (small, large), strict=True):  # every entry form once
            with httpx.Client(base_url=server.url, timeout=60) as client:
                for _, paths, _, _, _ in loads[:3]:
                    for path in (work / paths).read_text().split():
                        client.get(path).raise_for_status()
        print(f"\n== CPU per request, {large.name} entries / {small.name}, both served at once, A B A B")
        for name, paths, unique, bodies, words in loads:
            runs: dict[int, list[Run]] = {0: [], 1: []}
            for _ in range(2):
                for n, work in enumerate((small, large)):
                    sent = work / bodies if bodies else None
                    added = work / words if words else None
                    runs[n].append(
                        drive(servers[n], work / paths, seconds, bodies=sent, unique=unique, words=added)
                    )
            cpu = [sum(r.cpu_ms for r in runs[n]) / 2 for n in (0, 1)]
            print(f"  {name:<26} {cpu[0]:6.2f} -> {cpu[1]:6.2f} ms/req  {cpu[1] / cpu[0]:.2f}x", flush=True)
    finally:
        for server in servers:
            server.stop()


def measure_size(args, size: int, db: Path, folder: Path) -> dict:
    print(f"\n== {size:,} entries ({db})", flush=True)
    work = folder / str(size)
    shutil.rmtree(work, ignore_errors=True)
    (work / "static").mkdir(parents=True)
    serving = work / "errata.db"
    shutil.copy(db, serving)
    ds_db = work / "ds.db"
    datasette_db(serving, ds_db)
    conn = sqlite3.connect(serving)
    # Canonical entries only: an alias (merged by the import rules) answers with a redirect.
    everything = conn.execute("SELECT id, seq FROM entry WHERE canonical_id IS NULL ORDER BY seq").fetchall()
    conn.close()
    rng = random.Random(size)
    chosen = rng.sample(everything, min(1000, len(everything)))
    ids = [entry_id for entry_id, _ in chosen]
    ds_conn = sqlite3.connect(ds_db)
    rowids = dict(ds_conn.execute("SELECT seq, rowid FROM entries").fetchall())
    ds_conn.close()
    novel = [urllib.parse.quote(q) for q in novel_searches(serving, rng)]
    pastes = [
        json.dumps({"text": json.loads(line)["text"]})
        for line in (BENCH / "lookup_devset.jsonl").read_text().splitlines()
        if line.strip()
    ]

    files = {
        "json": write_lines(work / "json.txt", [f"/errors/{i}.json" for i in ids]),
        "html_en": write_lines(work / "html_en.txt", [f"/errors/{i}" for i in ids]),
        "html_zh": write_lines(work / "html_zh.txt", [f"/zh/errors/{i}" for i in ids]),
        "search": write_lines(
            work / "search.txt",
            [f"/api/v1/errors?limit=20&q={urllib.parse.quote(q)}" for q in SEARCHES],
        ),
        "ds_json": write_lines(work / "ds_json.txt", [f"/ds/entries/{rowids[s]}.json" for _, s in chosen]),
        "ds_html": write_lines(work / "ds_html.txt", [f"/ds/entries/{rowids[s]}" for _, s in chosen]),
        "ds_search": write_lines(
            work / "ds_search.txt",
            [
                f"/ds/entries.json?_search={urllib.parse.quote(q)}&_size=20&_nocount=1&_nofacet=1"
                for q in SEARCHES
            ],
        ),
        "novel": write_lines(work / "novel.txt", [f"/api/v1/errors?limit=20&q={q}" for q in novel]),
        "ds_novel": write_lines(
            work / "ds_novel.txt",
            [f"/ds/entries.json?_search={q}&_size=20&_nocount=1&_nofacet=1" for q in novel],
        ),
        "lookup": write_lines(work / "lookup.txt", ["/api/v1/lookup"]),
        "pastes": write_lines(work / "pastes.txt", pastes),
        "words": write_lines(work / "words.txt", paste_words(serving)),
    }
    env = errata_env(serving)
    errata = start_errata("errata", env, work / "errata.log")
    port = int(errata.url.rsplit(":", 1)[1])
    ds_port = free_port()
    datasette = Server(
        "datasette",
        [str(args.datasette), "serve", "-i", str(ds_db), "--port", str(ds_port)],
        f"http://127.0.0.1:{ds_port}",
        work / "datasette.log",
        files=(ds_db,),
    )
    servers = [errata, datasette]
    results: dict = {"size": size}
    try:
        errata.wait("/healthz")
        datasette.wait("/")
        # The lookup index builds in the background at start; wait for it.
        httpx.post(errata.url + "/api/v1/lookup", json={"text": "warm up"}, timeout=300)
        static_paths, first_ms = render_static(errata, ids, work / "static")
        write_lines(work / "static.txt", static_paths)
        results["first_render_ms"] = first_ms
        print(f"  first render of an entry form (cache miss), mean: {first_ms:.1f} ms", flush=True)
        static_port, proxy_port = free_port(), free_port()
        conf = nginx_conf(work, work / "static", static_port, proxy_port, f"127.0.0.1:{port}")
        nginx = Server(
            "nginx",
            [args.nginx, "-c", str(conf)],
            f"http://127.0.0.1:{static_port}",
            work / "ng.log",
            files=(work / "static",),
        )
        servers.append(nginx)
        nginx.wait("/0.json")
        proxy = Server(
            "proxy", ["true"], f"http://127.0.0.1:{proxy_port}", work / "px.log", files=(work / "cache",)
        )
        proxy.pids = nginx.pids  # the same nginx process serves both
        proxy.cpu_seconds = nginx.cpu_seconds

        # Warm every form, the lookups asked again, the words searched for (read on their
        # second ask, app/backends/fts5_terms.py), and datasette's page cache.
        for _ in range(2):
            drive(errata, files["json"], 2)
            drive(errata, files["html_en"], 2)
            drive(errata, files["html_zh"], 2)
            drive(errata, files["search"], 2)
            drive(errata, files["search"], 2, unique=True)
            drive(errata, files["lookup"], 2, bodies=files["pastes"])
            drive(datasette, files["ds_json"], 2)
            drive(datasette, files["ds_search"], 2)

        sec = args.seconds
        table = {}
        for name, ours, theirs in (
            ("entry JSON", "json", "ds_json"),
            ("entry HTML en", "html_en", "ds_html"),
            ("entry HTML zh", "html_zh", "ds_html"),
            ("search (20 rows)", "search", "ds_search"),
        ):
            a, b = pairs(errata, files[ours], datasette, files[theirs], sec)
            table[name] = (a, b, _ratio(a, b))
            print(_row(f"errata {name}", a), flush=True)
            print(_row(f"datasette {name}", b), flush=True)
            print(f"  {'':34} ratio errata / datasette: {table[name][2]:.1f}x", flush=True)
        uncached = [drive(errata, files["search"], sec, unique=True) for _ in range(2)]
        print(_row("errata search, every URL new", uncached), flush=True)
        # One at a time: the latency of the work itself, where 32 connections measure the queue.
        alone = [drive(errata, files["search"], sec, connections=1, unique=True)]
        print(_row("errata new search, 1 connection", alone), flush=True)
        a, b = pairs(errata, files["novel"], datasette, files["ds_novel"], sec, unique=True)
        table["search, words new too"] = (a, b, _ratio(a, b))
        print(_row("errata search, words new too", a), flush=True)
        print(_row("datasette search, words new too", b), flush=True)
        print(f"  {'':34} ratio errata / datasette: {table['search, words new too'][2]:.1f}x", flush=True)
        lookups = [drive(errata, files["lookup"], sec, bodies=files["pastes"]) for _ in range(2)]
        print(_row("errata lookup (32 connections)", lookups))
        single = [drive(errata, files["lookup"], sec, connections=1, bodies=files["pastes"])]
        print(_row("errata lookup (1 connection)", single))
        novel = [drive(errata, files["lookup"], sec, bodies=files["pastes"], unique=True) for _ in range(2)]
        print(_row("errata lookup, every paste new", novel), flush=True)
        alone = [drive(errata, files["lookup"], sec, connections=1, bodies=files["pastes"], unique=True)]
        print(_row("errata new paste, 1 connection", alone), flush=True)
        fresh = [
            drive(errata, files["lookup"], sec, bodies=files["pastes"], words=files["words"])
            for _ in range(2)
        ]
        print(_row("errata lookup, words new too", fresh), flush=True)
        with httpx.Client(base_url=proxy.url, timeout=60) as client:  # fill nginx's cache
            for path in files["json"].read_text().split():
                client.get(path).raise_for_status()
        a, b = pairs(proxy, files["json"], nginx, work / "static.txt", sec)
        print(_row("nginx proxy_cache -> errata JSON", a))
        print(_row("nginx static JSON files", b))
        print(f"  {'':34} proxy_cache / static: {_ratio(a, b) * 100:.0f} %", flush=True)
        results.update(
            cpu={k: sum(r.cpu_ms for r in v[0]) / 2 for k, v in table.items()},
            lookup=(sum(r.rps for r in lookups) / 2, single[0].p50),
            proxy_share=_ratio(a, b),
            rss=errata.peak_rss_mb(),
        )
        print(f"  errata peak RSS: {results['rss']:.0f} MB", flush=True)
        if args.visibility:
            seconds = visibility(proxy.url, errata.url, ids[0])
            results["visible_s"] = seconds
            print(f"  a report visible through nginx's cache after {seconds:.1f} s", flush=True)
    finally:
        for server in reversed(servers):
            server.stop()
    if args.workers:
        results["workers"] = compare_workers(work, env, files, sec)
    return results


def warm(server: Server, paths: Path, rounds: int = 20) -> None:
    """Drive until two runs in a row agree within 10 %: each worker of a fresh server builds
    its own lookup index and renders its own forms, which at 100,000 entries outlasts a
    fixed few seconds."""
    last = 0.0
    for _ in range(rounds):
        rate = drive(server, paths, 2).rps
        if last and abs(rate - last) <= 0.1 * last:
            return
        last = rate


_SERVE_WORKERS = (
    "import sys, uvicorn; from app.web.workers import APP, claim, serve\n"
    "if {workers} == 1: uvicorn.run(APP, factory=True, port={port}, access_log=False)\n"
    "else: sys.exit(serve(claim('127.0.0.1', {port}), {workers}, access_log=False))"
)


def compare_workers(work: Path, env: dict, files: dict[str, Path], seconds: int) -> float:
    """One worker against two, A B A B, servers unpinned (they need both CPUs). wrk needs a CPU
    too, and this machine has two: on cheap requests (a cached entry) wrk takes half a CPU and
    the ratio says little of errata; on requests where errata does the work (every search new)
    wrk's share is small, and the ratio is how the workers scale."""
    loads = (("entry JSON", files["json"], False), ("search, every URL new", files["search"], True))
    rates: dict[tuple[str, int], list[Run]] = {}
    servers = {}
    try:
        for workers in (1, 2):
            port = free_port()
            # As `errata serve --workers N` serves: uvicorn itself for one, errata's
            # supervisor (a listening socket per worker) for more; access log off.
            serve = _SERVE_WORKERS.format(port=port, workers=workers)
            argv = ["taskset", "-c", "0,1", sys.executable, "-c", serve]
            servers[workers] = Server(
                f"errata x{workers}",
                argv,
                f"http://127.0.0.1:{port}",
                work / f"w{workers}.log",
                env,
                (base_of(env),),
            )
        for workers, server in servers.items():
            server.wait("/healthz")
            server.started(workers)
            warm(server, files["json"])
            for _ in range(2):  # each worker reads the words searched for on their second ask
                drive(server, files["search"], 2, unique=True)
        for name, paths, unique in loads:
            for _ in range(2):
                for workers, server in servers.items():
                    rates.setdefault((name, workers), []).append(drive(server, paths, seconds, unique=unique))
    finally:
        for server in servers.values():
            server.stop()
    ratio = 0.0
    for name, _, _ in loads:
        print(_row(f"{name}, 1 worker", rates[name, 1]))
        print(_row(f"{name}, 2 workers", rates[name, 2]))
        ratio = _ratio(rates[name, 2], rates[name, 1])
        # One worker has a CPU to itself (wrk the other); two share both CPUs with wrk, so they
        # serve at most 2 / (CPU of theirs + wrk's, a request): one worker's rate times
        # 2 x its CPU / (theirs + wrk's), whatever the workers do.
        one, two, client = (
            sum(getattr(r, field) for r in rates[name, n]) / len(rates[name, n])
            for field, n in (("cpu_ms", 1), ("cpu_ms", 2), ("wrk_ms", 2))
        )
        print(
            f"  {'':34} 2 workers / 1 worker: {ratio:.2f}x  (wrk {client * 1000:.0f} us a request on the"
            f" same cores: at most {2 * one / (two + client):.2f}x)",
            flush=True,
        )
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, nargs="+", required=True, help="databases to serve, by size")
    parser.add_argument("--datasette", type=Path, required=True)
    parser.add_argument("--nginx", default="nginx")
    parser.add_argument("--work", type=Path, default=Path("/tmp/errata-bench/run"))
    parser.add_argument("--seconds", type=int, default=5)
    parser.add_argument(
        "--visibility", action="store_true", help="time a report through nginx's cache (first size)"
    )
    parser.add_argument("--workers", action="store_true", help="compare --workers 2 with one (every size)")
    args = parser.parse_args()
    results = []
    for db in args.db:
        conn = sqlite3.connect(db)
        size = conn.execute("SELECT count(*) FROM entry").fetchone()[0]
        conn.close()
        results.append(measure_size(args, size, db, args.work))
        args.visibility = False  # measured once, at the first size
    if len(results) > 1:
        compare_sizes(args.work / str(results[0]["size"]), args.work / str(results[-1]["size"]), args.seconds)
    if _FAILED:
        raise SystemExit("\nruns that got errors (their figures do not count):\n  " + "\n  ".join(_FAILED))


if __name__ == "__main__":
    main()
