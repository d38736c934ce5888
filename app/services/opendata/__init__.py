"""Open data: where the entries come from and under which licence, the NDJSON dump, the figures."""
