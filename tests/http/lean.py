"""What the tests of the lean paths (app.web.fastpath) share: counting the lean answers, and
asking the route for the same answer afresh."""

from app.services.search.summaries import kept_summaries
from app.web import fastpath
from app.web.entry_cache import FormCache


def counted(monkeypatch, name: str) -> list[tuple]:
    """The arguments of each call of fastpath's `name` from now on (it still answers)."""
    calls: list[tuple] = []
    lean = getattr(fastpath, name)
    monkeypatch.setattr(fastpath, name, lambda *a: calls.append(a) or lean(*a))
    return calls


def route_only(client, monkeypatch, taker: str) -> None:
    """From now on the lean path takes nothing (`taker` declines all), and nothing is kept
    from before: the route answers afresh."""
    state = client.app.state
    monkeypatch.setattr(state, "list_forms", FormCache(state.list_forms.max_bytes))
    monkeypatch.setattr(state, "kept_summaries", kept_summaries())
    state.lookup_index._results.clear()
    state.lookup_index._evidence.clear()
    monkeypatch.setattr(fastpath, taker, lambda _: None)


def same_answer(lean, routed) -> None:
    assert lean.status_code == routed.status_code == 200
    assert lean.content == routed.content
    assert {k: v for k, v in lean.headers.items() if k != "date"} == {
        k: v for k, v in routed.headers.items() if k != "date"
    }
