"""Domain exceptions, raised by services and turned into responses in one place (app.web.errors)."""


class EntryNotFound(LookupError):
    def __init__(self, entry_id: str):
        super().__init__(entry_id)
        self.entry_id = entry_id


class ItemNotFound(LookupError):
    def __init__(self, entry_id: str, item: str):
        super().__init__(f"{entry_id}#{item}")
        self.entry_id = entry_id
        self.item = item


class EvidenceNotFound(LookupError):
    pass


class RateLimited(Exception):
    def __init__(self, retry_after: int):
        super().__init__(f"retry after {retry_after}s")
        self.retry_after = retry_after
