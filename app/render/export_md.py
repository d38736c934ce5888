"""EntryView -> a Markdown document (the .md views): plain to read in a terminal or an agent's context."""

import re

from app.i18n import day, percent, status_label, translations
from app.schemas.common import Text
from app.schemas.views import EntryView
from app.urls import entry_url


def _fence(code: str, info: str = "") -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{code}\n{fence}"


def _cell(value: str | None) -> str:
    return (value or "—").replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_entry_markdown(view: EntryView, lang: str, base_url: str = "") -> str:
    _ = translations(lang).gettext
    untranslated = _("(not yet translated; English shown)")

    def pick(value: Text | None) -> str:
        if value is None:
            return ""
        return f"{value.en}\n\n*{untranslated}*" if value.missing(lang) else value.pick(lang)

    def line(value: Text | None) -> str:
        if value is None:
            return ""
        return f"{value.en} *{untranslated}*" if value.missing(lang) else value.pick(lang)

    out: list[str] = [f"# {line(view.title)}", "", _fence(view.signature, "text"), ""]
    provenance = _("AI-generated, not yet reviewed") if view.ai_generated else _("Written by people")
    if view.review_status == "reviewed":
        provenance += " · " + _("reviewed")
    out += [
        f"- **{_('ID')}:** `{view.id}`",
        f"- **{_('Domain')}:** {view.domain} · **{_('Category')}:** {view.category} · "
        f"**{_('Scope')}:** {view.scope}",
        f"- **{_('Fix rate')}:** {percent(view.fix_rate, lang)} · "
        f"**{_('Confidence')}:** {percent(view.confidence, lang)} · "
        f"**{_('Evidence')}:** {view.evidence_count}",
        f"- **{_('First seen')}:** {day(view.first_seen, lang)} · "
        f"**{_('Last confirmed')}:** {day(view.last_confirmed, lang)}",
        f"- **{_('Provenance')}:** {provenance}",
        "",
    ]
    if view.summary:
        out += [pick(view.summary), ""]
    if view.versions:
        out += [f"## {_('Version compatibility')}", ""]
        out += [
            f"| {_('Component')} | {_('Version')} | {_('Status')} | {_('Introduced')} | "
            f"{_('Deprecated')} | {_('Notes')} |",
            "|---|---|---|---|---|---|",
        ]
        out += [
            f"| {_cell(v.component)} | {_cell(v.version)} | {status_label(v.status, lang)} "
            f"| {_cell(v.introduced)} | {_cell(v.deprecated)} | {_cell(line(v.notes))} |"
            for v in view.versions
        ]
        out.append("")
    if view.root_cause:
        out += [f"## {_('Root cause')}", "", pick(view.root_cause), ""]
    if view.workarounds:
        out += [f"## {_('Workarounds')}", ""]
        for n, w in enumerate(view.workarounds, 1):
            rate = _("%(rate)s success") % {"rate": percent(w.success_rate, lang)}
            out += [f"### {n}. {line(w.title)} ({rate})", ""]
            if w.steps:
                out += [pick(w.steps), ""]
            if w.condition:
                out += [f"**{_('When')}:** {line(w.condition)}", ""]
            if w.tradeoff:
                out += [f"**{_('Trade-off')}:** {line(w.tradeoff)}", ""]
            out += [f"- <{u}>" for u in w.sources] + ([""] if w.sources else [])
    if view.dead_ends:
        out += [f"## {_('Dead ends')}", "", _("Common approaches that don't work:"), ""]
        for n, d in enumerate(view.dead_ends, 1):
            rate = _("%(rate)s fail") % {"rate": percent(d.fail_rate, lang)}
            out += [f"### {n}. {line(d.action)} ({rate})", "", pick(d.why_fails), ""]
            if d.condition:
                out += [f"**{_('When')}:** {line(d.condition)}", ""]
            if d.misconception:
                out += [f"**{_('Why people try it')}:** {line(d.misconception)}", ""]
    related = [
        (label, refs)
        for label, refs in (
            (_("Leads to"), view.related.leads_to),
            (_("Preceded by"), view.related.preceded_by),
            (_("Often confused with"), view.related.confused_with),
        )
        if refs
    ]
    if related:
        out += [f"## {_('Related errors')}", ""]
        for label, refs in related:
            for r in refs:
                if r.in_base:
                    target = f"[{line(r.title)}]({base_url}{entry_url(r.id, lang=lang, fmt='md')})"
                else:
                    target = f"`{r.id}` ({_('not yet in errata')})"
                note = f" — {line(r.note)}" if r.note else ""
                out.append(f"- {label}: {target}{note}")
        out.append("")
    if view.docs:
        out += [f"## {_('Official documentation')}", ""]
        out += [f"- [{d.title}]({d.url})" for d in view.docs] + [""]
    if view.version_reports:
        out += [f"## {_('Reports by version')}", ""]
        out += [
            "- "
            + _("%(component)s %(version)s: %(worked)d worked, %(failed)d failed, %(partial)d partial")
            % r.model_dump()
            for r in view.version_reports
        ] + [""]
    other = "en" if lang == "zh" else "zh"
    out += [
        "---",
        "",
        f"{_('Also available as')}: [JSON]({base_url}{entry_url(view.id, fmt='json')}) · "
        f"[HTML]({base_url}{entry_url(view.id, lang=lang)}) · "
        f"[{'English' if other == 'en' else '中文'}]({base_url}{entry_url(view.id, lang=other, fmt='md')})",
        "",
    ]
    return "\n".join(out)
