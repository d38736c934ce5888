"""Which tests run each line of the mutated packages, for bench/mutation.sh.

Runs the tests once under coverage with one context per test (pytest-cov's
`--cov-context=test`) and writes a JSON map: for every (file, statement) the tests that
execute it, each test's time, and the statements run only while modules are imported.
A mutant then needs only the tests that run its line, which makes a run over the four
packages take minutes per hundred mutants instead of days.

Lines reached only inside a server the tests start as a subprocess (tests/server.py) are
not attributed to any test: their mutants count as survived, which can only lower the
score. So are lines run only when a cache shared by a module's tests is cold: they belong
to the test that filled it, not to the later ones that read the cached result. Tests that
fail on the unmutated tree are left out of the map (they would "kill" every mutant).

    python bench/mutation_map.py MAP                  # the suite without tests/content
    python bench/mutation_map.py MAP --update TESTS   # measure TESTS again, keep the rest
"""

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("app/services", "app/render", "app/web", "app/routers")


def package_files(root: Path) -> list[Path]:
    return sorted(path for package in PACKAGES for path in (root / package).rglob("*.py"))


def tree_hash(root: Path) -> str:
    """The mutated code's fingerprint: a map is only good for the lines it was measured on."""
    digest = hashlib.sha256()
    for path in package_files(root):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def statement_starts(path: Path) -> dict[int, int]:
    """Each line of a multi-line statement -> the statement's first line, as coverage counts."""
    from coverage.parser import PythonParser

    parser = PythonParser(filename=str(path))
    parser.parse_source()
    return dict(parser.multiline_map)


def _node_ids(junit: Path) -> dict[str, dict]:
    """pytest node id -> seconds and whether it passed, from a JUnit XML report."""
    tests: dict[str, dict] = {}
    for case in ET.parse(junit).iter("testcase"):
        parts = case.get("classname", "").split(".")
        # The classname is the module's dotted path followed by any class names.
        for cut in range(len(parts), 0, -1):
            if (ROOT / Path(*parts[:cut])).with_suffix(".py").is_file():
                node = "::".join(["/".join(parts[:cut]) + ".py", *parts[cut:], case.get("name", "")])
                break
        else:
            continue
        entry = tests.setdefault(node, {"seconds": 0.0, "passed": True})
        entry["seconds"] += float(case.get("time") or 0)
        if case.find("failure") is not None or case.find("error") is not None:
            entry["passed"] = False
    return tests


def measure(tests: list[str]) -> tuple[dict, dict]:
    """Run `tests` under coverage; returns (node id -> timing, file -> line -> node ids)."""
    with tempfile.TemporaryDirectory() as scratch:
        data_file, junit = Path(scratch) / "coverage", Path(scratch) / "junit.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += [f"--cov={package}" for package in PACKAGES]
        command += ["--cov-context=test", "--cov-report=", f"--junitxml={junit}", *tests]
        # Failing tests are dropped by the mutation runs; the run itself may fail.
        subprocess.run(command, cwd=ROOT, env={**os.environ, "COVERAGE_FILE": str(data_file)}, check=False)
        return read_measurement(data_file, junit)


def read_measurement(data_file: Path, junit: Path) -> tuple[dict, dict]:
    from coverage import CoverageData

    data = CoverageData(basename=str(data_file))
    data.read()
    lines: dict[str, dict[str, list[str]]] = {}
    for measured in data.measured_files():
        path = Path(measured)
        starts = statement_starts(path)
        per_line: dict[str, set[str]] = {}
        for line, contexts in data.contexts_by_lineno(measured).items():
            # "" is the time between tests: collection, when modules are imported.
            names = {context.rsplit("|", 1)[0] if context else "" for context in contexts}
            per_line.setdefault(str(starts.get(line, line)), set()).update(names)
        lines[str(path.relative_to(ROOT))] = {line: sorted(names) for line, names in per_line.items()}
    return _node_ids(junit), lines


def build(tests: list[str]) -> dict:
    timing, lines = measure(tests)
    return {"tree": tree_hash(ROOT), "tests": timing, "lines": lines}


def update(old: dict, tests: list[str]) -> dict:
    """Measure `tests` (files) again and replace what the map held for them."""
    timing, lines = measure(tests)
    files = {test.split("::")[0] for test in tests}
    keep = {node for node in old["tests"] if node.split("::")[0] not in files}
    merged = {node: old["tests"][node] for node in keep} | timing
    all_lines: dict[str, dict[str, list[str]]] = {}
    for source in set(old["lines"]) | set(lines):
        per_line: dict[str, set[str]] = {}
        for line, names in old["lines"].get(source, {}).items():
            per_line.setdefault(line, set()).update(name for name in names if name in keep or name == "")
        for line, names in lines.get(source, {}).items():
            per_line.setdefault(line, set()).update(names)
        all_lines[source] = {line: sorted(names) for line, names in per_line.items()}
    return {"tree": tree_hash(ROOT), "tests": merged, "lines": all_lines}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("map", type=Path)
    parser.add_argument("--update", nargs="+", metavar="TESTS", help="test files to measure again")
    args = parser.parse_args()
    if args.update:
        old = json.loads(args.map.read_text())
        if old["tree"] != tree_hash(ROOT):
            sys.exit("the code changed since the map was measured: build it again without --update")
        result = update(old, args.update)
    else:
        result = build(["tests", "--ignore=tests/content"])
    args.map.write_text(json.dumps(result))
    failing = sorted(node for node, entry in result["tests"].items() if not entry["passed"])
    print(f"map: {len(result['tests'])} tests, {len(result['lines'])} files -> {args.map}")
    for node in failing:
        print(f"  left out (fails on the unmutated tree): {node}")


if __name__ == "__main__":
    main()
