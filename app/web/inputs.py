"""What a request may carry, checked where it enters, once for every route.

- Text (the path, every query parameter, every form field, every JSON string and key)
  must be valid UTF-8 without lone surrogates. Control characters (C0 except tab, line
  feed and carriage return; DEL; C1) are refused with 422 naming the field, except in
  the free-text fields of FREE_TEXT, where terminal colour codes and control characters
  are removed instead (a pasted log often carries them).
- JSON bodies nest at most MAX_JSON_DEPTH levels and hold no integer outside 64 bits.
- Bodies are read here, up to their limit (413 past it, however they are sent:
  Content-Length, chunked, `Expect: 100-continue`), before any route parses them.
- No route takes files: multipart bodies are 415; JSON API bodies must say
  `application/json` (415), which a cross-site page cannot send without a CORS preflight.
  Bodies come as sent (`Content-Encoding` other than identity is 415): a compressed body
  would pass the size limit and the checks as bytes no route can read.
- A form post from another site (Sec-Fetch-Site, else Origin) is refused with 403.
"""

import re
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes, urlencode, urlsplit

import orjson
from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.config import Settings
from app.i18n import lang_of_path, translations
from app.web.errors import error_response

# Lookups carry a pasted log (up to 64 KiB of text, JSON-escaped); everything else is small.
LOOKUP_BODY_BYTES = 512 * 1024
FREE_TEXT = frozenset({"q", "text", "note", "reason"})
MAX_JSON_DEPTH = 16
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# Terminal escape sequences: CSI (colours, cursor moves), then any other ESC sequence.
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[ -/]*[0-~]")
_SAFE_SITES = ("same-origin", "none")
_BODY_METHODS = ("POST", "PUT", "PATCH", "DELETE")


@dataclass
class Refusal(Exception):
    status: int
    field: str
    reason: str


# Lookups carry a pasted log (up to 64 KiB of text, JSON-escaped), and so may an MCP call
# (lookup_error); everything else is small.
_PASTE_PATHS = ("lookup", "/mcp")


def body_limit(path: str, settings: Settings) -> int:
    return LOOKUP_BODY_BYTES if path.rstrip("/").endswith(_PASTE_PATHS) else settings.max_body_bytes


def clean_text(field: str, value: str) -> str:
    """The value as stored; Refusal if it may not be stored at all."""
    if field.rsplit(".", 1)[-1] in FREE_TEXT:
        return _CONTROL.sub("", _ANSI.sub("", value))
    if _CONTROL.search(value):
        raise Refusal(422, field, "control characters are not allowed here")
    return value


def _decode(field: str, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")  # strict: refuses invalid UTF-8 and encoded surrogates
    except UnicodeDecodeError:
        raise Refusal(422, field, "not valid UTF-8") from None


def clean_pairs(where: str, raw: bytes) -> tuple[list[tuple[str, str]], bool]:
    """Decoded name/value pairs of a query string or form body, and whether any changed."""
    pairs, changed = [], False
    for part in raw.split(b"&"):
        if not part:
            continue
        raw_name, _, raw_value = part.partition(b"=")
        name = _decode(where, unquote_to_bytes(raw_name.replace(b"+", b" ")))
        field = f"{where}.{name}"
        if _CONTROL.search(name):
            raise Refusal(422, where, "control characters in a parameter name")
        value = _decode(field, unquote_to_bytes(raw_value.replace(b"+", b" ")))
        kept = clean_text(field, value)
        changed |= kept != value
        pairs.append((name, kept))
    return pairs, changed


def clean_json(value, field: str = "body", depth: int = 0):
    if depth > MAX_JSON_DEPTH:
        raise Refusal(422, "body", f"nested deeper than {MAX_JSON_DEPTH} levels")
    if isinstance(value, str):
        return clean_text(field, value)
    if isinstance(value, bool | float) or value is None:
        return value
    if isinstance(value, int):
        if not INT64_MIN <= value <= INT64_MAX:
            raise Refusal(422, field, "number out of range")
        return value
    if isinstance(value, list):
        return [clean_json(v, f"{field}.{i}", depth + 1) for i, v in enumerate(value)]
    out = {}
    for key, item in value.items():
        out[clean_text(field, key)] = clean_json(item, f"{field}.{key}", depth + 1)
    return out


def parse_json(body: bytes):
    try:
        return orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        deep = "depth" in str(exc)
        raise Refusal(
            422,
            "body",
            f"nested deeper than {MAX_JSON_DEPTH} levels"
            if deep
            else "not valid JSON (UTF-8, no lone surrogates)",
        ) from None


def is_cross_site(headers: dict[bytes, bytes], settings: Settings) -> bool:
    """A browser says where a post comes from; clients that say nothing are not browsers."""
    site = headers.get(b"sec-fetch-site")
    if site is not None:
        return site.decode("latin-1").strip().lower() not in _SAFE_SITES
    origin = headers.get(b"origin")
    if origin is None:
        return False
    netloc = urlsplit(origin.decode("latin-1")).netloc.lower()
    own = {headers.get(b"host", b"").decode("latin-1").lower()}
    if settings.public_url:
        own.add(urlsplit(settings.public_url).netloc.lower())
    return netloc not in own


def _media_type(headers: dict[bytes, bytes]) -> str:
    return headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()


class _TooLarge(Exception):
    pass


async def _read_body(receive: Receive, limit: int) -> bytes:
    chunks, size = [], 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return b""  # the client went away
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


class InputGuardMiddleware:
    def __init__(self, app: ASGIApp, settings: Settings):
        self.app = app
        self.settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            scope, receive = await self._admit(scope, receive)
        except Refusal as refusal:
            await self._refuse(scope, send, refusal)
            return
        await self.app(scope, receive, send)

    async def _admit(self, scope: Scope, receive: Receive) -> tuple[Scope, Receive]:
        path = scope["path"]
        raw_path = scope.get("raw_path") or path.encode("utf-8", "surrogatepass")
        if _CONTROL.search(_decode("path", unquote_to_bytes(raw_path))):
            raise Refusal(422, "path", "control characters are not allowed here")
        pairs, changed = clean_pairs("query", scope.get("query_string", b""))
        if changed:
            scope = {**scope, "query_string": urlencode(pairs).encode()}
        if scope["method"] not in _BODY_METHODS:
            return scope, receive
        headers = dict(scope["headers"])
        limit = body_limit(path, self.settings)
        declared = headers.get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            raise Refusal(413, "body", str(limit))
        if is_cross_site(headers, self.settings):
            raise Refusal(403, "origin", "cross-site")
        if headers.get(b"content-encoding", b"identity").strip().lower() not in (b"identity", b""):
            raise Refusal(415, "content-encoding", "compressed bodies are not accepted")
        try:
            body = await _read_body(receive, limit)
        except _TooLarge:
            raise Refusal(413, "body", str(limit)) from None
        new_body = self._checked_body(path, headers, body)
        if new_body != body:
            body = new_body
            scope = {
                **scope,
                "headers": [(k, v) for k, v in scope["headers"] if k != b"content-length"]
                + [(b"content-length", str(len(body)).encode())],
            }
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        return scope, replay

    @staticmethod
    def _checked_body(path: str, headers: dict[bytes, bytes], body: bytes) -> bytes:
        if not body:
            return body
        media = _media_type(headers)
        if media == "multipart/form-data" or (path.startswith("/api/") and media != "application/json"):
            raise Refusal(415, "content-type", media)
        if media == "application/json":
            parsed = parse_json(body)
            cleaned = clean_json(parsed)
            return body if cleaned == parsed else orjson.dumps(cleaned)
        if media == "application/x-www-form-urlencoded":
            pairs, changed = clean_pairs("body", body)
            return urlencode(pairs).encode() if changed else body
        return body

    async def _refuse(self, scope: Scope, send: Send, refusal: Refusal) -> None:
        request = Request(scope)
        gettext = translations(lang_of_path(scope["path"])).gettext
        if refusal.status == 413:
            detail = gettext("The request is too large") + f" (> {refusal.reason} bytes)"
        elif refusal.status == 415:
            detail = gettext("That kind of content is not accepted here")
        elif refusal.status == 403:
            detail = gettext(
                "This form was sent from another site, so it was not accepted. "
                "Open the page on this site and send the form from there."
            )
        else:
            loc = refusal.field.split(".")
            field = ".".join(loc[1:]) or loc[0]  # as the validation errors of the routes name it
            detail = [{"loc": loc, "field": field, "msg": refusal.reason, "type": "value_error"}]
        response = error_response(request, refusal.status, detail)
        await response(scope, None, send)
