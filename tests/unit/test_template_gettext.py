"""Templates' gettext answers as Jinja's own newstyle gettext does: the words translated, the
variables put in escaped, `%%` a percent sign, in both interface languages."""

import pytest
from jinja2 import Environment

from app import i18n
from app.web.templating import environment

SOURCES = [
    "{{ _('a moderator') }}",
    "{{ _('100%% sure') }}",
    "{{ _('%(who)s & co', who=who) }}",
    "{% trans n=who %}Page {{ n }} of 3{% endtrans %}",
    "{% trans n=n %}{{ n }} entry{% pluralize %}{{ n }} entries{% endtrans %}",
    "{% autoescape false %}{{ _('%(who)s & co', who=who) }}{% endautoescape %}",
    "{{ gettext('a moderator') }} {{ _('import') }}",
]


def _jinjas_own(lang: str) -> Environment:
    env = Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)
    return env


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("source", SOURCES)
def test_pages_words_are_what_jinjas_gettext_gives(lang, source):
    context = {"who": "<i>x</i>", "n": 3}
    ours = environment(lang).from_string(source).render(**context)
    assert ours == _jinjas_own(lang).from_string(source).render(**context)
    assert "<i>" not in ours or "autoescape false" in source


def test_the_chinese_words_come_from_the_catalog():
    assert environment("zh").from_string("{{ _('a moderator') }}").render() == "审核员"
