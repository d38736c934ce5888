"""Answer reads from a cached, current form before routing.

GET and HEAD of an entry, a list or a search, and POST /api/v1/lookup for a paste answered
before (the same body, byte for byte). A hit costs one indexed query (the stamp) and two
ASGI messages; everything else (a miss, a stale form, an unknown or alias id) goes on to
the routes, which render from the EntryView (or the search, or the ranking) and fill the
caches. The stamp query runs on the event loop rather than in a worker thread: it takes
tens of microseconds on SQLite, less than the hand-over to a thread would.
`app.state.read_stamp` holds a connection of its own, never one from the routes' pool:
routes hold pooled connections until their response is sent, which needs the event loop,
so waiting on that pool here could stall the process.

A paste not answered before (a JSON body of `text` and at most `limit`, the paste within its
size) is answered by the route's own answer_paste, without FastAPI's routing, parsing and
model validation; any other body goes to the route, which validates it.

A search not answered before (GET /api/v1/errors with `q` and no filter) takes a lean path:
on a bare pooled connection, the route's own page function, and the form kept as the route
keeps it; on the event loop when the same search was quick since the base last changed, or
when it can be answered from what the search index keeps in memory (app.web.on_loop), else
in a worker thread. FastAPI's parameter solving, its dependency exits and an ORM session
cost more than such a search; a query the route would refuse or treat otherwise (a filter,
a repeated or out-of-bounds parameter) is left to the route.
"""

import contextlib
import logging
import re
import time

import anyio.to_thread
import orjson
from starlette.datastructures import QueryParams
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import backends
from app.routers.api import DEFAULT_LIMIT, MAX_LIMIT, MAX_QUERY, search_page
from app.routers.lookup import answer_paste
from app.schemas.api import DEFAULT_MATCHES, MAX_MATCHES, MAX_PASTE_BYTES, LookupIn
from app.services.entries.read import Stamp
from app.services.search.query import terms
from app.web.entry_cache import FormKey, FormResponse, form_key, reply_key, serve_form
from app.web.params import MAX_OFFSET

LOOKUP_PATH = "/api/v1/lookup"
SEARCH_PATH = "/api/v1/errors"
# The route's other parameters: with any of them, the route answers.
_FILTERS = frozenset({"domain", "category", "component", "version"})
_DIGITS = re.compile(r"[0-9]{1,10}")

log = logging.getLogger(__name__)


def _replaying(first: Message, receive: Receive) -> Receive:
    """`receive` with the message read already given back first."""
    pending: Message | None = first

    async def replay() -> Message:
        nonlocal pending
        if pending is None:
            return await receive()
        message, pending = pending, None
        return message

    return replay


def plain_search(params: QueryParams) -> tuple[str, int, int] | None:
    """(q, limit, offset) of a search the route would answer with search_page; else None."""
    if len(params) != len(params.multi_items()) or not _FILTERS.isdisjoint(params):
        return None
    q = params.get("q")
    if not q or not q.strip() or len(q) > MAX_QUERY:
        return None
    bounds = (("limit", DEFAULT_LIMIT, 1, MAX_LIMIT), ("offset", 0, 0, MAX_OFFSET))
    numbers = []
    for name, default, low, high in bounds:
        text = params.get(name)
        if text is not None and not _DIGITS.fullmatch(text):
            return None
        number = default if text is None else int(text)
        if not low <= number <= high:
            return None
        numbers.append(number)
    return q, *numbers


# Versions need the route's checks; a paste with them is the route's.
_PASTE_FIELDS = frozenset(LookupIn.model_fields) - {"versions"}


def plain_paste(body: bytes) -> tuple[str, int] | None:
    """(text, limit) of a lookup body the route would take as it is; else None."""
    try:
        fields = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(fields, dict) or not _PASTE_FIELDS.issuperset(fields):
        return None
    text, limit = fields.get("text"), fields.get("limit", DEFAULT_MATCHES)
    if type(text) is not str or len(text.encode("utf-8")) > MAX_PASTE_BYTES or type(limit) is not int:
        return None
    return (text, limit) if 1 <= limit <= MAX_MATCHES else None


def _search_answer(
    request: Request, stamp: Stamp, q: str, limit: int, offset: int, *, memory_only: bool = False
) -> FormResponse:
    """The search's answer; `stamp`: the base's, read before any of its data. How much CPU it
    took is noted, for whether it may run on the loop next time. `memory_only`: answered from
    what the search index keeps in memory, or backends.SearchNotInMemory."""
    state = request.app.state
    started = time.thread_time()
    with state.engine.connect() as conn:
        if memory_only:
            conn.execution_options(**{backends.MEMORY_ONLY: True})
        page = search_page(request, conn, q, limit=limit, offset=offset, stamp=stamp)
    state.quick_searches.measured((q, limit, offset), stamp, time.thread_time() - started)
    return serve_form(request, page, (), stamp, state.list_forms)


class EntryFastPath:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = scope["app"].state
            method = scope["method"]
            form = body = None
            if method in ("GET", "HEAD"):
                key = form_key(scope)
                form = state.entry_forms.get(key) or state.list_forms.get(key)
            elif method == "POST" and scope["path"] == LOOKUP_PATH:
                # The input guard has read the whole body and hands it over as one message.
                first = await receive()
                if first["type"] == "http.request" and not first.get("more_body", False):
                    body = first.get("body", b"")
                    key = reply_key(scope, body)
                    form = state.list_forms.get(key)
                receive = _replaying(first, receive)
            if form is not None and state.read_stamp(form.ids) == form.stamp:
                await form.send(scope, send)
                return
            if body is not None and (paste := plain_paste(body)) is not None:
                await self._paste(scope, receive, send, key, *paste)
                return
            if method in ("GET", "HEAD") and scope["path"] == SEARCH_PATH:
                request = Request(scope)  # its query, parsed once, also gives the next page's link
                search = plain_search(request.query_params)
                if search is not None:
                    await self._search(request, receive, send, *search)
                    return
        await self.app(scope, receive, send)

    async def _paste(self, scope: Scope, receive: Receive, send: Send, key: FormKey, *paste) -> None:
        try:
            answer = await answer_paste(Request(scope, receive), key, *paste, None)
        except Exception:
            log.exception("lean lookup failed; the route answers")  # and handles the failure
            await self.app(scope, receive, send)
            return
        await answer(scope, receive, send)

    async def _search(
        self, request: Request, receive: Receive, send: Send, q: str, limit: int, offset: int
    ) -> None:
        scope, state = request.scope, request.app.state
        try:
            stamp = state.read_stamp(())
            answer = None
            if state.reads_on_loop:
                quick = state.quick_searches.expected((q, limit, offset), stamp)
                if quick or quick is None and backends.search_kept(state.engine, terms(q)):
                    with contextlib.suppress(backends.SearchNotInMemory):
                        answer = _search_answer(request, stamp, q, limit, offset, memory_only=not quick)
            if answer is None:
                answer = await anyio.to_thread.run_sync(_search_answer, request, stamp, q, limit, offset)
        except Exception:
            # Nothing is sent yet: the route answers, with its handling of the failure.
            log.exception("lean search failed; the route answers")
            await self.app(scope, receive, send)
            return
        await answer(scope, receive, send)
