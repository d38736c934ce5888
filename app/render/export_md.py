"""EntryView -> a Markdown document (the .md views): plain to read in a terminal or an agent's context."""

import re

from markupsafe import Markup

from app.i18n import (
    category_label,
    colon,
    day,
    percent,
    rate_basis,
    scope_label,
    status_label,
    translations,
    verification_label,
    with_basis,
)
from app.schemas.common import Text
from app.schemas.views import EntryView
from app.urls import entry_url


def striptags(label: Markup | str) -> str:
    return Markup(label).striptags() if isinstance(label, Markup) else label


def fence(code: str, info: str = "") -> str:
    longest = max((len(run) for run in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{info}\n{code}\n{fence}"


def _cell(value: str | None) -> str:
    return (value or "—").replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def render_entry_markdown(view: EntryView, lang: str, base_url: str = "") -> str:
    _ = translations(lang).gettext
    untranslated = _("(not yet translated; English shown)")
    # Marks per field only on a partly translated entry; an untranslated one says it once.
    mark = view.has_chinese()
    # Labels as plain calls: the catalog extractor does not look inside f-strings.
    label = {
        "ID": _("ID"),
        "Domain": _("Domain"),
        "Category": _("Category"),
        "Scope": _("Scope"),
        "Fix rate": _("Fix rate"),
        "Confidence": _("Confidence"),
        "Evidence": _("Evidence"),
        "First seen": _("First seen"),
        "Last confirmed": _("Last confirmed"),
        "Provenance": _("Provenance"),
        "Version compatibility": _("Version compatibility"),
        "Component": _("Component"),
        "Version": _("Version"),
        "Status": _("Status"),
        "Introduced": _("Introduced"),
        "Deprecated": _("Deprecated"),
        "Notes": _("Notes"),
        "Root cause": _("Root cause"),
        "Workarounds": _("Workarounds"),
        "When": _("When"),
        "Trade-off": _("Trade-off"),
        "Dead ends": _("Dead ends"),
        "Why people try it": _("Why people try it"),
        "Related errors": _("Related errors"),
        "not yet in errata": _("not yet in errata"),
        "Official documentation": _("Official documentation"),
        "Reports by version": _("Reports by version"),
        "Also available as": _("Also available as"),
    }

    sep = colon(lang)

    def bold(name: str) -> str:
        """A label in bold, with its colon: inside with its space after (English); after the
        bold when it carries its own space (Chinese), as CommonMark closes bold only there."""
        return f"**{label[name]}{sep.rstrip()}** " if sep.endswith(" ") else f"**{label[name]}**{sep}"

    def pick(value: Text | None) -> str:
        if value is None:
            return ""
        return f"{value.en}\n\n*{untranslated}*" if mark and value.missing(lang) else value.pick(lang)

    def line(value: Text | None) -> str:
        if value is None:
            return ""
        return f"{value.en} *{untranslated}*" if mark and value.missing(lang) else value.pick(lang)

    out: list[str] = [f"# {line(view.title)}", ""]
    if lang == "zh" and not mark:
        out += [
            f"*{_('This entry has not been translated into Chinese yet: the English text is shown.')}*",
            "",
        ]

    def checks(wording: str) -> list[str]:
        found = []
        for r in view.verification:
            if r.text == wording:
                how = f"{sep}`{r.command}`" if r.command else ""
                link = f" <{r.url}>" if r.url else ""
                note = f"{sep}{line(r.note)}" if r.note else ""
                mark = "⚠" if r.method == "reported" else "✓"
                found.append(f"- {mark} {verification_label(r, lang)}{how}{link}{note}")
        return found + ([""] if found else [])

    out += [fence(view.signature, "text"), ""]
    out += checks(view.signature)
    if view.variants:
        out += [f"**{_('Other wordings of this error (%(n)s)') % {'n': len(view.variants)}}**", ""]
        for v in view.variants:
            where = " · ".join(
                part
                for part in (v.versions, _("locale %(locale)s") % {"locale": v.locale} if v.locale else None)
                if part
            )
            out += [fence(v.text, "text"), ""]
            out += [f"*{where}*{' — ' + line(v.note) if v.note else ''}", ""] if where or v.note else []
            out += checks(v.text)
    provenance = _("AI-generated, not yet reviewed") if view.ai_generated else _("Written by people")
    if view.review_status == "reviewed":
        provenance += " · " + _("reviewed")
    out += [
        f"- {bold('ID')}`{view.id}`",
        f"- {bold('Domain')}{view.domain} · "
        f"{bold('Category')}{striptags(category_label(view.category, lang))} · "
        f"{bold('Scope')}{striptags(scope_label(view.scope, lang))}",
        f"- {bold('Fix rate')}{percent(view.fix_rate, lang)} "
        f"({rate_basis(view.evidence_count, lang)}) · "
        f"{bold('Confidence')}{percent(view.confidence, lang)} · "
        f"{bold('Evidence')}{view.evidence_count}",
        f"- {bold('First seen')}{day(view.first_seen, lang)} · "
        f"{bold('Last confirmed')}{day(view.last_confirmed, lang)}",
        f"- {bold('Provenance')}{provenance}",
        "",
    ]
    if view.summary:
        out += [pick(view.summary), ""]
    if view.versions:
        out += [f"## {label['Version compatibility']}", ""]
        out += [
            f"| {label['Component']} | {label['Version']} | {label['Status']} | {label['Introduced']} | "
            f"{label['Deprecated']} | {label['Notes']} |",
            "|---|---|---|---|---|---|",
        ]
        out += [
            f"| {_cell(v.component)} | {_cell(v.version)} | {status_label(v.status, lang)} "
            f"| {_cell(v.introduced)} | {_cell(v.deprecated)} | {_cell(line(v.notes))} |"
            for v in view.versions
        ]
        out.append("")
    if view.root_cause:
        out += [f"## {label['Root cause']}", "", pick(view.root_cause), ""]
    if view.workarounds:
        out += [f"## {label['Workarounds']}", ""]
        for n, w in enumerate(view.workarounds, 1):
            rate = _("%(rate)s success") % {"rate": percent(w.success_rate, lang)}
            rate = with_basis(rate, w.reports.total, lang)
            out += [f"### {n}. {line(w.title)} ({rate})", ""]
            if w.steps:
                out += [pick(w.steps), ""]
            if w.condition:
                out += [f"{bold('When')}{line(w.condition)}", ""]
            if w.tradeoff:
                out += [f"{bold('Trade-off')}{line(w.tradeoff)}", ""]
            out += [f"- <{u}>" for u in w.sources] + ([""] if w.sources else [])
    if view.dead_ends:
        out += [f"## {label['Dead ends']}", "", _("Common approaches that don't work:"), ""]
        for n, d in enumerate(view.dead_ends, 1):
            verdict = _("%(rate)s fail") if d.verdict == "dead_end" else _("%(rate)s fail: unreliable")
            rate = with_basis(verdict % {"rate": percent(d.fail_rate, lang)}, d.reports.total, lang)
            out += [f"### {n}. {line(d.action)} ({rate})", "", pick(d.why_fails), ""]
            if d.condition:
                out += [f"{bold('When')}{line(d.condition)}", ""]
            if d.misconception:
                out += [f"{bold('Why people try it')}{line(d.misconception)}", ""]
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
        out += [f"## {label['Related errors']}", ""]
        for kind, refs in related:
            for r in refs:
                if r.in_base:
                    target = f"[{line(r.title)}]({base_url}{entry_url(r.id, lang=lang, fmt='md')})"
                else:
                    target = f"`{r.id}` ({label['not yet in errata']})"
                note = f" — {line(r.note)}" if r.note else ""
                out.append(f"- {kind}{sep}{target}{note}")
        out.append("")
    if view.merged:
        out += [f"## {_('Environments and merged entries')}", ""]
        for part in view.merged:
            name = _("Environment %(env)s") % {"env": part.environment} if part.environment else part.id
            rate = _("fix rate %(rate)s") % {"rate": percent(part.fix_rate, lang)}
            out += [f"### {name} (`{part.id}`, {with_basis(rate, part.evidence_count, lang)})", ""]
            out += [fence(part.signature), ""]
            out += [
                f"- {v.component} `{v.version or '*'}`{sep}{status_label(v.status, lang)}"
                for v in part.versions
            ]
            for w in part.workarounds:
                rate = _("%(rate)s success") % {"rate": percent(w.success_rate, lang)}
                out.append(f"- {label['Workarounds']}{sep}{line(w.title)} ({rate})")
            for d in part.dead_ends:
                rate = _("%(rate)s fail") % {"rate": percent(d.fail_rate, lang)}
                out.append(f"- {label['Dead ends']}{sep}{line(d.action)} ({rate})")
            out.append("")
    if view.docs:
        out += [f"## {label['Official documentation']}", ""]
        out += [f"- [{d.title}]({d.url})" for d in view.docs] + [""]
    if view.version_reports:
        out += [f"## {label['Reports by version']}", ""]
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
        f"{label['Also available as']}{sep}[JSON]({base_url}{entry_url(view.id, fmt='json')}) · "
        f"[HTML]({base_url}{entry_url(view.id, lang=lang)}) · "
        f"[{'English' if other == 'en' else '中文'}]({base_url}{entry_url(view.id, lang=other, fmt='md')})",
        "",
    ]
    return "\n".join(out)
