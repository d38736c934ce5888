"""Lookup and search latency as the base grows: the corpus, then 10k and 100k entries.

    python bench/lookup_speed.py               # corpus size, 10k, 100k
    python bench/lookup_speed.py --sizes 10000 # just one size

Generated entries are mutations of corpus entries (other identifiers, other wording), so
they crowd the same words as real ones. Latencies are per call through the services, on
one warm process; the ratio column compares each size with the corpus-size baseline
measured in the same run.
"""

import argparse
import json
import random
import re
import resource
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from common import CORPUS, SHIPPED, loaded_database
from sqlmodel import Session, select

from app.db import read_session, write_session
from app.models import Entry
from app.services.entries.store import save_document
from app.services.interchange.canon import canon_to_document
from app.services.lookup.index import LookupIndex
from app.services.lookup.rank import lookup
from app.services.search.query import search_entries

DEVSET = Path(__file__).with_name("lookup_devset.jsonl")
SEARCHES = [
    "CUDA out of memory",
    "KV cache",
    "permission denied",
    "ModuleNotFoundError",
    "connection refused",
    "显存",
    "依赖冲突",
    "npm ERESOLVE",
    "certificate verify failed",
    "database is locked",
    "OOMKilled",
    "git push rejected",
    "heap out of memory",
    "exec format error",
    "gpu_memory_utilization",
    "too many clients",
    "NEAR(",
    '"unbalanced',
    "a",
    "timeout",
]
_SYLLABLES = ["fro", "bni", "qua", "zel", "mor", "tak", "vex", "lun", "dra", "pim", "sor", "kel"]


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))


def _mutate(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    for _ in range(max(1, len(words) // 4)):
        words[rng.randrange(len(words))] = _word(rng)
    return " ".join(words)


def grow(engine, target: int, sources: list[dict], rng: random.Random) -> None:
    with read_session(engine) as session:
        count = len(session.exec(select(Entry.id)).all())
    now = datetime.now(UTC)
    while count < target:
        with write_session(engine) as session:
            for _ in range(min(2000, target - count)):
                data = json.loads(json.dumps(rng.choice(sources)))
                domain = data["error"]["domain"]
                data["id"] = f"{domain}/{_word(rng)}-{count}/gen"
                data["error"]["signature"] = _mutate(data["error"]["signature"], rng)
                data["error"]["regex"] = re.escape(data["error"]["signature"][:60])
                data["verdict"]["summary"] = _mutate(data["verdict"]["summary"], rng)
                data["transition_graph"] = {}
                save_document(session, canon_to_document(data), now=now)
                count += 1


def _timed(fn, inputs) -> list[float]:
    times = []
    for item in inputs:
        start = time.perf_counter()
        fn(item)
        times.append((time.perf_counter() - start) * 1000)
    return times


def _summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[10_000, 100_000])
    args = parser.parse_args()
    rng = random.Random(7)
    sources = [json.loads(p.read_text()) for p in sorted(CORPUS.rglob("*.json"))]
    pastes = [json.loads(line)["text"] for line in DEVSET.read_text().splitlines() if line.strip()]
    _, engine = loaded_database(CORPUS, SHIPPED)
    with Session(engine) as session:
        base_size = len(session.exec(select(Entry.id)).all())
    rows = []
    for size in [base_size, *args.sizes]:
        grow(engine, size, sources, rng)
        index = LookupIndex()
        with Session(engine) as session:
            start = time.perf_counter()
            index.refresh(session)
            build = time.perf_counter() - start
            for paste in pastes[:10]:  # warm caches
                lookup(session, index, paste)
            lookups = _timed(lambda text, s=session, i=index: lookup(s, i, text), pastes)
            searches = _timed(lambda q, s=session: search_entries(s, q, limit=20), SEARCHES * 3)
        rows.append((size, build, *_summary(lookups), *_summary(searches)))
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"... {size} entries measured (peak RSS {rss:.0f} MB)", flush=True)
    base = rows[0]
    print()
    print(
        f"{'entries':>8} {'index build':>12} {'lookup median':>14} {'p95':>8} "
        f"{'search median':>14} {'p95':>8} {'lookup ×':>9} {'search ×':>9}"
    )
    for size, build, lmed, lp95, smed, sp95 in rows:
        print(
            f"{size:>8} {build:>10.2f} s {lmed:>11.2f} ms {lp95:>5.2f} ms {smed:>11.2f} ms {sp95:>5.2f} ms"
            f" {lmed / base[2]:>8.2f}× {smed / base[4]:>8.2f}×"
        )
    print(
        "\n× = median latency relative to the corpus-size baseline of this run; entries grew "
        f"{rows[-1][0] / base[0]:.0f}×."
    )


if __name__ == "__main__":
    main()
