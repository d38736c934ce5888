"""What makes a shipped entry trustworthy, as checks that name what is wrong.

Static checks need only the documents: every wording (signature and variants) is
matched by a pattern and has a verification record; no pattern recognises another
entry's wording (an over-broad pattern would decide matches it should not); every text
has its Chinese; category and scope come from the translated vocabulary.
Output checks hold a reproduction's output against the entry: each
reproduced wording is in it, a pattern matches it, and looking it up finds the entry.
"""

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.i18n import CATEGORIES, SCOPES
from app.schemas.common import Text, compile_pattern
from app.schemas.document import EntryDoc
from app.services.lookup.text import clean, normalize
from app.services.verification.reproduce import Run


@dataclass
class EntryCheck:
    id: str
    problems: list[str] = field(default_factory=list)
    reproduced: bool = False  # a script ran and everything it was meant to show, it showed
    patterns_on_output: bool = False  # a pattern matched real output of the tool


_DIGITS = re.compile(r"\d+")


def _flat(text: str) -> str:
    """Text as compared for "the tool printed this wording": what varies is blanked, and so
    is every run of digits, even inside names (`/torch_7_2213_0`, pids, ports)."""
    return " ".join(_DIGITS.sub("0", normalize(clean(text))).split())


def _matching(patterns: Iterable[str], text: str) -> list[str]:
    return [p for p in patterns if compile_pattern(p).search(text)]


def untranslated(doc: EntryDoc) -> list[str]:
    """Names of the text fields that have no Chinese."""
    fields: list[tuple[str, Text | None]] = [
        ("title", doc.title),
        ("summary", doc.summary),
        ("root_cause", doc.root_cause),
    ]
    for w in doc.workarounds:
        fields += [(f"workarounds.{w.id}.{n}", getattr(w, n)) for n in ("title", "steps", "condition")]
    for d in doc.dead_ends:
        fields += [(f"dead_ends.{d.id}.{n}", getattr(d, n)) for n in ("action", "why_fails", "condition")]
    for v in doc.versions:
        fields.append((f"versions.{v.component}.notes", v.notes))
    return [name for name, value in fields if value is not None and not value.zh]


def static_problems(doc: EntryDoc, others: Iterable[EntryDoc]) -> list[str]:
    problems: list[str] = []
    # Shipped entries use the vocabulary the interface translates.
    if doc.category not in CATEGORIES:
        problems.append(f"category {doc.category!r} is not in the vocabulary of app/i18n.py")
    if doc.scope not in SCOPES:
        problems.append(f"scope {doc.scope!r} is not in the vocabulary of app/i18n.py")
    if not doc.patterns:
        problems.append("no patterns")
    verified = {v.text for v in doc.verification}
    if not {v.method for v in doc.verification} & {"reproduced", "sourced"}:
        problems.append("no wording is reproduced or sourced")
    for wording in doc.wordings():
        label = "signature" if wording == doc.signature else f"variant {wording!r}"
        if doc.patterns and not _matching(doc.patterns, wording):
            problems.append(f"no pattern matches the {label}")
        if wording not in verified:
            problems.append(f"the {label} has no verification")
    for other in others:
        if other.id == doc.id:
            continue
        for wording in other.wordings():
            for pattern in _matching(doc.patterns, wording):
                problems.append(f"pattern {pattern!r} also matches {other.id}: {wording[:80]!r}")
    missing = untranslated(doc)
    if missing:
        problems.append(f"no Chinese for {', '.join(missing)}")
    return problems


def output_problems(doc: EntryDoc, run: Run, best_match: str | None) -> EntryCheck:
    """Hold one reproduction's output against the entry; `best_match` is what lookup found first."""
    check = EntryCheck(id=doc.id)
    if run.missing:
        check.problems.append(f"not run: {', '.join(run.missing)} not installed")
        return check
    if run.timed_out:
        check.problems.append(f"the reproduction ran past its timeout ({run.seconds:.0f} s)")
    output = _flat(run.output)
    for record in doc.verification:
        if record.method != "reproduced":
            continue
        absent = [line for line in record.text.splitlines() if _flat(line) and _flat(line) not in output]
        if absent:
            check.problems.append(f"the reproduction did not print {absent[0]!r}")
    check.patterns_on_output = bool(_matching(doc.patterns, clean(run.output)))
    if not check.patterns_on_output:
        check.problems.append("no pattern matches the reproduction's output")
    if best_match != doc.id:
        check.problems.append(f"looking the output up finds {best_match or 'nothing'} first")
    check.reproduced = not check.problems
    if not check.reproduced:
        tail = "\n".join(run.output.strip().splitlines()[-8:])
        check.problems.append(f"output ended with:\n{tail}")
    return check
