"""Which entries are one error: a canonical entry and the aliases merged into it."""

from sqlmodel import Session, col, select

from app.models import Entry

CANONICAL = col(Entry.canonical_id).is_(None)  # a clause: entries that are no alias


def aliases_of(session: Session, canonical_id: str) -> list[Entry]:
    """The entries merged into `canonical_id`, in id order (one level: merges never chain)."""
    return list(session.exec(select(Entry).where(Entry.canonical_id == canonical_id).order_by(Entry.id)))


def alias_ids(session: Session, canonical_id: str) -> list[str]:
    return list(session.exec(select(Entry.id).where(Entry.canonical_id == canonical_id).order_by(Entry.id)))


def group_key(entry_id: str) -> str:
    """`domain/slug` of `domain/slug/env`: the ids that share it are one error's environments."""
    return "/".join(entry_id.split("/")[:2])


def environment(entry_id: str) -> str | None:
    parts = entry_id.split("/")
    return parts[2] if len(parts) > 2 else None


def environment_of(alias_id: str, canonical_id: str) -> str | None:
    """The environment an alias stands for, when it is an environment variant of its canonical."""
    return environment(alias_id) if group_key(alias_id) == group_key(canonical_id) else None


def same_error_ids(session: Session, key: str) -> list[Entry]:
    """Every entry whose id is `key` or one of its environment variants `key/...`."""
    pattern = key.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%"
    return list(
        session.exec(
            select(Entry)
            .where((Entry.id == key) | col(Entry.id).like(pattern, escape="\\"))
            .order_by(Entry.id)
        )
    )
