"""The JSON "canon" format of the public deadends.dev corpus, read and mapped onto EntryDoc.

The mapping is documented field by field in docs/import.md. Validation happens against
the canon's own shape first, so an error names the field as the file spells it.
"""

import re
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from app.schemas.common import EntryId, Rate, RegexPattern, Text
from app.schemas.document import (
    DeadEndDoc,
    EntryDoc,
    PriorDoc,
    ProvenanceDoc,
    RelatedDoc,
    RelatedRef,
    VersionDoc,
    WorkaroundDoc,
)

SOURCE = "deadends.dev"


class _Canon(BaseModel):
    # Extra keys are tolerated (the format grows), missing or mistyped ones are not.
    model_config = ConfigDict(extra="ignore")


class CanonError(_Canon):
    signature: str = Field(min_length=1)
    regex: RegexPattern
    domain: str
    category: str
    first_seen: date | None = None
    last_confirmed: date | None = None


class CanonRuntime(_Canon):
    name: str
    version_range: str | None = None


class CanonEnvironment(_Canon):
    runtime: CanonRuntime | None = None
    os: str | None = None
    python: str | None = None
    framework: str | None = None
    hardware: dict[str, object] | None = None
    additional: dict[str, object] | None = None


class CanonVerdict(_Canon):
    resolvable: Literal["true", "partial", "false"]
    fix_success_rate: Rate
    confidence: Rate
    summary: str | None = None


class CanonDeadEnd(_Canon):
    action: str = Field(min_length=1)
    why_fails: str = Field(min_length=1)
    fail_rate: Rate
    sources: list[str] = []
    condition: str | None = None
    common_misconception: str | None = None


class CanonWorkaround(_Canon):
    action: str = Field(min_length=1)
    success_rate: Rate
    how: str | None = None
    tradeoff: str | None = None
    sources: list[str] = []
    condition: str | None = None


class CanonTransition(_Canon):
    error_id: EntryId
    probability: Rate | None = None
    condition: str | None = None
    typical_delay: str | None = None
    distinction: str | None = None


class CanonGraph(_Canon):
    leads_to: list[CanonTransition] = []
    preceded_by: list[CanonTransition] = []
    frequently_confused_with: list[CanonTransition] = []


class CanonMetadata(_Canon):
    generated_by: str | None = None
    generation_date: date | None = None
    review_status: str | None = None
    evidence_count: int | None = Field(default=None, ge=0)


class CanonFile(_Canon):
    schema_version: str
    id: EntryId
    url: str | None = None
    error: CanonError
    environment: CanonEnvironment = CanonEnvironment()
    verdict: CanonVerdict
    dead_ends: list[CanonDeadEnd] = []
    workarounds: list[CanonWorkaround] = []
    transition_graph: CanonGraph = CanonGraph()
    metadata: CanonMetadata = CanonMetadata()


def is_canon(data: dict) -> bool:
    return "error" in data and "verdict" in data


_COMMANDS = {
    "sudo",
    "pip",
    "pip3",
    "python",
    "python3",
    "npm",
    "npx",
    "yarn",
    "pnpm",
    "git",
    "docker",
    "kubectl",
    "helm",
    "export",
    "set",
    "cd",
    "rm",
    "mkdir",
    "apt",
    "apt-get",
    "brew",
    "conda",
    "cargo",
    "rustup",
    "go",
    "mvn",
    "gradle",
    "terraform",
    "aws",
    "gcloud",
    "az",
    "curl",
    "wget",
    "nvidia-smi",
    "torchrun",
    "make",
    "cmake",
    "node",
    "java",
    "dotnet",
    "flutter",
    "ros2",
    "redis-cli",
    "psql",
    "mysql",
    "mongosh",
    "systemctl",
    "chmod",
    "chown",
    "ln",
    "echo",
    "cat",
    "ulimit",
    "sysctl",
    "vllm",
    "huggingface-cli",
    "uv",
    "poetry",
    "nginx",
    "openssl",
    "ssh",
    "ssh-keygen",
    "composer",
    "php",
    "unity",
    "adb",
    "elasticsearch",
    "kafka-topics.sh",
}
_CODE_HINT = re.compile(r"&&|\|\s|\s--?[a-zA-Z]|\$\(|\w\(\)|^[A-Z_][A-Z0-9_]*=|^\./|^\S+\.\S+\(")
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>#])")


def _steps(how: str | None) -> Text | None:
    """`how` is a command as often as prose: commands become a code block, prose stays text."""
    if not how or not how.strip():
        return None
    how = how.strip()
    first = how.split(maxsplit=1)[0]
    if first in _COMMANDS or _CODE_HINT.search(how):
        return Text(en=f"```sh\n{how}\n```")
    return Text(en=_MD_SPECIAL.sub(r"\\\1", how))


def _text(value: str | None) -> Text | None:
    return Text(en=value.strip()) if value and value.strip() else None


def _title(entry_id: str) -> str:
    domain, slug, *env = entry_id.split("/")
    words = slug.replace("-", " ").replace("_", " ")
    title = words[:1].upper() + words[1:]
    return f"{title} ({env[0]})" if env else title


def _versions(env: CanonEnvironment) -> list[VersionDoc]:
    rows: list[VersionDoc] = []
    if env.runtime:
        rows.append(VersionDoc(component=env.runtime.name, version=env.runtime.version_range or ""))
    if env.python:
        rows.append(VersionDoc(component="python", version=env.python))
    if env.framework:
        rows.append(VersionDoc(component=env.framework, version=""))
    origins = (
        (Text(en="hardware", zh="硬件"), env.hardware),
        (Text(en="environment", zh="环境"), env.additional),
    )
    for origin, extra in origins:
        for key, value in (extra or {}).items():
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            rows.append(VersionDoc(component=key, version=shown[:200], notes=origin))
    return rows


def _ref(t: CanonTransition) -> RelatedRef:
    note = t.distinction or t.condition
    if t.typical_delay:
        note = f"{note} (typically after {t.typical_delay})" if note else f"typically after {t.typical_delay}"
    return RelatedRef(id=t.error_id, note=_text(note), probability=t.probability)


def canon_to_document(data: dict) -> EntryDoc:
    canon = CanonFile.model_validate(data)
    graph = canon.transition_graph
    meta = canon.metadata
    return EntryDoc(
        id=canon.id,
        domain=canon.error.domain,
        category=canon.error.category,
        title=Text(en=_title(canon.id)),
        summary=_text(canon.verdict.summary),
        signature=canon.error.signature,
        patterns=[canon.error.regex] if canon.error.regex else [],
        ai_generated=meta.review_status != "human_reviewed",
        review_status="reviewed" if meta.review_status == "human_reviewed" else "unreviewed",
        resolvable=canon.verdict.resolvable,
        scope=canon.environment.os or "generic",
        first_seen=canon.error.first_seen,
        last_confirmed=canon.error.last_confirmed,
        prior=PriorDoc(fix_rate=canon.verdict.fix_success_rate, confidence=canon.verdict.confidence),
        versions=_versions(canon.environment),
        workarounds=[
            WorkaroundDoc(
                id=f"w{i}",
                title=Text(en=w.action),
                steps=_steps(w.how),
                success_rate=w.success_rate,
                condition=_text(w.condition),
                tradeoff=_text(w.tradeoff),
                sources=w.sources,
            )
            for i, w in enumerate(canon.workarounds, 1)
        ],
        dead_ends=[
            DeadEndDoc(
                id=f"d{i}",
                action=Text(en=d.action),
                why_fails=Text(en=d.why_fails),
                fail_rate=d.fail_rate,
                condition=_text(d.condition),
                misconception=_text(d.common_misconception),
                sources=d.sources,
            )
            for i, d in enumerate(canon.dead_ends, 1)
        ],
        related=RelatedDoc(
            leads_to=[_ref(t) for t in graph.leads_to],
            preceded_by=[_ref(t) for t in graph.preceded_by],
            confused_with=[_ref(t) for t in graph.frequently_confused_with],
        ),
        provenance=ProvenanceDoc(
            source=SOURCE,
            source_url=canon.url,
            generated_by=meta.generated_by,
            generation_date=meta.generation_date,
            source_evidence_count=meta.evidence_count,
        ),
    )
