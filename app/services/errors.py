"""Domain exceptions, raised by services and turned into responses by one handler (app.web.errors).

Each knows its HTTP status and says its message through the caller's gettext, so the
same error reads in the language of the page that hit it.
"""

from collections.abc import Callable

Gettext = Callable[[str], str]


class DomainError(Exception):
    status: int  # every kind says its own (404, 409, 422, 429)

    def message(self, gettext: Gettext) -> str:
        return str(self)

    def headers(self) -> dict[str, str]:
        return {}


class EntryNotFound(DomainError, LookupError):
    status = 404

    def __init__(self, entry_id: str):
        super().__init__(entry_id)
        self.entry_id = entry_id

    def message(self, gettext: Gettext) -> str:
        return gettext("No entry %(id)s") % {"id": self.entry_id}


class DomainNotFound(DomainError, LookupError):
    status = 404

    def message(self, gettext: Gettext) -> str:
        return gettext("No entries in domain %(domain)s") % {"domain": self.args[0]}


class ItemNotFound(DomainError, LookupError):
    status = 404

    def __init__(self, entry_id: str, item: str):
        super().__init__(f"{entry_id}#{item}")
        self.entry_id = entry_id
        self.item = item

    def message(self, gettext: Gettext) -> str:
        return gettext("Entry %(id)s has no workaround or dead end %(item)s") % {
            "id": self.entry_id,
            "item": self.item,
        }


class EvidenceNotFound(DomainError, LookupError):
    status = 404

    def message(self, gettext: Gettext) -> str:
        return gettext("No report %(uid)s") % {"uid": self.args[0]}


class RateLimited(DomainError):
    status = 429

    def __init__(self, retry_after: int):
        super().__init__(f"retry after {retry_after}s")
        self.retry_after = retry_after

    def message(self, gettext: Gettext) -> str:
        return gettext("Too many reports from you just now; try again in %(s)d seconds") % {
            "s": self.retry_after
        }

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after)}


class PageNotFound(DomainError, LookupError):
    """A path that names nothing errata serves (a static file, a paste permalink)."""

    status = 404

    def message(self, gettext: Gettext) -> str:
        return gettext("Nothing here: %(what)s") % {"what": self.args[0]}


def _(text: str) -> str:
    """Marks a message for the catalog; it is translated when the error is shown."""
    return text


SAME_ENTRY = _("%(id)s is already that entry or one of its aliases")
ALREADY_MERGED = _("%(id)s is already merged into %(into)s")
MERGED_ELSEWHERE = _("%(id)s is merged into %(into)s; unmerge it first")
NOT_MERGED = _("%(id)s is not merged into another entry")
MERGED_INTO_OTHER = _("%(id)s is merged into %(into)s, not %(other)s")


class MergeRefused(DomainError):
    """A merge or unmerge that would leave the base inconsistent: 422 naming the field at fault."""

    status = 422

    def __init__(self, field: str, text: str, **values: str):
        super().__init__(f"{field}: {text % values}")
        self.field = field
        self.text = text
        self.values = values

    def message(self, gettext: Gettext) -> str:
        return [{"loc": ["body", self.field], "field": self.field, "msg": gettext(self.text) % self.values}]
