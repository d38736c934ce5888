"""The `errata` command as a user runs it: real processes, real files."""

import importlib.util
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from sqlalchemy import make_url

from tests.conftest import CANON_MALFORMED, CANON_VALID, DEMO_ENTRIES, database_url
from tests.server import serving

ERRATA = str(Path(sys.executable).with_name("errata"))


def run(*args: str, db: Path | str, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "ERRATA_DATABASE_URL": database_url(db)}
    return subprocess.run([ERRATA, *args], env=env, capture_output=True, text=True, timeout=120, **kwargs)


def test_import_reports_a_summary_and_fails_loudly_on_bad_files(tmp_path, new_database):
    db = new_database()
    ok = run("import", str(DEMO_ENTRIES), str(CANON_VALID), db=db)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip().endswith("4 created, 0 updated, 0 unchanged, 0 failed")
    again = run("import", str(DEMO_ENTRIES), db=db)
    assert again.stdout.strip().endswith("0 created, 0 updated, 3 unchanged, 0 failed")
    bad = run("import", str(CANON_MALFORMED), db=db)
    assert bad.returncode == 1
    assert f"error: {CANON_MALFORMED / 'wrong-type.json'}: verdict.fix_success_rate:" in bad.stderr
    assert bad.stdout.strip().endswith("0 created, 0 updated, 0 unchanged, 6 failed")
    missing = run("import", str(tmp_path / "nowhere"), db=db)
    assert missing.returncode == 2


@pytest.mark.sqlite_only  # PostgreSQL's backup: tests/test_postgres.py
def test_export_db_upgrade_and_backup(tmp_path):
    db = tmp_path / "errata.db"
    assert run("import", str(DEMO_ENTRIES), db=db).returncode == 0
    exported = run("export", str(tmp_path / "out"), db=db)
    assert exported.returncode == 0 and "3 entries written" in exported.stdout
    assert (tmp_path / "out" / "demo" / "full-bilingual.yaml").exists()
    assert run("db", "upgrade", db=db).returncode == 0
    backup = run("backup", str(tmp_path / "copy.db"), db=db)
    assert backup.returncode == 0
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM entry").fetchone()[0] == 3
    reindexed = run("reindex", db=db)
    assert reindexed.returncode == 0 and "3 entries indexed" in reindexed.stdout


def test_merge_and_unmerge_say_where_every_alias_went(new_database):
    db = new_database()
    assert run("import", str(DEMO_ENTRIES), str(CANON_VALID), db=db).returncode == 0
    full, missing, widget = "demo/full-bilingual", "demo/zh-missing", "tooling/widget-crash/widget2-linux"
    assert run("merge", missing, full, db=db).stdout == f"merge: {missing} -> {full}\n"
    along = run("merge", full, widget, "--reason", "same crash", db=db)
    assert along.stdout == f"merge: {full} -> {widget}\n  alias {missing} now points to {widget}\n"
    back = run("unmerge", full, db=db)
    assert back.stdout == f"unmerge: {full} -> {widget}\n  alias {missing} now points to {full}\n"
    refused = run("unmerge", full, db=db)
    assert (
        refused.returncode == 1
        and refused.stderr == f"Error: from: {full} is not merged into another entry\n"
    )


def test_help_lists_every_command(tmp_path):
    text = run("--help", db=tmp_path / "x.db").stdout
    for command in ("serve", "import", "export", "db", "backup", "reindex"):
        assert command in text


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def configuration_error(*args: str, url: str, **env: str) -> str:
    """Runs errata with a broken configuration: it must fail with a short message, no traceback."""
    full_env = {**os.environ, "ERRATA_DATABASE_URL": url, **env}
    done = subprocess.run([ERRATA, *args], env=full_env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr + done.stdout
    lines = done.stderr.strip().splitlines()
    assert 1 <= len(lines) <= 2, done.stderr
    return done.stderr


def test_configuration_errors_say_what_is_wrong_in_a_line(tmp_path):
    (tmp_path / "a-file").write_text("")
    unwritable = f"sqlite:///{tmp_path / 'a-file' / 'errata.db'}"
    assert "is not a folder" in configuration_error("serve", "--port", str(_free_port()), url=unwritable)
    assert "/proc/errata.db" in configuration_error("db", "upgrade", url="sqlite:////proc/errata.db")
    assert "is a folder" in configuration_error("import", str(DEMO_ENTRIES), url=f"sqlite:///{tmp_path}")
    assert "not a database URL" in configuration_error("reindex", url="errata.db")
    assert "mysqlclient" in configuration_error("export", str(tmp_path / "out"), url="mysql://u@localhost/e")
    assert "cannot use (nosuch)" in configuration_error(
        "serve", "--port", str(_free_port()), url="nosuch://x"
    )
    unreachable = f"postgresql://errata:secret@127.0.0.1:{_free_port()}/errata"
    message = configuration_error("serve", "--port", str(_free_port()), url=unreachable)
    driver = make_url(unreachable).get_dialect().driver
    expected = "cannot connect" if importlib.util.find_spec(driver) else f"({driver}) is not installed"
    assert expected in message and "secret" not in message
    good = f"sqlite:///{tmp_path / 'errata.db'}"
    assert "ERRATA_RATE_LIMIT" in configuration_error("reindex", url=good, ERRATA_RATE_LIMIT="many")
    assert "1 to 65535" in configuration_error("serve", "--port", "99999", url=good)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert f"port {port} on 127.0.0.1 is in use" in configuration_error("serve", "--port", port, url=good)
    serve = ("serve", "--port", str(_free_port()))
    for variable, value, said in [
        ("ERRATA_ENTRY_CACHE_MB", "-1", "ERRATA_ENTRY_CACHE_MB: Input should be greater than or equal to 0"),
        (
            "ERRATA_RATE_LIMIT_WINDOW",
            "0",
            "ERRATA_RATE_LIMIT_WINDOW: Input should be greater than or equal to 1",
        ),
        ("ERRATA_PUBLIC_URL", "errata.example", "ERRATA_PUBLIC_URL: Value error, must be an address such as"),
        ("ERRATA_PUBLIC_URL", "ftp://errata.example", "ERRATA_PUBLIC_URL: Value error"),
        (
            "ERRATA_DATA_DIR",
            str(tmp_path / "no-entries-here"),
            "is not a folder; point it at a folder of entries",
        ),
    ]:
        assert said in configuration_error(*serve, url=good, **{variable: value}), variable
    # Nothing was written while the configuration was wrong.
    assert not (tmp_path / "errata.db").exists() and not (tmp_path / "out").exists()


def test_an_empty_data_folder_setting_loads_nothing_rather_than_the_current_folder(tmp_path):
    """`ERRATA_DATA_DIR=` is documented as "load none"; as a path it would be the folder the
    command runs in, and every YAML and JSON file under it would be imported."""
    (tmp_path / "notes.yaml").write_text("id: demo/not-an-entry\n")
    env = {**os.environ, "ERRATA_DATA_DIR": "", "ERRATA_DUMP_DIR": " ", "ERRATA_PUBLIC_URL": ""}
    probe = "from app.config import Settings; s = Settings(); print(s.data_dir, s.dump_dir, s.public_url)"
    shown = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=tmp_path, capture_output=True, text=True
    )
    assert shown.stdout == "None None None\n", shown.stderr
    # The suite runs in the checkout, whose data/ and fixtures are entries: none is loaded.
    with serving(tmp_path / "errata.db", workers=1, ERRATA_DATA_DIR="") as (base, _):
        assert httpx.get(f"{base}/api/v1/errors").json()["count"] == 0
