"""What a reader may propose, and how each change turns the current entry into the proposed one.

A change is an operation, not a snapshot: applied to the entry as it is when a moderator
looks, it rebases on edits accepted in between. The result is validated as an entry file
is on import (EntryDoc), so a change that would break the entry is refused naming its field.
"""

import re
from typing import Annotated, Literal

from pydantic import Field, TypeAdapter, ValidationError, model_validator

from app.schemas.common import ITEM_KEY_RE, RegexPattern, Str, Strict, Text, compile_pattern
from app.schemas.document import DocLinkDoc, EntryDoc, PriorDoc, ProvenanceDoc, VersionDoc
from app.services.proposals.errors import ProposalInvalid
from app.services.proposals.scrub import scrub

# A reader proposes an approach, not its rate: until a moderator sets a curated estimate
# (editing before accepting), a workaround starts even and a dead end as failing mostly.
PROPOSED_WORKAROUND_RATE = 0.5
PROPOSED_DEAD_END_RATE = 0.75
PROPOSED_PRIOR = PriorDoc(fix_rate=0.5, confidence=0.2)
PROPOSAL_SOURCE = "reader proposal"
SEGMENT_RE = r"^[a-z0-9][a-z0-9._-]*$"

Signature = Annotated[Str, Field(min_length=1, max_length=4000)]
Line = Annotated[Str, Field(min_length=1, max_length=300)]


class SignatureChange(Strict):
    kind: Literal["signature"]
    signature: Signature


class VariantChange(Strict):
    kind: Literal["variant"]
    text: Signature
    versions: Str | None = Field(default=None, max_length=200)
    locale: Str | None = Field(default=None, max_length=40)
    note: Text | None = None


class PatternChange(Strict):
    kind: Literal["pattern"]
    pattern: Annotated[RegexPattern, Field(min_length=1, max_length=2000)]


class WorkaroundChange(Strict):
    kind: Literal["workaround"]
    title: Text
    steps: Text | None = None
    condition: Text | None = None


class DeadEndChange(Strict):
    kind: Literal["dead_end"]
    action: Text
    why_fails: Text
    condition: Text | None = None


class VersionChange(VersionDoc):
    kind: Literal["version"]


class DocChange(DocLinkDoc):
    kind: Literal["doc"]


TEXT_FIELDS = ("title", "summary", "root_cause")
ITEM_TEXT_FIELDS = {
    "workarounds": ("title", "steps", "condition"),
    "dead_ends": ("action", "why_fails", "condition"),
}
_FIELD_RE = re.compile(
    r"^(?:(?P<top>title|summary|root_cause)|(?P<list>workarounds|dead_ends)\.(?P<item>[^.]+)\.(?P<sub>[a-z_]+))$"
)


class TextChange(Strict):
    """A text in one language for one field: a Chinese translation, or a better English text."""

    kind: Literal["text"]
    field: Str = Field(
        description="title, summary, root_cause, workarounds.<id>.steps, dead_ends.<id>.why_fails, ..."
    )
    lang: Literal["en", "zh"]
    text: Annotated[Str, Field(min_length=1, max_length=20000)]

    @model_validator(mode="after")
    def _known_field(self) -> "TextChange":
        match = _FIELD_RE.match(self.field)
        if not match or (match["list"] and match["sub"] not in ITEM_TEXT_FIELDS[match["list"]]):
            raise ValueError(f"field {self.field[:80]!r} is not a text field of an entry")
        return self


class NewEntryChange(Strict):
    """A new entry, most often prefilled from a paste that matched nothing."""

    kind: Literal["new_entry"]
    id: Str | None = Field(
        default=None, max_length=300, description="domain/slug; derived from the title if absent"
    )
    domain: Annotated[Str, Field(min_length=1, max_length=100, pattern=SEGMENT_RE)]
    category: Annotated[Str, Field(min_length=1, max_length=100, pattern=r"^[a-z0-9_]+$")] = "runtime_error"
    title: Text
    signature: Signature
    patterns: list[Annotated[RegexPattern, Field(min_length=1, max_length=2000)]] = Field(
        default=[], max_length=10
    )
    summary: Text | None = None
    root_cause: Text | None = None
    workaround: WorkaroundChange | None = None
    paste: Str | None = Field(
        default=None, max_length=16000, description="The paste, scrubbed: context for the moderator"
    )

    @model_validator(mode="after")
    def _patterns_match(self) -> "NewEntryChange":
        for n, pattern in enumerate(self.patterns):
            if not compile_pattern(pattern).search(self.signature):
                raise ValueError(f"pattern {n + 1} does not match the signature")
        return self


Change = Annotated[
    SignatureChange
    | VariantChange
    | PatternChange
    | WorkaroundChange
    | DeadEndChange
    | VersionChange
    | DocChange
    | TextChange
    | NewEntryChange,
    Field(discriminator="kind"),
]
_VERBATIM = {
    "pattern",
    "url",
    "kind",
    "field",
    "lang",
    "domain",
    "category",
    "id",
    "component",
    "version",
    "status",
}


_CHANGE = TypeAdapter(Change)


def scrub_change(change) -> dict:
    """The change as it will be stored: every free text scrubbed; patterns, URLs and keys as given.

    Validated again once scrubbed: a pattern that matched a signature's address or user
    name may no longer match the scrubbed signature."""

    def clean(key, value):
        if isinstance(value, dict):
            return {k: clean(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [clean(key, v) for v in value]
        if isinstance(value, str) and key not in _VERBATIM and key != "patterns":
            return scrub(value)
        return value

    scrubbed = clean(None, change.model_dump(mode="json"))
    try:
        _CHANGE.validate_python(scrubbed)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ProposalInvalid(("change", *error["loc"][1:]), f"{error['msg']} (once scrubbed)") from None
    return scrubbed


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60].strip("-")
    return slug if slug and ITEM_KEY_RE.match(slug) else "item"


def _unique_key(data: dict, title: str) -> str:
    taken = {w["id"] for w in data["workarounds"]} | {d["id"] for d in data["dead_ends"]}
    key, n = _slug(title), 2
    base = key
    while key in taken:
        key, n = f"{base}-{n}", n + 1
    return key


def _set_text(data: dict, change: TextChange) -> None:
    match = _FIELD_RE.match(change.field)
    if match["top"]:
        holder, name = data, match["top"]
    else:
        holder = next((i for i in data[match["list"]] if i["id"] == match["item"]), None)
        if holder is None:
            raise ProposalInvalid(("change", "field"), f"the entry has no item {match['item']!r}")
        name = match["sub"]
    current = holder.get(name)
    if current is None and change.lang == "zh":
        raise ProposalInvalid(("change", "field"), "this field has no English text yet; propose that first")
    holder[name] = {**(current or {"zh": None}), change.lang: change.text}


def _apply(data: dict, change) -> None:
    kind = change["kind"]
    if kind == "signature":
        old = data["signature"]
        data["signature"] = change["signature"]
        # Checks of the old wording vouch for nothing in the new one.
        data["verification"] = [v for v in data["verification"] if v["text"] != old]
    elif kind == "variant":
        if change["text"] in [data["signature"], *(v["text"] for v in data["variants"])]:
            raise ProposalInvalid(("change", "text"), "the entry has this wording already")
        data["variants"].append({k: change[k] for k in ("text", "versions", "locale", "note")})
    elif kind == "pattern":
        regex = compile_pattern(change["pattern"])
        if not any(regex.search(w) for w in [data["signature"], *(v["text"] for v in data["variants"])]):
            raise ProposalInvalid(
                ("change", "pattern"), "matches neither the signature nor any wording of it"
            )
        if change["pattern"] in data["patterns"]:
            raise ProposalInvalid(("change", "pattern"), "the entry has this pattern already")
        data["patterns"].append(change["pattern"])
    elif kind == "workaround":
        data["workarounds"].append(
            {
                "id": _unique_key(data, change["title"]["en"]),
                "title": change["title"],
                "steps": change["steps"],
                "condition": change["condition"],
                "success_rate": PROPOSED_WORKAROUND_RATE,
            }
        )
    elif kind == "dead_end":
        data["dead_ends"].append(
            {
                "id": _unique_key(data, change["action"]["en"]),
                "action": change["action"],
                "why_fails": change["why_fails"],
                "condition": change["condition"],
                "fail_rate": PROPOSED_DEAD_END_RATE,
            }
        )
    elif kind == "version":
        data["versions"].append({k: v for k, v in change.items() if k != "kind"})
    elif kind == "doc":
        if change["url"] in [d["url"] for d in data["docs"]]:
            raise ProposalInvalid(("change", "url"), "the entry links this page already")
        data["docs"].append({"title": change["title"], "url": change["url"]})
    elif kind == "text":
        _set_text(data, TextChange.model_validate(change))


def _validated(data: dict, prefix: tuple) -> EntryDoc:
    try:
        return EntryDoc.model_validate(data)
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ProposalInvalid((*prefix, *error["loc"]), error["msg"]) from None


def apply_change(doc: EntryDoc, change: dict) -> EntryDoc:
    """The entry as it would be with the (stored, scrubbed) change applied; nothing is written."""
    data = doc.model_dump(mode="json", exclude={"evidence", "revision", "created_at", "updated_at"})
    _apply(data, change)
    return _validated(data, ("change",))


def new_entry_id(change: dict) -> str:
    return change.get("id") or f"{change['domain']}/{_slug(change['title']['en'])}"


def new_entry_document(change: dict) -> EntryDoc:
    """The entry a new-entry proposal describes, marked as a reader's, unreviewed."""
    data = {
        "id": new_entry_id(change),
        "domain": change["domain"],
        "category": change["category"],
        "title": change["title"],
        "summary": change["summary"],
        "signature": change["signature"],
        "patterns": change["patterns"],
        "root_cause": change["root_cause"],
        "prior": PROPOSED_PRIOR.model_dump(),
        "provenance": ProvenanceDoc(source=PROPOSAL_SOURCE).model_dump(),
        "workarounds": [],
        "dead_ends": [],
    }
    if change.get("workaround"):
        _apply(data, change["workaround"])
    return _validated(data, ("change",))
