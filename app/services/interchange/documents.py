"""EntryDoc <-> files: the YAML of data/, and the document of an entry as loaded from the database."""

from datetime import date, datetime
from pathlib import Path

import yaml

from app.schemas.document import (
    DeadEndDoc,
    EntryDoc,
    EvidenceDoc,
    PriorDoc,
    RelatedDoc,
    RelatedRef,
    WorkaroundDoc,
)
from app.schemas.views import EntryView, EvidenceView


def to_document(view: EntryView, evidence: list[EvidenceView], *, merged_into: str | None = None) -> EntryDoc:
    """The file form of an entry (its own content, `get_entry(merged=False)`): curated
    content, priors, every report, bookkeeping, and how it is merged."""
    return EntryDoc(
        id=view.id,
        domain=view.domain,
        category=view.category,
        title=view.title,
        summary=view.summary,
        signature=view.signature,
        variants=view.variants,
        patterns=view.patterns,
        verification=view.verification,
        ai_generated=view.ai_generated,
        review_status=view.review_status,
        resolvable=view.resolvable,
        scope=view.scope,
        first_seen=view.first_seen,
        last_confirmed=view.last_confirmed,
        prior=PriorDoc(fix_rate=view.prior.fix_rate, confidence=view.prior.confidence),
        versions=view.versions,
        root_cause=view.root_cause,
        docs=view.docs,
        workarounds=[
            WorkaroundDoc(
                id=w.id,
                title=w.title,
                steps=w.steps,
                success_rate=w.prior_success_rate,
                condition=w.condition,
                tradeoff=w.tradeoff,
                sources=w.sources,
            )
            for w in view.workarounds
        ],
        dead_ends=[
            DeadEndDoc(
                id=d.id,
                action=d.action,
                why_fails=d.why_fails,
                fail_rate=d.prior_fail_rate,
                condition=d.condition,
                misconception=d.misconception,
                sources=d.sources,
            )
            for d in view.dead_ends
        ],
        related=RelatedDoc(
            **{
                kind: [
                    RelatedRef(id=r.id, note=r.note, probability=r.probability)
                    for r in getattr(view.related, kind)
                ]
                for kind in ("leads_to", "preceded_by", "confused_with")
            }
        ),
        provenance=view.provenance,
        evidence=[
            EvidenceDoc(
                uid=e.uid,
                item=e.item,
                outcome=e.outcome,
                versions=e.versions,
                note=e.note,
                source_url=e.source_url,
                submitted_at=e.submitted_at,
                status=e.status,
            )
            for e in evidence
        ],
        aliases=view.aliases,
        merged_into=merged_into,
        revision=view.revision,
        created_at=view.created_at,
        updated_at=view.updated_at,
    )


# --- YAML -----------------------------------------------------------------------------


class _Dumper(yaml.SafeDumper):
    def increase_indent(self, flow=False, indentless=False):
        # Indent list items under their key, as people write YAML by hand.
        return super().increase_indent(flow, False)


class _Quoted(str):
    """Regular expressions, always single-quoted so that no character of them is read as YAML."""


def _str(dumper: yaml.SafeDumper, value: str):
    # Multi-line text (Markdown) as a literal block, so a diff of it reads like prose.
    # PyYAML cannot emit a block scalar with trailing spaces on a line; it quotes those.
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


def _datetime(dumper: yaml.SafeDumper, value: datetime):
    text = value.isoformat().replace("+00:00", "Z")
    return dumper.represent_scalar("tag:yaml.org,2002:timestamp", text)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(_Quoted, lambda d, v: d.represent_scalar("tag:yaml.org,2002:str", str(v), style="'"))
_Dumper.add_representer(datetime, _datetime)
_Dumper.add_representer(date, lambda d, v: d.represent_scalar("tag:yaml.org,2002:timestamp", v.isoformat()))


def _drop_nulls(value):
    """Leave out what a file need not say: nulls and empty lists inside items."""
    if isinstance(value, dict):
        return {k: _drop_nulls(v) for k, v in value.items() if v is not None and v != []}
    if isinstance(value, list):
        return [_drop_nulls(v) for v in value]
    return value


_KEEP_EMPTY = ("related", "evidence")


def dump_document(doc: EntryDoc) -> str:
    data = doc.model_dump(mode="python", exclude_none=False)
    data["patterns"] = [_Quoted(p) for p in data["patterns"]]
    top = {k: v for k, v in data.items() if v not in (None, [], {}) or k in _KEEP_EMPTY}
    return yaml.dump(_drop_nulls(top), Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=1_000_000)


# libyaml's parser where PyYAML was built with it (PyPI's wheels are): the same documents,
# read several times faster than by the pure-Python one.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_document(source: str) -> dict:
    data = yaml.load(source, Loader=_Loader)
    if not isinstance(data, dict):
        raise ValueError("the file does not hold a YAML mapping")
    return data


def document_path(root: Path, entry_id: str) -> Path:
    *folders, name = entry_id.split("/")
    return root.joinpath(*folders, f"{name}.yaml")
