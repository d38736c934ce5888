"""Readers' proposals: edits of an entry or new entries, held until a moderator accepts them."""
