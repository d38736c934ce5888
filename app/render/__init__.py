"""Turning an EntryView (and lists of them) into HTML, Markdown and JSON."""
