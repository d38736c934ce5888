"""The `errata` command line."""

import sys
from pathlib import Path

import click
from tqdm import tqdm

from app import preflight
from app.config import Settings
from app.db import make_engine


def _settings(database: bool = True, data: bool = False) -> Settings:
    """Settings known to work: a configuration error ends the command with one message.
    `data`: the folder of entries `serve` loads is checked too (before the database is opened)."""
    try:
        settings = preflight.load_settings()
        if data:
            preflight.check_data_dir(settings)
        if database:
            preflight.check_database(settings)
    except preflight.ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    return settings


@click.group()
def main() -> None:
    """errata: a bilingual knowledge base of software errors."""


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
def serve(host: str, port: int, workers: int) -> None:
    """Migrate the database if needed, load the shipped data, and serve."""
    import uvicorn

    from app import migrate
    from app.services.interchange.importer import import_paths
    from app.web.workers import APP, claim, supported
    from app.web.workers import serve as serve_workers

    try:
        preflight.check_port(host, port)
        # Held at once, before the data loads: app/web/workers.py says why.
        guard = claim(host, port) if workers > 1 and supported() else None
    except preflight.ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port} ({exc.strerror})") from None
    settings = _settings(data=True)
    migrate.upgrade(settings)
    if settings.data_dir is not None:
        engine = make_engine(settings)
        report = import_paths(engine, [settings.data_dir])
        engine.dispose()
        click.echo(f"shipped data: {_merges(report)}; {_summary(report)}")
        for failure in report.failures:
            click.echo(f"  {failure}", err=True)
    if guard is not None:
        sys.exit(serve_workers(guard, workers))
    uvicorn.run(APP, factory=True, host=host, port=port, workers=workers)  # elsewhere, uvicorn's own


@main.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
def import_command(paths: tuple[Path, ...]) -> None:
    """Load entry files (YAML or deadends.dev canon JSON), idempotently: folders, files, or
    archives as downloaded (.tar.gz, .tgz, .tar, .zip; a repository archive is read from its
    data/canons folder)."""
    from contextlib import ExitStack

    from app import migrate
    from app.services.interchange.archives import ArchiveError, corpus_root, is_archive, unpacked
    from app.services.interchange.importer import import_paths

    settings = _settings()
    migrate.upgrade(settings)
    engine = make_engine(settings)
    with ExitStack() as stack:
        # Unpacked files are reported by the archive they came from: archive.zip!path/in/it.
        shown: dict[Path, Path] = {}
        targets = []
        for path in paths:
            if not is_archive(path):
                targets.append(path)
                continue
            try:
                folder = stack.enter_context(unpacked(path))
            except ArchiveError as exc:
                raise click.ClickException(str(exc)) from None
            targets.append(corpus_root(folder))
            shown[folder.resolve()] = path
        report = import_paths(
            engine,
            targets,
            progress=lambda files: tqdm(files, desc="import", unit="file", disable=None),
        )
        for failure in report.failures:
            for folder, archive in shown.items():
                if failure.path.is_relative_to(folder):
                    failure.path = Path(f"{archive}!{failure.path.relative_to(folder)}")
            click.echo(f"error: {failure}", err=True)
        for source, target, why in report.merged:
            click.echo(f"merged {source} into {target} ({why})")
    click.echo(_merges(report))
    click.echo(_summary(report))
    sys.exit(1 if report.failed else 0)


def _merges(report) -> str:
    return f"{len(report.merged)} merged, {report.candidates} new candidate duplicates (errata duplicates)"


def _summary(report) -> str:
    return (
        f"{report.created} created, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.failed} failed"
    )


@main.command("export")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
def export_command(directory: Path) -> None:
    """Write every entry as a file in the project's own format."""
    from app.services.interchange.exporter import export_all

    engine = make_engine(_settings())
    count = export_all(
        engine, directory, progress=lambda ids: tqdm(ids, desc="export", unit="entry", disable=None)
    )
    click.echo(f"{count} entries written to {directory}")


@main.command()
@click.option("--min-score", default=None, type=click.FloatRange(0, 1), help="List pairs from this score.")
def duplicates(min_score: float | None) -> None:
    """List candidate duplicate entries: score, the pair, and why."""
    from app import migrate
    from app.db import read_session
    from app.services.merging.finder import AUTO_MERGE_SCORE, CANDIDATE_SCORE, find_candidates
    from app.services.merging.rules import load_profiles

    settings = _settings()
    migrate.upgrade(settings)
    engine = make_engine(settings)
    with read_session(engine) as session:
        found = find_candidates(load_profiles(session).values())
    shown = [c for c in found if c.score >= (CANDIDATE_SCORE if min_score is None else min_score)]
    for c in shown:
        mark = "conclusive" if c.score >= AUTO_MERGE_SCORE else "review"
        click.echo(f"{c.score:.2f}  {c.a}  {c.b}  [{mark}] {'; '.join(c.reasons)}")
    click.echo(f"{len(shown)} candidate pairs; merge one with: errata merge FROM INTO")


def _merge_command(action) -> None:
    from app import migrate
    from app.services.errors import DomainError

    settings = _settings()
    migrate.upgrade(settings)
    engine = make_engine(settings)
    try:
        result = action(engine)
    except DomainError as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{result.action}: {result.from_} -> {result.into}")
    for alias in result.repointed:
        click.echo(
            f"  alias {alias} now points to {result.into if result.action == 'merge' else result.from_}"
        )


@main.command("merge")
@click.argument("from_id", metavar="FROM")
@click.argument("into_id", metavar="INTO")
@click.option("--reason", default=None)
def merge_command(from_id: str, into_id: str, reason: str | None) -> None:
    """Merge entry FROM into entry INTO; FROM's id then answers 301 at INTO."""
    from app.services.merging.service import merge_entries

    _merge_command(lambda engine: merge_entries(engine, from_id, into_id, reason=reason))


@main.command("unmerge")
@click.argument("from_id", metavar="FROM")
@click.option("--reason", default=None)
def unmerge_command(from_id: str, reason: str | None) -> None:
    """Undo the merge of FROM: an entry of its own again, with its own evidence."""
    from app.services.merging.service import unmerge_entry

    _merge_command(lambda engine: unmerge_entry(engine, from_id, reason=reason))


@main.group()
def db() -> None:
    """Database maintenance."""


@db.command("upgrade")
@click.argument("revision", default="head")
def db_upgrade(revision: str) -> None:
    """Apply Alembic migrations up to REVISION (default: head)."""
    from app import migrate

    migrate.upgrade(_settings(), revision)
    click.echo(f"database at {revision}")


@main.command()
def reindex() -> None:
    """Rebuild the full-text search index from the entries."""
    from app.db import write_session
    from app.services.search.index import reindex_all

    engine = make_engine(_settings())
    with write_session(engine) as session:
        count = reindex_all(session)
    click.echo(f"{count} entries indexed")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    """Write a consistent copy of the live database to FILE (PostgreSQL: with pg_dump)."""
    from app import backends

    engine = make_engine(_settings())
    try:
        note = backends.backup(engine, file)
    except backends.BackupUnavailable as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"backup written to {file}" + (f" ({note})" if note else ""))


@main.command("migrate-db")
@click.argument("source_url")
@click.argument("target_url")
def migrate_db(source_url: str, target_url: str) -> None:
    """Move a whole base (entries, evidence, history, moderation log, pastes) from SOURCE_URL
    to the empty database TARGET_URL, e.g. sqlite:///errata.db to postgresql://host/errata."""
    from app import migrate
    from app.services.interchange.transfer import TargetNotEmpty, copy_database

    source_settings, target_settings = Settings(database_url=source_url), Settings(database_url=target_url)
    for settings in (source_settings, target_settings):
        migrate.upgrade(settings)
    source, target = make_engine(source_settings), make_engine(target_settings)
    try:
        copied = copy_database(source, target, progress=lambda table, n: click.echo(f"{table}: {n} rows"))
    except TargetNotEmpty as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        source.dispose()
        target.dispose()
    click.echo(f"{sum(copied.values())} rows in {len(copied)} tables copied; search index rebuilt")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--run/--no-run", "run_scripts", default=True, help="Run the reproduction scripts.")
@click.option("--jobs", default=2, show_default=True, type=click.IntRange(1, 16))
def verify(paths: tuple[Path, ...], run_scripts: bool, jobs: int) -> None:
    """Check shipped entries (default: all of the data folder) and run their reproductions."""
    from app.services.verification.shipped import verify as verify_entries

    settings = _settings(database=False)
    if settings.data_dir is None or not settings.data_dir.is_dir():
        raise click.UsageError("ERRATA_DATA_DIR names no folder of entries")
    results = verify_entries(
        settings.data_dir,
        paths,
        run_scripts=run_scripts,
        jobs=jobs,
        progress=lambda runs: tqdm(runs, desc="reproduce", unit="script", disable=None, leave=False),
    )
    for result in results:
        how = "+".join(sorted(result.methods)) or "unverified"
        ran = f", ran in {result.seconds:.1f} s" if result.seconds else ""
        click.echo(f"{'ok  ' if result.ok else 'FAIL'} {result.id} ({how}{ran})")
        for problem in result.problems:
            click.echo("       " + problem.replace("\n", "\n         "))
    failed = sum(not r.ok for r in results)
    click.echo(f"{len(results)} entries: {len(results) - failed} ok, {failed} with problems")
    sys.exit(1 if failed else 0)


@main.command()
def mcp() -> None:
    """Serve the MCP server over stdio, on the local database (for a coding agent)."""
    from app import migrate
    from app.agents.transports import run_stdio

    settings = _settings()
    migrate.upgrade(settings)
    run_stdio(settings)


def _lookup_options(command):
    """What `lookup` and `run` share: where to look, in which language, how many matches."""
    options = [
        click.option("--url", help="A remote errata (https://errata.example) instead of the local database."),
        click.option(
            "--lang", type=click.Choice(["en", "zh"]), help="Default: from LC_ALL, LC_MESSAGES, LANG."
        ),
        click.option("--limit", default=3, show_default=True, type=click.IntRange(1, 10)),
        click.option("--versions", default="", help="Versions you run: 'vllm 0.4.2, cuda 12.1'."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def _answer(text: str, url: str | None, lang: str | None, limit: int, versions: str):
    import os

    from pydantic import TypeAdapter, ValidationError

    from app.agents.terminal import find_answer, terminal_lang
    from app.schemas.api import Versions
    from app.services.answers.remote import RemoteError

    try:
        parsed = TypeAdapter(Versions).validate_python(_parse_versions(versions))
    except ValidationError as exc:
        raise click.BadParameter(exc.errors()[0]["msg"], param_hint="--versions") from None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--versions") from None
    lang = lang or terminal_lang(os.environ)
    try:
        return find_answer(
            text,
            lang=lang,
            limit=limit,
            versions=parsed or None,
            url=url,
            settings=_settings(database=url is None),
        )
    except RemoteError as exc:
        raise click.ClickException(str(exc)) from None


def _parse_versions(text: str) -> dict[str, str]:
    from app.routers.evidence import parse_versions

    return parse_versions(text)


@main.command()
@click.argument("file", required=False, type=click.File("r", encoding="utf-8", errors="replace"))
@_lookup_options
@click.option("--json", "as_json", is_flag=True, help="The answer as JSON.")
@click.option("--md", "as_md", is_flag=True, help="The answer as Markdown.")
def lookup(file, url, lang, limit, versions, as_json, as_md) -> None:
    """Look up a pasted error (from FILE, or standard input): the best matches, the
    workaround to try with its command, and the dead ends to avoid. Exit 1 when nothing matches."""
    from app.render.answer import answer_markdown, answer_text
    from app.schemas.api import MAX_PASTE_BYTES

    if as_json and as_md:
        raise click.UsageError("choose one of --json and --md")
    stream = file or click.get_text_stream("stdin", errors="replace")
    text = stream.read(MAX_PASTE_BYTES + 1)
    if len(text) > MAX_PASTE_BYTES:  # the end of a log holds the error
        text = text[-MAX_PASTE_BYTES:]
    if not text.strip():
        raise click.UsageError("nothing to look up: paste an error on standard input or name a file")
    found = _answer(text, url, lang, limit, versions)
    if as_json:
        click.echo(found.model_dump_json(indent=2))
    else:
        click.echo(answer_markdown(found) if as_md else answer_text(found), nl=False)
    sys.exit(0 if found.matches else 1)


@main.command(context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False})
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
@_lookup_options
def run(command, url, lang, limit, versions) -> None:
    """Run COMMAND with its output unchanged; when it fails, look its error up and print
    the answer after it (on standard error). Exits with COMMAND's status.

    \b
    errata run -- pip install torch==1.0
    """
    from app.agents.terminal import run_command
    from app.render.answer import answer_text

    try:
        finished = run_command(list(command))
    except FileNotFoundError:
        click.echo(f"errata: {command[0]}: command not found", err=True)
        sys.exit(127)
    except PermissionError:
        click.echo(f"errata: {command[0]}: permission denied", err=True)
        sys.exit(126)
    # Errors go to stderr by convention; some tools print them on stdout instead.
    pastes = [text for text in (finished.stderr, finished.stdout) if text.strip()]
    if finished.status != 0 and pastes:
        try:
            found = _answer(pastes[0], url, lang, limit, versions)
            if not found.matches and len(pastes) > 1:
                found = _answer(pastes[1], url, lang, limit, versions)
            click.echo("\n" + answer_text(found), err=True, nl=False)
        except click.ClickException as exc:
            click.echo(f"\nerrata: {exc.message}", err=True)
    sys.exit(finished.status)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def dump(file: Path) -> None:
    """Write every canonical entry to FILE as NDJSON (gzip when FILE ends in .gz), after a
    header line with the licence and credit of each source."""
    import gzip

    from app.db import read_session
    from app.services.opendata.dump import write_dump
    from app.services.opendata.figures import data_version
    from app.services.opendata.sources import known_sources

    settings = _settings()
    engine = make_engine(settings)
    sources = known_sources(settings.content_licence)
    file.parent.mkdir(parents=True, exist_ok=True)
    with read_session(engine) as session, file.open("wb") as raw:
        out = gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) if file.suffix == ".gz" else raw
        with out:
            count = write_dump(session, out, sources, data_version(session), settings.public_url)
    click.echo(f"{count} entries written to {file}")
