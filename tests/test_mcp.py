"""The MCP server as an agent meets it: the SDK's own client, over stdio (`errata mcp`) and
over streamable HTTP (`/mcp` on a real `errata serve`)."""

import asyncio
import os
import sys
from pathlib import Path

import httpx
import jsonschema
import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import SEED_ID, database_url
from tests.server import serving

pytestmark = pytest.mark.slow
ERRATA = str(Path(sys.executable).with_name("errata"))
PASTE = "fatal: not a git repository (or any of the parent directories): .git"
GIT_ID = "git/not-a-git-repository"
READ_ONLY = {"lookup_error", "get_entry", "search", "list_domains", "related"}


async def _call(client: Client, tools: dict, name: str, arguments: dict):
    """Calls a tool and checks its structured result against the output schema it publishes."""
    result = await client.call_tool(name, arguments)
    assert not result.is_error, result.content[0].text
    jsonschema.validate(result.structured_content, tools[name].output_schema)
    assert result.content[0].type == "text" and result.content[0].text.strip()
    return result


async def _session(target, rate_limit: int) -> dict:
    """Everything an agent does in one session; returns what the assertions need."""
    seen: dict = {}
    async with Client(target) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        seen["tools"] = tools
        found = await _call(client, tools, "lookup_error", {"text": PASTE, "limit": 2})
        seen["lookup"] = found
        seen["lookup_zh"] = await _call(client, tools, "lookup_error", {"text": PASTE, "lang": "zh"})
        seen["nothing"] = await _call(client, tools, "lookup_error", {"text": "all is well, nothing failed"})
        seen["versions"] = await _call(
            client, tools, "lookup_error", {"text": PASTE, "versions": {"git": "2.43.0"}}
        )
        seen["entry"] = await _call(client, tools, "get_entry", {"id": SEED_ID, "lang": "zh"})
        seen["search"] = await _call(client, tools, "search", {"q": "repository", "domain": "git"})
        seen["search_all"] = await _call(client, tools, "search", {"q": "repository", "limit": 20})
        seen["domains"] = await _call(client, tools, "list_domains", {})
        seen["related"] = await _call(client, tools, "related", {"id": SEED_ID})
        best = found.structured_content["matches"][0]["best_workaround"]["id"]
        seen["best"] = best
        seen["reports"] = []
        for n in range(rate_limit):  # each its own report: a repeated one is counted once
            seen["reports"].append(
                await _call(
                    client,
                    tools,
                    "report_outcome",
                    {"id": GIT_ID, "item": best, "outcome": "worked", "versions": {"git": f"2.43.{n}"}},
                )
            )
        seen["limited"] = await client.call_tool("report_outcome", {"id": GIT_ID, "outcome": "worked"})
        seen["bad"] = {
            "unknown id": await client.call_tool("get_entry", {"id": "nope/nothing-here"}),
            "unknown item": await client.call_tool(
                "report_outcome", {"id": GIT_ID, "item": "no-such-step", "outcome": "worked"}
            ),
            "bad outcome": await client.call_tool("report_outcome", {"id": GIT_ID, "outcome": "maybe"}),
            "missing text": await client.call_tool("lookup_error", {}),
            "limit too big": await client.call_tool("lookup_error", {"text": PASTE, "limit": 500}),
            "blank query": await client.call_tool("search", {"q": "   "}),
            "bad versions": await client.call_tool(
                "lookup_error", {"text": PASTE, "versions": {"git": "<script>"}}
            ),
        }
        seen["unknown tool"] = await client.call_tool("drop_tables", {})
        templates = (await client.list_resource_templates()).resource_templates
        seen["templates"] = {t.uri_template for t in templates}
        seen["resource"] = (await client.read_resource(f"errata://errors/{SEED_ID}.md")).contents[0]
        seen["resource_zh"] = (await client.read_resource(f"errata://zh/errors/{SEED_ID}.md")).contents[0]
        prompts = (await client.list_prompts()).prompts
        seen["prompts"] = {p.name for p in prompts}
        seen["prompt"] = await client.get_prompt("fix_error", {"error": PASTE})
    return seen


def _check(seen: dict, rate_limit: int) -> None:
    tools = seen["tools"]
    assert set(tools) == READ_ONLY | {"report_outcome"}
    for name, tool in tools.items():
        assert tool.input_schema["type"] == "object" and tool.output_schema["type"] == "object"
        assert tool.description
        assert tool.annotations.read_only_hint is (name in READ_ONLY)
        assert tool.annotations.idempotent_hint is (name in READ_ONLY)
        assert tool.annotations.destructive_hint is False
    assert tools["lookup_error"].input_schema["required"] == ["text"]

    top = seen["lookup"].structured_content["matches"][0]
    assert top["id"] == GIT_ID and top["signature"] == PASTE
    assert 0 < top["fix_rate"] <= 1 and top["evidence_count"] >= 0
    assert top["best_workaround"]["command"] and top["dead_ends"]
    assert all(d["fail_rate"] >= 0.5 for d in top["dead_ends"])
    markdown = seen["lookup"].content[0].text
    assert top["best_workaround"]["title"] in markdown and "```sh" in markdown
    assert top["dead_ends"][0]["action"] in markdown
    zh = seen["lookup_zh"].structured_content
    assert zh["lang"] == "zh" and zh["matches"][0]["title"] != top["title"]
    assert seen["nothing"].structured_content["matches"] == []
    assert "No entry in errata matches" in seen["nothing"].content[0].text
    assert seen["versions"].structured_content["matches"][0]["id"] == GIT_ID

    entry = seen["entry"].structured_content
    assert entry["id"] == SEED_ID and entry["title"]["zh"] and entry["links"]["json"]
    assert seen["entry"].content[0].text.startswith(f"# {entry['title']['zh']}")
    hits = seen["search"].structured_content["hits"]
    assert hits and all(h["id"].startswith("git/") for h in hits)
    # Without a domain: one page of the same ranking, its matches marked, and how many in all.
    everywhere = seen["search_all"].structured_content
    assert everywhere["total"] >= len(everywhere["hits"]) > len(hits)
    assert all("**" in h["snippet"] for h in everywhere["hits"])
    in_git = [h["id"] for h in everywhere["hits"] if h["id"].startswith("git/")]
    shown = min(len(in_git), len(hits))
    assert shown and in_git[:shown] == [h["id"] for h in hits][:shown]
    domains = {d["domain"]: d["count"] for d in seen["domains"].structured_content["domains"]}
    assert domains["git"] >= 1 and domains["llm"] >= 1
    related = seen["related"].structured_content
    confused = {r["id"] for r in related["related"]["confused_with"]}
    assert related["id"] == SEED_ID and "pytorch/cuda-out-of-memory" in confused
    assert "pytorch/cuda-out-of-memory" in seen["related"].content[0].text

    # Each report moved the rates at once, through the same service as the web form.
    rates = [r.structured_content["entry"] for r in seen["reports"]]
    counts = [r["evidence_count"] for r in rates]
    assert counts == sorted(counts) and counts[-1] - counts[0] == rate_limit - 1
    items = [r["item"]["rate"] for r in rates]
    assert items == sorted(items) and items[-1] > items[0]
    assert seen["reports"][0].structured_content["evidence"]["versions"] == {"git": "2.43.0"}
    limited = seen["limited"]
    assert limited.is_error and "Too many reports" in limited.content[0].text

    for what, result in seen["bad"].items():
        assert result.is_error, what
    bad = {what: r.content[0].text for what, r in seen["bad"].items()}
    assert "No entry nope/nothing-here" in bad["unknown id"]
    assert "no-such-step" in bad["unknown item"]
    assert "outcome" in bad["bad outcome"] and "text" in bad["missing text"]
    assert "limit" in bad["limit too big"] and "versions" in bad["bad versions"]
    assert bad["blank query"].endswith("q: write at least one word to search for")
    assert seen["unknown tool"].is_error and "drop_tables" in seen["unknown tool"].content[0].text

    assert seen["templates"] == {"errata://errors/{+id}.md", "errata://zh/errors/{+id}.md"}
    assert seen["resource"].mime_type == "text/markdown"
    assert seen["resource"].text.startswith("# ") and "## Workarounds" in seen["resource"].text
    assert "## 变通方案" in seen["resource_zh"].text
    assert "fix_error" in seen["prompts"]
    steps = seen["prompt"].messages[0].content.text
    assert PASTE in steps and "lookup_error" in steps and "report_outcome" in steps


def test_over_stdio_on_the_local_database(shipped_database):
    env = {**os.environ, "ERRATA_DATABASE_URL": database_url(shipped_database), "ERRATA_RATE_LIMIT": "3"}
    seen = asyncio.run(_session(StdioServerParameters(command=ERRATA, args=["mcp"], env=env), 3))
    _check(seen, 3)
    # The reports are in the database the agent's errata reads.
    assert seen["reports"][-1].structured_content["entry"]["evidence_count"] >= 3


def test_over_http_on_the_running_service(tmp_path, shipped_database):
    db = shipped_database
    overrides = {"ERRATA_RATE_LIMIT": "3", "ERRATA_DATA_DIR": ""}
    with serving(db, log_dir=tmp_path, **overrides) as (base, _):
        seen = asyncio.run(_session(f"{base}/mcp", 3))
        _check(seen, 3)
        # The same figures on the web: the agent's reports moved them.
        web = httpx.get(f"{base}/api/v1/errors/{GIT_ID}").json()
        assert web["evidence_count"] == seen["reports"][-1].structured_content["entry"]["evidence_count"]
        # Links in the answers point at the service itself.
        top = seen["lookup"].structured_content["matches"][0]
        assert top["markdown_url"] == f"{base}/errors/{GIT_ID}.md"
        assert httpx.get(top["markdown_url"]).status_code == 200
        # No event stream to hold open: errata sends nothing unasked, so GET is refused at once.
        for method in ("GET", "DELETE"):
            refused = httpx.request(
                method, f"{base}/mcp", headers={"Accept": "text/event-stream"}, timeout=10
            )
            assert refused.status_code == 405 and refused.headers["allow"] == "POST", method
        # A page elsewhere cannot reach the server through a rebound name.
        foreign = httpx.post(
            f"{base}/mcp",
            headers={"Host": "attacker.example", "Content-Type": "application/json"},
            json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        )
        assert foreign.status_code in (400, 403, 421)
