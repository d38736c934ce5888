"""Markdown written for readers and agents stays valid CommonMark whatever the text holds."""

from markdown_it import MarkdownIt

from app.render.export_md import fence


def test_a_code_block_holding_backticks_gets_a_longer_fence():
    code = "echo '```'\necho done"
    block = fence(code, "sh")
    assert block == "````sh\n" + code + "\n````"
    [token] = MarkdownIt().parse(block)
    assert (token.type, token.info, token.content) == ("fence", "sh", code + "\n")
