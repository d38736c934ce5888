"""Lookup quality on labelled pastes: Precision@1, Precision@3 and MRR.

    python bench/lookup_quality.py                 # the development set
    python bench/lookup_quality.py --set holdout   # cases the method was not tuned on
    python bench/lookup_quality.py --set holdout2  # a second set, by another author
    python bench/lookup_quality.py --misses        # print every case not ranked first

Loads the deadends.dev corpus (../shared/corpus/deadends-canons) and the shipped data into
a fresh database, then sends every case through POST /api/v1/lookup of the real app.
The cases name corpus entries; where a shipped entry is the same error
(lookup_same_error.json), a second set of figures counts it as right too.
"""

import argparse
import json
from pathlib import Path

from common import CORPUS, SHIPPED, loaded_database
from fastapi.testclient import TestClient

from app.main import create_app

SAME_ERROR = {
    k: v
    for k, v in json.loads(Path(__file__).with_name("lookup_same_error.json").read_text()).items()
    if not k.startswith("_")
}
SETS = {
    "dev": Path(__file__).with_name("lookup_devset.jsonl"),
    "holdout": Path(__file__).with_name("lookup_holdout.jsonl"),
    "holdout2": Path(__file__).with_name("lookup_holdout2.jsonl"),
}


def is_right(result: str, expected: list[str]) -> bool:
    return any(result == e or result.startswith(e + "/") for e in expected)


def with_same_errors(expected: list[str]) -> list[str]:
    return expected + [s for e in expected for s in SAME_ERROR.get(e, [])]


def _rank(ids: list[str], expected: list[str]) -> int | None:
    return next((n for n, i in enumerate(ids, 1) if is_right(i, expected)), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="dev")
    parser.add_argument("--misses", action="store_true", help="print the cases not ranked first")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"the corpus is not at {CORPUS}")
    cases = [json.loads(line) for line in SETS[args.set].read_text().splitlines() if line.strip()]
    settings, engine = loaded_database(CORPUS, SHIPPED)
    engine.dispose()
    hits1 = hits3 = same1 = same3 = 0
    reciprocal = same_reciprocal = 0.0
    by_kind: dict[str, list[int]] = {}
    with TestClient(create_app(settings)) as client:
        for case in cases:
            response = client.post("/api/v1/lookup", json={"text": case["text"], "limit": 10})
            response.raise_for_status()
            ids = [m["id"] for m in response.json()["matches"]]
            rank = _rank(ids, case["expected"])
            same = _rank(ids, with_same_errors(case["expected"]))
            same1 += same == 1
            same3 += same is not None and same <= 3
            same_reciprocal += 1 / same if same else 0.0
            hits1 += rank == 1
            hits3 += rank is not None and rank <= 3
            reciprocal += 1 / rank if rank else 0.0
            by_kind.setdefault(case["kind"], []).append(rank == 1)
            if args.misses and same != 1:
                print(f"--- rank {rank} expected {case['expected']} got {ids[:3]}")
                print("   ", case["text"][-300:].replace("\n", "\n    "))
    n = len(cases)
    print(f"set: {args.set}  cases: {n}  entries: corpus + shipped")
    print(f"Precision@1: {hits1 / n:.3f}")
    print(f"Precision@3: {hits3 / n:.3f}")
    print(f"MRR:         {reciprocal / n:.3f}")
    print(
        f"counting a shipped entry for the same error: P@1 {same1 / n:.3f}  P@3 {same3 / n:.3f}  "
        f"MRR {same_reciprocal / n:.3f}"
    )
    for kind, ranks in sorted(by_kind.items()):
        print(f"  {kind:13s} P@1 {sum(ranks) / len(ranks):.3f}  ({len(ranks)} cases)")


if __name__ == "__main__":
    main()
