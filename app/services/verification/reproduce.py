"""Running an entry's reproduction script: the real tool, an empty folder, no network.

A script is plain bash beside its entry. Comment lines at its top declare what it needs:

    # requires: git psql        commands that must be on PATH (a missing one is named)
    # timeout: 60               seconds, default 120, at most 300

and may source the functions in `data/_lib/` through `$REPRO_LIB`.

It runs with an empty temporary folder as working directory and HOME, `LC_ALL=C.UTF-8`,
the project's virtual environment first on PATH, and, where the kernel allows (as root),
in its own network, PID and mount namespaces: nothing it starts can reach the network
or outlive it. Its standard output and error, together, are what it printed.
"""

import contextlib
import functools
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

SUFFIX = ".repro.sh"
LIBRARY = "_lib"  # beside the domain folders of data/
DEFAULT_TIMEOUT = 120
MAX_TIMEOUT = 300
MAX_OUTPUT = 1 << 20
_HEADER = re.compile(r"^#\s*(requires|timeout):\s*(.*?)\s*$")
_SANDBOX = ("unshare", "--net", "--pid", "--fork", "--mount-proc", "--kill-child")


@dataclass(frozen=True)
class Script:
    path: Path
    requires: tuple[str, ...] = ()
    timeout: int = DEFAULT_TIMEOUT


@dataclass(frozen=True)
class Run:
    output: str
    seconds: float
    missing: tuple[str, ...] = ()  # required commands not on PATH: the script was not run
    timed_out: bool = False
    sandboxed: bool = True


def script_path(entry_file: Path) -> Path:
    """data/git/foo.yaml -> data/git/foo.repro.sh"""
    return entry_file.with_name(entry_file.name.rsplit(".", 1)[0] + SUFFIX)


def read_script(path: Path) -> Script:
    requires: tuple[str, ...] = ()
    timeout = DEFAULT_TIMEOUT
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#!"):
            continue
        if not line.startswith("#"):
            break
        header = _HEADER.match(line)
        if header and header.group(1) == "requires":
            requires = tuple(header.group(2).split())
        elif header and header.group(2).isdigit():
            timeout = min(int(header.group(2)), MAX_TIMEOUT)
    return Script(path=path, requires=requires, timeout=timeout)


def _search_path() -> str:
    """The venv first (its python has the libraries), then the system; Debian keeps the
    PostgreSQL server programs (initdb, pg_ctl) off PATH, under /usr/lib/postgresql/N/bin."""
    parts = [str(Path(sys.executable).parent), os.environ.get("PATH", "/usr/local/bin:/usr/bin:/bin")]
    servers = [p for p in Path("/usr/lib/postgresql").glob("*/bin") if p.parent.name.isdigit()]
    parts += [str(p) for p in sorted(servers, key=lambda p: int(p.parent.name))[-1:]]
    return ":".join(parts)


def _environment(work: Path, script: Path) -> dict[str, str]:
    home = work / "home"
    home.mkdir()
    return {
        "PATH": _search_path(),
        # Shell functions scripts share (a throwaway database server, say): data/_lib/.
        "REPRO_LIB": str(script.resolve().parent.parent / LIBRARY),
        "HOME": str(home),
        "TMPDIR": str(work),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HF_HUB_DISABLE_TELEMETRY": "1",
        "npm_config_update_notifier": "false",
        "npm_config_fund": "false",
        "npm_config_audit": "false",
    }


@functools.cache
def can_sandbox() -> bool:
    """Whether namespaces are available here (root on Linux; CI runs as root)."""
    if shutil.which("unshare") is None:
        return False
    try:
        done = subprocess.run([*_SANDBOX, "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def run(script: Script) -> Run:
    with tempfile.TemporaryDirectory(prefix="errata-repro-") as folder:
        work = Path(folder)
        env = _environment(work, script.path)
        missing = tuple(c for c in script.requires if shutil.which(c, path=env["PATH"]) is None)
        if missing:
            return Run(output="", seconds=0.0, missing=missing)
        # World-readable, so a script may hand it to an unprivileged user (PostgreSQL refuses root).
        work.chmod(0o755)
        sandboxed = can_sandbox()
        command = [*(_SANDBOX if sandboxed else ()), "bash", str(script.path.resolve())]
        started = time.monotonic()
        process = subprocess.Popen(
            command,
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        timed_out = False
        try:
            raw, _ = process.communicate(timeout=script.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(process.pid, signal.SIGKILL)
            raw, _ = process.communicate()
        finally:
            # Without namespaces, whatever the script left behind in its group goes now.
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        return Run(
            output=raw[:MAX_OUTPUT].decode("utf-8", errors="replace"),
            seconds=time.monotonic() - started,
            timed_out=timed_out,
            sandboxed=sandboxed,
        )
