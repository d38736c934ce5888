"""Proof that shipped entries say what tools really print.

`reproduce` runs the script kept beside an entry (`data/<domain>/<slug>.repro.sh`) in a
sandbox; `checks` holds an entry's wordings, patterns and verification records against
each other, against that output and against the other shipped entries.
"""
