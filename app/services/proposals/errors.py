"""What can go wrong with a proposal, each with its HTTP status."""

from app.services.errors import DomainError, Gettext


class ProposalNotFound(DomainError, LookupError):
    status = 404

    def message(self, gettext: Gettext) -> str:
        return gettext("No proposal #%(n)s") % {"n": self.args[0]}


class ProposalDecided(DomainError):
    """Accepting or rejecting a proposal a moderator has already decided."""

    status = 409

    def message(self, gettext: Gettext) -> str:
        return gettext("Proposal #%(n)s was already decided") % {"n": self.args[0]}


class ProposalInvalid(DomainError):
    """A change that would make the entry invalid; `loc` names the field, as a 422 does."""

    status = 422

    def __init__(self, loc: tuple, msg: str):
        super().__init__(f"{'.'.join(str(p) for p in loc)}: {msg}")
        self.loc = tuple(loc)
        self.msg = msg

    def errors(self) -> list[dict]:
        return [{"loc": ("body", *self.loc), "msg": self.msg, "type": "value_error"}]
