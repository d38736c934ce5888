"""Figures of the base (/stats.json), and the key that changes whenever the public data does."""

from datetime import datetime

from pydantic import BaseModel, Field
from sqlalchemy import func
from sqlmodel import Session, select

from app.models import Evidence, ModerationAction
from app.services.entries.catalog import canonical_entries


class BaseFigures(BaseModel):
    entries: int = Field(description="Canonical entries")
    domains: int
    reports: int = Field(description="Accepted evidence reports")
    last_change: datetime | None = Field(description="When an entry last changed")
    by_source: dict[str, int] = Field(description="Entries per source (see /about)")


def figures(session: Session) -> BaseFigures:
    entries = canonical_entries(session).subquery()
    count, domains, last = session.exec(
        select(func.count(), func.count(func.distinct(entries.c.domain)), func.max(entries.c.updated_at))
    ).one()
    reports = session.exec(select(func.count()).where(Evidence.status == "accepted")).one()
    sources = session.exec(select(entries.c.source, func.count()).group_by(entries.c.source)).all()
    return BaseFigures(
        entries=count,
        domains=domains,
        reports=reports,
        last_change=last,
        by_source={name or "errata": n for name, n in sources},
    )


def data_version(session: Session) -> str:
    """Changes with every entry change (the `changed` counter), a removed entry, a new report
    and a moderation action: everything the dump holds. Cheap: four aggregates."""
    entries = canonical_entries(session).subquery()
    changed, count = session.exec(select(func.max(entries.c.changed), func.count())).one()
    evidence = session.exec(select(func.max(Evidence.id))).one()
    moderated = session.exec(select(func.max(ModerationAction.id))).one()
    return f"{changed or 0}-{count}-{evidence or 0}-{moderated or 0}"
