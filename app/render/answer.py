"""An Answer (matches for a paste) as terminal text or Markdown, in the reader's language."""

from app.i18n import colon, percent, rate_basis, translations, with_basis
from app.render.export_md import fence
from app.services.answers.build import Answer, AnswerMatch


def _first_line(text: str, width: int = 160) -> str:
    line = next((part.strip() for part in text.splitlines() if part.strip()), "")
    return line if len(line) <= width else line[: width - 1] + "…"


def _lines(match: AnswerMatch, lang: str, markdown: bool) -> list[str]:
    _ = translations(lang).gettext
    out: list[str] = []
    fix = _("Fix rate %(rate)s (%(basis)s)") % {
        "rate": percent(match.fix_rate, lang),
        "basis": rate_basis(match.evidence_count, lang),
    }
    out.append(fix)
    best = match.best_workaround
    if best is not None:
        rate = _("%(rate)s success") % {"rate": percent(best.success_rate, lang)}
        label = _("Try:")
        out.append(f"{_labelled(label)}{best.title} ({with_basis(rate, best.reports, lang)})")
        if best.command:
            out.append(fence(best.command, "sh") if markdown else _indent(best.command, "    $ "))
    avoid = _("Avoid:")
    for dead in match.dead_ends:
        rate = _("%(rate)s fail") % {"rate": percent(dead.fail_rate, lang)}
        out.append(f"{_labelled(avoid)}{dead.action} ({rate}){colon(lang)}{_first_line(dead.why_fails, 240)}")
    return out


def _labelled(label: str) -> str:
    """A full-width colon (Chinese) carries its own space."""
    return label if label.endswith("：") else label + " "


def _indent(block: str, first: str) -> str:
    pad = " " * len(first)
    return "\n".join((first if n == 0 else pad) + line for n, line in enumerate(block.splitlines()))


def nothing_matched(lang: str) -> str:
    _ = translations(lang).gettext
    return _("No entry in errata matches this error.")


def answer_text(result: Answer) -> str:
    lang = result.lang
    _ = translations(lang).gettext
    if not result.matches:
        return nothing_matched(lang) + "\n"
    count = len(result.matches)
    found = translations(lang).ngettext("%(n)d matching entry", "%(n)d matching entries", count)
    out = [f"errata: {found % {'n': count}}", ""]
    for n, match in enumerate(result.matches, 1):
        score = _("match %(score)s") % {"score": percent(match.score, lang)}
        out.append(f"{n}. {match.title}  [{match.id}]  ({score})")
        out.append(f"   {_first_line(match.signature)}")
        out += ["   " + line.replace("\n", "\n   ") for line in _lines(match, lang, markdown=False)]
        # A local database has no address of its own: the id above names the entry.
        out += [f"   {match.url}"] if match.url.startswith("http") else []
        out.append("")
    return "\n".join(out)


def answer_markdown(result: Answer) -> str:
    lang = result.lang
    if not result.matches:
        return nothing_matched(lang) + "\n"
    out: list[str] = []
    for n, match in enumerate(result.matches, 1):
        score = translations(lang).gettext("match %(score)s") % {"score": percent(match.score, lang)}
        out += [f"## {n}. [{match.title}]({match.markdown_url}) ({score})", "", f"`{match.id}`", ""]
        out += [fence(match.signature, "text"), ""]
        for line in _lines(match, lang, markdown=True):
            out += [line if line.startswith("```") else f"- {line}", ""]
    return "\n".join(out)
