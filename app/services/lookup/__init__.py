"""Lookup: ranking pasted output against an in-memory index of what each error looks like."""
