"""`errata lookup` and `errata run` as a developer runs them: real processes, a real
database, and a real server for --url."""

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import database_url
from tests.server import serving

ERRATA = str(Path(sys.executable).with_name("errata"))
PASTE = "fatal: not a git repository (or any of the parent directories): .git\n"
GIT_ID = "git/not-a-git-repository"
# A shell script that prints on both streams and fails like git does.
FAILING = f"echo building; printf '%s' '{PASTE.strip()}' >&2; exit 128"


@pytest.fixture
def db(shipped_database) -> Path | str:
    return shipped_database


def errata(*args: str, db: Path | str, lang: str = "C.UTF-8", **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update({"ERRATA_DATABASE_URL": database_url(db), "LANG": lang})
    return subprocess.run([ERRATA, *args], env=env, capture_output=True, text=True, timeout=120, **kwargs)


def test_lookup_reads_a_paste_and_prints_the_answer(db, tmp_path):
    text = errata("lookup", db=db, input="Traceback (most recent call last):\n" + PASTE)
    assert text.returncode == 0, text.stderr
    first = text.stdout.splitlines()[2]
    assert first.startswith("1. ") and f"[{GIT_ID}]" in first
    assert "Try: " in text.stdout and "$ " in text.stdout and "Avoid: " in text.stdout

    paste = tmp_path / "paste.txt"
    paste.write_text(PASTE)
    as_json = errata("lookup", str(paste), "--json", "--limit", "1", db=db)
    answer = json.loads(as_json.stdout)
    top = answer["matches"][0]
    assert answer["lang"] == "en" and len(answer["matches"]) == 1 and top["id"] == GIT_ID
    assert top["best_workaround"]["command"].splitlines()[0] in text.stdout
    assert top["dead_ends"] and all(d["fail_rate"] >= 0.5 for d in top["dead_ends"])

    as_md = errata("lookup", str(paste), "--md", db=db)
    assert as_md.stdout.startswith("## 1. [") and "```sh\n" in as_md.stdout


def test_lookup_speaks_the_terminal_language(db):
    zh = errata("lookup", db=db, lang="zh_CN.UTF-8", input=PASTE)
    assert zh.returncode == 0
    assert "试试：" in zh.stdout and "修复率" in zh.stdout and "避免：" in zh.stdout
    forced = errata("lookup", "--lang", "en", db=db, lang="zh_CN.UTF-8", input=PASTE)
    assert "Try: " in forced.stdout and "试试" not in forced.stdout


def test_lookup_says_when_nothing_matches(db):
    nothing = errata("lookup", db=db, input="everything went fine today\n")
    assert nothing.returncode == 1
    assert nothing.stdout.strip() == "No entry in errata matches this error."
    zh = errata("lookup", "--json", db=db, lang="zh_CN.UTF-8", input="everything went fine today\n")
    assert zh.returncode == 1 and json.loads(zh.stdout) == {"lang": "zh", "matches": []}
    empty = errata("lookup", db=db, input="  \n")
    assert empty.returncode == 2 and "nothing to look up" in empty.stderr
    bad = errata("lookup", "--versions", "git", db=db, input=PASTE)
    assert bad.returncode == 2 and "--versions" in bad.stderr


def test_run_passes_output_through_and_answers_a_failure(db):
    failed = errata("run", "--", "sh", "-c", FAILING, db=db)
    assert failed.returncode == 128
    assert failed.stdout == "building\n"  # stdout untouched: nothing added
    assert failed.stderr.startswith(PASTE.strip())  # the command's own error first
    answer = failed.stderr[len(PASTE.strip()) :]
    assert f"[{GIT_ID}]" in answer and "Try: " in answer

    ok = errata("run", "--", "sh", "-c", "echo fine; echo note >&2", db=db)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "fine\n", "note\n")

    unknown = errata("run", "--", "sh", "-c", "echo 'something odd' >&2; exit 3", db=db)
    assert unknown.returncode == 3
    assert unknown.stderr == "something odd\n\nNo entry in errata matches this error.\n"

    # Options after the command belong to the command.
    passed = errata("run", "--", "sh", "-c", 'echo "$1"', "sh", "--json", db=db)
    assert passed.stdout == "--json\n"


def test_run_keeps_the_status_of_a_signal_and_of_a_missing_command(db):
    killed = errata("run", "--", "sh", "-c", "kill -TERM $$", db=db)
    assert killed.returncode == 128 + 15
    missing = errata("run", "--", "no-such-command-anywhere", db=db)
    assert missing.returncode == 127 and "command not found" in missing.stderr


def test_run_streams_and_bounds_what_it_keeps(db, tmp_path):
    """Several MB pass through byte for byte; the lookup reads only the tail."""
    big = tmp_path / "big.txt"
    big.write_bytes(b"".join(b"line %d of noise\n" % i for i in range(300_000)))
    script = f"cat {big}; cat {big} >&2; printf '%s' '{PASTE.strip()}' >&2; exit 1"
    result = subprocess.run(
        [ERRATA, "run", "--", "sh", "-c", script],
        env={**os.environ, "ERRATA_DATABASE_URL": database_url(db), "LANG": "C.UTF-8"},
        capture_output=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert result.stdout == big.read_bytes()
    assert result.stderr.startswith(big.read_bytes() + PASTE.strip().encode())
    assert f"[{GIT_ID}]".encode() in result.stderr[big.stat().st_size :]


@pytest.mark.slow
def test_lookup_and_run_against_a_remote_errata(db, tmp_path):
    local = errata("lookup", "--json", db=db, input=PASTE)
    empty = tmp_path / "empty.db"  # the client's own database stays out of it
    with serving(db, log_dir=tmp_path, ERRATA_DATA_DIR="") as (base, _):
        remote = errata("lookup", "--json", "--url", base, db=empty, input=PASTE)
        assert remote.returncode == 0, remote.stderr
        answer = json.loads(remote.stdout)
        expected = json.loads(local.stdout)
        assert [m["id"] for m in answer["matches"]] == [m["id"] for m in expected["matches"]]
        assert answer["matches"][0]["best_workaround"] == expected["matches"][0]["best_workaround"]
        assert answer["matches"][0]["url"] == f"{base}/errors/{GIT_ID}"
        zh = errata("lookup", "--url", base, "--lang", "zh", db=empty, input=PASTE)
        assert "修复率" in zh.stdout and f"{base}/zh/errors/{GIT_ID}" in zh.stdout
        ran = errata("run", "--url", base, "--", "sh", "-c", FAILING, db=empty)
        assert ran.returncode == 128 and f"[{GIT_ID}]" in ran.stderr
        nothing = errata("lookup", "--url", base, db=empty, input="all good\n")
        assert nothing.returncode == 1 and "No entry" in nothing.stdout
    assert not empty.exists()
    gone = errata("lookup", "--url", base, db=empty, input=PASTE)
    assert gone.returncode == 1 and "did not answer" in gone.stderr
    failed_run = errata("run", "--url", base, "--", "sh", "-c", FAILING, db=empty)
    assert failed_run.returncode == 128 and "did not answer" in failed_run.stderr


def test_dump_writes_every_entry_after_a_licence_header(db, tmp_path):
    out = tmp_path / "out" / "errata.ndjson.gz"
    dumped = errata("dump", str(out), db=db)
    assert dumped.returncode == 0, dumped.stderr
    lines = gzip.decompress(out.read_bytes()).decode().splitlines()
    header, entries = json.loads(lines[0]), [json.loads(line) for line in lines[1:]]
    assert header["type"] == "errata-dump" and dumped.stdout.startswith(f"{len(entries)} entries")
    assert {s["name"] for s in header["sources"]} == {"errata"}
    assert sum(s["entries"] for s in header["sources"]) == len(entries)
    assert all(s["licence"] and s["attribution"] for s in header["sources"])
    ids = [e["id"] for e in entries]
    assert ids == sorted(ids) and len(set(ids)) == len(ids) and "git/not-a-git-repository" in ids
    seed = next(e for e in entries if e["id"] == "llm/vllm-block-manager-out-of-memory")
    assert seed["title"]["en"] and seed["title"]["zh"] and seed["workarounds"][0]["steps"]["zh"]
    plain = tmp_path / "errata.ndjson"
    errata("dump", str(plain), db=db)
    assert plain.read_text().splitlines()[1:] == lines[1:]
