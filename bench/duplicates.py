"""One error, one entry: how many errors the base holds before and after grouping and merging.

    python bench/duplicates.py [--sample N]

Loads the shipped data, then the deadends.dev corpus (../shared/corpus/deadends-canons, or
$ERRATA_CORPUS), into two fresh databases: one without merges by rule, one with them.
Prints the entries and errors of each, the merges by rule, a sample of merged pairs to
review, the pairs a reader calls different errors (duplicates_different.json) with their
scores (none may merge by rule), and lookup quality (lookup_quality.py) before and after.
Without the corpus it says so and stops.
"""

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from common import CORPUS, SHIPPED, loaded_database
from fastapi.testclient import TestClient
from lookup_quality import SETS, load_cases, measure
from sqlalchemy import func
from sqlmodel import Session, select

from app.main import create_app
from app.models import Entry
from app.services.interchange.importer import import_paths
from app.services.merging.finder import AUTO_MERGE_SCORE, compare
from app.services.merging.rules import ENVIRONMENT, load_profiles

DIFFERENT = json.loads(Path(__file__).with_name("duplicates_different.json").read_text())["pairs"]


def _database(merge_by_rule: bool):
    settings, engine = loaded_database(SHIPPED, merge_by_rule=merge_by_rule)
    report = import_paths(engine, [CORPUS], merge_by_rule=merge_by_rule)
    return settings, engine, report


def _counts(engine) -> tuple[int, int]:
    with Session(engine) as session:
        entries = session.exec(select(func.count()).select_from(Entry)).one()
        errors = session.exec(
            select(func.count()).select_from(Entry).where(Entry.canonical_id == None)  # noqa: E711
        ).one()
    return entries, errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=15, help="merged pairs to print for review")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        print(f"the corpus is not at {CORPUS}: nothing to measure")
        return
    before_settings, before, _ = _database(merge_by_rule=False)
    after_settings, after, report = _database(merge_by_rule=True)
    entries, errors_before = _counts(before)
    _, errors_after = _counts(after)
    by_rule = Counter("environment" if why == ENVIRONMENT else why for _, _, why in report.merged)
    print(f"entries: {entries} (shipped + corpus)")
    print(f"errors before merging: {errors_before}")
    print(f"after grouping environment variants: {errors_before - by_rule['environment']}")
    print(f"after merging by rule too: {errors_after}")
    print("merges by rule:")
    for rule, n in by_rule.most_common():
        print(f"  {n:5d}  {rule}")
    print(f"candidates left for a moderator: {report.candidates}")

    rng = random.Random(10)
    others = [m for m in report.merged if m[2] != ENVIRONMENT]
    envs = [m for m in report.merged if m[2] == ENVIRONMENT]
    print(f"\nsample of merged pairs (seed 10; {args.sample} by the finder, 5 environment groupings):")
    for source, target, why in rng.sample(others, min(args.sample, len(others))) + rng.sample(
        envs, min(5, len(envs))
    ):
        print(f"  {source}  ->  {target}   ({why})")

    with Session(before) as session:
        profiles = load_profiles(session)
    with Session(after) as session:
        canonical = dict(session.exec(select(Entry.id, Entry.canonical_id)).all())
    print(f"\nscored high but different errors (auto-merge from {AUTO_MERGE_SCORE}):")
    merged_wrongly = 0
    for a, b, why in DIFFERENT:
        found = compare(profiles[a], profiles[b])
        score = found.score if found else 0.0
        one = (canonical.get(a) or a) == (canonical.get(b) or b)
        merged_wrongly += one
        print(f"  {score:.3f}  {a}  {b}  {'MERGED' if one else 'kept apart'}: {why}")
    print(f"  {merged_wrongly} of {len(DIFFERENT)} merged")

    print("\nlookup quality, before -> after merging:")
    clients = [TestClient(create_app(s)) for s in (before_settings, after_settings)]
    with clients[0] as first, clients[1] as second:
        for name in sorted(SETS):
            cases = load_cases(name)
            old, new = measure(first, cases), measure(second, cases)
            shown = ("P@1", "P@3", "MRR", "same P@1")
            print(
                f"  {name:9s} ({len(cases)} cases)  "
                + "  ".join(f"{k} {old[k]:.3f} -> {new[k]:.3f}" for k in shown)
            )
    before.dispose()
    after.dispose()


if __name__ == "__main__":
    main()
