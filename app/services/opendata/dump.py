"""The NDJSON dump: a header line with the licences, then every canonical entry, one JSON a line.

Each line is the entry's public JSON (the same as /errors/{id}.json: both languages). The
file is written once per data version (at most once a minute) into a cache folder and
served from there; a new version appears atomically, so readers never see half a dump.
"""

import gzip
import hashlib
import os
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import orjson
from sqlalchemy import Engine
from sqlmodel import Session, select

from app import backends
from app.config import Settings
from app.db import read_session
from app.render.formats import entry_json
from app.schemas.views import SCHEMA_VERSION
from app.services.entries.catalog import canonical_entries
from app.services.entries.read import get_entry
from app.services.opendata.figures import data_version, figures
from app.services.opendata.sources import Source, source_of

DUMP_NAME = "errata.ndjson.gz"
MIN_AGE_SECONDS = 60
KEEP_OLD = 2
# One writer per process; the others wait for its file rather than write the same one.
_writing = threading.Lock()
FORMAT = "errata-dump"


def dump_folder(settings: Settings) -> Path:
    """ERRATA_DUMP_DIR, else `dumps/<name>` beside the SQLite file, else a folder for the
    database server's URL in the temporary folder: two bases never share their dumps."""
    if settings.dump_dir is not None:
        return settings.dump_dir
    database = backends.database_file(settings.database_url)
    if database is not None:
        return database.resolve().parent / "dumps" / database.stem
    server = hashlib.blake2b(settings.database_url.encode(), digest_size=8).hexdigest()
    return Path(tempfile.gettempdir()) / "errata-dumps" / server


def header(session: Session, sources: dict[str, Source], version: str, site: str | None) -> dict:
    present = figures(session).by_source
    return {
        "type": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "data_version": version,
        "generated_at": datetime.now(UTC).isoformat(),
        "site": site,
        "about": "One JSON object a line after this one: an entry, as /errors/{id}.json serves it. "
        "An entry's provenance.source names its source below (none: errata's own entries).",
        "sources": [
            {**source_of(name, sources).model_dump(), "entries": n} for name, n in sorted(present.items())
        ],
    }


def write_dump(session: Session, out, sources: dict[str, Source], version: str, site: str | None) -> int:
    """Writes the lines to the binary file `out`; returns how many entries it wrote."""
    out.write(orjson.dumps(header(session, sources, version, site)) + b"\n")
    count = 0
    listed = canonical_entries(session).subquery()
    for entry_id in session.exec(select(listed.c.id).order_by(listed.c.id)).all():
        out.write(orjson.dumps(entry_json(get_entry(session, entry_id))) + b"\n")
        count += 1
        session.expunge_all()  # one entry's rows at a time, whatever the size of the base
    return count


def gzip_dump(
    session: Session, path: Path, sources: dict[str, Source], version: str, site: str | None
) -> int:
    # mtime=0: the same data gives the same bytes.
    with path.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) as out:
        return write_dump(session, out, sources, version, site)


def _cached(folder: Path) -> list[Path]:
    """The dumps in the cache, newest first."""
    return sorted(folder.glob("errata-*.ndjson.gz"), key=lambda p: p.stat().st_mtime, reverse=True)


def _version_of(path: Path) -> str:
    return path.name.removeprefix("errata-").removesuffix(".ndjson.gz")


def cached_dump(
    engine: Engine, folder: Path, sources: dict[str, Source], site: str | None
) -> tuple[Path, str]:
    """The dump of the current data version, written first if the cache holds another one.

    A dump younger than MIN_AGE_SECONDS is served even when the data has moved since (its
    header says which version it is): every report changes the data, and writing the dump
    for each would let anyone keep the server busy by reporting and downloading in turn.
    """
    with _writing, read_session(engine) as session:
        version = data_version(session)
        target = folder / f"errata-{version}.ndjson.gz"
        if target.exists():
            return target, version
        cached = _cached(folder) if folder.is_dir() else []
        if cached and time.time() - cached[0].stat().st_mtime < MIN_AGE_SECONDS:
            return cached[0], _version_of(cached[0])
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".writing-", suffix=".gz")
        os.close(handle)
        try:
            gzip_dump(session, Path(temp), sources, version, site)
            os.replace(temp, target)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
    # Another process may still be sending an older file: keep the last few.
    for old in _cached(folder)[KEEP_OLD + 1 :]:
        old.unlink(missing_ok=True)
    return target, version
