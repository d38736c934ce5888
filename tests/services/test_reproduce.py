"""Reproduction scripts run for real: an empty folder, declared tools, a timeout, a sandbox;
and `errata verify` holds each entry against what its script printed."""

import os
import shutil
import textwrap
from pathlib import Path

import pytest
import yaml

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
    assert script.timeout == 300  # at most five minutes, as docs/data-format.md says
    assert _script(tmp_path, "# what it does\ngit --version\n").timeout == 120  # and two by default


def test_headers_may_follow_a_shebang_line(tmp_path):
    script = _script(
        tmp_path, "#!/usr/bin/env bash\n# requires: no-such-tool-errata\n# timeout: 5\necho ran\n"
    )
    assert (script.requires, script.timeout) == (("no-such-tool-errata",), 5)
    assert reproduce.run(script).missing == ("no-such-tool-errata",)


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


@pytest.fixture
def bare_path(tmp_path, monkeypatch) -> Path:
    """A PATH of bash alone (and the venv, which run() puts first): whether namespaces can
    be had is found out again under it, and again after it."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "bash").symlink_to(shutil.which("bash"))
    monkeypatch.setenv("PATH", str(folder))
    reproduce.can_sandbox.cache_clear()
    yield folder
    reproduce.can_sandbox.cache_clear()


def test_without_unshare_a_script_still_runs_unsandboxed(tmp_path, bare_path):
    assert not reproduce.can_sandbox()
    run = reproduce.run(_script(tmp_path, "echo ran\n"))
    assert (run.output, run.sandboxed) == ("ran\n", False)


def test_an_unshare_that_cannot_be_executed_means_no_sandbox(tmp_path, bare_path):
    # As a binary for another machine would: the kernel refuses to execute it.
    fake = bare_path / "unshare"
    fake.write_bytes(b"\x7fELF not for this machine")
    fake.chmod(0o755)
    assert not reproduce.can_sandbox()
    run = reproduce.run(_script(tmp_path, "echo ran\n"))
    assert (run.output, run.sandboxed) == ("ran\n", False)


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


# `errata verify` over a small data folder of its own: the real importer, migrations and
# lookup, and scripts that print (or fail to print) each entry's error.


def _entry(folder: Path, name: str, word: str, *, reproduced: bool = True, script: str | None = None) -> Path:
    """An entry whose error is "<Word>Error: cannot <word> widget 42", in both languages."""
    doc = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    error = f"{word.title()}Error"
    signature, variant = f"{error}: cannot {word} widget 42", f"{error}：无法{word}小部件 42"
    doc.update(
        id=f"demo/{word}",
        title={"en": f"Widget {word} fails", "zh": f"小部件{word}失败"},
        signature=signature,
        patterns=[f"{error}: cannot {word} widget \\d+", f"{error}：无法{word}小部件 \\d+"],
    )
    del doc["related"]
    doc["variants"][0]["text"] = doc["verification"][1]["text"] = variant
    doc["verification"][0]["text"] = signature
    if not reproduced:
        doc["verification"][0].update(method="sourced", command=None, url="https://example.org/src/main.c#L7")
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    if script is not None:
        (folder / f"{name}.repro.sh").write_text(script, encoding="utf-8")
    return path


@pytest.fixture
def data(tmp_path) -> Path:
    folder = tmp_path / "data" / "demo"
    # The slow script comes first: each verdict must still be that of its own script. Its
    # file name has a dot of its own: the script beside it is frob-2.4.repro.sh.
    _entry(folder, "frob-2.4", "frob", script="sleep 0.3; echo 'FrobError: cannot frob widget 7'\n")
    _entry(folder, "jam", "jam", script="echo 'widget 7 is fine'\n")
    _entry(folder, "spin", "spin", reproduced=False, script="echo 'SpinError: cannot spin widget 7'\n")
    _entry(folder, "fold", "fold")
    _entry(folder, "plain", "plain", reproduced=False)
    (folder / "broken.yaml").write_text("id: demo/broken\n", encoding="utf-8")
    return folder.parent


def _verdicts(results) -> dict[str, tuple]:
    return {r.id: (r.ok, r.problems, r.has_script, r.reproduced, r.patterns_on_output) for r in results}


def test_verify_runs_each_reproduction_and_names_what_is_wrong(data):
    results = verify(data, jobs=2)
    assert _verdicts(results) == {
        "broken": (False, ["domain: Field required"], False, False, False),
        "demo/fold": (
            False,
            ["a wording is marked reproduced but fold.repro.sh is missing"],
            False,
            False,
            False,
        ),
        "demo/frob": (True, [], True, True, True),
        "demo/jam": (
            False,
            [
                "the reproduction did not print 'JamError: cannot jam widget 42'",
                "no pattern matches the reproduction's output",
                "looking the output up finds nothing first",
                "output ended with:\nwidget 7 is fine",
            ],
            True,
            False,
            False,
        ),
        "demo/plain": (True, [], False, False, False),
        "demo/spin": (
            False,
            ["spin.repro.sh exists but no wording is marked reproduced"],
            True,
            False,
            False,
        ),
    }
    seconds = {r.id: r.seconds for r in results}
    # Only scripts that ran took time (`errata verify` prints it for them alone).
    assert seconds["demo/frob"] >= 0.3 and seconds["demo/jam"] > 0
    assert {i: s for i, s in seconds.items() if i not in ("demo/frob", "demo/jam")} == dict.fromkeys(
        ("broken", "demo/fold", "demo/plain", "demo/spin"), 0.0
    )


def test_verify_checks_only_the_files_named_even_outside_the_data(data, tmp_path):
    outside = _entry(tmp_path / "elsewhere", "tilt", "tilt", reproduced=False)
    results = verify(data, [outside, data / "demo" / "jam.yaml"], run_scripts=False)
    # Without --run the reproduction is not run: jam's static checks pass, nothing is reproduced.
    assert _verdicts(results) == {
        "demo/jam": (True, [], True, False, False),
        "demo/tilt": (True, [], False, False, False),
    }
    assert [r.path for r in results] == [data / "demo" / "jam.yaml", outside]
    assert [r.seconds for r in results] == [0.0, 0.0]


@pytest.mark.parametrize("jobs", [0, 1])
def test_one_job_runs_the_reproductions_one_at_a_time(tmp_path, jobs):
    log = tmp_path / "log"
    for word in ("fold", "spin"):
        script = f"echo start {word} >> {log}; sleep 0.3; echo end {word} >> {log}\n"
        _entry(
            tmp_path / "data" / "demo",
            word,
            word,
            script=script + f"echo '{word.title()}Error: cannot {word} widget 7'\n",
        )
    assert [r.ok for r in verify(tmp_path / "data", jobs=jobs)] == [True, True]
    assert log.read_text().split("\n") == ["start fold", "end fold", "start spin", "end spin", ""]
