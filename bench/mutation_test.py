"""cosmic-ray's test command in bench/mutation.sh: run only the tests that run the mutant.

cosmic-ray has changed one file of the copy it works in (the current directory). This finds
the file and the lines that differ from the pristine copy, looks up in the coverage map
(bench/mutation_map.py) the tests that execute those statements, and runs them, quickest
first, stopping at the first failure. Exit 0 means the mutant survived: also when no test
runs the line. A mutant of a line run only while modules are imported (a constant, a
default, a decorator, a field of a model) gets every test of the test files that run any
line of its file. Then come the test files whose servers or commands ran the line (the map
measures the processes tests start), up to CHILD_SECONDS of their time.

A mutant those tests do not catch gets the rest of their files too, in the suite's own order,
up to WIDER_SECONDS of their time: a test may read what an earlier test of its module left
behind (a page rendered once and served from the entry cache after), and the map then
credits the line to the earlier test alone.

A run longer than three times the tests' measured time plus a minute is stopped and counts
as killed: the mutant made the code loop or hang, and a user would notice.

A failure is confirmed before it counts: the tests up to the one that failed run again, in
the same order, on the pristine tree. If they fail there too (a test that depends on what an
earlier one left in a shared server, say), the failure is not the mutant's: the report lists
it under the map-error marker, as survived, so the order dependence gets fixed.

    python bench/mutation_test.py PRISTINE MAP
"""

import difflib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_map import PACKAGES, statement_starts  # noqa: E402

KILLED, SURVIVED = 1, 0
CHILD_SECONDS = 300
WIDER_SECONDS = 900


class MapError(Exception):
    """The run cannot tell which tests to run. The mutant then counts as survived, never as
    killed, and the report lists it under this marker."""

    MARKER = "MUTATION-MAP-ERROR"


def changed_lines(work: Path, pristine: Path) -> tuple[str, set[int]]:
    """The mutated file (relative) and its pristine line numbers that the mutant changed."""
    changed = []
    for package in PACKAGES:
        for path in (work / package).rglob("*.py"):
            relative = path.relative_to(work)
            original = pristine / relative
            if path.read_bytes() != original.read_bytes():
                changed.append(
                    (str(relative), original.read_text().splitlines(), path.read_text().splitlines())
                )
    if len(changed) != 1:
        raise MapError(f"expected one mutated file, found {[name for name, _, _ in changed]}")
    name, before, after = changed[0]
    lines: set[int] = set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            # 1-based; a pure insertion touches the statement it follows.
            lines.update(range(i1 + 1, i2 + 1) if i2 > i1 else [max(i1, 1)])
    return name, lines


def covering_tests(name: str, lines: set[int], pristine: Path, coverage_map: dict) -> list[str]:
    per_line = coverage_map["lines"].get(name, {})
    starts = statement_starts(pristine / name)
    statements = {str(starts.get(line, line)) for line in lines}
    contexts: set[str] = set()
    for statement in statements:
        contexts.update(per_line.get(statement, []))
    timing = coverage_map["tests"]
    if contexts == {""}:
        # Run at import (a constant, a default, a class body that pydantic reads): every test
        # of the test files that use the module, including those that run none of its lines.
        files = {test.split("::")[0] for names in per_line.values() for test in names if test}
        contexts = {test for test in timing if test.split("::")[0] in files}
    in_children = coverage_map.get("children", {}).get(name, {})
    by_children: set[str] = set()
    for statement in statements:
        by_children.update(in_children.get(statement, []))
    ordered = _by_file(contexts, timing)
    chosen = {test for tests in ordered.values() for test in tests}
    # Then the tests whose servers and commands (child processes) run the statement, whole
    # files, quickest first, up to CHILD_SECONDS of their measured time: a mutant only the
    # slowest of them would catch counts as survived, never as killed.
    spent = 0.0
    for file, tests in _by_file(by_children - chosen, timing).items():
        spent += sum(timing[test]["seconds"] for test in tests)
        if spent > CHILD_SECONDS:
            break
        ordered[file] = ordered.get(file, []) + tests
    return [test for tests in ordered.values() for test in tests]


def _by_file(contexts: set[str], timing: dict) -> dict[str, list[str]]:
    """The tests that passed on the pristine tree, one file at a time (its module fixtures
    are set up once), quickest tests and files first."""
    tests = [test for test in contexts if test in timing and timing[test]["passed"]]
    by_file: dict[str, list[str]] = {}
    for test in sorted(tests, key=lambda test: (timing[test]["seconds"], test)):
        by_file.setdefault(test.split("::")[0], []).append(test)
    files = sorted(by_file, key=lambda file: sum(timing[test]["seconds"] for test in by_file[file]))
    return {file: by_file[file] for file in files}


def file_mates(tests: list[str], timing: dict) -> list[str]:
    """Every test of the files `tests` come from that passed on the pristine tree, in the order
    the map ran them (the suite's own), or [] when they take more than WIDER_SECONDS."""
    files = {test.split("::")[0] for test in tests}
    mates = [test for test, entry in timing.items() if entry["passed"] and test.split("::")[0] in files]
    return mates if sum(timing[test]["seconds"] for test in mates) <= WIDER_SECONDS else []


def collects(tests: list[str], pristine: Path) -> bool:
    """Whether the unmutated tree has these tests."""
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *tests]
    env = {**os.environ, "PYTHONPATH": str(pristine), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(command, cwd=pristine, env=env, capture_output=True).returncode == 0


def first_failure(output: str) -> str | None:
    """The node id of the test pytest's short summary (-rfE) names first as failed."""
    for line in output.splitlines():
        for marker in ("FAILED ", "ERROR "):
            if line.startswith(marker):
                return line[len(marker) :].split(" - ", 1)[0].strip()
    return None


def fails_without_the_mutant(tests: list[str], failed: str, pristine: Path) -> bool:
    """Whether the tests up to `failed`, in the order the mutant's run took, fail unmutated."""
    if failed not in tests:
        return False
    prefix = tests[: tests.index(failed) + 1]
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *prefix]
    env = {**os.environ, "PYTHONPATH": str(pristine), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(command, cwd=pristine, env=env, capture_output=True).returncode != 0


def main() -> int:
    try:
        return run_mutant(Path(sys.argv[1]), Path(sys.argv[2]))
    except MapError as error:
        print(f"{MapError.MARKER}: {error}")
        return SURVIVED


def run_mutant(pristine: Path, map_path: Path) -> int:
    coverage_map = json.loads(map_path.read_text())
    name, lines = changed_lines(Path.cwd(), pristine)
    tests = covering_tests(name, lines, pristine, coverage_map)
    print(f"mutant in {name}:{','.join(map(str, sorted(lines)))}; {len(tests)} tests run it")
    if not tests:
        return SURVIVED
    verdict = run_tests(tests, pristine, coverage_map)
    if verdict == SURVIVED:
        wider = file_mates(tests, coverage_map["tests"])
        if len(wider) > len(set(tests)):
            print(f"not caught; the {len(wider)} tests of their files, in the suite's order")
            verdict = run_tests(wider, pristine, coverage_map)
    return verdict


def run_tests(tests: list[str], pristine: Path, coverage_map: dict) -> int:
    """KILLED or SURVIVED by `tests`, run in this order on the mutated copy."""
    budget = 3 * sum(coverage_map["tests"][test]["seconds"] for test in tests) + 60
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-rfE", "-p", "no:cacheprovider", *tests]
    process = subprocess.Popen(
        command,
        start_new_session=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        output, _ = process.communicate(timeout=budget)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        print(f"killed: the tests ran past {budget:.0f} s")
        return KILLED
    print(output)
    code = process.returncode
    if code in (4, 5) and not collects(tests, pristine):
        # A node id the map names is gone: the map is stale, not the mutant caught. (Exit 4
        # is also what a mutant that breaks the import of conftest.py gets: that is a kill.)
        raise MapError(f"pytest could not find the tests (exit {code}); build the map again")
    if code == 0:
        return SURVIVED
    failed = first_failure(output)
    if failed and fails_without_the_mutant(tests, failed, pristine):
        raise MapError(f"{failed} fails without the mutant too, after the tests run before it")
    return KILLED


if __name__ == "__main__":
    sys.exit(main())
