"""Configuration checked before anything is written: each problem is one sentence that
says what is wrong and how to fix it, for the command line to print instead of a traceback."""

import errno
import os
import socket
import sqlite3
from pathlib import Path

from pydantic import ValidationError
from sqlalchemy import create_engine, make_url
from sqlalchemy.engine import URL
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from app.backends import sqlite as sqlite_backend
from app.config import Settings

# The package that brings a driver module, for the drivers SQLAlchemy's URLs name most.
_INSTALL = {
    "psycopg": "pip install 'psycopg[binary]'",
    "psycopg2": "pip install psycopg2-binary",
    "MySQLdb": "pip install mysqlclient",
    "pymysql": "pip install PyMySQL",
}


class ConfigError(Exception):
    """A configuration that cannot work; the message is meant for the person running errata."""


def load_settings() -> Settings:
    try:
        return Settings()
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = "ERRATA_" + str(problem["loc"][0]).upper()
        raise ConfigError(f"{name}: {problem['msg']}; fix or unset the variable") from None


def check_port(host: str, port: int) -> None:
    """The address `serve` will listen on is free; it is released again at once."""
    if not 1 <= port <= 65535:
        raise ConfigError(f"--port {port} is not a port; use a number from 1 to 65535")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise ConfigError(f"--host {host} is not an address of this machine; try 127.0.0.1") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by a stopped server is not "in use".
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ConfigError(
                    f"port {port} on {host} is in use; stop what listens there or choose another --port"
                ) from None
            raise ConfigError(
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another --host or --port"
            ) from None


def check_data_dir(settings: Settings) -> None:
    """The folder of entries `serve` loads exists (unset or empty loads none)."""
    if settings.data_dir is not None and not settings.data_dir.is_dir():
        raise ConfigError(
            f"ERRATA_DATA_DIR ({settings.data_dir}) is not a folder; "
            "point it at a folder of entries, or set it empty to load none"
        )


def database_url(settings: Settings) -> URL:
    try:
        return make_url(settings.database_url)
    except ArgumentError:
        raise ConfigError(
            f"ERRATA_DATABASE_URL ({settings.database_url!r}) is not a database URL; "
            "write it like sqlite:///errata.db or postgresql://user:password@host/name"
        ) from None


def check_database(settings: Settings) -> None:
    """The database can be opened and written (SQLite) or reached (a server)."""
    url = database_url(settings)
    if url.get_backend_name() == "sqlite":
        path = sqlite_backend.database_path(settings.database_url)
        if path is not None:
            _check_sqlite_file(path)
        return
    shown = url.render_as_string(hide_password=True)
    try:
        engine = create_engine(url)
    except NoSuchModuleError:
        raise ConfigError(
            f"ERRATA_DATABASE_URL names a database errata cannot use ({url.drivername}); "
            "use sqlite:///PATH or postgresql://..."
        ) from None
    except ImportError as exc:
        raise ConfigError(
            f"the Python driver for {url.drivername} ({exc.name}) is not installed; "
            f"install it into errata's environment ({_INSTALL.get(exc.name, 'its driver package')}) "
            "or use SQLite"
        ) from None
    try:
        with engine.connect():
            pass
    except DBAPIError as exc:
        reason = str(exc.orig).strip().splitlines()[0] if exc.orig else "no answer"
        raise ConfigError(
            f"cannot connect to the database {shown}: {reason}; "
            "start the server or correct ERRATA_DATABASE_URL"
        ) from None
    finally:
        engine.dispose()


def _check_sqlite_file(path: Path) -> None:
    fix = "point ERRATA_DATABASE_URL at a file in a folder you can write, e.g. sqlite:///errata.db"
    existing = path.parent
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ConfigError(f"cannot create the SQLite database {path}: {existing} is not a folder; {fix}")
    if path.is_dir():
        raise ConfigError(f"the SQLite database {path} is a folder; {fix}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Opening for writing is what the server will do; a read-only file or folder fails here.
        connection = sqlite3.connect(path, timeout=5)
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
        finally:
            connection.close()
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc):
            return  # another process is writing: the file is writable
        raise ConfigError(f"cannot write the SQLite database {path}: {exc}; {fix}") from None
    except (OSError, sqlite3.Error) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ConfigError(f"cannot write the SQLite database {path}: {reason}; {fix}") from None
    if not os.access(path, os.W_OK):
        raise ConfigError(f"cannot write the SQLite database {path}: it is read-only; {fix}")
