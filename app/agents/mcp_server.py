"""The MCP server: errata's tools, resources and prompt for coding agents.

One server definition serves both transports: `errata mcp` (stdio, the local database)
and `/mcp` on the running service (streamable HTTP). Every tool reads through the same
services as the web (EntryView, lookup, search, evidence), so an agent sees what a reader
sees, and a report it files counts, and is limited, exactly like one from the web form.
Each tool answers Markdown for the model to read and JSON (structured content, checked
against the published output schema) for programs.
"""

import functools
import html
import re
from collections.abc import Callable
from typing import Annotated, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError, ToolError
from mcp.server.mcpserver.prompts.base import Message, UserMessage
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import Engine

from app.config import Settings
from app.db import read_session
from app.render.answer import answer_markdown
from app.render.export_md import render_entry_markdown
from app.schemas.api import MAX_PASTE_BYTES, EvidenceCreated, EvidenceIn, Versions
from app.schemas.document import Outcome
from app.schemas.views import DomainCount, EntryView, RelatedView, RelatedViews
from app.services.answers.build import Answer, local_answer
from app.services.entries.catalog import Filters, domain_counts, list_entries
from app.services.entries.read import canonical_id, get_entry
from app.services.errors import DomainError
from app.services.evidence.reports import RateLimit, record_evidence
from app.services.lookup.index import LookupIndex
from app.services.search.query import search_entries
from app.urls import entry_url

Lang = Annotated[Literal["en", "zh"], Field(description="Language of the text: en or zh (中文)")]
EntryIdArg = Annotated[
    str, Field(min_length=3, max_length=300, description="Entry id, e.g. git/not-a-git-repository")
]
VersionsArg = Annotated[
    Versions | None,
    Field(description='Versions you run, e.g. {"vllm": "0.4.2", "cuda": "12.1"}', max_length=12),
]
# Every tool works on errata's own base only (closed world); none deletes anything.
READ = ToolAnnotations(
    read_only_hint=True, idempotent_hint=True, destructive_hint=False, open_world_hint=False
)
WRITE = ToolAnnotations(
    read_only_hint=False, idempotent_hint=False, destructive_hint=False, open_world_hint=False
)
SEARCH_LIMIT = 50

INSTRUCTIONS = """errata is a knowledge base of software errors: what an error means, which
workarounds work (with success rates measured from reports) and which popular fixes are
dead ends. When a command fails: call lookup_error with the error output, try the best
workaround of the best match, avoid the dead ends it lists, then call report_outcome with
the workaround id and whether it worked, so the rates stay true for the next reader."""


class SearchHitOut(BaseModel):
    id: str
    title: str
    signature: str
    fix_rate: float
    evidence_count: int
    snippet: str | None = Field(description="Matching text, matches in **bold**")
    url: str


class SearchOut(BaseModel):
    total: int = Field(description="Matching entries in all; `hits` holds the best of them")
    hits: list[SearchHitOut]


class DomainsOut(BaseModel):
    domains: list[DomainCount]


class RelatedOut(BaseModel):
    id: str
    related: RelatedViews


def _result(markdown: str, model: BaseModel) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=markdown)],
        structured_content=model.model_dump(mode="json", by_alias=True),
    )


def _snippet(marked: str | None) -> str | None:
    if marked is None:
        return None
    return html.unescape(re.sub(r"</?mark>", "**", marked))


def build_server(
    engine: Engine,
    settings: Settings,
    index: LookupIndex,
    client_of: Callable[[Context], str],
    base_url: Callable[[Context], str] = lambda ctx: "",
) -> MCPServer:
    """The server over `engine`; `client_of` names the caller for the report rate limit."""
    server = MCPServer(
        "errata",
        title="errata",
        description="Software errors: causes, workarounds that work, dead ends that don't",
        instructions=INSTRUCTIONS,
        version="1.0",
        log_level="WARNING",
    )

    def tool_errors(fn):
        """Domain errors (no such entry, too many reports) become tool errors the agent reads."""

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except DomainError as exc:
                raise ToolError(exc.message(str)) from None

        return wrapped

    def view_of(session, entry_id: str) -> EntryView:
        return get_entry(session, canonical_id(session, entry_id))

    @server.tool(title="Look up an error", annotations=READ)
    def lookup_error(
        text: Annotated[
            str,
            Field(min_length=1, max_length=MAX_PASTE_BYTES, description="The error output, traceback or log"),
        ],
        ctx: Context,
        versions: VersionsArg = None,
        limit: Annotated[int, Field(ge=1, le=10)] = 3,
        lang: Lang = "en",
    ) -> Annotated[CallToolResult, Answer]:
        """Find the errata entries that match pasted error output, best first. Each match has
        the signature, the fix rate and the reports behind it, the best workaround with its
        command, and the dead ends to avoid. An empty list means errata does not know it."""
        with read_session(engine) as session:
            found = local_answer(
                session, index, text, lang=lang, limit=limit, versions=versions, base_url=base_url(ctx)
            )
        return _result(answer_markdown(found), found)

    @server.tool(name="get_entry", title="Read an entry", annotations=READ)
    @tool_errors
    def get_entry_tool(
        id: EntryIdArg, ctx: Context, lang: Lang = "en"
    ) -> Annotated[CallToolResult, EntryView]:
        """The whole entry: root cause, versions, every workaround with its steps and rate,
        every dead end and why it fails, related errors, recent reports."""
        with read_session(engine) as session:
            view = view_of(session, id)
        return _result(render_entry_markdown(view, lang, base_url(ctx)), view)

    @server.tool(title="Search entries", annotations=READ)
    def search(
        q: Annotated[str, Field(min_length=1, max_length=500, description="Words, in English or Chinese")],
        ctx: Context,
        domain: Annotated[str | None, Field(max_length=100, description="Only this domain")] = None,
        lang: Lang = "en",
        limit: Annotated[int, Field(ge=1, le=SEARCH_LIMIT)] = 10,
    ) -> Annotated[CallToolResult, SearchOut]:
        """Full-text search over titles, signatures, causes and workarounds."""
        if not q.strip():
            raise ToolError("q: write at least one word to search for")
        with read_session(engine) as session:
            if domain is None:  # one page ranked and given snippets, as the search page is
                rows, total = search_entries(session, q, limit=limit)
            else:  # searched among the domain's entries
                rows, total = list_entries(session, Filters(domain=domain), limit=limit, offset=0, q=q)
        base = base_url(ctx)
        out = SearchOut(
            total=total,
            hits=[
                SearchHitOut(
                    id=r.id,
                    title=r.title.pick(lang),
                    signature=r.signature,
                    fix_rate=r.fix_rate,
                    evidence_count=r.evidence_count,
                    snippet=_snippet(r.snippet),
                    url=base + entry_url(r.id, lang=lang, fmt="md"),
                )
                for r in rows
            ],
        )
        lines = [f"{total} entries match." if total else "No entry matches.", ""]
        lines += [f"- [{h.title}]({h.url}) `{h.id}`: {h.snippet or h.signature}" for h in out.hits]
        return _result("\n".join(lines) + "\n", out)

    @server.tool(title="List domains", annotations=READ)
    def list_domains() -> Annotated[CallToolResult, DomainsOut]:
        """The domains (git, docker, pytorch, ...) and how many entries each holds."""
        with read_session(engine) as session:
            out = DomainsOut(domains=domain_counts(session))
        return _result("\n".join(f"- {d.domain}: {d.count}" for d in out.domains) + "\n", out)

    @server.tool(title="Related errors", annotations=READ)
    @tool_errors
    def related(id: EntryIdArg, ctx: Context, lang: Lang = "en") -> Annotated[CallToolResult, RelatedOut]:
        """Errors this one leads to, is preceded by, and is often confused with."""
        with read_session(engine) as session:
            view = view_of(session, id)
        base = base_url(ctx)

        def item(kind: str, r: RelatedView) -> str:
            name = r.title.pick(lang) if r.title else r.id
            where = f"[{name}]({base}{entry_url(r.id, lang=lang, fmt='md')})" if r.in_base else f"`{r.id}`"
            return f"- {kind}: {where}" + (f" — {r.note.pick(lang)}" if r.note else "")

        groups = view.related
        lines = [item("leads to", r) for r in groups.leads_to]
        lines += [item("preceded by", r) for r in groups.preceded_by]
        lines += [item("confused with", r) for r in groups.confused_with]
        text = "\n".join(lines) + "\n" if lines else "No related errors recorded.\n"
        return _result(text, RelatedOut(id=view.id, related=groups))

    @server.tool(title="Report how a fix went", annotations=WRITE)
    @tool_errors
    def report_outcome(
        id: EntryIdArg,
        outcome: Annotated[Outcome, Field(description="worked, failed or partial")],
        ctx: Context,
        item: Annotated[
            str | None, Field(max_length=100, description="The workaround or dead-end id you tried")
        ] = None,
        versions: VersionsArg = None,
        note: Annotated[str | None, Field(max_length=2000, description="What you saw, briefly")] = None,
    ) -> Annotated[CallToolResult, EvidenceCreated]:
        """Tell errata whether a workaround (or a dead end) worked for you. The entry's rates
        move at once; the same limits as the web form apply (too many reports -> an error
        saying when to retry)."""
        try:
            report = EvidenceIn(item=item, outcome=outcome, versions=versions or {}, note=note)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ToolError(f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
        with read_session(engine) as session:
            entry_id = canonical_id(session, id)
        created = record_evidence(
            engine,
            entry_id=entry_id,
            report=report,
            client=client_of(ctx),
            limit=RateLimit(settings.rate_limit, settings.rate_limit_window),
        )
        figures = created.entry
        text = (
            f"Recorded report `{created.evidence.uid}` on `{entry_id}`. The entry's fix rate is now "
            f"{figures.fix_rate:.0%} from {figures.evidence_count} reports"
            + (f"; {figures.item.id} is at {figures.item.rate:.0%}." if figures.item else ".")
        )
        return _result(text + "\n", created)

    def entry_markdown(entry_id: str, lang: str, ctx: Context) -> str:
        try:
            with read_session(engine) as session:
                return render_entry_markdown(view_of(session, entry_id), lang, base_url(ctx))
        except DomainError as exc:
            raise ResourceError(exc.message(str)) from None

    @server.resource("errata://errors/{+id}.md", mime_type="text/markdown", title="Entry (Markdown)")
    def entry_resource(id: str, ctx: Context) -> str:
        """An entry as Markdown, in English."""
        return entry_markdown(id, "en", ctx)

    @server.resource("errata://zh/errors/{+id}.md", mime_type="text/markdown", title="条目（Markdown）")
    def entry_resource_zh(id: str, ctx: Context) -> str:
        """An entry as Markdown, in Chinese."""
        return entry_markdown(id, "zh", ctx)

    @server.prompt(title="Fix an error with errata")
    def fix_error(
        error: Annotated[str, Field(max_length=MAX_PASTE_BYTES, description="The error output")],
    ) -> list[Message]:
        """Walk through: paste the error, try the best workaround, report the outcome."""
        return [
            UserMessage(
                "A command failed with the output below.\n\n"
                f"```text\n{error}\n```\n\n"
                "1. Call `lookup_error` with this output (add `versions` if you know them).\n"
                "2. If there is a match, read its best workaround; if you need the details, call "
                "`get_entry`. Do not try the dead ends it lists: they are known not to work.\n"
                "3. Apply the workaround's command or steps, then run the failing command again.\n"
                "4. Call `report_outcome` with the entry id, the workaround id as `item`, and "
                "`worked`, `partial` or `failed`, so the rates stay true for the next reader.\n"
                "5. If nothing matched, say so and debug as usual; errata does not know this error yet."
            )
        ]

    return server
