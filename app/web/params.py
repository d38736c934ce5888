"""Query parameters several routes share, bounded so that no value reaches the database unchecked."""

from typing import Annotated

from fastapi import Form, Path, Query

# No list is this long; a larger offset is a mistake or a probe (and past 2**63 SQLite
# could not even bind it).
MAX_OFFSET = 1_000_000_000

Offset = Annotated[int, Query(ge=0, le=MAX_OFFSET, description=f"Rows to skip, at most {MAX_OFFSET}")]

# Row ids and revision numbers in paths and forms: what an INTEGER column holds on every
# backend (PostgreSQL's is 32 bits; a larger value there is an error, not "not found").
MAX_ROW_ID = 2**31 - 1
RowId = Annotated[int, Path(ge=1, le=MAX_ROW_ID)]
FormRowId = Annotated[int, Form(ge=1, le=MAX_ROW_ID)]
