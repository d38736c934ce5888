"""The cosmic-ray session of bench/mutation.sh: which mutants run, and what came of them.

Runs in cosmic-ray's own venv (it reads and writes the session through cosmic-ray's WorkDB,
as its cr-filter tools do).

    python mutation_session.py sample SESSION SIZE SEED   # keep a stratified random sample
    python mutation_session.py only SESSION FILE          # keep the mutants FILE names
    python mutation_session.py report SESSION SECONDS     # score, interval, every survivor

A sample is drawn per package in proportion to its mutants (fixed seed: the same tree gives
the same sample); the rest are marked skipped. A mutant is named
`module:operator:occurrence`, as the report prints it, so a survivor can be run again.
"""

import math
import random
import re
import sys
from collections import Counter

from cosmic_ray.work_db import WorkDB, use_db
from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

PACKAGES = ("app/services", "app/render", "app/web", "app/routers")
MAP_ERROR = "MUTATION-MAP-ERROR"


def package_of(item) -> str:
    path = str(item.mutations[0].module_path)
    return next(package for package in PACKAGES if path.startswith(package))


def name_of(item) -> str:
    mutation = item.mutations[0]
    return f"{mutation.module_path}:{mutation.operator_name}:{mutation.occurrence}"


def skip_all_but(db: WorkDB, keep: set[str]) -> None:
    skipped = [item.job_id for item in db.pending_work_items if item.job_id not in keep]
    db.set_multiple_results(
        skipped, WorkResult(output="not in the sample", worker_outcome=WorkerOutcome.SKIPPED)
    )


def sample(session: str, size: int, seed: int) -> None:
    with use_db(session, WorkDB.Mode.open) as db:
        items = sorted(db.pending_work_items, key=name_of)
        by_package: dict[str, list] = {package: [] for package in PACKAGES}
        for item in items:
            by_package[package_of(item)].append(item)
        size = min(size, len(items))
        # Proportional shares, rounded so that they add up to the size (largest remainder).
        exact = {package: size * len(members) / len(items) for package, members in by_package.items()}
        shares = {package: math.floor(value) for package, value in exact.items()}
        by_remainder = sorted(exact, key=lambda package: shares[package] - exact[package])
        for package in by_remainder[: size - sum(shares.values())]:
            shares[package] += 1
        rng = random.Random(seed)
        keep: set[str] = set()
        print(f"mutants: {len(items)}")
        for package, members in by_package.items():
            share = shares[package]
            keep.update(item.job_id for item in rng.sample(members, share))
            print(f"  {package}: {len(members)} mutants, {share} in the sample")
        skip_all_but(db, keep)
        print(f"sample: {len(keep)} (seed {seed})")


def only(session: str, names_file: str) -> None:
    """Every `module:operator:occurrence` the file names, wherever it stands (a list, a table)."""
    with open(names_file) as text:
        wanted = set(re.findall(r"app/[\w/]+\.py:core/\w+:\d+", text.read()))
    with use_db(session, WorkDB.Mode.open) as db:
        keep = {item.job_id for item in db.pending_work_items if name_of(item) in wanted}
        missing = wanted - {name_of(item) for item in db.pending_work_items}
        skip_all_but(db, keep)
    print(f"running {len(keep)} named mutants")
    for name in sorted(missing):
        print(f"  not a mutant of this tree: {name}")


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    if not trials:
        return 0.0, 0.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return centre - half, centre + half


def report(session: str, seconds: int) -> None:
    with use_db(session, WorkDB.Mode.open) as db:
        total = db.num_work_items
        done = [
            (item, result)
            for item, result in db.completed_work_items
            if result.worker_outcome != WorkerOutcome.SKIPPED
        ]
    ran = [(item, result) for item, result in done if result.test_outcome is not None]
    incompetent = [pair for pair in ran if pair[1].test_outcome == TestOutcome.INCOMPETENT]
    scored = [pair for pair in ran if pair[1].test_outcome != TestOutcome.INCOMPETENT]
    survivors = [pair for pair in scored if pair[1].test_outcome == TestOutcome.SURVIVED]
    killed = len(scored) - len(survivors)
    low, high = wilson(killed, len(scored))
    score = 100.0 * killed / len(scored) if scored else 0.0
    print(f"\nmutants: {total}; run: {len(scored)}; killed: {killed}; survived: {len(survivors)}")
    print(f"score: {score:.1f} % (95 % interval {100 * low:.1f}-{100 * high:.1f} %)")
    print(f"time: {seconds} s")
    ran_by_package = Counter(package_of(item) for item, _ in scored)
    lived_by_package = Counter(package_of(item) for item, _ in survivors)
    for package in PACKAGES:
        if ran_by_package[package]:
            share = 100.0 * (1 - lived_by_package[package] / ran_by_package[package])
            print(f"  {package}: {ran_by_package[package]} run, {share:.1f} % killed")
    if incompetent:
        print(f"not scored (the mutant could not be run): {len(incompetent)}")
    errors = [item for item, result in survivors if MAP_ERROR in (result.output or "")]
    if errors:
        print(
            "counted as survived because the coverage map did not fit or the tests fail"
            f" without the mutant: {len(errors)}"
        )
    for item, result in sorted(survivors, key=lambda pair: name_of(pair[0])):
        mutation = item.mutations[0]
        print(f"\n--- survived: {name_of(item)} (line {mutation.start_pos[0]})")
        lines = (result.output or "").splitlines()
        print("\n".join(lines[:1] + [line for line in lines[1:] if MAP_ERROR in line]))
        print(result.diff)


def main() -> None:
    command, session, *rest = sys.argv[1:]
    if command == "sample":
        sample(session, int(rest[0]), int(rest[1]))
    elif command == "only":
        only(session, rest[0])
    elif command == "report":
        report(session, int(rest[0]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
