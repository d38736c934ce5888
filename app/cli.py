"""The `errata` command line."""

import sys
from pathlib import Path

import click
from tqdm import tqdm

from app import preflight
from app.config import Settings
from app.db import make_engine


def _settings(database: bool = True) -> Settings:
    """Settings known to work: a configuration error ends the command with one message."""
    try:
        settings = preflight.load_settings()
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
@click.option("--workers", default=1, show_default=True, type=int)
def serve(host: str, port: int, workers: int) -> None:
    """Migrate the database if needed, load the shipped data, and serve."""
    import uvicorn

    from app import migrate
    from app.services.interchange.importer import import_paths

    try:
        preflight.check_port(host, port)
    except preflight.ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    settings = _settings()
    migrate.upgrade(settings)
    if settings.data_dir and settings.data_dir.is_dir():
        engine = make_engine(settings)
        report = import_paths(engine, [settings.data_dir])
        engine.dispose()
        click.echo(
            f"shipped data: {report.created} created, {report.updated} updated, "
            f"{report.unchanged} unchanged, {report.failed} failed"
        )
        for failure in report.failures:
            click.echo(f"  {failure}", err=True)
    uvicorn.run("app.main:create_app", factory=True, host=host, port=port, workers=workers)


@main.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
def import_command(paths: tuple[Path, ...]) -> None:
    """Load entry files (YAML or deadends.dev canon JSON), idempotently."""
    from app import migrate
    from app.services.interchange.importer import import_paths

    settings = _settings()
    migrate.upgrade(settings)
    engine = make_engine(settings)
    report = import_paths(
        engine,
        paths,
        progress=lambda files: tqdm(files, desc="import", unit="file", disable=None),
    )
    for failure in report.failures:
        click.echo(f"error: {failure}", err=True)
    click.echo(
        f"{report.created} created, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.failed} failed"
    )
    sys.exit(1 if report.failed else 0)


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
    """Write a consistent copy of the live SQLite database to FILE."""
    from app.backends import sqlite as sqlite_backend

    settings = _settings()
    if not settings.database_url.startswith("sqlite"):
        raise click.UsageError("backup copies SQLite databases; use your server's tools otherwise")
    engine = make_engine(settings)
    sqlite_backend.backup(engine, file)
    click.echo(f"backup written to {file}")


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
