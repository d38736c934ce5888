"""Rendered entry responses, kept per process until the entry (or an entry it names) changes;
lists and search results likewise, until any entry changes.

Each entry is rendered once per revision, language and format: the body is kept as bytes
with the headers it was served with, and gzipped once, for the first client that asks. A
form is current while the stamp of its entries (how many exist, their highest change
counter; one indexed query) is the one it was built at; writes bump the counter in the
database, so a write in any process shows in every process at its next request. The ETag
is derived from that stamp, so answering a revalidation (304) renders nothing.
"""

import gzip
import hashlib
import sys
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache

from starlette.datastructures import Headers
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from app.config import PROJECT_ROOT
from app.services.entries.read import Stamp

# A shared cache (nginx proxy_cache, a CDN) may serve an entry for a minute without asking,
# so a write is seen through it within 60 s (plus the one request that refreshes it); a
# browser asks every time, and its If-None-Match costs a 304 from the fast path, so a reader
# sees a change (an accepted edit, another's report) at the next load.
CACHE_CONTROL = "public, max-age=0, must-revalidate, s-maxage=60"
_MIN_GZIP = 512
# Headers of the rendered response that the stored form does not replay as they were.
_RECOMPUTED = {"content-length", "content-encoding", "etag", "cache-control", "vary"}


@cache
def build_id() -> str:
    """A digest of the code, templates and catalogs: a deployment that could render an entry
    differently gives every entry new ETags, so no client keeps a copy from the old one."""
    digest = hashlib.blake2b(digest_size=8)
    for folder, pattern in (("app", "**/*.py"), ("app/locale", "**/*.po"), ("templates", "**/*")):
        for path in sorted((PROJECT_ROOT / folder).glob(pattern)):
            if path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


FormKey = tuple


def form_key(scope: Scope) -> FormKey:
    """What a rendered entry depends on besides its data: the origin its links name (scheme,
    host, root path) and its URL."""
    host = next((value for name, value in scope["headers"] if name == b"host"), None)
    return (
        scope.get("scheme", "http"),
        host or scope.get("server"),
        scope.get("root_path", ""),
        scope["path"],
        scope.get("query_string", b""),
    )


def reply_key(scope: Scope, body: bytes) -> FormKey:
    """What an answer to a POST that only reads (a lookup) depends on: its URL and its body."""
    return (*form_key(scope), hashlib.blake2b(body, digest_size=16).digest())


def etag_for(key: FormKey, stamp: Stamp) -> str:
    digest = hashlib.blake2b(f"{build_id()}|{key}|{stamp}".encode(), digest_size=12)
    return f'W/"{digest.hexdigest()}"'


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """Weak comparison, as for GET: `W/"x"` matches `"x"` and `W/"x"`; `*` matches anything."""
    if not if_none_match:
        return False
    wanted = etag.removeprefix("W/")
    return any(
        tag.strip() == "*" or tag.strip().removeprefix("W/") == wanted for tag in if_none_match.split(",")
    )


def accepts_gzip(accept_encoding: str | None) -> bool:
    """Whether the client takes gzip: as it names gzip (or x-gzip, its old name), else as it
    says of `*` (RFC 9110 12.5.3: "*;q=0, gzip" refuses everything but gzip)."""
    if not accept_encoding:
        return False
    anything = False
    for part in accept_encoding.lower().split(","):
        coding, *params = (piece.strip(" \t") for piece in part.split(";"))
        weight = next((p[2:] for p in params if p.startswith("q=")), "1")
        try:
            wanted = float(weight) > 0
        except ValueError:  # not a weight: the coding as named
            wanted = True
        if coding in ("gzip", "x-gzip"):
            return wanted
        anything = anything or (coding == "*" and wanted)
    return anything


def footprint(value: object) -> int:
    """Bytes `value` takes with the tuples, lists, bytes, strings and numbers it holds."""
    size = sys.getsizeof(value)
    if isinstance(value, tuple | list):
        size += sum(map(footprint, value))
    return size


_BYTES = sys.getsizeof(b"")  # what a bytes object takes besides its data
_HEADER = sys.getsizeof((b"", b"")) + 2 * _BYTES  # a header's pair and its two bytes objects


def _headers_size(headers: list[tuple[bytes, bytes]]) -> int:
    """footprint(headers), counted from the lengths: walking them was most of a form's count."""
    return sys.getsizeof(headers) + len(headers) * _HEADER + sum(len(k) + len(v) for k, v in headers)


def _raw(headers: dict[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


@dataclass(eq=False)
class Form:
    """One entry in one language and format, as served, with its raw headers prepared. The
    gzipped copy is made for the first client that asks for one: most clients of a search
    asked once never do, and compressing costs more than the search."""

    key: FormKey
    ids: tuple[str, ...]
    stamp: Stamp
    etag: str
    status: int
    body: bytes
    plain_headers: list[tuple[bytes, bytes]]
    not_modified_headers: list[tuple[bytes, bytes]]
    gzipped: tuple[bytes, list[tuple[bytes, bytes]]] | None = field(default=None, init=False)
    keeper: "FormCache | None" = field(default=None, init=False, repr=False)

    @classmethod
    def of(
        cls, response: Response, key: FormKey, ids: tuple[str, ...], stamp: Stamp, *, shared: bool = True
    ) -> "Form":
        """`shared`: a GET that caches may keep and revalidate (ETag, Cache-Control); the
        answer to a POST gets neither, and is never a 304."""
        body = bytes(response.body)
        etag = etag_for(key, stamp) if shared else ""
        kept = {k: v for k, v in response.headers.items() if k.lower() not in _RECOMPUTED}
        common = {"etag": etag, "cache-control": CACHE_CONTROL} if shared else {}
        common["vary"] = "Accept-Encoding"
        return cls(
            key=key,
            ids=ids,
            stamp=stamp,
            etag=etag,
            status=response.status_code,
            body=body,
            plain_headers=_raw({**kept, **common, "content-length": str(len(body))}),
            not_modified_headers=_raw(common),
        )

    @property
    def size(self) -> int:
        """The bytes the form keeps alive: the bodies, every prepared header and the objects
        that hold them (a page's headers alone take 3-5 KiB as bytes objects)."""
        size = sys.getsizeof(self) + sys.getsizeof(self.__dict__) + sys.getsizeof(self.body)
        size += sum(map(footprint, (self.key, self.ids, self.stamp, self.etag, self.status)))
        size += _headers_size(self.plain_headers) + _headers_size(self.not_modified_headers)
        if self.gzipped is None:  # the class's default: nothing of the form's own
            return size
        body, headers = self.gzipped
        return size + sys.getsizeof(self.gzipped) + sys.getsizeof(body) + _headers_size(headers)

    def gzip(self) -> tuple[bytes, list[tuple[bytes, bytes]]] | None:
        """(gzipped body, its headers), made once; None for a body too small to gain by it."""
        if len(self.body) < _MIN_GZIP:
            return None
        if self.gzipped is None:
            body = gzip.compress(self.body, compresslevel=6, mtime=0)
            headers = [(k, v) for k, v in self.plain_headers if k != b"content-length"]
            headers += [(b"content-encoding", b"gzip"), (b"content-length", str(len(body)).encode())]
            if self.keeper is not None:
                self.keeper.keep_gzip(self, (body, headers))
            else:
                self.gzipped = (body, headers)
        return self.gzipped

    async def send(self, scope: Scope, send: Send) -> None:
        """Answer the request in `scope`: 304 for a current copy, else gzipped or plain;
        for HEAD the same headers (Content-Length too) and no body."""
        headers = Headers(scope=scope)
        if self.etag and etag_matches(headers.get("if-none-match"), self.etag):
            status, raw, body = 304, self.not_modified_headers, b""
        elif accepts_gzip(headers.get("accept-encoding")) and (zipped := self.gzip()) is not None:
            status, (body, raw) = self.status, zipped
        else:
            status, raw, body = self.status, self.plain_headers, self.body
        await send({"type": "http.response.start", "status": status, "headers": raw})
        await send({"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body})


class FormResponse(Response):
    """A route's answer from a form, so routes and the fast path send the same bytes."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.background = None
        self.status_code = form.status
        self.raw_headers = form.plain_headers
        self.body = form.body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.form.send(scope, send)


def serve_form(
    request: Request,
    response: Response,
    ids: tuple[str, ...],
    stamp: Stamp,
    keep: "FormCache | None",
    *,
    key: FormKey | None = None,
) -> FormResponse:
    """Answer with `response` as a form current at `stamp` (read before the data was), kept in
    `keep` for the requests after; 304 when the client's copy is current already. A `key`
    given is a POST's (`reply_key`): its form has no ETag and no Cache-Control."""
    shared = key is None
    key = form_key(request.scope) if shared else key
    form = Form.of(response, key, ids, stamp, shared=shared)
    if keep is not None:
        keep.put(key, form)
    return FormResponse(form)


class FormCache:
    """Forms up to a byte budget, shared by the threads of one process: a segmented LRU. A
    form comes in on probation and is protected once it is asked for again; the protected
    part holds at most four fifths of the budget, its least recently used forms going back
    on probation, and room is made from probation first. So a run of forms asked once (a
    crawler reading every entry, searches or pastes nobody repeats) churns the probation only,
    never the forms people keep asking for. Each form is counted at what it held when it was
    put, plus its gzipped copy once made."""

    PROTECTED_SHARE = 0.8

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._protected_max = int(max_bytes * self.PROTECTED_SHARE)
        # form, bytes counted; least recently used first
        self._probation: OrderedDict[FormKey, tuple[Form, int]] = OrderedDict()
        self._protected: OrderedDict[FormKey, tuple[Form, int]] = OrderedDict()
        self._bytes = 0
        self._protected_bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._probation) + len(self._protected)

    def __contains__(self, key: FormKey) -> bool:
        """Whether `key` is kept, without counting as asking for it."""
        return key in self._protected or key in self._probation

    def get(self, key: FormKey) -> Form | None:
        with self._lock:
            kept = self._protected.get(key)
            if kept is not None:
                self._protected.move_to_end(key)
                return kept[0]
            kept = self._probation.pop(key, None)
            if kept is None:
                return None
            self._protected[key] = kept
            self._protected_bytes += kept[1]
            self._evict()
            return kept[0]

    @staticmethod
    def cost(form: Form) -> int:
        """What keeping `form` takes: the form, its key, and the ordered dict's slot, link
        and counted pair for it (about 160 bytes)."""
        return form.size + 160

    def put(self, key: FormKey, form: Form) -> None:
        cost = self.cost(form)
        if cost > self.max_bytes:
            return
        with self._lock:
            # A form rendered again (its entry changed) keeps the place its key had earned.
            previous = self._protected.pop(key, None)
            protected = previous is not None
            if protected:
                self._protected_bytes -= previous[1]
            else:
                previous = self._probation.pop(key, None)
            if previous is not None:
                self._bytes -= previous[1]
            form.keeper = self
            (self._protected if protected else self._probation)[key] = (form, cost)
            self._bytes += cost
            self._protected_bytes += cost if protected else 0
            self._evict()

    def keep_gzip(self, form: Form, gzipped: tuple[bytes, list[tuple[bytes, bytes]]]) -> None:
        """Give a kept form its gzipped copy, counted in the budget (under the lock, so an
        eviction never takes away bytes that were not counted)."""
        with self._lock:
            if form.gzipped is not None:
                return  # another thread made it first
            form.gzipped = gzipped
            for segment in (self._protected, self._probation):
                kept = segment.get(form.key)
                if kept is not None and kept[0] is form:
                    grown = self.cost(form)
                    segment[form.key] = (form, grown)  # in the place it had
                    self._bytes += grown - kept[1]
                    if segment is self._protected:
                        self._protected_bytes += grown - kept[1]
                    self._evict()
                    return

    def _evict(self) -> None:
        while self._protected_bytes > self._protected_max:
            key, kept = self._protected.popitem(last=False)
            self._protected_bytes -= kept[1]
            self._probation[key] = kept  # the most recent on probation
        while self._bytes > self.max_bytes:
            segment = self._probation or self._protected
            _, (_, counted) = segment.popitem(last=False)
            self._bytes -= counted
            if segment is self._protected:
                self._protected_bytes -= counted
