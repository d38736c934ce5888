"""HEAD wherever GET is: the request runs as GET and the body is dropped, headers kept."""

from starlette.routing import Match, Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")


def allowed_methods(routes: list, scope: Scope) -> str:
    """The `Allow` of a 405: every method some route takes at this path (an address may have
    a GET route and a POST route), with HEAD wherever GET is. A mount (static files) takes
    any method at routing and refuses inside, so only routes answer; none means GET."""
    methods = [
        method
        for method in _METHODS
        if any(
            route.matches({**scope, "method": method})[0] == Match.FULL
            for route in routes
            if not isinstance(route, Mount)
        )
    ] or ["GET"]
    if "GET" in methods:
        methods.insert(1, "HEAD")
    return ", ".join(methods)


class HeadAsGetMiddleware:
    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def without_body(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, without_body)
