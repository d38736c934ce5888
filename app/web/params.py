"""Query parameters several routes share, bounded so that no value reaches the database unchecked."""

from typing import Annotated

from fastapi import Query

# No list is this long; a larger offset is a mistake or a probe (and past 2**63 SQLite
# could not even bind it).
MAX_OFFSET = 1_000_000_000

Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description=f"Rows to skip, at most {MAX_OFFSET}")]
