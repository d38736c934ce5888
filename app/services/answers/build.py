"""A paste -> an Answer: the ranked matches, each with its best workaround and the dead ends.

Built from the EntryView of each match (the one data path), whether the entries come from
the local database or from a remote errata's public JSON. Strings are picked in one language.
"""

from pydantic import BaseModel, Field
from sqlmodel import Session

from app.render.markdown import first_code_block
from app.schemas.views import EntryView
from app.services.entries.read import get_entry
from app.services.lookup.index import LookupIndex
from app.services.lookup.rank import lookup

DEAD_ENDS_SHOWN = 3


class WorkaroundHint(BaseModel):
    id: str = Field(description="Workaround id, for report_outcome's `item`")
    title: str
    success_rate: float = Field(description="Posterior success rate, 0..1")
    reports: int = Field(description="Reports behind the rate; 0 means the curated estimate alone")
    command: str | None = Field(description="The first command of its steps, if they hold one")
    steps: str | None = Field(description="Markdown")


class DeadEndHint(BaseModel):
    id: str = Field(description="Dead-end id, for report_outcome's `item`")
    action: str
    why_fails: str
    fail_rate: float
    reports: int


class AnswerMatch(BaseModel):
    id: str
    title: str
    score: float = Field(description="0..1: how well the entry fits the paste")
    signature: str
    fix_rate: float
    evidence_count: int = Field(description="Accepted reports behind fix_rate")
    best_workaround: WorkaroundHint | None
    dead_ends: list[DeadEndHint] = Field(description="Approaches that fail at least half the time")
    url: str
    markdown_url: str


class Answer(BaseModel):
    lang: str
    matches: list[AnswerMatch] = Field(description="Best first; empty when nothing fits")


def workaround_hint(view: EntryView, lang: str) -> WorkaroundHint | None:
    ranked = view.ranked_workarounds()
    if not ranked:
        return None
    best = ranked[0]
    steps = best.steps.pick(lang) if best.steps else None
    return WorkaroundHint(
        id=best.id,
        title=best.title.pick(lang),
        success_rate=best.success_rate,
        reports=best.reports.total,
        command=first_code_block(steps),
        steps=steps,
    )


def dead_end_hints(view: EntryView, lang: str) -> list[DeadEndHint]:
    dead = [d for d in view.dead_ends if d.verdict == "dead_end"]
    dead.sort(key=lambda d: (-d.reports.total, -d.fail_rate))
    return [
        DeadEndHint(
            id=d.id,
            action=d.action.pick(lang),
            why_fails=d.why_fails.pick(lang),
            fail_rate=d.fail_rate,
            reports=d.reports.total,
        )
        for d in dead[:DEAD_ENDS_SHOWN]
    ]


def answer_match(view: EntryView, score: float, lang: str, base_url: str = "") -> AnswerMatch:
    return AnswerMatch(
        id=view.id,
        title=view.title.pick(lang),
        score=score,
        signature=view.signature,
        fix_rate=view.fix_rate,
        evidence_count=view.evidence_count,
        best_workaround=workaround_hint(view, lang),
        dead_ends=dead_end_hints(view, lang),
        url=base_url + (view.links.html_zh if lang == "zh" else view.links.html),
        markdown_url=base_url + (view.links.markdown_zh if lang == "zh" else view.links.markdown),
    )


def answer(scored: list[tuple[float, EntryView]], lang: str, base_url: str = "") -> Answer:
    return Answer(lang=lang, matches=[answer_match(v, s, lang, base_url) for s, v in scored])


def local_answer(
    session: Session,
    index: LookupIndex,
    text: str,
    *,
    lang: str,
    limit: int = 3,
    versions: dict[str, str] | None = None,
    base_url: str = "",
) -> Answer:
    matches = lookup(session, index, text, limit=limit, versions=versions)
    return answer([(m.score, get_entry(session, m.id)) for m in matches], lang, base_url)
