"""Which tests run each line of the mutated packages, for bench/mutation.sh.

Runs the tests once under coverage with one context per test (pytest-cov's
`--cov-context=test`) and writes a JSON map: for every (file, statement) the tests that
execute it, each test's time, and the statements run only while modules are imported.
A mutant then needs only the tests that run its line, which makes a run over the four
packages take minutes per hundred mutants instead of days.

Python processes the tests start (`errata serve` in tests/server.py, the command-line
tests, their uvicorn workers) measure themselves too: the variable COVERAGE_PROCESS_START
makes coverage start in each of them, and their lines are credited to every test of the
test file that started the process (a server is often shared by a module's tests, and the
process cannot tell which test a request came from). Lines run only when a cache shared by
a module's tests is cold belong to the test that filled it, not to the later ones that read
the cached result. Tests that fail on the unmutated tree are left out of the map (they
would "kill" every mutant).

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
Lines = dict[str, dict[str, list[str]]]  # file -> statement -> node ids
CHILD = "child|"  # the context prefix of processes the tests start


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


def measure(tests: list[str]) -> tuple[dict, Lines, Lines]:
    """Run `tests` under coverage; returns what read_measurement does."""
    with tempfile.TemporaryDirectory() as scratch:
        data_file, junit = Path(scratch) / "coverage", Path(scratch) / "junit.xml"
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["-p", "mutation_map_plugin"]
        command += [f"--cov={package}" for package in PACKAGES]
        command += ["--cov-context=test", "--cov-report=", f"--junitxml={junit}", *tests]
        env = {
            **os.environ,
            "COVERAGE_FILE": str(data_file),
            "ERRATA_CHILD_COVERAGE": str(_config(Path(scratch))),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "bench"), os.environ.get("PYTHONPATH", str(ROOT))]),
        }
        # Failing tests are dropped by the mutation runs; the run itself may fail.
        subprocess.run(command, cwd=ROOT, env=env, check=False)
        return read_measurement(data_file, junit)


def _config(scratch: Path) -> Path:
    """The coverage configuration of the processes the tests start (the pytest process gets
    its own, and its test contexts, from pytest-cov). A child takes as its context the test
    running when it was started, which pytest keeps in PYTEST_CURRENT_TEST; it writes beside
    COVERAGE_FILE, and pytest-cov combines its data with the pytest process's at the end."""
    config = scratch / "coveragerc"
    sources = ", ".join(str(ROOT / package) for package in PACKAGES)
    config.write_text(
        "[run]\n"
        f"source = {sources}\n"
        # uvicorn's workers are multiprocessing children, stopped with SIGTERM.
        "concurrency = thread, multiprocessing\n"
        "sigterm = true\n"
        "parallel = true\n"
        f"context = {CHILD}${{PYTEST_CURRENT_TEST}}\n"
    )
    return config


def read_measurement(data_file: Path, junit: Path) -> tuple[dict, Lines, Lines]:
    """(node id -> timing, lines the pytest process ran, lines the processes it started ran).
    The two are kept apart: a statement the pytest process runs only at import gets whole
    test files in bench/mutation_test.py, whatever the children do."""
    from coverage import CoverageData

    tests = _node_ids(junit)
    by_file: dict[str, set[str]] = {}
    for node in tests:
        by_file.setdefault(node.split("::")[0], set()).add(node)
    data = CoverageData(basename=str(data_file))
    data.read()
    in_process: dict[str, dict[str, set[str]]] = {}
    children: dict[str, dict[str, set[str]]] = {}
    for measured in data.measured_files():
        source = Path(measured)
        if not source.is_relative_to(ROOT):
            continue  # a child run from another checkout (a fresh-clone test)
        name, starts = str(source.relative_to(ROOT)), statement_starts(source)
        for line, contexts in data.contexts_by_lineno(measured).items():
            statement = str(starts.get(line, line))
            for context in contexts:
                if context.startswith(CHILD):
                    # `child|node id (phase)`: the child may serve every test of that file.
                    node = context.removeprefix(CHILD).rsplit(" (", 1)[0]
                    names = by_file.get(node.split("::")[0], set())
                    children.setdefault(name, {}).setdefault(statement, set()).update(names)
                else:
                    # pytest-cov's `node id|phase`; "" is the time between tests (imports).
                    test = context.rsplit("|", 1)[0] if context else ""
                    in_process.setdefault(name, {}).setdefault(statement, set()).add(test)
    return tests, _sorted(in_process), _sorted(children)


def _sorted(lines: dict[str, dict[str, set[str]]]) -> Lines:
    return {name: {line: sorted(names) for line, names in per.items()} for name, per in lines.items()}


def build(tests: list[str]) -> dict:
    timing, lines, children = measure(tests)
    return {"tree": tree_hash(ROOT), "tests": timing, "lines": lines, "children": children}


def update(old: dict, tests: list[str]) -> dict:
    """Measure `tests` (files) again and replace what the map held for them."""
    timing, lines, children = measure(tests)
    files = {test.split("::")[0] for test in tests}
    keep = {node for node in old["tests"] if node.split("::")[0] not in files}

    def merged(before: Lines, after: Lines) -> Lines:
        result: dict[str, dict[str, set[str]]] = {}
        for source in set(before) | set(after):
            per_line: dict[str, set[str]] = {}
            for line, names in before.get(source, {}).items():
                per_line.setdefault(line, set()).update(name for name in names if name in keep or name == "")
            for line, names in after.get(source, {}).items():
                per_line.setdefault(line, set()).update(names)
            result[source] = per_line
        return _sorted(result)

    return {
        "tree": tree_hash(ROOT),
        "tests": {node: old["tests"][node] for node in keep} | timing,
        "lines": merged(old["lines"], lines),
        "children": merged(old.get("children", {}), children),
    }


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
