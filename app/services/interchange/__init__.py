"""Interchange: the project's YAML files and the deadends.dev canon, in and out of the database."""
