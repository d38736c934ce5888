"""Answer GET and HEAD for a cached, current entry form before routing.

A hit costs one indexed query (the stamp) and two ASGI messages; everything else (a miss,
a stale form, an unknown or alias id) goes on to the routes, which render from the
EntryView (or the search) and fill the caches. The stamp query runs on the event loop
rather than in a worker thread: it takes tens of microseconds on SQLite, less than the
hand-over to a thread would. `app.state.read_stamp` holds a connection of its own, never
one from the routes' pool: routes hold pooled connections until their response is sent,
which needs the event loop, so waiting on that pool here could stall the process.
"""

from starlette.types import ASGIApp, Receive, Scope, Send

from app.web.entry_cache import form_key


class EntryFastPath:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in ("GET", "HEAD"):
            state = scope["app"].state
            key = form_key(scope)
            form = state.entry_forms.get(key) or state.list_forms.get(key)
            if form is not None and state.read_stamp(form.ids) == form.stamp:
                await form.send(scope, send)
                return
        await self.app(scope, receive, send)
