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


def canonical(client: TestClient, entry_id: str) -> str:
    """The entry an id is shown as: itself, or the entry it was merged into (its 301)."""
    response = client.get(f"/api/v1/errors/{entry_id}", follow_redirects=False)
    if response.status_code == 301:
        return response.headers["location"].removeprefix("/api/v1/errors/")
    return entry_id


def load_cases(name: str) -> list[dict]:
    return [json.loads(line) for line in SETS[name].read_text().splitlines() if line.strip()]


def measure(client: TestClient, cases: list[dict], misses: bool = False) -> dict[str, float]:
    """P@1, P@3 and MRR of the cases, strictly and counting a shipped entry for the same
    error. An expected entry merged into another counts as that one: they are one error."""
    hits1 = hits3 = same1 = same3 = 0
    reciprocal = same_reciprocal = 0.0
    by_kind: dict[str, list[int]] = {}
    for case in cases:
        response = client.post("/api/v1/lookup", json={"text": case["text"], "limit": 10})
        response.raise_for_status()
        ids = [m["id"] for m in response.json()["matches"]]
        expected = [canonical(client, e) for e in case["expected"]]
        rank = _rank(ids, expected)
        same = _rank(ids, [canonical(client, e) for e in with_same_errors(case["expected"])])
        same1 += same == 1
        same3 += same is not None and same <= 3
        same_reciprocal += 1 / same if same else 0.0
        hits1 += rank == 1
        hits3 += rank is not None and rank <= 3
        reciprocal += 1 / rank if rank else 0.0
        by_kind.setdefault(case["kind"], []).append(rank == 1)
        if misses and same != 1:
            print(f"--- rank {rank} expected {case['expected']} got {ids[:3]}")
            print("   ", case["text"][-300:].replace("\n", "\n    "))
    n = len(cases)
    figures = {
        "P@1": hits1 / n,
        "P@3": hits3 / n,
        "MRR": reciprocal / n,
        "same P@1": same1 / n,
        "same P@3": same3 / n,
        "same MRR": same_reciprocal / n,
    }
    figures.update({f"  {kind}": sum(r) / len(r) for kind, r in sorted(by_kind.items())})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(SETS), default="dev")
    parser.add_argument("--misses", action="store_true", help="print the cases not ranked first")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"the corpus is not at {CORPUS}")
    cases = load_cases(args.set)
    settings, engine = loaded_database(CORPUS, SHIPPED)
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        f = measure(client, cases, args.misses)
    print(f"set: {args.set}  cases: {len(cases)}  entries: corpus + shipped")
    print(f"Precision@1: {f['P@1']:.3f}")
    print(f"Precision@3: {f['P@3']:.3f}")
    print(f"MRR:         {f['MRR']:.3f}")
    print(
        f"counting a shipped entry for the same error: P@1 {f['same P@1']:.3f}  "
        f"P@3 {f['same P@3']:.3f}  MRR {f['same MRR']:.3f}"
    )
    for kind, value in f.items():
        if kind.startswith("  "):
            print(f"{kind:15s} P@1 {value:.3f}")


if __name__ == "__main__":
    main()
