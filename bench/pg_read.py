"""errata on PostgreSQL with one and with two app servers, against SQLite with one, in one run.

    python bench/pg_read.py [--seconds 10] [--connections 16]

Starts a PostgreSQL cluster of its own (Debian's packages, as the tests do) and real
`errata serve` processes (one uvicorn worker each) over the shipped data, then drives
them with wrk: an entry's JSON, its page, a search, and reports (POST evidence). With two
servers, one wrk runs against each at the same time and the rates are added. Prints
requests per second, wrk's median and 99th-percentile latency, and each rate as a ratio
of SQLite's with one server measured in the same run. Every process shares this
machine's cores, so a second server adds throughput only where cores are idle.
"""

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pg import Cluster  # noqa: E402
from tests.server import serving  # noqa: E402

SEED = "llm/vllm-block-manager-out-of-memory"
LOADS = {
    "entry JSON": ("GET", f"/errors/{SEED}.json"),
    "entry page": ("GET", f"/errors/{SEED}"),
    "search": ("GET", "/search?q=out+of+memory"),
    "report (write)": ("POST", f"/api/v1/errors/{SEED}/evidence"),
}
POST_SCRIPT = """wrk.method = "POST"
wrk.body = '{"outcome": "worked"}'
wrk.headers["Content-Type"] = "application/json"
"""
_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def _ms(text: str) -> float:
    value, unit = re.fullmatch(r"([\d.]+)(us|ms|s)", text).groups()
    return float(value) * _UNITS[unit]


def _wrk(bases: list[str], method: str, path: str, seconds: int, connections: int, folder: Path):
    """(requests/s summed over the servers, median ms, p99 ms of the first server)."""
    script = folder / "post.lua"
    script.write_text(POST_SCRIPT)
    runs = [
        subprocess.Popen(
            ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency"]
            + (["-s", str(script)] if method == "POST" else [])
            + [base + path],
            stdout=subprocess.PIPE,
            text=True,
        )
        for base in bases
    ]
    outputs = [run.communicate()[0] for run in runs]
    rate = sum(float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)) for out in outputs)
    errors = sum(int(n) for out in outputs for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    if errors:
        raise SystemExit(f"{errors} failed responses for {path}:\n{outputs[0]}")
    median = _ms(re.search(r"50%\s+(\S+)", outputs[0]).group(1))
    p99 = _ms(re.search(r"99%\s+(\S+)", outputs[0]).group(1))
    return rate, median, p99


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--connections", type=int, default=16)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("needs wrk (Debian: apt-get install wrk)")
    folder = Path(tempfile.mkdtemp(prefix="errata-pg-bench-"))
    env = {"ERRATA_RATE_LIMIT": "100000000", "ERRATA_WARM_LOOKUP_INDEX": "true"}
    cluster = Cluster().start()
    results: dict[str, dict[str, tuple[float, float, float]]] = {}
    try:
        setups = {
            "SQLite, 1 server": [folder / "errata.db"],
            "PostgreSQL, 1 server": [cluster.create(name="bench")],
        }
        setups["PostgreSQL, 2 servers"] = setups["PostgreSQL, 1 server"] * 2
        for name, databases in setups.items():
            with ExitStack() as stack:
                bases = [
                    stack.enter_context(serving(db, workers=1, log_dir=folder, **env))[0] for db in databases
                ]
                results[name] = {
                    load: _wrk(bases, method, path, args.seconds, args.connections, folder)
                    for load, (method, path) in LOADS.items()
                }
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)
    baseline = results["SQLite, 1 server"]
    print(f"| load | {' | '.join(results)} |")
    print("|---|" + "---|" * len(results))
    for load in LOADS:
        cells = []
        for result in results.values():
            rate, median, p99 = result[load]
            cells.append(f"{rate:,.0f}/s (×{rate / baseline[load][0]:.2f}), {median:.1f} / {p99:.1f} ms")
        print(f"| {load} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
