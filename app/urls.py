"""Public addresses of entries, in one place so that every view links the same way."""

from urllib.parse import quote


def entry_url(entry_id: str, *, lang: str = "en", fmt: str = "html") -> str:
    prefix = "/zh" if lang == "zh" else ""
    suffix = "" if fmt == "html" else f".{fmt}"
    return f"{prefix}/errors/{quote(entry_id)}{suffix}"


def domain_url(domain: str, *, lang: str = "en") -> str:
    return f"{'/zh' if lang == 'zh' else ''}/domains/{quote(domain)}"


def history_url(entry_id: str, *, lang: str = "en", fmt: str = "html") -> str:
    suffix = "" if fmt == "html" else f".{fmt}"
    return f"{entry_url(entry_id, lang=lang)}/history{suffix}"
