"""Pydantic shapes: the entry file format (`document`), the public views (`views`), request bodies (`api`)."""
