"""Interface languages: gettext catalogs (Babel .po files) and locale-aware number and date filters.

Content (root causes, workarounds...) is not translated here: it lives in the `zh`
fields of entries. This module only carries the words of the interface.
"""

from datetime import date, datetime
from functools import cache
from io import BytesIO
from pathlib import Path

from babel import Locale
from babel.dates import format_datetime
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent
from babel.support import NullTranslations, Translations

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


def locale(lang: str) -> Locale:
    return Locale.parse(LANGUAGES[lang][0])


def percent(value: float, lang: str) -> str:
    return format_percent(value, locale=locale(lang))


def number(value: float, lang: str) -> str:
    return format_decimal(value, locale=locale(lang))


def day(value: date | datetime | None, lang: str) -> str:
    if value is None:
        return "—"
    if isinstance(value, datetime):
        return format_datetime(value, "medium", locale=locale(lang))
    return value.isoformat()


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
