"""Shared field types: ids, rates, bilingual text."""

import re
from typing import Annotated

import re2
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field

ENTRY_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*){1,2}$")
ITEM_KEY_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
MAX_ENTRY_ID = 300
MAX_DOMAIN = 100  # the entry table's domain column


def _check_entry_id(value: str) -> str:
    if len(value) > MAX_ENTRY_ID or not ENTRY_ID_RE.match(value):
        raise ValueError("must be domain/slug or domain/slug/env, lowercase segments [a-z0-9][a-z0-9._-]*")
    return value


def _as_text(value):
    # YAML reads 12.1 or 2024 as numbers; versions and similar fields are strings.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return value


_RE2_OPTIONS = re2.Options()
_RE2_OPTIONS.log_errors = False  # errors are reported to the user, not to stderr
_RE2_OPTIONS.max_mem = 8 << 20  # a pattern may not build a program larger than this


def compile_pattern(pattern: str):
    """Patterns are untrusted: RE2 never backtracks, so matching time stays linear."""
    try:
        return re2.compile(pattern, options=_RE2_OPTIONS)
    except re2.error as exc:
        reason = exc.args[0].decode() if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise ValueError(f"not a valid RE2 regular expression: {reason}") from None


def check_pattern(pattern: str) -> str:
    compile_pattern(pattern)
    return pattern


EntryId = Annotated[str, AfterValidator(_check_entry_id)]
ItemKey = Annotated[str, Field(min_length=1, max_length=100, pattern=ITEM_KEY_RE.pattern)]
Rate = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
Str = Annotated[str, BeforeValidator(_as_text)]
RegexPattern = Annotated[str, AfterValidator(check_pattern)]


class Strict(BaseModel):
    """Unknown keys are errors, so that a typo in a data file names itself."""

    model_config = ConfigDict(extra="forbid")


class Text(Strict):
    """Bilingual text; `zh` is null until someone translates it."""

    en: Str = Field(min_length=1)
    zh: Str | None = None

    def pick(self, lang: str) -> str:
        return self.zh if lang == "zh" and self.zh else self.en

    def missing(self, lang: str) -> bool:
        return lang == "zh" and not self.zh
