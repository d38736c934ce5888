"""Reads answered on the event loop rather than in a worker thread (app.web.on_loop): which
ones, when they go back to the threads, and that either way the answer is the same. Real
HTTP through the app, a real database; on a database server every read stays in a thread."""

import threading

import pytest

from app.routers import lookup as lookup_route
from app.web import fastpath, on_loop
from app.web.on_loop import PASTE_BYTES, QuickSearches

SEARCH = "/api/v1/errors?q=memory&limit=5"
PHRASE = "/api/v1/errors?q=out-of-memory&limit=5"


def _threads(monkeypatch, module, name: str) -> list[bool]:
    """For each call of `module.name` from now on: whether it ran in a worker thread."""
    ran: list[bool] = []
    real = getattr(module, name)

    def record(*args, **kwargs):
        ran.append(threading.current_thread().name.startswith("AnyIO worker thread"))
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, record)
    return ran


@pytest.fixture(autouse=True)
def _lenient(monkeypatch):
    """Every search measures quick unless a test says otherwise: what is tested is what
    follows from a measure, not how fast this machine searches."""
    monkeypatch.setattr(on_loop, "QUICK_CPU_S", 1.0)


def _new(url: str, n: int) -> str:
    """The same search as a URL no form is kept for."""
    return f"{url}&asked={n}"


def test_a_search_quick_before_runs_on_the_loop_until_an_entry_changes(shipped_client, monkeypatch):
    """Of a phrase (words joined by hyphens), which is never answered from memory alone."""
    in_thread = _threads(monkeypatch, fastpath, "_search_answer")
    on_server = not shipped_client.app.state.reads_on_loop
    answers = [shipped_client.get(_new(PHRASE, n)).json() for n in range(3)]
    assert answers[0]["data"] and answers[0]["data"] == answers[1]["data"] == answers[2]["data"]
    assert in_thread == [True, on_server, on_server]
    entry_id = answers[0]["data"][0]["id"]
    shipped_client.post(f"/api/v1/errors/{entry_id}/evidence", json={"outcome": "worked"})
    after = shipped_client.get(_new(PHRASE, 3)).json()
    assert in_thread[3] is True  # measured again, against the base as it now is
    assert after["data"][0]["evidence_count"] == answers[0]["data"][0]["evidence_count"] + 1
    shipped_client.get(_new(PHRASE, 4))
    assert in_thread[4] is on_server


def test_the_same_words_with_another_page_are_another_search(shipped_client, monkeypatch):
    in_thread = _threads(monkeypatch, fastpath, "_search_answer")
    shipped_client.get(_new(SEARCH, 0))
    shipped_client.get(_new(SEARCH + "&offset=5", 1))
    assert in_thread == [True, True]


def test_a_search_slow_once_goes_back_to_the_threads(shipped_client, monkeypatch):
    if not shipped_client.app.state.reads_on_loop:
        pytest.skip("on a database server every search runs in a thread")
    in_thread = _threads(monkeypatch, fastpath, "_search_answer")
    shipped_client.get(_new(SEARCH, 0))
    shipped_client.get(_new(SEARCH, 1))
    monkeypatch.setattr(on_loop, "QUICK_CPU_S", -1.0)  # every search now measures slow
    shipped_client.get(_new(SEARCH, 2))
    shipped_client.get(_new(SEARCH, 3))
    assert in_thread == [True, False, False, True]


def test_a_new_search_of_words_kept_in_memory_runs_on_the_loop(shipped_client, monkeypatch):
    """Words searched for twice are kept: a search never made before, of those words only,
    is answered on the loop from memory; one of a word not kept, in a thread. Either way
    the answer is the one a thread gives."""
    in_thread = _threads(monkeypatch, fastpath, "_search_answer")
    on_server = not shipped_client.app.state.reads_on_loop
    for n in range(2):
        shipped_client.get(_new("/api/v1/errors?q=out+of+memory&limit=10", n))
    del in_thread[:]
    fewer = shipped_client.get("/api/v1/errors?q=memory+out&limit=3").json()
    assert in_thread == [on_server]
    alone = shipped_client.get("/api/v1/errors?q=memory&limit=4").json()
    assert in_thread == [on_server, on_server]
    shipped_client.get("/api/v1/errors?q=memory+cuda&limit=3")
    assert in_thread[2:] == [True]  # cuda was never asked for
    monkeypatch.setattr(shipped_client.app.state, "reads_on_loop", False)
    for answer, url in (
        (fewer, "/api/v1/errors?q=memory+out&limit=3"),
        (alone, "/api/v1/errors?q=memory&limit=4"),
    ):
        again = shipped_client.get(_new(url, 0)).json()
        assert answer["data"] and (answer["data"], answer["count"]) == (again["data"], again["count"])
    assert in_thread[3:] == [True, True]


def test_a_short_paste_is_ranked_on_the_loop_and_a_long_one_in_a_thread(shipped_client, monkeypatch):
    shipped_client.post("/api/v1/lookup", json={"text": "warm the index"})  # now current
    in_thread = _threads(monkeypatch, lookup_route, "_ranked")
    on_server = not shipped_client.app.state.reads_on_loop
    short = "FrobError: cannot frobnicate widget 42"
    found = shipped_client.post("/api/v1/lookup", json={"text": short}).json()["matches"]
    assert found[0]["id"] == "demo/full-bilingual"
    long = short + "\n" + "x" * PASTE_BYTES
    assert (
        shipped_client.post("/api/v1/lookup", json={"text": long}).json()["matches"][0]["id"]
        == found[0]["id"]
    )
    assert in_thread == [on_server, True]


def test_a_paste_does_not_wait_on_the_loop_for_a_refresh_in_flight(shipped_client, monkeypatch):
    """While the index is being refreshed (it has the index alone), a short paste is handed
    to a thread, which waits for the refresh, rather than the loop waiting and stalling
    every other request."""
    if not shipped_client.app.state.reads_on_loop:
        pytest.skip("on a database server every paste is ranked in a thread")
    shipped_client.post("/api/v1/lookup", json={"text": "warm the index"})
    in_thread = _threads(monkeypatch, lookup_route, "_ranked")
    refresh = shipped_client.app.state.lookup_index.turns.refreshing()
    refresh.__enter__()
    served_meanwhile = []

    def meanwhile():  # another request, while the paste waits; then the refresh ends
        probe = threading.Thread(target=lambda: shipped_client.get("/healthz"))
        probe.start()
        probe.join(5)
        served_meanwhile.append(not probe.is_alive())
        refresh.__exit__(None, None, None)

    threading.Timer(0.3, meanwhile).start()
    found = shipped_client.post("/api/v1/lookup", json={"text": "FrobError: cannot frobnicate widget 7"})
    assert found.json()["matches"][0]["id"] == "demo/full-bilingual"
    assert served_meanwhile == [True]  # the loop answered while the paste waited
    assert in_thread == [False, True]  # tried on the loop, ranked in a thread


def test_a_paste_on_the_loop_is_ranked_beside_a_ranking_in_flight(shipped_client, monkeypatch):
    """Rankings share the index: one in flight in a thread (a long paste) holds up no paste
    the loop ranks."""
    if not shipped_client.app.state.reads_on_loop:
        pytest.skip("on a database server every paste is ranked in a thread")
    shipped_client.post("/api/v1/lookup", json={"text": "warm the index"})
    in_thread = _threads(monkeypatch, lookup_route, "_ranked")
    turns = shipped_client.app.state.lookup_index.turns
    assert turns.rank()  # a ranking in flight, until the paste below is answered
    try:
        found = shipped_client.post("/api/v1/lookup", json={"text": "FrobError: cannot frobnicate widget 9"})
    finally:
        turns.ranked()
    assert found.json()["matches"][0]["id"] == "demo/full-bilingual"
    assert in_thread == [False]


def test_quick_searches_are_kept_per_stamp_and_bounded():
    quick, limit = QuickSearches(size=2), on_loop.QUICK_CPU_S
    quick.measured("a", (1, 1), limit / 2)
    assert quick.expected("a", (1, 1)) is True and quick.expected("a", (1, 2)) is None
    quick.measured("a", (1, 1), limit * 2)
    assert quick.expected("a", (1, 1)) is False
    for key in "bcd":
        quick.measured(key, (1, 1), 0.0)
    assert [quick.expected(k, (1, 1)) for k in "abcd"] == [None, None, True, True]
