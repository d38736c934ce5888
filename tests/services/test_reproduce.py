"""Reproduction scripts run for real: an empty folder, declared tools, a timeout, a sandbox."""

import os
import textwrap
from pathlib import Path

import pytest

from app.services.verification import reproduce
from app.services.verification.shipped import verify
from tests.conftest import DEMO_ENTRIES


def _script(tmp_path, body: str, name: str = "case.repro.sh") -> reproduce.Script:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).lstrip(), encoding="utf-8")
    return reproduce.read_script(path)


def test_headers_declare_tools_and_timeout(tmp_path):
    script = _script(tmp_path, "# requires: git  sqlite3\n# timeout: 999\n# what it does\ngit --version\n")
    assert script.requires == ("git", "sqlite3")
    assert script.timeout == reproduce.MAX_TIMEOUT


def test_script_runs_in_an_empty_folder_with_its_own_home(tmp_path):
    run = reproduce.run(_script(tmp_path, 'ls -A; echo "home=$HOME pwd=$PWD lang=$LC_ALL"\n'))
    lines = run.output.strip().splitlines()
    assert lines[0] == "home"  # the folder holds nothing but HOME
    home, pwd, lang = (part.split("=", 1)[1] for part in lines[1].split())
    assert home == f"{pwd}/home" and lang == "C.UTF-8"
    assert not os.path.exists(pwd), "the folder is removed afterwards"


def test_output_joins_stdout_and_stderr(tmp_path):
    run = reproduce.run(_script(tmp_path, "echo out; echo err >&2; python -c 'import sys; sys.exit(3)'\n"))
    assert run.output.split() == ["out", "err"] and not run.timed_out


def test_a_missing_tool_is_named_and_nothing_runs(tmp_path):
    run = reproduce.run(_script(tmp_path, "# requires: git no-such-tool-errata\ntouch /tmp/ran\n"))
    assert run.missing == ("no-such-tool-errata",) and run.output == ""


def test_a_script_past_its_timeout_is_killed(tmp_path):
    run = reproduce.run(_script(tmp_path, "# timeout: 1\necho started; sleep 30\n"))
    assert run.timed_out and run.seconds < 15 and "started" in run.output


@pytest.mark.skipif(not reproduce.can_sandbox(), reason="namespaces need root (CI runs as root)")
def test_sandbox_has_no_network_and_leaves_nothing_running(tmp_path):
    marker = tmp_path / "pid"
    body = f"""
        (sleep 317 & echo $! > {marker}) ; setsid sleep 317 &
        python - <<'PY'
        import socket
        try:
            socket.create_connection(("1.1.1.1", 53), timeout=3)
            print("network: reachable")
        except OSError as exc:
            print("network:", exc)
        PY
        """
    run = reproduce.run(_script(tmp_path, body))
    assert run.sandboxed and "network: reachable" not in run.output
    assert "Network is unreachable" in run.output
    # The daemonised sleeps died with the sandbox's PID namespace.
    assert not any(b"sleep\x00317" in _cmdline(p) for p in Path("/proc").iterdir() if p.name.isdigit())


def _cmdline(process: Path) -> bytes:
    try:
        return (process / "cmdline").read_bytes()
    except OSError:  # gone meanwhile
        return b""


def test_errata_verify_checks_the_entries_named_or_else_all():
    everything = verify(DEMO_ENTRIES, run_scripts=False)
    assert [r.id for r in everything] == ["demo/cjk-only", "demo/full-bilingual", "demo/zh-missing"]
    named = verify(DEMO_ENTRIES, [DEMO_ENTRIES / "demo" / "cjk-only.yaml"], run_scripts=False)
    assert [r.id for r in named] == ["demo/cjk-only"]
