"""Answers to a pasted error: the matching entries, each with what to try and what to avoid."""
