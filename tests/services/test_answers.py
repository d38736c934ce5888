"""Answers for a paste (what `errata lookup`, the terminal helper and the MCP tool show):
built from a real SQLite file by the real lookup, rendered as text and Markdown."""

import socket
import threading
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import yaml

from app.db import make_engine, read_session
from app.render.answer import answer_markdown, answer_text
from app.services.answers.build import local_answer
from app.services.answers.remote import RemoteError, remote_answer
from app.services.lookup.index import LookupIndex
from tests.conftest import DEMO_ENTRIES, load
from tests.server import serving

PASTE = "FrobError: cannot frobnicate widget 42"


@contextmanager
def demo_session(settings, tmp_path, steps, why_reinstall_fails="The handle survives a reinstall."):
    """A read session over the demo entry whose first workaround's English steps are `steps`."""
    entry = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    # A second dead end, less often a failure, listed first: the answer must still lead
    # with the one that fails most.
    entry["dead_ends"].insert(
        0,
        {
            "id": "reinstall",
            "action": {"en": "Reinstall frob", "zh": "重新安装 frob"},
            "why_fails": {"en": why_reinstall_fails, "zh": "重新安装后句柄仍在。"},
            "fail_rate": 0.6,
        },
    )
    entry["workarounds"][0]["steps"]["en"] = steps
    source = tmp_path / "entry.yaml"
    source.write_text(yaml.safe_dump(entry, allow_unicode=True))
    assert load(settings, source).failed == 0
    engine = make_engine(settings)
    with read_session(engine) as session:
        yield session
    engine.dispose()


@pytest.fixture
def session(settings, tmp_path):
    with demo_session(
        settings, tmp_path, "Run:\n\n```bash\nfrob cache clear\nfrob restart\n```\n"
    ) as session:
        yield session


def test_the_answer_leads_with_the_dead_end_that_fails_most(session):
    text = answer_text(local_answer(session, LookupIndex(), PASTE, lang="en"))
    avoid = [line.strip() for line in text.splitlines() if line.strip().startswith("Avoid:")]
    assert avoid == [
        "Avoid: Reboot the machine (90% fail): The stale handle lives on disk.",
        "Avoid: Reinstall frob (60% fail): The handle survives a reinstall.",
    ]


def test_a_command_of_several_lines_is_shown_as_one_indented_block(session):
    text = answer_text(local_answer(session, LookupIndex(), PASTE, lang="en"))
    assert "   Try: Clear the widget cache (80% success" in text
    assert "       $ frob cache clear\n         frob restart\n" in text


@pytest.mark.parametrize("length", [240, 241])
def test_why_a_dead_end_fails_is_shown_up_to_240_characters(settings, tmp_path, length):
    why = ("The handle survives a reinstall because it lives on disk. " * 5)[:length]
    with demo_session(settings, tmp_path, "Run `frob restart`.", why) as session:
        text = answer_text(local_answer(session, LookupIndex(), PASTE, lang="en"))
    [shown] = [line.split("(60% fail): ", 1)[1] for line in text.splitlines() if "Reinstall frob" in line]
    assert shown == (why if length <= 240 else why[:239] + "…") and len(shown) == min(length, 240)


@pytest.mark.parametrize(("lines", "cut"), [(12, False), (13, True)])
def test_a_long_command_shows_its_first_twelve_lines_and_says_it_goes_on(settings, tmp_path, lines, cut):
    script = "".join(f"frob step {n}\n" for n in range(1, lines + 1))
    with demo_session(settings, tmp_path, f"Run:\n\n```bash\n{script}```\n") as session:
        markdown = answer_markdown(local_answer(session, LookupIndex(), PASTE, lang="en"))
    block = markdown.split("```sh\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert block == [f"frob step {n}" for n in range(1, 13)] + (["…"] if cut else [])


@pytest.mark.parametrize(
    ("lang", "said"),
    [("en", "No entry in errata matches this error.\n"), ("zh", "errata 中没有与此错误匹配的条目。\n")],
)
def test_a_paste_nothing_matches_says_so_in_the_readers_language(session, lang, said):
    found = local_answer(session, LookupIndex(), "zzqx quux: nothing like this", lang=lang)
    assert found.matches == []
    assert answer_text(found) == said and answer_markdown(found) == said


def test_the_markdown_answer_lists_the_fix_rate_workaround_and_dead_ends(session):
    markdown = answer_markdown(local_answer(session, LookupIndex(), PASTE, lang="en"))
    assert "- Try: Clear the widget cache (80% success" in markdown
    assert "```sh\nfrob cache clear\nfrob restart\n```" in markdown
    assert "- Avoid: Reboot the machine (90% fail): The stale handle lives on disk." in markdown


@pytest.mark.slow
def test_a_remote_errata_gives_the_answer_its_database_gives(session, database, tmp_path):
    with serving(database, log_dir=tmp_path) as (base, _):
        for lang in ("en", "zh"):
            remote = remote_answer(base, PASTE, lang=lang)
            local = local_answer(session, LookupIndex(), PASTE, lang=lang, base_url=base)
            assert remote.matches and remote.model_dump() == local.model_dump()


class _BadGateway(BaseHTTPRequestHandler):
    """A proxy whose errata behind it is down: a long error page, not JSON."""

    page = b"<html><head><title>502 Bad Gateway</title></head><body>" + b"<p>upstream down</p>" * 20

    def do_POST(self):
        body = self.page
        self.send_response(502)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_a_remote_errata_that_is_down_or_behind_a_failing_proxy_is_named_with_the_reason():
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{s.getsockname()[1]}"
    with pytest.raises(RemoteError, match=r"^http://127\.0\.0\.1:\d+/? did not answer: "):
        remote_answer(closed, PASTE, lang="en")
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), _BadGateway)
    threading.Thread(target=proxy.serve_forever, daemon=True).start()
    try:
        with pytest.raises(RemoteError) as failed:
            remote_answer(f"http://127.0.0.1:{proxy.server_port}", PASTE, lang="en")
    finally:
        proxy.shutdown()
        proxy.server_close()
    # The first 200 characters of the page say enough; the rest would bury the message.
    assert str(failed.value).endswith(f"/api/v1/lookup answered 502: {_BadGateway.page[:200].decode()}")


def test_an_entry_with_no_workaround_yet_is_answered_with_what_to_avoid_and_nothing_to_try(
    settings, tmp_path
):
    entry = yaml.safe_load((DEMO_ENTRIES / "demo" / "full-bilingual.yaml").read_text())
    entry["workarounds"] = []
    source = tmp_path / "entry.yaml"
    source.write_text(yaml.safe_dump(entry, allow_unicode=True))
    assert load(settings, source).failed == 0
    engine = make_engine(settings)
    with read_session(engine) as session:
        found = local_answer(session, LookupIndex(), PASTE, lang="en")
    engine.dispose()
    [match] = found.matches
    assert match.best_workaround is None and match.dead_ends
    text = answer_text(found)
    assert "Try:" not in text and "Avoid: Reboot the machine (90% fail)" in text
