"""CPU per request of every public read path, at a small base and a large one, no cache hit.

    .venv/bin/python bench/read_paths.py --db /tmp/errata-bench/10000.db /tmp/errata-bench/100000.db

bench/compare.sh measures the hot paths against Datasette and nginx; this one walks the
others a visitor, a crawler or an agent reads (home, domain and category lists, filtered
lists, feeds, sitemaps, figures, history, llms.txt) so that none grows with the base
unseen. Both bases are served at once (one worker each, pinned to CPU 0) and each path is
asked of one, then the other, then both again, one request at a time, each with a query
parameter of its own so that no kept form answers it. It prints the server's CPU per request
(user + system, from /proc) at each size and their ratio; a path whose ratio passes
GROWS_PAST is marked. Entry and alias paths rotate through entries chosen once from the
small base, which the large one holds too (bench/build_data.py grows one from the other).
"""

import argparse
import gzip
import sqlite3
import sys
import time
from pathlib import Path
from urllib.parse import quote

import httpx
from compare import Server, errata_env, start_errata

REQUESTS = 30  # each path, each size, each round (a sitemap: 5, each 0.1 to 0.3 s)
GROWS_PAST = 2.0  # CPU at the large base over the small one


def _sample(db: Path) -> dict[str, str]:
    """Values the paths are filled with: entries, a domain, a category, a component."""
    conn = sqlite3.connect(db)
    commonest = "SELECT {0} FROM {1} GROUP BY {0} ORDER BY count(*) DESC LIMIT 1"
    canonical = "entry WHERE canonical_id IS NULL"
    found = {
        "domain": conn.execute(commonest.format("domain", canonical)).fetchone()[0],
        "category": conn.execute(commonest.format("category", canonical)).fetchone()[0],
        "component": conn.execute(commonest.format("component", "entry_version")).fetchone()[0],
    }
    ids = [
        r[0] for r in conn.execute("SELECT id FROM entry WHERE canonical_id IS NULL ORDER BY seq LIMIT 200")
    ]
    conn.close()
    return found | {"ids": ids}


def read_paths(sample: dict) -> dict[str, str]:
    """What each path is called, and the path ({id}: an entry, rotating)."""
    d, c, k = (quote(sample[name]) for name in ("domain", "category", "component"))
    return {
        "home": "/",
        "home, Chinese": "/zh/",
        "domain page": f"/domains/{d}",
        "search page": "/search?q=connection+refused",
        "entry HTML": "/errors/{id}",
        "entry JSON": "/errors/{id}.json",
        "entry Markdown": "/zh/errors/{id}.md",
        "entry history": "/errors/{id}/history",
        "API list": "/api/v1/errors?limit=20",
        "API list, far page": "/api/v1/errors?limit=20&offset=5000",
        "API list, domain": f"/api/v1/errors?domain={d}&offset=40",
        "API list, category": f"/api/v1/errors?category={c}&offset=40",
        "API list, component": f"/api/v1/errors?component={k}",
        "API list, component and version": f"/api/v1/errors?component={k}&version=1.0",
        "API search, with a domain": f"/api/v1/errors?q=timeout&domain={d}",
        "search suggestions": "/search/suggestions?q=cuda",
        "Atom feed": "/feed.atom",
        "figures": "/stats.json",
        "about page": "/about",
        "llms.txt": "/llms.txt",
    }


def measure(
    server: Server, client: httpx.Client, path: str, ids: list[str], round_: int, requests: int = REQUESTS
) -> float:
    """The server's CPU ms per request over `requests` requests of `path`, each URL new."""
    before = server.settle()
    for n in range(requests):
        url = path.replace("{id}", ids[n % len(ids)]) if "{id}" in path else path
        url += ("&" if "?" in url else "?") + f"bench={round_}-{n}"
        response = client.get(url)
        if response.status_code != 200:
            raise SystemExit(f"{server.name}: {url} answered {response.status_code}")
    return (server.settle() - before) * 1000 / requests


def sitemap(server: Server, client: httpx.Client) -> str:
    """CPU of the largest sitemap file a crawler reads (the whole map, or its first part past
    50,000 URLs), per 1,000 entries in it: the sizes' files hold different numbers."""
    index = client.get("/sitemap.xml").text
    path = "/sitemaps/1.xml.gz" if "<sitemapindex" in index else "/sitemap.xml"
    answer = client.get(path)
    body = gzip.decompress(answer.content) if path.endswith(".gz") else answer.content
    entries = body.count(b"<url>") // 2
    if not entries:
        return f"{path}: no entries"
    cpu = [measure(server, client, path, [], round_, requests=5) for round_ in (0, 1)][-1]
    return f"{path} ({entries:,} entries): {cpu:.0f} ms, {cpu * 1000 / entries:.1f} ms per 1,000 entries"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", type=Path, nargs=2, required=True, metavar=("SMALL", "LARGE"))
    parser.add_argument("--log", type=Path, default=Path("/tmp"))
    args = parser.parse_args()
    sample = _sample(args.db[0])
    servers = [
        start_errata(f"errata {db.stem}", errata_env(db), args.log / f"read_paths-{db.stem}.log")
        for db in args.db
    ]
    try:
        for server in servers:
            server.wait("/healthz")
            httpx.post(server.url + "/api/v1/lookup", json={"text": "warm up"}, timeout=300)
        small, large = (httpx.Client(base_url=s.url, timeout=120) for s in servers)
        print(f"CPU ms per request, each URL new; {REQUESTS} requests x 2 rounds, one at a time")
        print(f"  {'path':34} {args.db[0].stem:>9} {args.db[1].stem:>9}   ratio")
        grown = []
        for name, path in read_paths(sample).items():
            for server, client in zip(servers, (small, large), strict=True):  # warm: templates, plans
                measure(server, client, path, sample["ids"], 0)
            figures = [[], []]
            for round_ in (1, 2):  # A B A B
                for n, (server, client) in enumerate(zip(servers, (small, large), strict=True)):
                    figures[n].append(measure(server, client, path, sample["ids"], round_))
            a, b = (sum(f) / len(f) for f in figures)
            # The CPU counter moves in ticks of 10 ms: a path too cheap to move it has no ratio.
            ratio = f"{b / a:5.2f}x" if a else "    -"
            mark = "  GROWS" if a and b / a > GROWS_PAST else ""
            grown += [name] if mark else []
            print(f"  {name:34} {a:9.2f} {b:9.2f}   {ratio}{mark}", flush=True)
        print(f"paths past {GROWS_PAST}x: {', '.join(grown) or 'none'}")
        for server, client in zip(servers, (small, large), strict=True):
            print(f"  {server.name}: {sitemap(server, client)}", flush=True)
    finally:
        for server in servers:
            server.stop()
        time.sleep(0.1)


if __name__ == "__main__":
    sys.exit(main())
