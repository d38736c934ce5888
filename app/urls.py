"""Public addresses of entries, in one place so that every view links the same way."""

from urllib.parse import quote


def entry_url(entry_id: str, *, lang: str = "en", fmt: str = "html") -> str:
    prefix = "/zh" if lang == "zh" else ""
    suffix = "" if fmt == "html" else f".{fmt}"
    return f"{prefix}/errors/{quote(entry_id)}{suffix}"


def alias_url(found, *, lang: str = "en", fmt: str = "html") -> str:
    """Where an address that named a merged entry goes: the canonical entry; its page marks
    the section of the merged entry (`?from=`), the other formats are the canonical's own."""
    url = entry_url(found.id, lang=lang, fmt=fmt)
    if found.alias and fmt == "html":
        url += f"?from={quote(found.alias, safe='/')}#{section_anchor(found.alias)}"
    return url


def section_anchor(entry_id: str) -> str:
    return "merged-" + entry_id.replace("/", "--")


def domain_url(domain: str, *, lang: str = "en") -> str:
    return f"{'/zh' if lang == 'zh' else ''}/domains/{quote(domain)}"


def history_url(entry_id: str, *, lang: str = "en", fmt: str = "html") -> str:
    suffix = "" if fmt == "html" else f".{fmt}"
    return f"{entry_url(entry_id, lang=lang)}/history{suffix}"
