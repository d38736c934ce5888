"""Pieces of the terminal commands: the language of the terminal, the bounded tail."""

import pytest

from app.agents.terminal import Tail, terminal_lang


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh"),
        ({}, "en"),
    ],
)
def test_terminal_language_follows_gettext_precedence(environ, lang):
    assert terminal_lang(environ) == lang


def test_tail_keeps_the_end_and_never_much_more_than_its_limit():
    tail = Tail(limit=100)
    for n in range(1000):
        tail.add(b"%04d\n" % n)
        assert tail.size < 100 + 5
    assert tail.text().endswith("0998\n0999\n") and len(tail.text()) == 100
    split = Tail(limit=4)
    split.add("错".encode()[:2])  # a character cut by the bound reads as a replacement, not an error
    split.add("错误".encode())
    assert split.text().endswith("误")
