"""Entries: one load into the view every format renders, writes from documents, lists, version ranges."""
