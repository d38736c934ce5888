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
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.entry_cache import form_key, reply_key

LOOKUP_PATH = "/api/v1/lookup"


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


class EntryFastPath:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            state = scope["app"].state
            method = scope["method"]
            form = None
            if method in ("GET", "HEAD"):
                key = form_key(scope)
                form = state.entry_forms.get(key) or state.list_forms.get(key)
            elif method == "POST" and scope["path"] == LOOKUP_PATH:
                # The input guard has read the whole body and hands it over as one message.
                first = await receive()
                if first["type"] == "http.request" and not first.get("more_body", False):
                    form = state.list_forms.get(reply_key(scope, first.get("body", b"")))
                receive = _replaying(first, receive)
            if form is not None and state.read_stamp(form.ids) == form.stamp:
                await form.send(scope, send)
                return
        await self.app(scope, receive, send)
