"""Interface languages: gettext catalogs (Babel .po files) and locale-aware number and date filters.

Content (root causes, workarounds...) is not translated here: it lives in the `zh`
fields of entries. This module only carries the words of the interface.
"""

from datetime import UTC, date, datetime
from functools import cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations
from markupsafe import Markup

LOCALE_DIR = Path(__file__).parent / "locale"
DEFAULT_LANG = "en"
# lang code in URLs -> (Babel locale, html lang attribute, name of the language in itself)
LANGUAGES = {
    "en": ("en", "en", "English"),
    "zh": ("zh_Hans_CN", "zh-Hans", "中文"),
}


@cache
def translations(lang: str) -> NullTranslations:
    """The catalog, compiled in memory from the .po file, so no build step makes .mo files."""
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    if lang == DEFAULT_LANG or not po.exists():
        return NullTranslations()
    with po.open("rb") as handle:
        catalog = read_po(handle, locale=LANGUAGES[lang][0])
    buffer = BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)


def lang_of_path(path: str) -> str:
    return "zh" if path == "/zh" or path.startswith("/zh/") else DEFAULT_LANG


def switch_path(path: str, lang: str) -> str:
    """The same page in another language: only the /zh prefix changes."""
    bare = path[3:] or "/" if lang_of_path(path) == "zh" else path
    return bare if lang == DEFAULT_LANG else ("/zh" + bare if bare != "/" else "/zh/")


@cache  # parsing it again for each number was a third of formatting one
def locale(lang: str) -> Locale:
    return Locale.parse(LANGUAGES[lang][0])


def percent(value: float, lang: str) -> str:
    return format_percent(value, locale=locale(lang))


def number(value: float, lang: str) -> str:
    return format_decimal(value, locale=locale(lang))


def day(value: date | datetime | None, lang: str) -> str:
    """Dates read the same everywhere (ISO 8601); a moment's date is its date in UTC."""
    if value is None:
        return "—"
    if isinstance(value, datetime):
        value = value.astimezone(UTC).date() if value.tzinfo else value.date()
    return value.isoformat()


def moment(value: datetime | None, lang: str) -> str:
    """A time of day always says its zone: UTC, as stored."""
    if value is None:
        return translations(lang).gettext("date unknown")
    utc = value.astimezone(UTC) if value.tzinfo else value
    return f"{utc:%Y-%m-%d %H:%M} UTC"


def status_label(status: str, lang: str) -> str:
    gettext = translations(lang).gettext
    labels = {
        "active": gettext("affected"),
        "fixed": gettext("fixed"),
        "unaffected": gettext("unaffected"),
        "unknown": gettext("unknown"),
    }
    return labels.get(status, status)


def outcome_label(outcome: str, lang: str) -> str:
    gettext = translations(lang).gettext
    labels = {"worked": gettext("worked"), "failed": gettext("failed"), "partial": gettext("partial")}
    return labels.get(outcome, outcome)


def rate_basis(reports: int, lang: str) -> str:
    """What a rate rests on: the curated estimate alone, or that plus readers' reports."""
    t = translations(lang)
    if reports == 0:
        return t.gettext("estimate, no reports yet")
    return t.ngettext("from %(n)d report", "from %(n)d reports", reports) % {"n": reports}


def colon(lang: str) -> str:
    """What joins a label to what it labels: ": " in English, a full-width "：" (which
    carries its own space) in Chinese."""
    return translations(lang).gettext(": ")


def with_basis(rate: str, reports: int, lang: str) -> str:
    """A rate and what it rests on, as one phrase: "80% success, from 3 reports"."""
    phrase = translations(lang).gettext("%(rate)s, %(basis)s")
    return phrase % {"rate": rate, "basis": rate_basis(reports, lang)}


def verification_label(record, lang: str) -> str:
    """How one wording was checked (a VerificationDoc), as a sentence; the command or link goes beside it."""
    gettext = translations(lang).gettext
    values = {
        "tool": record.tool,
        "version": record.version,
        "date": day(record.checked, lang),
        "file": record.file,
    }
    if record.method == "reproduced":
        return gettext("Message reproduced with %(tool)s %(version)s on %(date)s") % values
    if record.method == "reported":
        return gettext("Reported wording, found in no %(tool)s release's source (checked %(date)s)") % values
    if record.file:
        return gettext("Message text from %(file)s at %(tool)s %(version)s, read on %(date)s") % values
    return gettext("Message text from the %(tool)s %(version)s source, read on %(date)s") % values


def _category_labels(gettext) -> dict[str, str]:
    # The vocabulary of shipped entries (tests hold them to it); imports may bring others.
    return {
        "auth_error": gettext("authentication"),
        "autograd_error": gettext("autograd"),
        "build_error": gettext("build"),
        "compatibility_error": gettext("compatibility"),
        "concurrency_error": gettext("concurrency"),
        "configuration_error": gettext("configuration"),
        "connection_error": gettext("connection"),
        "data_corruption": gettext("data corruption"),
        "dependency_error": gettext("dependency"),
        "constraint_error": gettext("constraint violation"),
        "dependency_conflict": gettext("dependency conflict"),
        "device_error": gettext("device"),
        "distributed_error": gettext("distributed computing"),
        "driver_error": gettext("driver"),
        "encoding_error": gettext("encoding"),
        "environment_error": gettext("environment"),
        "file_system_error": gettext("file system"),
        "import_error": gettext("import"),
        "installation_error": gettext("installation"),
        "invalid_request": gettext("invalid request"),
        "link_error": gettext("linking"),
        "module_system_error": gettext("module system"),
        "network_error": gettext("network"),
        "not_found_error": gettext("not found"),
        "permission_error": gettext("permission"),
        "query_error": gettext("query"),
        "rate_limit": gettext("rate limit"),
        "resource_error": gettext("resources (memory, disk)"),
        "runtime_error": gettext("runtime"),
        "security_error": gettext("security"),
        "serialization_error": gettext("serialization"),
        "shape_error": gettext("tensor shape"),
        "shared_library_error": gettext("shared library"),
        "shell_error": gettext("shell"),
        "syntax_error": gettext("syntax"),
        "tls_error": gettext("TLS and certificates"),
        "transaction_error": gettext("transaction"),
        "type_error": gettext("type"),
        "usage_error": gettext("usage"),
        "value_error": gettext("invalid value"),
        "vcs_error": gettext("version control"),
    }


CATEGORIES = frozenset(_category_labels(str))


def _scope_labels(gettext) -> dict[str, str]:
    return {
        "generic": gettext("any platform"),
        "linux": "Linux",
        "windows": "Windows",
        "macos": "macOS",
        "container": gettext("containers"),
        "github": "GitHub",
    }


SCOPES = frozenset(_scope_labels(str))


def _label(labels: dict[str, str], value: str, lang: str) -> Markup | str:
    if value in labels:
        return labels[value]
    # An imported value with no label: shown as is, marked as English inside a Chinese page.
    text = value.replace("_", " ")
    return Markup('<span lang="en">%s</span>') % text if lang != DEFAULT_LANG else text


def category_label(value: str, lang: str) -> Markup | str:
    return _label(_category_labels(translations(lang).gettext), value, lang)


def scope_label(value: str, lang: str) -> Markup | str:
    return _label(_scope_labels(translations(lang).gettext), value, lang)
