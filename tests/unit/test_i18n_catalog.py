"""The Chinese interface is complete: every string the code and templates use has a translation."""

from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.config import PROJECT_ROOT
from app.i18n import LOCALE_DIR, switch_path, translations

JINJA = ("jinja2", {"extensions": "jinja2.ext.i18n", "trimmed": "true"})
METHODS = [
    ("app/**.py", "python"),
    ("templates/*.html", "jinja2"),
    ("templates/partials/*.html", "jinja2"),
]


def _used_messages() -> set:
    found = set()
    options = {"templates/*.html": JINJA[1], "templates/partials/*.html": JINJA[1]}
    for _, _, message, _, _ in extract_from_dir(
        PROJECT_ROOT, METHODS, options, keywords={"_": None, "gettext": None, "ngettext": (1, 2)}
    ):
        found.add(message)
    return found


def test_every_interface_string_has_a_chinese_translation():
    with (LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    missing = []
    for message in _used_messages():
        entry = catalog.get(message)
        translated = entry is not None and (
            all(entry.string) if isinstance(entry.string, tuple | list) else bool(entry.string)
        )
        if not translated:
            missing.append(message)
    assert not missing, f"add these to app/locale/zh/LC_MESSAGES/messages.po: {missing}"


def test_placeholders_survive_translation():
    gettext = translations("zh").gettext
    assert gettext("%(rate)s success") % {"rate": "90%"} == "90% 成功"
    assert gettext("Fix rate") == "修复率"
    assert translations("en").gettext("Fix rate") == "Fix rate"


def test_language_switch_keeps_the_path():
    assert switch_path("/errors/llm/x", "zh") == "/zh/errors/llm/x"
    assert switch_path("/zh/errors/llm/x", "en") == "/errors/llm/x"
    assert switch_path("/", "zh") == "/zh/"
    assert switch_path("/zh/", "en") == "/"


# Words Chinese developers write in Latin letters; every other string needs Chinese.
SAME_IN_CHINESE = {"ID"}


def test_no_chinese_string_is_the_english_left_in_place():
    with (LOCALE_DIR / "zh" / "LC_MESSAGES" / "messages.po").open("rb") as handle:
        catalog = read_po(handle)
    untranslated = []
    for entry in catalog:
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.id and ids[0] not in SAME_IN_CHINESE and set(strings) & set(ids):
            untranslated.append(ids[0])
    assert not untranslated, f"these msgstr are the English text: {untranslated}"
