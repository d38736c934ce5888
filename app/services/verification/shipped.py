"""Verifying the shipped data: every entry's static checks, then its reproduction.

Lookups run against all of `data/` loaded into a throwaway SQLite database by the real
migrations and importer, so "the output finds this entry first" is judged among the
neighbours a user would meet.
"""

import tempfile
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from app import migrate
from app.config import Settings
from app.db import make_engine, read_session
from app.schemas.document import EntryDoc
from app.services.interchange.importer import DocumentError, discover, import_paths, parse_file
from app.services.lookup.index import LookupIndex
from app.services.lookup.rank import lookup
from app.services.verification import checks, reproduce


@dataclass
class EntryResult:
    id: str
    path: Path
    problems: list[str] = field(default_factory=list)
    methods: frozenset[str] = frozenset()  # reproduced / sourced, over its wordings
    has_script: bool = False
    reproduced: bool = False
    patterns_on_output: bool = False
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.problems


def _parse_all(files: Iterable[Path]) -> tuple[dict[Path, EntryDoc], dict[Path, str]]:
    docs, failures = {}, {}
    for path in files:
        try:
            docs[path] = parse_file(path)
        except DocumentError as exc:
            failures[path] = f"{exc.field}: {exc.message}"
    return docs, failures


def verify(
    data_dir: Path,
    targets: Iterable[Path] = (),
    *,
    run_scripts: bool = True,
    jobs: int = 2,
    progress: Callable[[Iterable], Iterable] = lambda items: items,
) -> list[EntryResult]:
    """Check the entries in `targets` (files or folders; default all of `data_dir`)."""
    everything, failures = _parse_all(discover([data_dir]))
    wanted = set(discover(targets)) if targets else set(everything) | set(failures)
    results = [
        EntryResult(id=path.stem, path=path, problems=[message])
        for path, message in failures.items()
        if path in wanted
    ]
    chosen = {path: doc for path, doc in everything.items() if path in wanted}
    for path in wanted - set(everything) - set(failures):
        chosen[path] = parse_file(path)  # a file outside data_dir: checked, not a neighbour
    scripts: dict[Path, reproduce.Script] = {}
    for path, doc in chosen.items():
        result = EntryResult(
            id=doc.id,
            path=path,
            problems=checks.static_problems(doc, everything.values()),
            methods=frozenset(v.method for v in doc.verification),
        )
        script = reproduce.script_path(path)
        result.has_script = script.is_file()
        wants_script = "reproduced" in result.methods
        if wants_script and not result.has_script:
            result.problems.append(f"a wording is marked reproduced but {script.name} is missing")
        elif result.has_script and not wants_script:
            result.problems.append(f"{script.name} exists but no wording is marked reproduced")
        elif result.has_script and run_scripts:
            scripts[path] = reproduce.read_script(script)
        results.append(result)
    if scripts:
        _reproduce(data_dir, chosen, scripts, results, jobs=jobs, progress=progress)
    return sorted(results, key=lambda r: r.id)


def _reproduce(data_dir, chosen, scripts, results, *, jobs, progress) -> None:
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        runs = dict(zip(scripts, progress(pool.map(reproduce.run, scripts.values())), strict=True))
    by_path = {r.path: r for r in results}
    with tempfile.TemporaryDirectory(prefix="errata-verify-") as folder:
        settings = Settings(
            database_url=f"sqlite:///{Path(folder) / 'shipped.db'}",
            data_dir=None,
            warm_lookup_index=False,
        )
        migrate.upgrade(settings)
        engine = make_engine(settings)
        try:
            import_paths(engine, [data_dir, *scripts])
            index = LookupIndex()
            with read_session(engine) as session:
                for path, run in runs.items():
                    found = lookup(session, index, run.output, limit=1) if run.output else []
                    check = checks.output_problems(chosen[path], run, found[0].id if found else None)
                    result = by_path[path]
                    result.problems += check.problems
                    result.reproduced = check.reproduced
                    result.patterns_on_output = check.patterns_on_output
                    result.seconds = run.seconds
        finally:
            engine.dispose()
